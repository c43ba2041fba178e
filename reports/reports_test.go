package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/arena/rating"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func fp(x float64) *float64 { return &x }

// testAnalysis is a small hand-made Analysis (not computed, so that the
// golden files do not depend on floating-point details) whose names need
// escaping in every format.
func testAnalysis() *rating.Analysis {
	const (
		ann = `Ann "the" bot, v1`
		bob = "<b>Bob</b> | & *co*"
		zoe = "Zoë_ü"
	)
	return &rating.Analysis{
		Model:      rating.BayesElo,
		Confidence: 0.95,
		Games:      30,
		Players: []rating.PlayerStats{
			{Rank: 1, Name: ann, Elo: 67.7, Interval: 77.8, StdErr: 39.7, Games: 20, Wins: 10, Draws: 6, Losses: 4,
				Points: 13, Score: 0.65, DrawRatio: 0.3,
				FirstMover:  rating.SideRecord{Games: 10, Wins: 7, Draws: 2, Losses: 1, Score: fp(0.8)},
				SecondMover: rating.SideRecord{Games: 10, Wins: 3, Draws: 4, Losses: 3, Score: fp(0.5)},
				LOSNext:     fp(0.7948)},
			{Rank: 2, Name: bob, Elo: 11.1, Interval: 78.9, StdErr: 40.3, Games: 20, Wins: 8, Draws: 5, Losses: 7,
				Points: 10.5, Score: 0.525, DrawRatio: 0.25,
				FirstMover:  rating.SideRecord{Games: 10, Wins: 5, Draws: 3, Losses: 2, Score: fp(0.65)},
				SecondMover: rating.SideRecord{Games: 10, Wins: 3, Draws: 2, Losses: 5, Score: fp(0.4)},
				LOSNext:     fp(0.8985)},
			{Rank: 3, Name: zoe, Elo: -78.8, Interval: 79.8, StdErr: 40.7, Games: 20, Wins: 4, Draws: 5, Losses: 11,
				Points: 6.5, Score: 0.325, DrawRatio: 0.25,
				FirstMover:  rating.SideRecord{Games: 10, Wins: 3, Draws: 3, Losses: 4, Score: fp(0.45)},
				SecondMover: rating.SideRecord{Games: 10, Wins: 1, Draws: 2, Losses: 7, Score: fp(0.2)}},
		},
		LOS: [][]*float64{
			{nil, fp(0.7948), fp(0.9824)},
			{fp(0.2052), nil, fp(0.8985)},
			{fp(0.0176), fp(0.1015), nil},
		},
		Fit: rating.FitSummary{
			Model: rating.BayesElo, Advantage: fp(108.8), AdvantageElo: fp(92), AdvantageInterval: fp(99.4),
			DrawElo: fp(144.41), DrawRate: fp(0.3933), DrawRateLow: fp(0.2912), DrawRateHigh: fp(0.4851), Scale: 0.8453, Prior: 2, LogLikelihood: -31.25, Iterations: 6,
		},
		Pairs: []rating.PairStats{
			{A: ann, B: bob, Games: 10, Wins: 4, Draws: 3, Losses: 3, Score: 0.55, Elo: fp(34.9), Margin: fp(153.2),
				LOS: fp(0.6726), DrawRatio: 0.3, Unpaired: 0,
				Pentanomial: &rating.PentanomialStats{Counts: rating.Pentanomial{0, 1, 2, 2, 0}, Pairs: 5, Score: 0.55,
					Elo: fp(34.9), Margin: fp(120.5), LOS: fp(0.72), SignTestP: 0.625}},
			{A: ann, B: zoe, Games: 10, Wins: 6, Draws: 3, Losses: 1, Score: 0.75, Elo: fp(190.8), Margin: fp(190.1),
				LOS: fp(0.9936), DrawRatio: 0.3, Unpaired: 10},
			{A: bob, B: zoe, Games: 10, Wins: 4, Draws: 2, Losses: 4, Score: 0.5, Elo: fp(0), Margin: nil,
				LOS: fp(0.5), DrawRatio: 0.2, Unpaired: 10},
		},
		SideBalance: rating.SideBalance{
			FirstMover: "white",
			Balance: rating.Balance{Games: 30, Wins: 15, Draws: 8, Losses: 7,
				WinRatio: 0.5, DrawRatio: 0.26667, LossRatio: 0.23333,
				Score: 0.63333, ScoreLow: 0.48, ScoreHigh: 0.765},
			Z: fp(1.7948), ZPValue: fp(0.0727), SignTestP: 0.1338,
			Verdict:      rating.Verdict{Edge: 0.02, MoreGames: 4700},
			AdvantageElo: fp(92), AdvantageInterval: fp(99.4),
			Paired: &rating.PentanomialStats{Counts: rating.Pentanomial{0, 1, 1, 2, 1}, Pairs: 5, Score: 0.65,
				Elo: fp(107.5), Margin: fp(150), LOS: fp(0.9), SignTestP: 0.375},
			Openings: []rating.OpeningBalance{
				{Opening: "ACF 9: 9-13 <x> & y", Moves: "9-13 22-18 <b>", Games: 6, Wins: 5, Draws: 1, Losses: 0, Score: 0.91667, ScoreLow: 0.6, ScoreHigh: 0.99, SignTestP: 0.0625, AdjustedP: 0.125},
				{Opening: "Sicilian, Najdorf", Games: 4, Wins: 2, Draws: 0, Losses: 2, Score: 0.5, ScoreLow: 0.15, ScoreHigh: 0.85, SignTestP: 1, AdjustedP: 1},
			},
			Reference: &rating.ReferenceBalance{Label: "human games on BrainKing", Source: humanGames().Source, Balance: rating.Balance{Games: 8951, Wins: 3023, Draws: 375, Losses: 5553,
				WinRatio: 0.33773, DrawRatio: 0.04189, LossRatio: 0.62038, Score: 0.35868, ScoreLow: 0.3489, ScoreHigh: 0.3685}},
			Proved: &game.Solution{Statement: "from the empty board, black <wins> with perfect play", Result: "black wins",
				Source: "a proof & its *checks*"},
		},
		Groups: []rating.Group{{Index: 0, Players: []string{ann, bob, zoe}}},
		Notes:  []string{"a <note> with | pipes & stars*"},
	}
}

