package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports"
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

// TestRateArenaPGNSameAsReport: `arena rate` on the games.pgn of a
// tournament directory gives the same analysis as `arena report` on the
// directory: the same standings, side balance (the human reference column
// of Cheversi under the cheversi preset and what is proved of its rules
// included), openings with their moves, pairs and notes.
func TestRateArenaPGNSameAsReport(t *testing.T) {
	rules, err := games.New("cheversi", "cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bots := []string{"a", "b", "c"}
	m := &journal.Manifest{Version: 1, Name: "cup", Games: 60, Game: "cheversi", Preset: "cheversi",
		Rules: rules.Settings(), Format: schedule.RoundRobin, Rounds: 1, Bots: bots}
	if err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	j, _, err := journal.Open(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	id := 0
	for o := 1; o <= 10; o++ {
		for _, pair := range [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}} {
			for k := range 2 {
				id++
				white, black := pair[k], pair[1-k]
				rec := journal.Record{
					ID: id, Round: 1, PairKey: fmt.Sprintf("r1/o%d/%s/%s", o, pair[0], pair[1]),
					Opening: journal.RecordOpening{Index: o, Name: fmt.Sprintf("random %d", o), Moves: []string{"K@b7", fmt.Sprintf("N@b%d", o%8+1)}},
					Game:    "cheversi", Preset: "cheversi", Rules: rules.Settings(),
					White: white, Black: black, FirstMover: "white", Reason: "score", Start: time.Now().UTC(),
				}
				switch rng.IntN(5) {
				case 0, 1:
					rec.Result, rec.Winner = "1-0", white
				case 2, 3:
					rec.Result, rec.Winner = "0-1", black
				default:
					rec.Result = "1/2-1/2"
				}
				if id%17 == 0 {
					rec.Result, rec.Winner, rec.Reason = "0-1", black, journal.ReasonForfeit
					rec.Forfeit = &journal.Forfeit{Kind: journal.ForfeitTime, Bot: white}
				}
				if err := j.Append(&rec); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	var stdout, stderr bytes.Buffer
	if err := runReport(context.Background(), []string{dir}, &stdout, &stderr); err != nil {
		t.Fatalf("arena report: %v\n%s", err, stderr.String())
	}
	rated := t.TempDir()
	stdout.Reset()
	if err := runRate(context.Background(), []string{"--out", rated, filepath.Join(dir, "games.pgn")}, &stdout, &stderr); err != nil {
		t.Fatalf("arena rate: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "human games on BrainKing") {
		t.Errorf("arena rate shows no human reference:\n%s", stdout.String())
	}
	if !strings.Contains(stdout.String(), "Proved: from the empty board, black wins with perfect play") {
		t.Errorf("arena rate does not say what is proved of the rules:\n%s", stdout.String())
	}
	analysis := func(dir string) (reports.Report, string) {
		b, err := os.ReadFile(filepath.Join(dir, reports.JSONFile))
		if err != nil {
			t.Fatal(err)
		}
		var r reports.Report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		a, err := json.MarshalIndent(r.Analysis, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return r, string(a)
	}
	fromReport, want := analysis(dir)
	fromRate, got := analysis(rated)
	if got != want {
		t.Errorf("arena rate's analysis differs from arena report's\n--- rate ---\n%s\n--- report ---\n%s", got, want)
	}
	if fromRate.Meta.Game != "cheversi" || fromRate.Meta.Rules != fromReport.Meta.Rules {
		t.Errorf("rate meta %+v, report meta %+v: want the same game and rules", fromRate.Meta, fromReport.Meta)
	}
	ops := fromRate.Analysis.SideBalance.Openings
	if len(ops) != 10 || ops[0].Moves == "" || fromRate.Analysis.SideBalance.Forfeits == 0 || fromRate.Analysis.SideBalance.Reference == nil {
		t.Errorf("openings %+v, forfeits %d, reference %v", ops, fromRate.Analysis.SideBalance.Forfeits, fromRate.Analysis.SideBalance.Reference)
	}
	if p := fromRate.Analysis.SideBalance.Proved; p == nil || p.Result != "black wins" {
		t.Errorf("proved %+v, want black wins", p)
	}
}

// TestRateOrdoQuickstart rates a quickstart tournament's games.pgn (the
// arena's own file, move text included) with the ordo model. random lost
// every game: as ordo does, it is left out of the fit and shown with a
// bound ("<"), and no virtual draws move the others. (ordo 1.2.6, run with
// -W -D -G on this file, prints "random <" too; for the other two its
// advantage iteration stops at an arbitrary point, -376, since greedy never
// won as first mover against alphabeta and the advantage has no finite
// estimate: the arena says it is not determined.)
func TestRateOrdoQuickstart(t *testing.T) {
	file := filepath.Join("..", "..", "arena", "pgn", "testdata", "quickstart-cheversi.pgn")
	var stdout, stderr bytes.Buffer
	if err := runRate(context.Background(), []string{"--model", "ordo", file}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"│ 3 │ random    │ < -", "random lost every game", "first-mover advantage not determined",
		"human games on BrainKing", "48 games rated from files",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	if strings.Contains(out, "virtual draws") {
		t.Errorf("the ordo model added virtual draws\n%s", out)
	}
}

// manyPlayersPGN writes games between players drawn at random from
// players, the higher index the stronger, as tags and a result only, and
// returns its path and the number of pairs of players that met.
func manyPlayersPGN(t *testing.T, players, games int, seed uint64) (string, int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	met := map[[2]int]bool{}
	var b strings.Builder
	for i := range games {
		w, k := rng.IntN(players), rng.IntN(players-1)
		if k >= w {
			k++
		}
		met[[2]int{min(w, k), max(w, k)}] = true
		result := "1/2-1/2"
		switch u := rng.Float64() + float64(w-k)/float64(2*players); {
		case u > 0.7:
			result = "1-0"
		case u < 0.3:
			result = "0-1"
		}
		fmt.Fprintf(&b, "[Round \"%d\"]\n[White \"P%03d\"]\n[Black \"P%03d\"]\n[Result \"%s\"]\n\n%s\n\n", i+1, w, k, result, result)
	}
	return writeTemp(t, "many.pgn", b.String()), len(met)
}

// The report files of a field with many players stay bounded: the pairs
// table keeps rating.DefaultMaxPairs pairs, says how many it leaves out,
// and twice the games (many more pairs that met) do not make the files
// larger.
func TestRateOutBoundedManyPlayers(t *testing.T) {
	const players = 200
	files := []string{"report.md", "standings.csv", "report.json", "report.html"}
	var sizes [2][4]int64
	for run, games := range []int{8000, 16000} {
		path, met := manyPlayersPGN(t, players, games, uint64(run))
		if met <= rating.DefaultMaxPairs {
			t.Fatalf("%d games: only %d pairs met", games, met)
		}
		dir := filepath.Join(t.TempDir(), "report")
		var stdout, stderr bytes.Buffer
		if err := runRate(context.Background(), []string{"--model", "ordo", "--out", dir, path}, &stdout, &stderr); err != nil {
			t.Fatalf("%d games: %v\n%s", games, err, stderr.String())
		}
		for i, f := range files {
			st, err := os.Stat(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			sizes[run][i] = st.Size()
			if st.Size() > 2<<20 {
				t.Errorf("%d games, %d players: %s is %d bytes, more than 2 MiB", games, players, f, st.Size())
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Analysis struct {
				Players []json.RawMessage `json:"players"`
				Pairs   []json.RawMessage `json:"pairs"`
				Omitted int               `json:"pairs_omitted"`
			} `json:"analysis"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		if a := r.Analysis; len(a.Players) != players || len(a.Pairs) != rating.DefaultMaxPairs || a.Omitted != met-rating.DefaultMaxPairs {
			t.Errorf("%d games: %d players, %d pairs detailed, %d omitted; want %d, %d, %d",
				games, len(a.Players), len(a.Pairs), a.Omitted, players, rating.DefaultMaxPairs, met-rating.DefaultMaxPairs)
		}
		want := fmt.Sprintf("%d of the %d pairs of players that met", met-rating.DefaultMaxPairs, met)
		for _, f := range []string{"report.md", "report.html"} {
			text, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(text), want) {
				t.Errorf("%d games: %s does not say what it leaves out (%q)", games, f, want)
			}
		}
	}
	for i, f := range files {
		if small, large := sizes[0][i], sizes[1][i]; large > small+small/20+4096 {
			t.Errorf("%s grows with the pairs left out: %d bytes for 8,000 games, %d for 16,000", f, small, large)
		}
	}
}
