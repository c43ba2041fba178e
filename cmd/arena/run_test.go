package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/sandbox"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/game"
)

func TestShellQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"configs/quickstart.toml", "configs/quickstart.toml"},
		{"my dir/t.toml", "'my dir/t.toml'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
	} {
		if got := shellQuote(c.in); got != c.want {
			t.Errorf("shellQuote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseInterspersed(t *testing.T) {
	for _, c := range []struct {
		args    []string
		want    string
		out     string
		wantErr bool
	}{
		{[]string{"t.toml"}, "t.toml", "", false},
		{[]string{"--out", "o", "t.toml"}, "t.toml", "o", false},
		{[]string{"t.toml", "--out", "o"}, "t.toml", "o", false},
		{[]string{}, "", "", true},
		{[]string{"a.toml", "b.toml"}, "", "", true},
		{[]string{"--bogus", "t.toml"}, "", "", true},
		{[]string{"--out", "o", "--", "-t.toml"}, "-t.toml", "o", false},
		{[]string{"--", "--out"}, "--out", "", false},
		{[]string{"t.toml", "--", "--out", "o"}, "", "", true},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		out := fs.String("out", "", "")
		got, err := parseInterspersed(fs, c.args, "configuration file")
		if (err != nil) != c.wantErr || got != c.want || *out != c.out {
			t.Errorf("parseInterspersed(%q) = %q, %v (out %q); want %q, error %v (out %q)", c.args, got, err, *out, c.want, c.wantErr, c.out)
		}
	}
}

// TestRunBadSet checks that a configuration error of --set alone is a
// bad command line (exit status 2) and one of the file a failure (1).
func TestRunBadSet(t *testing.T) {
	good := writeTemp(t, "good.toml", "[game]\nname = \"cheversi\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n")
	bad := writeTemp(t, "bad.toml", "[game]\nname = \"cheversi\"\nspeed = 3\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--set", "time.move=soon", good}, 2, `--set time.move=soon: time.move: invalid duration: "soon"`},
		{[]string{"--concurrency", "0", good}, 2, "--concurrency 0: must be at least 1, got 0"},
		{[]string{"--set", "time.move=2s", bad}, 1, "bad.toml:3: game.speed: unknown key"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"run", "--out", filepath.Join(t.TempDir(), "out")}, c.args...)
		code := run(args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("arena %q: exit status %d, stderr %q; want %d and %q", args, code, stderr.String(), c.code, c.want)
		}
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	path := writeTemp(t, "bad.toml", "[game]\nname = \"cheversi\"\nspeed = 3\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--out", filepath.Join(t.TempDir(), "out"), path}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	for _, want := range []string{"bad.toml:3: game.speed: unknown key", `bad.toml:8: bots[1].name: duplicate bot name "a"`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q does not contain %q", stderr.String(), want)
		}
	}
	if code := run([]string{"run"}, &stdout, &stderr); code != 2 {
		t.Errorf("run without a configuration: exit status %d, want 2", code)
	}
}