func testMeta() Meta {
	return Meta{
		Name:     "Spring <cup> & more",
		Game:     "cheversi",
		Rules:    "preset cheversi\ntouch = opponent\nscoring = attacks",
		Started:  time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC),
		Finished: time.Date(2025, 3, 1, 12, 30, 5, 0, time.UTC),
		Run:      &RunStatus{Played: 30, Scheduled: 36},
		Design:   testDesign(),
	}
}

// testDesign is the design metrics of six made-up games: four by score,
// one for want of a move, one forfeit.
func testDesign() *metrics.Summary {
	var gs []metrics.Game
	for k := range 6 {
		g := metrics.Game{FirstMover: game.White, Result: []game.Result{game.WhiteWins, game.BlackWins, game.Draw}[k%3],
			Reason: game.ReasonScore, Plies: 3, Scores: []int{20 + k, 19}, Legal: []int{64, 12 + k, 1 + k%2},
			Evals: []metrics.Eval{{Ply: 2, Mover: game.Black, Score: 3 - k}, {Ply: 3, Mover: game.White, Score: k - 2}}}
		switch k {
		case 4:
			g.Reason = game.ReasonNoMoves
		case 5:
			g.Reason, g.Forfeit = "forfeit (time)", true
		}
		gs = append(gs, g)
	}
	d := metrics.Summarize(gs)
	return &d
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got ---\n%s", name, got)
	}
}

func TestGolden(t *testing.T) {
	a, m := testAnalysis(), testMeta()
	writers := []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"report.md.golden", func(b *bytes.Buffer) error { return WriteMarkdown(b, m, a) }},
		{"standings.csv.golden", func(b *bytes.Buffer) error { return WriteCSV(b, m, a) }},
		{"report.json.golden", func(b *bytes.Buffer) error { return WriteJSON(b, m, a) }},
		{"terminal.txt.golden", func(b *bytes.Buffer) error { return WriteTerminal(b, m, a) }},
		{"terminal80.txt.golden", func(b *bytes.Buffer) error { return WriteTerminalWidth(b, m, a, 80) }},
		{"terminal40.txt.golden", func(b *bytes.Buffer) error { return WriteTerminalWidth(b, m, a, 40) }},
	}
	for _, w := range writers {
		t.Run(w.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := w.write(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, w.file, b.Bytes())
		})
	}
}

