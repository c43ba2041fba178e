package config

import (
	"strings"
	"testing"
)

func TestScanKeyLines(t *testing.T) {
	src := `# comment = 1
name = "x" # trailing = 2
"quoted key" = 'lit'
a.b . c = 1

[game]
name = "cheversi"
[game.rules]
touch = """
multi = line
"""
flag = true

[[bots]]
name = "a"
args = [
  "--x=1", # k = v
  "y",
]
env = { A = "1", "B.C" = "2", D = { E = 1 } }

[[bots]]
name = "b"
[bots.time]
move = "1s"

[[bots]]
name = 'c'
`
	k := scanKeyLines(src)
	for _, c := range []struct {
		path []string
		want int
	}{
		{[]string{"name"}, 2},
		{[]string{"quoted key"}, 3},
		{[]string{"a", "b", "c"}, 4},
		{[]string{"game"}, 6},
		{[]string{"game", "name"}, 7},
		{[]string{"game", "rules", "touch"}, 9},
		{[]string{"game", "rules", "flag"}, 12},
		{[]string{"bots"}, 14}, // the first element
		{[]string{"bots", "0"}, 14},
		{[]string{"bots", "0", "name"}, 15},
		{[]string{"bots", "0", "args"}, 16},
		{[]string{"bots", "0", "env"}, 20},
		{[]string{"bots", "0", "env", "B.C"}, 20},
		{[]string{"bots", "0", "env", "D", "E"}, 20},
		{[]string{"bots", "1", "name"}, 23},
		{[]string{"bots", "1", "time", "move"}, 25},
		{[]string{"bots", "2", "name"}, 28},
		{[]string{"bots", "2", "missing"}, 27}, // falls back to the table
		{[]string{"nothing"}, 0},
	} {
		if got, _, _ := k.where(c.path, true); got != c.want {
			t.Errorf("where(%s) = line %d, want %d", strings.Join(c.path, "."), got, c.want)
		}
	}
	// The decoder names keys without array indices.
	if got, _, _ := k.where([]string{"bots", "time", "move"}, false); got != 25 {
		t.Errorf("where(bots.time.move, unindexed) = line %d, want 25", got)
	}
	if got, _, _ := k.where([]string{"bots", "name"}, false); got != 15 {
		t.Errorf("where(bots.name, unindexed) = line %d, want 15 (the first)", got)
	}

	// Keys set by flags are found before the file's lines.
	k.setSource([]string{"bots", "1", "time", "move"}, "--set bots.b.time.move=2s")
	k.setSource([]string{"sprt", "elo1"}, "--sprt elo1=5")
	for _, c := range []struct {
		path    []string
		indexed bool
		line    int
		flag    string
		exact   bool
	}{
		{[]string{"bots", "1", "time", "move"}, true, 0, "--set bots.b.time.move=2s", true},
		{[]string{"bots", "time", "move"}, false, 0, "--set bots.b.time.move=2s", true},
		{[]string{"bots", "1", "time"}, true, 24, "", false},
		{[]string{"sprt"}, true, 0, "--sprt elo1=5", false},
		{[]string{"sprt", "elo1", "x"}, true, 0, "--sprt elo1=5", false},
	} {
		line, flag, exact := k.where(c.path, c.indexed)
		if line != c.line || flag != c.flag || exact != c.exact {
			t.Errorf("where(%s, %v) = %d, %q, %v; want %d, %q, %v", strings.Join(c.path, "."), c.indexed, line, flag, exact, c.line, c.flag, c.exact)
		}
	}
}

func FuzzScanKeyLines(f *testing.F) {
	f.Add("a = 1\n[b]\nc = \"d\"\n[[e]]\nf = [1, {g = 2}]\n")
	f.Add("x = '''\n'''''\ny = \"\\\"\"\n")
	f.Add("[[a.b]]\n[a.b.c]\n\"q\".r = 1")
	f.Fuzz(func(t *testing.T, src string) {
		k := scanKeyLines(src)
		lines := strings.Count(src, "\n") + 1
		for p, l := range k.lines {
			if l < 1 || l > lines {
				t.Errorf("key %q on line %d of %d", p, l, lines)
			}
		}
	})
}