// TestRunCountRule checks that a count given by a flag, a --set or the
// file follows one rule with one message.
func TestRunCountRule(t *testing.T) {
	good := "[game]\nname = \"cheversi\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
	for _, c := range []struct {
		file string
		args []string
		want string
	}{
		{good, []string{"--concurrency", "0"}, "--concurrency 0: must be at least 1, got 0"},
		{good, []string{"--concurrency=-1"}, "--concurrency -1: must be at least 1, got -1"},
		{good, []string{"--set", "concurrency=0"}, "--set concurrency=0: must be at least 1, got 0"},
		{good, []string{"--set", "format.rounds=0"}, "--set format.rounds=0: must be at least 1, got 0"},
		{"concurrency = 0\n" + good, nil, "c.toml:1: concurrency: must be at least 1, got 0"},
		{"[format]\nrounds = 0\n" + good, nil, "c.toml:2: format.rounds: must be at least 1, got 0"},
		{good, []string{"--set", "rounds"}, `arena run: invalid value "rounds" for flag -set: "rounds" is not of the form KEY=VALUE`},
	} {
		path := writeTemp(t, "c.toml", c.file)
		out := filepath.Join(t.TempDir(), "out")
		var stdout, stderr bytes.Buffer
		code := run(append(append([]string{"run", "--out", out}, c.args...), path), &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("arena run %q: exit status %d, stderr\n%s\nwant %q", c.args, code, stderr.String(), c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("arena run %q wrote %s", c.args, out)
		}
	}
}

// TestReportRebuildsFiles lays out a tournament directory by hand (as Run
// leaves it) and checks that `arena report` rebuilds every report file.
func TestReportRebuildsFiles(t *testing.T) {
	dir, _ := handTournament(t, "name = \"hand\"\n[game]\nname = \"cheversi\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"greedy\"\n")

	var stdout, stderr bytes.Buffer
	if err := runReport(context.Background(), []string{dir}, &stdout, &stderr); err != nil {
		t.Fatalf("arena report: %v", err)
	}
	if !strings.Contains(stdout.String(), "hand: 2 of 2 games") {
		t.Errorf("stdout does not report the games:\n%s", stdout.String())
	}
	for _, f := range []string{"games.pgn", "report.html", "report.md", "report.json", "standings.csv"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	pgn, _ := os.ReadFile(filepath.Join(dir, "games.pgn"))
	if strings.Count(string(pgn), "[Event \"hand\"]") != 2 {
		t.Errorf("games.pgn does not hold the 2 games:\n%s", pgn)
	}
	if err := runReport(context.Background(), []string{t.TempDir()}, &stdout, &stderr); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("arena report on an empty directory: %v, want a missing manifest", err)
	}

	// While a run holds the directory, arena report leaves the PGN file,
	// which the run appends to, alone.
	unlock, err := journal.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	pgnPath := filepath.Join(dir, "games.pgn")
	before, err := os.Stat(pgnPath)
	if err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if err := runReport(context.Background(), []string{dir}, &stdout, &stderr); err != nil {
		t.Fatalf("arena report during a run: %v", err)
	}
	after, err := os.Stat(pgnPath)
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("arena report during a run replaced games.pgn (%v)", err)
	}
	if !strings.Contains(stderr.String(), "a run is in progress") || !strings.Contains(stderr.String(), "games.pgn is left to the run") {
		t.Errorf("arena report during a run does not say what it did:\n%s", stderr.String())
	}
}

// playFirstMoves plays a scheduled game from its opening with the first
// legal move every ply and returns its record.
func playFirstMoves(t *testing.T, rules game.Rules, g schedule.Scheduled, opening []string) journal.Record {
	t.Helper()
	rec := journal.Record{
		ID: g.ID, Round: g.Round, PairKey: g.PairKey, Game: rules.Game(), Preset: rules.Preset(), Rules: rules.Settings(),
		Opening: journal.RecordOpening{Index: g.Opening + 1, Moves: append([]string{}, opening...)},
		White:   g.White, Black: g.Black, FirstMover: rules.FirstMover().String(), Start: time.Now().UTC(),
	}
	st := rules.Start()
	for _, m := range opening {
		if _, err := game.PlayText(st, m); err != nil {
			t.Fatal(err)
		}
	}
	var buf []game.Move
	for !st.Outcome().Over() {
		buf = st.LegalMoves(buf[:0])
		rec.Moves = append(rec.Moves, journal.MoveRecord{Move: buf[0].String()})
		if err := st.Play(buf[0]); err != nil {
			t.Fatal(err)
		}
	}
	out := st.Outcome()
	rec.Result, rec.Reason = out.Result.String(), out.Reason
	if w, ok := out.Result.Winner(); ok {
		rec.Winner = map[game.Color]string{game.White: g.White, game.Black: g.Black}[w]
	}
	if out.Scores != nil {
		rec.Scores = &journal.Scores{White: out.Scores[game.White], Black: out.Scores[game.Black]}
	}
	return rec
}