// TestTerminalWidth checks that the terminal summary fits the width it is
// given, keeps the players and their ratings, and leaves the fit's
// internals to the report files.
func TestTerminalWidth(t *testing.T) {
	a, m := testAnalysis(), testMeta()
	var full bytes.Buffer
	if err := WriteMarkdown(&full, m, a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(full.String(), "drawElo") || !strings.Contains(full.String(), "Score 1st") {
		t.Errorf("the report file lacks the fit's details or a column:\n%s", full.String())
	}
	for _, width := range []int{0, 120, 80, 60, 40} {
		var b bytes.Buffer
		if err := WriteTerminalWidth(&b, m, a, width); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		for _, line := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(line); width > 0 && n > width {
				t.Errorf("width %d: a line of %d: %q", width, n, line)
			}
		}
		for _, p := range a.Players {
			// At 40 columns the longer names wrap in their cells.
			if !strings.Contains(text, p.Name) && (width == 0 || width >= 60) || !strings.Contains(text, elo(p.Elo, signed(a))) {
				t.Errorf("width %d: %s or its rating is missing:\n%s", width, p.Name, text)
			}
		}
		for _, jargon := range []string{"drawElo", "display scale", "before scaling", "virtual draws"} {
			if strings.Contains(text, jargon) {
				t.Errorf("width %d: the terminal says %q", width, jargon)
			}
		}
		if compact := width > 0 && width < 115; compact == strings.Contains(text, "Score 1st") {
			t.Errorf("width %d: the side scores shown: %v, want %v", width, !compact, compact)
		}
	}
}

func TestCSVParses(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, Meta{}, testAnalysis()); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want a header and 3 players", len(rows))
	}
	if got, want := rows[1][1], `Ann "the" bot, v1`; got != want {
		t.Errorf("name read back as %q, want %q", got, want)
	}
	if got := rows[3][len(rows[3])-1]; got != "" {
		t.Errorf("last player's LOS to the next = %q, want empty", got)
	}
	for _, r := range rows {
		if len(r) != len(rows[0]) {
			t.Errorf("row %q has %d fields, header %d", r, len(r), len(rows[0]))
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var b bytes.Buffer
	a := testAnalysis()
	if err := WriteJSON(&b, testMeta(), a); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Meta.Name != testMeta().Name || !back.Meta.Started.Equal(testMeta().Started) {
		t.Errorf("meta %+v", back.Meta)
	}
	if back.Analysis.Players[1].Name != a.Players[1].Name || *back.Analysis.LOS[0][2] != 0.9824 || back.Analysis.LOS[1][1] != nil {
		t.Errorf("analysis did not survive the round trip")
	}
}

func TestMarkdownEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, testMeta(), testAnalysis()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<b>", "<cup>", "<note>", "| & *co*"} {
		if strings.Contains(out, bad) {
			t.Errorf("report.md contains unescaped %q", bad)
		}
	}
	// Every table row has as many cells as its header.
	var cols int
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("row %q has %d separators, header %d", line, n, cols)
		}
	}
}

func TestWriteFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "report")
	if err := WriteFiles(dir, testMeta(), testAnalysis()); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got, want := strings.Join(names, " "), "report.html report.json report.md standings.csv"; got != want {
		t.Errorf("files %q, want %q", got, want)
	}
	if err := WriteFiles(dir, Meta{}, nil); !errors.Is(err, ErrNoAnalysis) {
		t.Errorf("nil analysis error %v, want ErrNoAnalysis", err)
	}
	// A file where the directory should be.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(file, testMeta(), testAnalysis()); err == nil {
		t.Error("writing into a regular file succeeded")
	}
}

func TestNilAnalysis(t *testing.T) {
	var b bytes.Buffer
	for name, err := range map[string]error{
		"terminal": WriteTerminal(&b, Meta{}, nil),
		"markdown": WriteMarkdown(&b, Meta{}, nil),
		"csv":      WriteCSV(&b, Meta{}, nil),
		"json":     WriteJSON(&b, Meta{}, nil),
		"html":     WriteHTML(&b, Meta{}, nil),
	} {
		if !errors.Is(err, ErrNoAnalysis) {
			t.Errorf("%s: error %v, want ErrNoAnalysis", name, err)
		}
	}
}

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }

func TestWriteErrors(t *testing.T) {
	a, m := testAnalysis(), testMeta()
	for name, err := range map[string]error{
		"terminal": WriteTerminal(brokenWriter{}, m, a),
		"markdown": WriteMarkdown(brokenWriter{}, m, a),
		"csv":      WriteCSV(brokenWriter{}, Meta{}, a),
		"json":     WriteJSON(brokenWriter{}, m, a),
		"html":     WriteHTML(brokenWriter{}, m, a),
	} {
		if err == nil {
			t.Errorf("%s: no error on a broken writer", name)
		}
	}
}

// humanGames is the side balance of human Cheversi games the reports set
// beside a tournament's (a zero value, which the golden files catch, if
// the rules could not say).
func humanGames() game.SideBalance {
	r, _ := cheversi.New("", nil)
	if r == nil {
		return game.SideBalance{}
	}
	b, _ := r.SideReference()
	return b
}
