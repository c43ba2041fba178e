package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/tournament"
)

// TestMatchIssueExample parses the example command line of the match
// documentation into its configuration.
func TestMatchIssueExample(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("a", []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := parseMatch(context.Background(), []string{"--game", "checkers", "--bot", `name=a,cmd=./a --x`, "--bot", "builtin=alphabeta",
		"--tc", "10+0.1", "--games", "200", "--concurrency", "2", "--openings", "ballots"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.cfg
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"name", cfg.Name, "a-vs-alphabeta"},
		{"game", cfg.Rules.Game(), "checkers"},
		{"bots", cfg.BotNames(), []string{"a", "alphabeta"}},
		{"command", cfg.Bots[0].Command, filepath.Join(dir, "a")},
		{"args", cfg.Bots[0].Args, []string{"--x"}},
		{"builtin", cfg.Bots[1].Builtin, "alphabeta"},
		{"clock", cfg.Time.String(), "10s+100ms"},
		{"concurrency", cfg.Concurrency, 2},
		{"deck", cfg.Openings.Deck, openings.DeckACF},
		// 200 games of two bots: 100 ballots with both colours.
		{"rounds", cfg.Format.Rounds, 1},
		{"limit", cfg.Openings.Limit, 100},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestMatchGames(t *testing.T) {
	for _, c := range []struct {
		args          []string
		rounds, limit int
		note          string
	}{
		// 156 ballots, two bots: 312 games a round.
		{[]string{"--games", "312"}, 1, 0, ""},
		{[]string{"--games", "5"}, 1, 3, "--games 5: playing 6 games (3 of 156 openings, 1 pairing, both colours, 1 round)"},
		{[]string{"--games", "400"}, 2, 100, ""},
		{[]string{"--games", "1000"}, 4, 125, ""},
		// Three bots: three pairings.
		{[]string{"--games", "12", "--bot", "builtin=random"}, 1, 2, ""},
	} {
		args := append([]string{"--game", "checkers", "--bot", "builtin=greedy", "--bot", "builtin=alphabeta"}, c.args...)
		var notes bytes.Buffer
		m, err := parseMatch(context.Background(), args, &notes)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if m.cfg.Format.Rounds != c.rounds || m.cfg.Openings.Limit != c.limit {
			t.Errorf("%q: rounds %d, limit %d; want %d and %d", c.args, m.cfg.Format.Rounds, m.cfg.Openings.Limit, c.rounds, c.limit)
		}
		if !strings.Contains(notes.String(), c.note) {
			t.Errorf("%q: notes %q, want %q", c.args, notes.String(), c.note)
		}
	}
	if _, err := parseMatch(context.Background(), []string{"--game", "checkers", "--bot", "builtin=greedy", "--bot", "builtin=random", "--games", "10", "--rounds", "2"}, io.Discard); err == nil {
		t.Error("--games with --rounds accepted")
	}
}

// TestMatchSameRulesAsFiles checks that a flag and the file key it stands
// for get the same rule and the same message, the flag named instead of
// the line.
func TestMatchSameRulesAsFiles(t *testing.T) {
	const bots = "\n[[bots]]\nname = \"random\"\nbuiltin = \"random\"\n[[bots]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n"
	for _, c := range []struct {
		flags []string
		top   string // top-level or [game] keys of the file
		toml  string // tables of the file
		flag  string // the flag the match error names
		key   string // the key the file error names
		msg   string
	}{
		{[]string{"--rounds", "0"}, "", "[format]\nrounds = 0\n", "--rounds 0", "format.rounds", "must be at least 1, got 0"},
		{[]string{"--concurrency", "-3"}, "concurrency = -3\n", "", "--concurrency -3", "concurrency", "must be at least 1, got -3"},
		{[]string{"--rules", "nope"}, "[game]\npreset = \"nope\"\n", "", "--rules nope", "game.preset", `bad rules: unknown checkers preset "nope" (want american)`},
		{[]string{"--set", "adjudication.repetition=-1", "--set", "adjudication.quiet_moves=-1", "--set", "adjudication.max_plies=-1"}, "",
			"[adjudication]\nrepetition = -1\nquiet_moves = -1\nmax_plies = -1\n", "--set adjudication.max_plies=-1", "adjudication",
			"repetition, quiet_moves and max_plies are all off: a game could go on forever; keep at least one"},
		{[]string{"--movetime", "soon"}, "", "[time]\nmove = \"soon\"\n", "--movetime soon", "time.move", `invalid duration: "soon"`},
		{[]string{"--format", "ladder"}, "", "[format]\nkind = \"ladder\"\n", "--format ladder", "format.kind", `unknown format "ladder" (want "round-robin", "gauntlet", "swiss" or "knockout")`},
		{[]string{"--format", "knockout", "--set", "format.games=3"}, "", "[format]\nkind = \"knockout\"\ngames = 3\n", "--set format.games=3", "format.games",
			"a match plays colour-reversed pairs of games: want an even number, at least 2, got 3"},
		{[]string{"--format", "gauntlet", "--players", "zed"}, "", "[format]\nkind = \"gauntlet\"\nplayers = [\"zed\"]\n",
			"--players zed", "format.players", `no bot is named "zed"`},
		{[]string{"--sprt", "elo0=5,elo1=0"}, "", "[sprt]\nelo0 = 5\nelo1 = 0\n", "--sprt elo0=5,elo1=0", "sprt", "bad rating options: SPRT needs elo0 < elo1 within ±2000, got 5 and 0"},
		{[]string{"--openings", "random:-1"}, "", "[openings]\nplies = -1\n", "--openings random:-1", "openings.plies", "must not be negative, got -1"},
		{[]string{"--bot", "builtin=random", "--bot", "name=greedy,builtin=greedy", "--bot", "name=x,builtin=random,dir=/no/such"}, "",
			"[[bots]]\nname = \"x\"\nbuiltin = \"random\"\ndir = \"/no/such\"\n", "--bot name=x,builtin=random,dir=/no/such", "bots[2].dir", `"/no/such" is not a directory`},
	} {
		flags := c.flags
		if !slices.Contains(flags, "--bot") {
			flags = append([]string{"--bot", "builtin=random", "--bot", "builtin=greedy"}, flags...)
		}
		_, err := parseMatch(context.Background(), append([]string{"--game", "checkers"}, flags...), io.Discard)
		var fromFlag *config.Error
		if !errors.As(err, &fromFlag) || fromFlag.Flag != c.flag || fromFlag.Err.Error() != c.msg {
			t.Errorf("arena match %q: %v\nwant %s: %s", c.flags, err, c.flag, c.msg)
		}
		file := c.top + "[game]\nname = \"checkers\"\n" + bots + c.toml
		if strings.HasPrefix(c.top, "[game]") {
			file = c.top + "name = \"checkers\"\n" + bots + c.toml
		}
		_, err = config.Load(writeTemp(t, "c.toml", file))
		var fromFile *config.Error
		if !errors.As(err, &fromFile) || fromFile.Line == 0 || fromFile.Key != c.key || fromFile.Err.Error() != c.msg {
			t.Errorf("the file\n%s\ngives %v\nwant c.toml:LINE: %s: %s", file, err, c.key, c.msg)
		}
	}
}

func TestParseBotSpec(t *testing.T) {
	for _, c := range []struct {
		spec string
		name string
		keys [][2]string
		err  bool
	}{
		{"builtin=alphabeta", "alphabeta", [][2]string{{"builtin", "alphabeta"}}, false},
		{`name=a,cmd=./a --x`, "a", [][2]string{{"cmd", "./a --x"}}, false},
		{`name=a,cmd="./a --x, --y"`, "a", [][2]string{{"cmd", "./a --x, --y"}}, false},
		{`cmd='python3 "my bot.py"',options.Depth=4`, "python3", [][2]string{{"cmd", `python3 "my bot.py"`}, {"options.Depth", "4"}}, false},
		{`cmd=../bots/v2.py,env.X=1`, "v2", [][2]string{{"cmd", "../bots/v2.py"}, {"env.X", "1"}}, false},
		{"name=a", "a", nil, false}, // the configuration says what is missing
		{"name=a,cmd", "", nil, true},
		{`name=a,cmd="./a`, "", nil, true},
	} {
		b, err := parseBotSpec(c.spec)
		if (err != nil) != c.err {
			t.Errorf("parseBotSpec(%q): error %v, want error %v", c.spec, err, c.err)
			continue
		}
		if !c.err && (b.name != c.name || !slices.Equal(b.keys, c.keys)) {
			t.Errorf("parseBotSpec(%q) = %q %q, want %q %q", c.spec, b.name, b.keys, c.name, c.keys)
		}
	}
}

func TestSplitWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"./a --x", []string{"./a", "--x"}},
		{`  python3  "my bot.py" 'a b'c  `, []string{"python3", "my bot.py", "a bc"}},
		{`x ""`, []string{"x", ""}},
		{"", nil},
	} {
		got, err := splitWords(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestParseClock(t *testing.T) {
	for _, c := range []struct {
		in, moves, base, inc string
		err                  bool
	}{
		{"10+0.1", "", "10s", "100ms", false},
		{"1m+1s", "", "1m0s", "1s", false},
		{"60", "", "1m0s", "", false},
		{"0.5+0", "", "500ms", "0s", false},
		{"40/60+0.6", "40", "1m0s", "600ms", false},
		{"40/2m", "40", "2m0s", "", false},
		{"0+1", "", "", "", true},
		{"x+1", "", "", "", true},
		{"10+x", "", "", "", true},
		{"0/60", "", "", "", true},
		{"-1", "", "", "", true},
	} {
		moves, base, inc, err := parseClock(c.in)
		if (err != nil) != c.err || moves != c.moves || base != c.base || inc != c.inc {
			t.Errorf("parseClock(%q) = %q, %q, %q, %v; want %q, %q, %q, error %v", c.in, moves, base, inc, err, c.moves, c.base, c.inc, c.err)
		}
	}
}

// TestMatchSaveConfig plays a match with the real arena (built-in bots as
// processes), saves its configuration, and resumes it with arena run
// after losing games from the journal.
func TestMatchSaveConfig(t *testing.T) {
	dir := t.TempDir()
	out, saved := filepath.Join(dir, "out"), filepath.Join(dir, "m.toml")
	args := []string{"match", "--game", "cheversi", "--bot", "builtin=random,args=--seed 3", "--bot", "builtin=greedy",
		"--movetime", "20ms", "--openings", "random:2:3", "--set", "touch=any", "--concurrency", "2", "--out", out, "--save-config", saved, "--quiet"}
	code, stdout, stderr := runArena(t, args...)
	if code != 0 {
		t.Fatalf("arena match: status %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "random-vs-greedy: 6 of 6 games") {
		t.Errorf("arena match output:\n%s", stdout)
	}
	m, err := journal.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(saved)
	if err != nil {
		t.Fatalf("the saved configuration does not load: %v", err)
	}
	sched := configSchedule(t, cfg)
	if fp := sched.Fingerprint(cfg.Rules); fp != m.Fingerprint {
		t.Errorf("the saved configuration's schedule %.12s is not the match's %.12s", fp, m.Fingerprint)
	}

	// Lose all games but the first; arena run on the saved file plays them again.
	journalPath := filepath.Join(out, journal.File)
	data, err := os.ReadFile(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if err := os.WriteFile(journalPath, append(first, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runArena(t, "run", "--quiet", saved)
	if code != 0 || !strings.Contains(stderr, "played 5 games") {
		t.Fatalf("arena run %s: status %d\n%s", saved, code, stderr)
	}
	if recs, err := journal.Read(journalPath); err != nil || len(recs) != 6 {
		t.Errorf("journal after the resume: %d games, %v; want 6", len(recs), err)
	}

	// The same match again: complete, and the same file is written again.
	before, _ := os.ReadFile(saved)
	code, _, stderr = runArena(t, args...)
	if code != 0 || !strings.Contains(stderr, "the tournament is complete") {
		t.Errorf("the match again: status %d\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(saved); !bytes.Equal(before, after) {
		t.Errorf("the saved configuration changed:\n%s\nthen\n%s", before, after)
	}
	// Another match does not overwrite it.
	other := slices.Clone(args)
	other[slices.Index(other, "20ms")] = "30ms"
	if code, _, stderr = runArena(t, other...); code == 0 || !strings.Contains(stderr, "exists and holds another configuration") {
		t.Errorf("another match with the same --save-config: status %d\n%s", code, stderr)
	}
}

// configSchedule lays out the schedule of cfg, as arena run does.
func configSchedule(t *testing.T, cfg *config.Config) *schedule.Schedule {
	t.Helper()
	openings, err := config.LoadOpenings(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sched, err := tournament.Schedule(cfg, openings)
	if err != nil {
		t.Fatal(err)
	}
	return sched
}