// buildArena builds the arena command into a temporary directory.
func buildArena(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool to build the arena: %v", err)
	}
	exe := filepath.Join(t.TempDir(), "arena")
	if out, err := exec.Command(goTool, "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// TestQuickstart runs the README's first command with the real binary and
// built-in bots, twice: the second run finds the tournament complete.
func TestQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena and plays the quickstart tournament")
	}
	exe := buildArena(t)
	out := filepath.Join(t.TempDir(), "quickstart")
	for i, want := range []string{"games/s", "the tournament is complete"} {
		cmd := exec.Command(exe, "run", "--out", out, filepath.Join("..", "..", "configs", "quickstart.toml"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("run %d: %v\n%s", i+1, err, stderr.String())
		}
		t.Logf("run %d took %v", i+1, time.Since(start).Round(time.Millisecond))
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("run %d: stderr does not say %q:\n%s", i+1, want, stderr.String())
		}
		if !strings.Contains(stdout.String(), "quickstart: 48 of 48 games") || !strings.Contains(stdout.String(), "alphabeta") {
			t.Errorf("run %d: no standings on stdout:\n%s", i+1, stdout.String())
		}
	}
	recs, err := journal.Read(filepath.Join(out, journal.File))
	if err != nil || len(recs) != 48 { // 3 pairs x 8 openings x 2 colours
		t.Fatalf("journal: %d games, %v", len(recs), err)
	}
	for i := range recs {
		if err := journal.Verify(&recs[i]); err != nil {
			t.Error(err)
		}
	}
}

// TestInterruptPrintsResume stops a tournament with SIGINT, as Ctrl-C
// does, and checks that the arena says how to resume, as it was invoked
// (a binary, or go run), exits with status 130 and leaves no bot running.
func TestInterruptPrintsResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena and plays part of a tournament")
	}
	exe := buildArena(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	config := writeTemp(t, "long.toml", `name = "long"
[game]
name = "cheversi"
[openings]
plies = 2
count = 50
[time]
move = "50ms"
[[bots]]
name = "a"
builtin = "alphabeta"
[[bots]]
name = "b"
builtin = "alphabeta"
`)
	for _, c := range []struct {
		name   string
		prog   []string // how the arena is started
		status int      // exit status of prog
	}{
		{"binary", []string{exe}, 130},
		// go run relays the status as 1 ("exit status 130").
		{"go run", []string{"go", "run", "./cmd/arena"}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append(slices.Clone(c.prog), "run", "--out", out, config)
			mark := "interrupt-" + strconv.FormatInt(time.Now().UnixNano(), 10)
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "ARENA_TEST_MARK="+mark)
			// A process group of its own, signalled as a whole: what Ctrl-C
			// does in a terminal (go run leaves the signal to the arena).
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			journalPath := filepath.Join(out, journal.File)
			deadline := time.Now().Add(2 * time.Minute) // go run may build first
			for {
				data, _ := os.ReadFile(journalPath)
				if bytes.Count(data, []byte("\n")) >= 2 {
					break
				}
				if time.Now().After(deadline) {
					syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
					cmd.Wait()
					t.Fatalf("no games recorded within 2 minutes:\n%s", stderr.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.status {
				t.Errorf("exit: %v, want status %d", err, c.status)
			}
			want := strings.Join(append(slices.Clone(c.prog), "run", "--out", out, config), " ")
			for _, w := range []string{"to play the rest, run again:\n  " + want + "\n", "interrupted"} {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr does not contain %q:\n%s", w, stderr.String())
				}
			}
			if !strings.Contains(stdout.String(), "long: ") {
				t.Errorf("no standings after the interrupt:\n%s", stdout.String())
			}
			// Every bot process is gone.
			if left := markedLeft(mark); len(left) > 0 {
				t.Errorf("processes outlived the arena: %v", left)
			}
		})
	}
}

