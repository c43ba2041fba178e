package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
)

// TestDidYouMean checks that a misspelt command, flag or bot key is
// answered with the one most likely meant, and the bad key named.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rn", "x.toml"}, `arena: unknown command "rn" (did you mean run?)`},
		{[]string{"mtach"}, `arena: unknown command "mtach" (did you mean match?)`},
		{[]string{"run", "--concurency", "2", "x.toml"}, "flag provided but not defined: -concurency (did you mean --concurrency?)"},
		{[]string{"match", "--gmae", "cheversi"}, "(did you mean --game?)"},
		{[]string{"match", "--game", "cheversi", "--bot", "bultin=random", "--bot", "builtin=greedy"}, `unknown key "bultin" (did you mean builtin?)`},
	} {
		var stdout, stderr strings.Builder
		code := run(c.args, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("arena %q: exit status %d, stderr\n%s\nwant 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// TestZeroGamesRefused checks that --games 0 is refused as --concurrency 0
// is, rather than taken as "not given".
func TestZeroGamesRefused(t *testing.T) {
	conf := writeTemp(t, "t.toml", "[game]\nname = \"cheversi\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n")
	for _, args := range [][]string{
		{"match", "--game", "cheversi", "--bot", "builtin=random", "--bot", "builtin=greedy", "--games", "0"},
		{"run", "--games", "0", conf},
		{"play", "--game", "cheversi", "--bot", "builtin=random", "--games", "0"},
		{"match", "--game", "cheversi", "--bot", "builtin=random", "--bot", "builtin=greedy", "--games", "-2"},
	} {
		var stdout, stderr strings.Builder
		code := run(append(args, "--out", filepath.Join(t.TempDir(), "out")), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "-games: must be a whole number of at least 1") {
			t.Errorf("arena %q: exit status %d, stderr %q; want 2 and a refusal", args, code, stderr.String())
		}
	}
}

// TestBotArgsAsArray checks the args of a --bot spec given as a TOML
// array, as in a file: kept as the array's strings, or refused with a
// clear message, never taken as one word with brackets.
func TestBotArgsAsArray(t *testing.T) {
	for _, c := range []struct {
		spec string
		want []string
		err  string
	}{
		{`name=x,cmd=python3,args=["/x.py"]`, []string{"/x.py"}, ""},
		{`name=x,cmd=python3,args='["/x.py"]'`, []string{"/x.py"}, ""},
		{`name=x,builtin=alphabeta,args=["--nodes", "20000"]`, []string{"--nodes", "20000"}, ""},
		{`name=x,builtin=alphabeta,args=["a,b", "c"],options.Depth=3`, []string{"a,b", "c"}, ""},
		{`name=x,builtin=alphabeta,args=[]`, []string{}, ""},
		{`name=x,builtin=alphabeta,args="--nodes 20000"`, []string{"--nodes", "20000"}, ""},
		{`name=x,builtin=alphabeta,args=[--nodes]`, nil, "is not a TOML array of strings"},
		{`name=x,builtin=alphabeta,args=[1, 2]`, nil, "is not a TOML array of strings"},
	} {
		m, err := parseMatch(context.Background(), []string{"--game", "cheversi", "--bot", c.spec, "--bot", "builtin=greedy"}, io.Discard)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("--bot %s: error %v, want %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("--bot %s: %v", c.spec, err)
			continue
		}
		if got := m.cfg.Bots[0].Args; fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
			t.Errorf("--bot %s: args %q, want %q", c.spec, got, c.want)
		}
	}
}

// TestMatchNames checks the default names of matches, which name their
// output directories: after the bots, so that matches of other bots do
// not meet in one directory.
func TestMatchNames(t *testing.T) {
	bots := func(names ...string) []botSpec {
		var out []botSpec
		for _, n := range names {
			out = append(out, botSpec{name: n})
		}
		return out
	}
	for _, c := range []struct {
		bots []botSpec
		want string
	}{
		{bots("a", "b"), "a-vs-b"},
		{bots("random", "greedy", "alphabeta"), "random-vs-greedy-vs-alphabeta"},
		{bots("random", "greedy", "expert"), "random-vs-greedy-vs-expert"},
	} {
		if got := matchName(c.bots); got != c.want {
			t.Errorf("matchName(%v) = %q, want %q", c.bots, got, c.want)
		}
	}
	var many, other []string
	for i := range 30 {
		many = append(many, fmt.Sprintf("engine-%02d", i))
		other = append(other, fmt.Sprintf("engine-%02d", i+1))
	}
	a, b := matchName(bots(many...)), matchName(bots(other...))
	if a == b || len(a) > maxMatchName || !strings.HasPrefix(a, "engine-00-vs-engine-01-and-28-more-") {
		t.Errorf("matches of 30 bots are named %q and %q: want short names that differ", a, b)
	}
	// Two matches of three bots each get directories of their own.
	dirs := map[string]bool{}
	for _, third := range []string{"alphabeta", "expert"} {
		m, err := parseMatch(context.Background(), []string{"--game", "cheversi", "--bot", "builtin=random", "--bot", "builtin=greedy", "--bot", "builtin=" + third}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		dirs[m.cfg.Output] = true
	}
	if len(dirs) != 2 {
		t.Errorf("two matches of three bots share an output directory: %v", dirs)
	}
}

// TestRunTakesMatchFlags checks that arena run takes the flags of arena
// match, applied on top of the file's keys, and that the file's own
// values are checked even where a flag replaces them.
func TestRunTakesMatchFlags(t *testing.T) {
	dir := t.TempDir()
	conf := writeTemp(t, "t.toml", "name = \"flags\"\n[game]\nname = \"cheversi\"\n[openings]\nplies = 1\ncount = 3\n[time]\nmove = \"5s\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n")
	for _, c := range []struct {
		flags []string
		check func(*config.Config) string
	}{
		{[]string{"--tc", "10+0.1"}, func(c *config.Config) string { return c.Time.String() }},
		{[]string{"--movetime", "200ms"}, func(c *config.Config) string { return c.Time.String() }},
		{[]string{"--tc", "40/60", "--movetime", "1s"}, func(c *config.Config) string { return c.Time.String() }},
		{[]string{"--rounds", "3", "--seed", "9"}, func(c *config.Config) string { return fmt.Sprint(c.Format.Rounds, c.Seed) }},
		{[]string{"--bot", "builtin=greedy"}, func(c *config.Config) string { return strings.Join(c.BotNames(), ",") }},
		{[]string{"--games", "12"}, func(c *config.Config) string { return fmt.Sprint(c.Format.Rounds, c.Openings.Limit) }},
	} {
		f := &matchFlags{cmd: "run", fs: newFlagSet("run", "")}
		f.configFlags(false)
		if err := parseFlags(f.fs, c.flags); err != nil {
			t.Fatalf("%q: %v", c.flags, err)
		}
		cfg, err := config.LoadWith(conf, func(d *config.Document) error { return f.apply(context.Background(), d, conf, dir, io.Discard) })
		if err != nil {
			t.Errorf("arena run %q: %v", c.flags, err)
			continue
		}
		t.Logf("arena run %s: %s", strings.Join(c.flags, " "), c.check(cfg))
		want := map[string]string{"--tc": "10s+100ms", "--movetime": "200ms/move", "--rounds": "3 9", "--bot": "a,b,greedy", "--games": "2 0"}[c.flags[0]]
		if c.flags[0] == "--tc" && len(c.flags) == 4 {
			want = "1s/move" // the last of the two
		}
		if got := c.check(cfg); got != want {
			t.Errorf("arena run %q: %s, want %s", c.flags, got, want)
		}
	}
	// The file's value is checked, not only the flag's.
	bad := writeTemp(t, "bad.toml", "concurrency = -5\n"+string(must(os.ReadFile(conf))))
	var stdout, stderr strings.Builder
	code := run([]string{"run", "--concurrency", "2", "--out", filepath.Join(dir, "out"), bad}, &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "bad.toml:1: concurrency: must be at least 1, got -5") {
		t.Errorf("concurrency = -5 with --concurrency 2: exit status %d, stderr %q", code, stderr.String())
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestConfigErrorsFitTheTerminal checks that the errors of a configuration
// with values of the wrong type come one per line, each within 80
// columns.
func TestConfigErrorsFitTheTerminal(t *testing.T) {
	conf := writeTemp(t, "t.toml", "[game]\nname = \"cheversi\"\n[format]\nrounds = \"two\"\nkind = 3\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n")
	var stdout, stderr strings.Builder
	code := run([]string{"run", "--out", filepath.Join(t.TempDir(), "out"), conf}, &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "t.toml:4: format.rounds: wrong type: want an integer, got a string\n") ||
		!strings.Contains(stderr.String(), "t.toml:5: format.kind: wrong type: want a string, got an integer") {
		t.Errorf("exit status %d, stderr:\n%s", code, stderr.String())
	}
	checkWidth(t, "the errors", strings.ReplaceAll(stderr.String(), conf, "t.toml"))
}
