package conformance

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func run(t *testing.T, cfg Config) *Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var lines []string
	rep, err := Run(ctx, cfg, func(r Result) { lines = append(lines, r.String()) })
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(lines) != len(rep.Results) {
		t.Errorf("progress saw %d results, the report holds %d", len(lines), len(rep.Results))
	}
	return rep
}

// wantChecks are the checks a bot playing both games and declaring options
// goes through.
var wantChecks = []string{
	"handshake", "games", "ping", "isready",
	"cheversi: game as white, go movetime",
	"cheversi: newgame after gameover, as black, go wtime btime",
	"cheversi: position text + moves",
	"cheversi: single legal move",
	"cheversi: fresh process mid-game, then an unrelated position",
	"cheversi: go nodes",
	"cheversi: go depth",
	"checkers: game as black, go movetime",
	"checkers: newgame after gameover, as white, go wtime btime",
	"checkers: position text + moves",
	"checkers: single legal move",
	"checkers: fresh process mid-game, then an unrelated position",
	"checkers: go nodes",
	"checkers: go depth",
	"legalmoves", "fen", "info", "setoption", "quit",
}

// optional are the checks that apply only to bots that declare a feature
// (or send info lines); the others skip them.
var optional = []string{"cheversi: go nodes", "cheversi: go depth", "checkers: go nodes", "checkers: go depth",
	"legalmoves", "fen", "info"}

// python returns the path of the Python 3 interpreter itself (not a
// wrapper script that finds it, which may take seconds to start on a busy
// machine), or "" when there is none.
func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, "-c", "import sys; print(sys.executable)").Output()
	if exe := strings.TrimSpace(string(out)); err == nil && filepath.IsAbs(exe) {
		return exe
	}
	return py
}

func TestGoodBots(t *testing.T) {
	limits := []string{"cheversi: go nodes", "cheversi: go depth", "checkers: go nodes", "checkers: go depth", "info"}
	bots := []struct {
		name string
		cfg  Config
		pass []string // the optional checks that apply
	}{
		{"random", fake("builtin:random"), []string{"legalmoves"}},
		{"greedy", fake("builtin:greedy"), nil},
		{"alphabeta", fake("builtin:alphabeta"), limits},
	}
	if py := python(t); py != "" {
		script, err := filepath.Abs(filepath.Join("..", "python", "bot.py"))
		if err != nil {
			t.Fatal(err)
		}
		cfg := fake("python")
		cfg.Command, cfg.Args, cfg.Env = py, []string{script}, nil
		bots = append(bots, struct {
			name string
			cfg  Config
			pass []string
		}{"python", cfg, append([]string{"legalmoves", "fen"}, limits...)})
	} else {
		t.Log("python3 not found: the Python bot is not checked")
	}
	for _, b := range bots {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			rep := run(t, b.cfg)
			for _, r := range rep.Results {
				if r.Status == Fail {
					t.Errorf("%v", r)
				}
			}
			for _, name := range wantChecks {
				r, ok := rep.Result(name)
				want := Pass
				if slices.Contains(optional, name) && !slices.Contains(b.pass, name) {
					want = Skip
				}
				if !ok || r.Status != want {
					t.Errorf("check %q: %v (found %v), want %v", name, r, ok, want)
				}
			}
			if !rep.Passed() || rep.Count(Fail) != 0 {
				t.Errorf("Passed() = %v with %d failures", rep.Passed(), rep.Count(Fail))
			}
		})
	}
}