func TestProgramName(t *testing.T) {
	for _, c := range []struct {
		arg0, exe, gocache string
		atRoot             bool
		want               string
	}{
		{"bin/arena", "/home/u/arena/bin/arena", "", true, "bin/arena"},
		{"arena", "/usr/local/bin/arena", "", false, "arena"},
		{"/tmp/go-build123/b001/exe/arena", "/tmp/go-build123/b001/exe/arena", "", true, "go run ./cmd/arena"},
		{"/home/u/.cache/go-build/0f/0f01-d/arena", "/home/u/.cache/go-build/0f/0f01-d/arena", "", true, "go run ./cmd/arena"},
		{"/c/0f/0f01-d/arena", "/c/0f/0f01-d/arena", "/c", true, "go run ./cmd/arena"},
		{"/c/0f/0f01-d/arena", "/c/0f/0f01-d/arena", "/c/", true, "go run ./cmd/arena"},
		{"/cache/arena", "/cache/arena", "/c", true, "/cache/arena"},
	} {
		got := programName(c.arg0, c.exe, c.gocache, c.atRoot)
		if got != c.want {
			t.Errorf("programName(%q, %q, %q, %v) = %q, want %q", c.arg0, c.exe, c.gocache, c.atRoot, got, c.want)
		}
	}
	// Away from the module root, go run needs the package path.
	if got := programName("x", "/tmp/go-build1/b001/exe/arena", "", false); !strings.HasPrefix(got, "go run ") || !strings.HasSuffix(got, "/cmd/arena") {
		t.Errorf("programName away from the root = %q, want go run with the package path", got)
	}
}

func TestRunShardFlag(t *testing.T) {
	sprt := writeTemp(t, "sprt.toml", "[game]\nname = \"cheversi\"\n[sprt]\nelo0 = 0\nelo1 = 10\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"greedy\"\n")
	for _, c := range []struct {
		shard, want string
	}{
		{"5/4", "--shard: bad shard 5/4: I must be from 0 to N-1 (3)"},
		{"4/4", "I must be from 0 to N-1"},
		{"0/0", "--shard: bad shard 0/0: N must be at least 1"},
		{"-1/3", "I must be from 0 to N-1"},
		{"a/b", `--shard: bad shard "a/b": I and N must be whole numbers`},
		{"3", `--shard: bad shard "3": want I/N`},
		{"1/2", "sprt.toml has an [sprt] test, which needs every game in one place"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"run", "--shard", c.shard, "--out", filepath.Join(t.TempDir(), "out"), sprt}, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("--shard %s: exit status %d, stderr %q; want 2 and %q", c.shard, code, stderr.String(), c.want)
		}
	}
}

// TestInterruptDuringPreparation interrupts the arena while it reads its
// opening file from a named pipe that a writer keeps open without
// finishing: the arena stops at once with status 130 and plays nothing.
func TestInterruptDuringPreparation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena")
	}
	exe := buildArena(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "openings.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	config := writeTemp(t, "pipe.toml", fmt.Sprintf("[game]\nname = \"cheversi\"\n[openings]\nfile = %q\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"greedy\"\n", fifo))
	out := filepath.Join(dir, "out")
	cmd := exec.Command(exe, "run", "--out", out, config)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Opening the pipe for writing returns once the arena has opened it to
	// read its openings.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.WriteString("K@e4 Q@d5\n")
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // exits when the arena does
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the arena did not stop within 60s of the interrupt:\n%s", stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "arena run: interrupted") {
		t.Errorf("exit: %v, stderr %q; want status 130 and an interrupt message", err, stderr.String())
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the interrupted run made its output directory (%v)", err)
	}
}

