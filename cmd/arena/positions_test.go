package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"
)

// TestEndPositionsMakeABook plays a checkers tournament from positions in
// a random order with end_positions = true, checks the file of the end
// positions (one line per game, each a position of the rules, written
// again by arena report), and plays a second tournament from the end
// positions of the games that were not over: a book built from games.
func TestEndPositionsMakeABook(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.txt")
	os.WriteFile(book, []byte("B:W21-31:B2-12\televen\nB:W22-32:B1-11\televen too\nB:W21-32:B1-12 moves 9-13\t9-13\n"), 0o644)
	conf := writeTemp(t, "book.toml", `name = "book"
seed = 3
end_positions = true
[game]
name = "checkers"
[adjudication]
max_plies = 30
[openings]
file = "`+book+`"
order = "random"
start = 2
[time]
move = "5s"
[[bots]]
name = "a"
builtin = "random"
[[bots]]
name = "b"
builtin = "greedy"
`)
	out := filepath.Join(dir, "out")
	if code, _, stderr := runArena(t, "run", "--quiet", "--out", out, conf); code != 0 {
		t.Fatalf("arena run: exit status %d\n%s", code, stderr)
	}
	recs, err := journal.Read(filepath.Join(out, journal.File))
	if err != nil || len(recs) != 4 { // openings 2 and 3 of the shuffled three, both colours
		t.Fatalf("journal: %d games, %v", len(recs), err)
	}
	lines := readLines(t, filepath.Join(out, journal.EndPositionsFile))
	if len(lines) != len(recs) {
		t.Fatalf("%d end positions for %d games:\n%s", len(lines), len(recs), strings.Join(lines, "\n"))
	}
	rules, err := games.New("checkers", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var open []string
	for i, l := range lines {
		pos, name, _ := strings.Cut(l, "\t")
		st, err := rules.ParseState(pos)
		if err != nil || !strings.HasPrefix(name, "game ") {
			t.Errorf("line %d: %q: %v", i+1, l, err)
			continue
		}
		if !st.Outcome().Over() {
			open = append(open, l)
		}
	}
	// arena report writes the same file again.
	os.Remove(filepath.Join(out, journal.EndPositionsFile))
	if code, _, stderr := runArena(t, "report", out); code != 0 {
		t.Fatalf("arena report: exit status %d\n%s", code, stderr)
	}
	if again := readLines(t, filepath.Join(out, journal.EndPositionsFile)); strings.Join(again, "\n") != strings.Join(lines, "\n") {
		t.Errorf("arena report wrote\n%s\nthe run wrote\n%s", strings.Join(again, "\n"), strings.Join(lines, "\n"))
	}
	if len(open) == 0 {
		t.Skip("every game ended over the board: no position to open from")
	}
	next := filepath.Join(dir, "next.txt")
	os.WriteFile(next, []byte(strings.Join(open, "\n")+"\n"), 0o644)
	conf2 := strings.Replace(string(must(os.ReadFile(conf))), book, next, 1)
	conf2 = strings.Replace(conf2, "start = 2\n", "", 1)
	path2 := writeTemp(t, "next.toml", conf2)
	out2 := filepath.Join(dir, "out2")
	if code, _, stderr := runArena(t, "run", "--quiet", "--out", out2, path2); code != 0 {
		t.Fatalf("arena run from the end positions: exit status %d\n%s", code, stderr)
	}
	recs2, err := journal.Read(filepath.Join(out2, journal.File))
	if err != nil || len(recs2) != 2*len(open) {
		t.Errorf("from %d end positions: %d games, %v", len(open), len(recs2), err)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}