// TestBadBots runs the checks on bots that misbehave in one way each: the
// check that meets the misbehaviour must fail and say why.
func TestBadBots(t *testing.T) {
	tests := []struct {
		mode  string
		check string   // the first failing check
		why   []string // in its detail
		// limit shortens the limit a bot that never does what is asked
		// of it must miss, which it then does however late it runs.
		limit func(*Config)
	}{
		{modeCrash, "cheversi: game as white, go movetime", []string{"crash", "exit status 3"}, nil},
		{modeSilent, "cheversi: game as white, go movetime", []string{"timeout", "no move within"},
			func(c *Config) { c.Margin = 500 * time.Millisecond }},
		{modeGarbage, "cheversi: game as white, go movetime", []string{"protocol violation", "UTF-8"}, nil},
		{modeIllegal, "cheversi: game as white, go movetime", []string{"illegal move", `"Q@a1"`, "king"}, nil},
		{modeWrongSide, "checkers: game as black, go movetime", []string{"illegal move", "black to move"}, nil},
		{modeIgnoreQuit, "quit", []string{"still running", "killed"},
			func(c *Config) { c.QuitGrace = time.Second }},
		{modeNoGames, "handshake", []string{"declares no games"}, nil},
		{modeUnknownGame, "games", []string{"no game the arena knows", "chess"}, nil},
		// The ping waits the handshake timeout, which the start needs too;
		// the bot does not answer go either.
		{modeNoPong, "ping", []string{"timeout", "pong"},
			func(c *Config) { c.HandshakeTimeout, c.Margin = 20*time.Second, 500*time.Millisecond }},
		{modeNodeHog, "cheversi: go nodes", []string{"nodes 2000", "reports 4001 nodes"}, nil},
		{modeBadInfo, "info", []string{"ignored", "malformed info"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			cfg := fake(tt.mode)
			if tt.limit != nil {
				tt.limit(&cfg)
			}
			rep := run(t, cfg)
			if rep.Passed() {
				t.Fatalf("Passed() = true; results %v", rep.Results)
			}
			var first *Result
			for i, r := range rep.Results {
				if r.Status == Fail {
					first = &rep.Results[i]
					break
				}
			}
			if first.Name != tt.check {
				t.Errorf("first failure %v, want check %q", *first, tt.check)
			}
			for _, w := range tt.why {
				if !strings.Contains(first.Detail, w) {
					t.Errorf("failure %q does not say %q", first.Detail, w)
				}
			}
		})
	}
}

// TestFailureThenRecovery checks that a failed game does not stop the
// rest: the bot that crashes on every move fails each game check but the
// checks that need no move (ping, isready, quit) still pass, each on a
// fresh process when needed.
func TestFailureThenRecovery(t *testing.T) {
	rep := run(t, fake(modeCrash))
	for _, name := range []string{"handshake", "ping", "isready", "quit"} {
		if r, ok := rep.Result(name); !ok || r.Status != Pass {
			t.Errorf("check %q: %v, want a pass", name, r)
		}
	}
	for _, name := range wantChecks[4:18] {
		if slices.Contains(optional, name) {
			continue
		}
		if r, ok := rep.Result(name); !ok || r.Status != Fail {
			t.Errorf("check %q: %v, want a failure", name, r)
		}
	}
}