// TestSecondInterruptLeavesNoBot interrupts a tournament twice, the second
// time to exit at once, while its bots run through shell scripts that do
// not exec them and start a process in a session of its own: none of them
// may survive the arena, whether they have PID namespaces of their own or
// supervisors; the games recorded before stay recorded, and no game is
// recorded as lost by a bot for the arena's killing it.
func TestSecondInterruptLeavesNoBot(t *testing.T) {
	if testing.Short() {
		t.Skip("plays part of a tournament")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	for _, ns := range []string{"on", "off"} {
		t.Run("namespaces "+ns, func(t *testing.T) { secondInterruptLeavesNoBot(t, ns) })
	}
}

func secondInterruptLeavesNoBot(t *testing.T, namespaces string) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mark := "second-interrupt-" + strconv.FormatInt(time.Now().UnixNano(), 10)
	bot := func(name string) string {
		return fmt.Sprintf(`[[bots]]
name = %q
command = "bash"
args = ["-c", 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & "$0" bot alphabeta; true', %q]
env = { ARENA_TEST_MARK = %q }
`, name, exe, mark)
	}
	config := writeTemp(t, "wrapped.toml", `name = "wrapped"
[game]
name = "cheversi"
[openings]
plies = 2
count = 50
[time]
move = "50ms"
`+bot("a")+bot("b"))
	out := filepath.Join(t.TempDir(), "out")
	cmd := arenaCommand(t, "run", "--out", out, config)
	cmd.Env = append(cmd.Env, sandbox.EnvNamespaces+"="+namespaces)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killMarked(mark) })
	var before []byte // the journal's whole lines before the interrupts
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		data, _ := os.ReadFile(filepath.Join(out, journal.File))
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			before = data[:i+1]
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no game recorded within 60s:\n%s", stderr.String())
		}
	}
	if n := len(markedProcesses(mark)); n < 4 {
		t.Fatalf("%d marked processes while playing, want the bots, their scripts and sleepers", n)
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130\n%s", err, stderr.String())
	}
	if left := markedLeft(mark); len(left) > 0 {
		t.Errorf("processes outlived the arena: %v", left)
	}
	after, err := os.ReadFile(filepath.Join(out, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(after, before) {
		t.Fatalf("the journal lost games recorded before the interrupts: before\n%s\nafter\n%s", before, after)
	}
	for line := range bytes.Lines(after[len(before):]) {
		var rec journal.Record
		if err := json.Unmarshal(line, &rec); err != nil {
			continue // a torn last line: not a game
		}
		if rec.Forfeit != nil && rec.Forfeit.Kind == journal.ForfeitCrash {
			t.Errorf("game %d recorded as lost by a crash of %s, killed by the arena: %s", rec.ID, rec.Forfeit.Bot, rec.Forfeit.Detail)
		}
	}
}

// markedProcesses returns the live (not zombie) processes whose
// environment holds ARENA_TEST_MARK=mark.
func markedProcesses(mark string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err == nil && bytes.Contains(env, []byte("ARENA_TEST_MARK="+mark+"\x00")) && !bytes.Contains(stat, []byte(") Z ")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// markedLeft waits up to 30s for the processes markedProcesses finds to be
// gone, and returns those still there. What a dying arena leaves, the
// bots' supervisors kill, when a loaded machine gets round to running
// them.
func markedLeft(mark string) []int {
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if left := markedProcesses(mark); len(left) == 0 || time.Now().After(deadline) {
			return left
		}
	}
}

// killMarked kills the processes markedProcesses finds.
func killMarked(mark string) {
	for _, pid := range markedProcesses(mark) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestRunTranscriptFlag checks that --transcript names bots of the
// configuration: another name is a usage error, before anything starts.
func TestRunTranscriptFlag(t *testing.T) {
	path := writeTemp(t, "t.toml", "[game]\nname = \"cheversi\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "--transcript", "a,zed", "--out", out, path}, &stdout, &stderr); code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	if want := `--transcript: no bot is named "zed" (the bots: a, b)`; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q does not contain %q", stderr.String(), want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output directory was created (%v)", err)
	}
}

// TestClosedOutputStopsLikeInterrupt runs a tournament whose output goes
// to a pipe that is closed after its first line (arena run ... | head -1):
// the arena stops as after Ctrl-C, with status 130 and its journal whole,
// instead of dying of SIGPIPE.
func TestClosedOutputStopsLikeInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("plays part of a tournament")
	}
	config := writeTemp(t, "head.toml", `name = "head"
[game]
name = "cheversi"
[openings]
plies = 2
count = 20
[time]
move = "20ms"
[[bots]]
name = "a"
builtin = "alphabeta"
[[bots]]
name = "b"
builtin = "random"
`)
	out := filepath.Join(t.TempDir(), "out")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := arenaCommand(t, "run", "--out", out, config)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	first, err := bufio.NewReader(r).ReadString('\n')
	r.Close() // like head -1
	if err != nil {
		t.Fatalf("no first line: %v", err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit after the output closed: %v (first line %q), want status 130", err, first)
	}
	if _, err := journal.Read(filepath.Join(out, journal.File)); err != nil {
		t.Errorf("journal: %v", err)
	}
}

// TestClosedOutputQuietAfterWork runs commands that do all their work
// and only lose what they print, their output a pipe nobody reads (arena
// solve --status | head): they exit with the status of SIGPIPE and say
// nothing, as other tools do, instead of "interrupted".
func TestClosedOutputQuietAfterWork(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"solve", "--moves", "K@d4"}} {
		t.Run(args[0], func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close() // nobody reads
			cmd := arenaCommand(t, args...)
			var stderr strings.Builder
			cmd.Stdout, cmd.Stderr = w, &stderr
			err = cmd.Run()
			w.Close()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 141 {
				t.Errorf("arena %s with its output closed: %v, want status 141", strings.Join(args, " "), err)
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
		})
	}
}

