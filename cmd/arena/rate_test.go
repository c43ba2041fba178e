package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixturePGN writes the 30 games of ratings-fixture-30.pgn (players A, B
// and C) to a file and returns its path.
func fixturePGN(t *testing.T) string {
	t.Helper()
	tally := []struct {
		white, black, result string
		n                    int
	}{
		{"A", "B", "0-1", 1}, {"A", "B", "1-0", 3}, {"A", "B", "1/2-1/2", 1},
		{"A", "C", "1-0", 4}, {"A", "C", "1/2-1/2", 1},
		{"B", "A", "0-1", 1}, {"B", "A", "1-0", 2}, {"B", "A", "1/2-1/2", 2},
		{"B", "C", "0-1", 1}, {"B", "C", "1-0", 3}, {"B", "C", "1/2-1/2", 1},
		{"C", "A", "0-1", 2}, {"C", "A", "1-0", 1}, {"C", "A", "1/2-1/2", 2},
		{"C", "B", "0-1", 2}, {"C", "B", "1-0", 2}, {"C", "B", "1/2-1/2", 1},
	}
	var b strings.Builder
	round := 0
	for _, g := range tally {
		for range g.n {
			round++
			fmt.Fprintf(&b, "[Event \"test\"]\n[Round \"%d\"]\n[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n\n%s\n\n",
				round, g.white, g.black, g.result, g.result)
		}
	}
	path := filepath.Join(t.TempDir(), "fixture.pgn")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRateFixture(t *testing.T) {
	file := fixturePGN(t)
	tests := []struct {
		args []string
		want []string // lines of the standings, in order
	}{
		{[]string{file}, []string{"│ 1 │ A      │ +68 │", "│ 2 │ B      │ +11 │", "│ 3 │ C      │ -79 │"}},
		{[]string{"--model", "ordo", file, "--offset", "2300"}, []string{"│ 1 │ A      │ 2380 │", "│ 2 │ B      │ 2313 │", "│ 3 │ C      │ 2206 │"}},
		{[]string{"--anchor", "B", "--offset=1000", "--", file}, []string{"│ A      │ 1057 │", "│ B      │ 1000 │     0 │", "│ C      │  910 │"}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if err := runRate(context.Background(), tt.args, &stdout, &stderr); err != nil {
			t.Fatalf("%v: %v\n%s", tt.args, err, stderr.String())
		}
		out := stdout.String()
		last := -1
		for _, w := range tt.want {
			i := strings.Index(out, w)
			if i < 0 || i < last {
				t.Errorf("%v: output lacks %q (in order)\n%s", tt.args, w, out)
			}
			last = i
		}
		if !strings.Contains(out, "15 (50.0%)") || !strings.Contains(out, "p = 0.134") {
			t.Errorf("%v: side balance missing\n%s", tt.args, out)
		}
	}
}

func TestRateOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	if err := runRate(context.Background(), []string{"--out", dir, fixturePGN(t)}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.md", "standings.csv", "report.json", "report.html"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if !strings.Contains(stderr.String(), dir) {
		t.Errorf("stderr %q does not say where the reports went", stderr.String())
	}
}

func TestRatePairsAndSkips(t *testing.T) {
	// Two colour-reversed games on one opening make a pair; an unfinished
	// game and a game without names are skipped and reported.
	text := `[White "x"][Black "y"][Opening "o1"][Result "1-0"] 1-0
[White "y"][Black "x"][Opening "o1"][Result "1/2-1/2"] 1/2-1/2
[White "x"][Black "y"][Opening "o2"][Result "*"] *
[White "x"][Result "1-0"] 1-0
[White "y"][Black "x"][Opening "o3"][Result "0-1"] 0-1
`
	file := writeTemp(t, "pairs.pgn", text)
	var stdout, stderr bytes.Buffer
	if err := runRate(context.Background(), []string{file}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "1 pair [0 0 0 1 0]") {
		t.Errorf("output lacks the colour-reversed pair\n%s", stdout.String())
	}
	for _, w := range []string{"skipped 1 game that did not finish (first at " + file + ":3)", "skipped 1 game without both player names (first at " + file + ":4)"} {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
		}
	}
}

func TestRatePairKeyTag(t *testing.T) {
	// The arena's own files carry a PairKey tag; the pair need not be
	// consecutive.
	text := `[White "x"][Black "y"][PairKey "7"][Opening "o"][Result "1-0"] 1-0
[White "x"][Black "z"][Opening "o"][Result "1-0"] 1-0
[White "y"][Black "x"][PairKey "7"][Opening "o"][Result "1-0"] 1-0
`
	file := writeTemp(t, "own.pgn", text)
	var stdout, stderr bytes.Buffer
	if err := runRate(context.Background(), []string{file}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "1 pair [0 0 0 0 1]") {
		t.Errorf("output lacks the tagged pair\n%s", stdout.String())
	}
}

func TestRateErrors(t *testing.T) {
	fixture := fixturePGN(t)
	broken := writeTemp(t, "broken.pgn", "[White \"a\"]\n[Black \"b]\n1-0\n")
	empty := writeTemp(t, "empty.pgn", "[White \"a\"]\n[Black \"b\"]\n*\n")
	missing := filepath.Join(t.TempDir(), "missing.pgn")
	garbage := writeTemp(t, "garbage.bin", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xcb\x48\xcd\xc9\xc9\x07\x00")
	prose := writeTemp(t, "notes.txt", "Ratings of the spring cup.\nAll games 1-0 or draws.\n")
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"rate"}, 2, "no input files"},
		{[]string{"rate", "--model", "elo", fixture}, 2, `--model "elo"`},
		{[]string{"rate", "--bogus", fixture}, 2, "bogus"},
		{[]string{"rate", "--anchor", "Z", fixture}, 2, `anchor "Z"`},
		{[]string{"rate", missing}, 1, missing},
		{[]string{"rate", fixture, broken}, 1, broken + ":2: tag Black"},
		{[]string{"rate", empty}, 1, "no finished games in " + empty},
		{[]string{"rate", garbage}, 1, garbage + ":1: byte 0x1f: not PGN/PDN text"},
		{[]string{"rate", fixture, prose}, 1, prose + " is not a PGN/PDN file: none of its 2 records has a tag pair"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr.String(), tt.code, tt.msg)
		}
	}
}

func TestRateForfeits(t *testing.T) {
	// A game that a Termination tag marks as a forfeit counts for the
	// ratings but is left out of the side balance, as in the arena's own
	// reports.
	text := `[White "x"][Black "y"][Result "1-0"][Termination "normal"] 1-0
[White "y"][Black "x"][Result "1-0"][Termination "time forfeit"] 1-0
[White "x"][Black "y"][Result "1/2-1/2"] 1/2-1/2
[White "y"][Black "x"][Result "0-1"][Termination "rules infraction"] 0-1
`
	file := writeTemp(t, "forfeits.pgn", text)
	var stdout, stderr bytes.Buffer
	if err := runRate(context.Background(), []string{file}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, w := range []string{"Left out (forfeits)", "2 of 4 games were decided by a forfeit"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q\n%s", w, out)
		}
	}
	// The side balance counts the two games decided by play.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "│ Games ") && !strings.HasSuffix(line, " 2 │") {
			t.Errorf("side balance %q, want 2 games", line)
		}
	}
	if !strings.Contains(out, "│ 1 │ x      │") {
		t.Errorf("x, who won three games of four, does not lead\n%s", out)
	}
}