func TestRunErrors(t *testing.T) {
	if _, err := Run(context.Background(), Config{}, nil); !errors.Is(err, ErrNoCommand) {
		t.Errorf("Run(no command) error = %v, want ErrNoCommand", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(ctx, fake("builtin:random"), nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run(canceled) error = %v, want context.Canceled", err)
	}
	if rep == nil || rep.Count(Fail) != 0 {
		t.Errorf("Run(canceled) report %v, want no failures", rep)
	}
	rep = run(t, Config{Command: filepath.Join(t.TempDir(), "no-such-bot")})
	if r, _ := rep.Result("handshake"); r.Status != Fail || !strings.Contains(r.Detail, "start") {
		t.Errorf("missing command: handshake %v, want a start failure", r)
	}
}

func TestNoun(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 plies"}, {1, "1 ply"}, {2, "2 plies"}} {
		if got := noun(tt.n, "ply", "plies"); got != tt.want {
			t.Errorf("noun(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestReport(t *testing.T) {
	rep := &Report{Results: []Result{
		{Name: "a", Status: Pass}, {Name: "b", Status: Skip}, {Name: "c", Status: Pass},
	}}
	if !rep.Passed() || rep.Count(Pass) != 2 || rep.Count(Skip) != 1 || rep.Count(Fail) != 0 {
		t.Errorf("report %v: Passed %v, counts %d %d %d", rep.Results, rep.Passed(), rep.Count(Pass), rep.Count(Fail), rep.Count(Skip))
	}
	rep.Results = append(rep.Results, Result{Name: "d", Status: Fail, Detail: "why"})
	if rep.Passed() {
		t.Error("Passed() with a failure")
	}
	if r, ok := rep.Result("d"); !ok || r.String() != "FAIL d: why" {
		t.Errorf("Result(d) = %q, %v", r, ok)
	}
	if _, ok := rep.Result("e"); ok {
		t.Error("Result(e) found")
	}
	for s, want := range map[Status]string{Pass: "PASS", Fail: "FAIL", Skip: "SKIP", Status(9): "Status(9)"} {
		if s.String() != want {
			t.Errorf("Status(%d).String() = %q, want %q", int(s), s.String(), want)
		}
	}
}

// check returns the arguments of "arena check" for the bot command, with
// a short move time and generous limits, as fake has.
func check(command ...string) []string {
	return append([]string{"check", "--movetime", "50ms", "--margin", "1m", "--timeout", "1m", "--quit-grace", "30s", "--"},
		command...)
}

// TestCommand runs the arena binary itself: "arena check -- arena bot
// NAME" must pass for every built-in bot and exit 0, and fail with exit
// status 1 on a bot that does not start.
func TestCommand(t *testing.T) {
	arena := arenaBinary(t)
	tests := []struct {
		name   string
		args   []string
		status int
		out    []string
	}{
		{"random", check(arena, "bot", "random", "--seed", "3"), 0,
			[]string{"PASS  handshake", "PASS  quit", "0 failed"}},
		{"greedy", check(arena, "bot", "greedy"), 0,
			[]string{"PASS  checkers: game as black", "0 failed"}},
		{"alphabeta", check(arena, "bot", "alphabeta", "--hash", "4"), 0,
			[]string{"PASS  setoption: set Depth=0, Nodes=0, MoveTime=0, Hash=4, Overhead=10", "0 failed"}},
		{"bad bot", check(arena, "bot", "oracle"), 1,
			[]string{"FAIL  handshake", "1 failed"}},
		{"no command", []string{"check"}, 2, nil},
	}
	if py := python(t); py != "" {
		tests = append(tests, struct {
			name   string
			args   []string
			status int
			out    []string
		}{"python", check(py, filepath.Join("..", "python", "bot.py")), 0,
			[]string{"PASS  legalmoves", "0 failed"}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var out, errb bytes.Buffer
			cmd := exec.CommandContext(ctx, arena, tt.args...)
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			status := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				status = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tt.status {
				t.Errorf("arena %s: exit status %d, want %d\n%s%s", strings.Join(tt.args, " "), status, tt.status, out.String(), errb.String())
			}
			for _, w := range tt.out {
				if !strings.Contains(out.String(), w) {
					t.Errorf("arena %s: output lacks %q:\n%s", strings.Join(tt.args, " "), w, out.String())
				}
			}
			// Every line fits a terminal of 80 columns.
			for _, line := range strings.Split(out.String(), "\n") {
				if n := utf8.RuneCountInString(line); n > 80 {
					t.Errorf("arena %s: a line of %d columns:\n%s", strings.Join(tt.args, " "), n, line)
				}
			}
		})
	}
}

// TestInfoFieldCounts checks the words of the info check: how many moves'
// last info lines carried each field, said so that a reader need not
// guess what a bare number counts.
func TestInfoFieldCounts(t *testing.T) {
	for _, c := range []struct {
		fields [5]int
		want   string
	}{
		{[5]int{72, 44, 72, 2, 72}, "the last info line before a move gave a depth for 72 moves, a score for 44 moves, nodes for 72 moves, a time for 2 moves and a pv for 72 moves"},
		{[5]int{0, 1, 0, 0, 0}, "the last info line before a move gave a score for 1 move"},
		{[5]int{3, 0, 0, 0, 3}, "the last info line before a move gave a depth for 3 moves and a pv for 3 moves"},
		{[5]int{}, "none of them gave a depth, score, nodes, time or pv"},
	} {
		s := infoStats{fields: c.fields}
		if got := s.fieldCounts(); got != c.want {
			t.Errorf("fields %v:\n got %q\nwant %q", c.fields, got, c.want)
		}
	}
}