// TestFirstInterruptFinishesGamesInFlight interrupts a tournament once,
// as Ctrl-C does: the games in flight are played to their end and
// recorded, no other starts, and the arena says how to resume, with exit
// status 130. SIGTERM instead stops at once, abandoning them.
func TestFirstInterruptFinishesGamesInFlight(t *testing.T) {
	if testing.Short() {
		t.Skip("plays part of a tournament")
	}
	config := writeTemp(t, "drain.toml", `name = "drain"
concurrency = 2
[game]
name = "cheversi"
[openings]
plies = 2
count = 50
[time]
move = "40ms"
[[bots]]
name = "a"
builtin = "alphabeta"
[[bots]]
name = "b"
builtin = "alphabeta"
`)
	for _, c := range []struct {
		sig   syscall.Signal
		say   string
		drain bool
	}{
		{syscall.SIGINT, "finishing the games in flight, then stopping", true},
		{syscall.SIGTERM, "games in flight are abandoned", false},
	} {
		out := filepath.Join(t.TempDir(), "out")
		cmd := arenaCommand(t, "run", "--out", out, config)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		journalPath := filepath.Join(out, journal.File)
		lines := func() int {
			data, _ := os.ReadFile(journalPath)
			return bytes.Count(data, []byte("\n"))
		}
		for deadline := time.Now().Add(60 * time.Second); lines() < 1; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no game recorded within 60s:\n%s", stderr.String())
			}
		}
		at := lines()
		cmd.Process.Signal(c.sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("%v: exit %v, want status 130\n%s", c.sig, err, stderr.String())
		}
		after := lines()
		for _, w := range []string{c.say, "to play the rest, run again:"} {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%v: stderr does not say %q:\n%s", c.sig, w, stderr.String())
			}
		}
		// Two workers: one game at least was in flight, and at most two.
		if c.drain && (after < at+1 || after > at+2) {
			t.Errorf("%v: %d games recorded at the signal, %d after it: want the games in flight (1 or 2) finished", c.sig, at, after)
		}
		if !c.drain && after > at+2 {
			t.Errorf("%v: %d games recorded at the signal, %d after it", c.sig, at, after)
		}
	}
}
