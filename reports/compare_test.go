package reports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports/browsertest"
)

// compareEntries are tournaments of every kind a comparison meets: a
// strength ladder, a switch, another preset, games without pairs, a
// time-controlled run, one whose every game was forfeited and a name with
// markup in it.
func compareEntries() []CompareEntry {
	pairs := func(p ...int) *rating.Pentanomial { x := rating.Pentanomial(p); return &x }
	bots := []string{"expert-1", "expert-2"}
	return []CompareEntry{
		{Name: "cheversi-20k", Game: "cheversi", Preset: "cheversi", Bots: bots, Strength: "20000 nodes", Nodes: 20000,
			Fingerprint: "f1", Results: "r1", FirstMover: "white",
			Counts: rating.WDL{Wins: 430, Draws: 120, Losses: 450}, Pairs: pairs(200, 12, 60, 8, 220), Design: testDesign()},
		{Name: "cheversi-2k", Game: "cheversi", Preset: "cheversi", Bots: bots, Strength: "2000 nodes", Nodes: 2000,
			FirstMover: "white", Counts: rating.WDL{Wins: 380, Draws: 100, Losses: 520}, Pairs: pairs(240, 10, 50, 10, 190)},
		{Name: "touch-any-20k", Game: "cheversi", Preset: "cheversi", Switches: []game.Setting{{Key: "touch", Value: "any"}},
			Bots: bots, Strength: "20000 nodes", Nodes: 20000, FirstMover: "white", Counts: rating.WDL{Wins: 60, Draws: 0, Losses: 40}},
		{Name: "classic-20k", Game: "cheversi", Preset: "cheversi-classic", Bots: bots, Strength: "20000 nodes", Nodes: 20000,
			FirstMover: "white", Counts: rating.WDL{Wins: 250, Draws: 80, Losses: 670}, Forfeits: 2},
		{Name: "clock <b>x</b> & y", Game: "cheversi", Preset: "cheversi", Bots: []string{"a<i>", "b"}, Strength: "1s+100ms",
			FirstMover: "white", Counts: rating.WDL{Wins: 5, Draws: 1, Losses: 4}},
		{Name: "all forfeits", Game: "cheversi", Preset: "cheversi", Bots: bots, Strength: "20000 nodes", Nodes: 20000,
			FirstMover: "mixed", Forfeits: 10},
	}
}

func mustCompare(t *testing.T, entries []CompareEntry, baseline int) *Comparison {
	t.Helper()
	c, err := Compare(entries, baseline, 0)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestCompareStatistics checks the figures against sums done by hand.
func TestCompareStatistics(t *testing.T) {
	// Two samples of 100 games without pairs: 50/0/50 and 60/0/40. The
	// standard errors are sqrt(.25/100) = .05 and sqrt(.24/100); the
	// difference .1 has the standard error sqrt(.0025 + .0024) = .07,
	// z = 1.428571 and a two-sided p of 0.153127.
	c := mustCompare(t, []CompareEntry{
		{Name: "a", Game: "checkers", Preset: "american", FirstMover: "black", Counts: rating.WDL{Wins: 50, Losses: 50}},
		{Name: "b", Game: "checkers", Preset: "american", FirstMover: "black", Counts: rating.WDL{Wins: 60, Losses: 40}},
	}, 0)
	a, b := c.Rows[0], c.Rows[1]
	if !near(a.Score, 0.5) || !near(a.StdErr, 0.05) || a.IntervalFrom != "games" {
		t.Errorf("row a: score %v, std err %v, from %q; want .5, .05, games", a.Score, a.StdErr, a.IntervalFrom)
	}
	if a.Diff != nil {
		t.Errorf("the baseline has a difference %v", *a.Diff)
	}
	z := rating.Quantile(0.95)
	switch {
	case b.Diff == nil:
		t.Fatal("row b has no difference")
	case !near(*b.Diff, 0.1) || !near(*b.DiffLow, 0.1-z*0.07) || !near(*b.DiffHigh, 0.1+z*0.07):
		t.Errorf("difference %v [%v, %v], want .1 ± %v", *b.Diff, *b.DiffLow, *b.DiffHigh, z*0.07)
	case math.Abs(*b.DiffP-0.153127) > 1e-6:
		t.Errorf("p = %v, want 0.153127", *b.DiffP)
	}
	if lo, hi := (rating.WDL{Wins: 60, Losses: 40}).ScoreInterval(0.95); b.Low != lo || b.High != hi {
		t.Errorf("row b interval [%v, %v], want rating's [%v, %v]", b.Low, b.High, lo, hi)
	}
	if c.Reference != nil {
		t.Errorf("checkers comparison has the Cheversi human reference")
	}

	// With pairs, the standard error is the pairs': [1, 0, 2, 0, 1] has
	// pair scores 0, .5, .5, 1, mean .5 and per-pair variance 1/8, so
	// sqrt(1/8/4) = .176777.
	c = mustCompare(t, []CompareEntry{{Name: "p", Game: "cheversi", Preset: "cheversi", FirstMover: "white",
		Counts: rating.WDL{Wins: 3, Draws: 2, Losses: 3}, Pairs: &rating.Pentanomial{1, 0, 2, 0, 1}}}, 0)
	if r := c.Rows[0]; r.IntervalFrom != "pairs" || math.Abs(r.StdErr-0.176777) > 1e-6 || !(r.Low < 0.5 && r.High > 0.5) {
		t.Errorf("paired row: from %q, std err %v, interval [%v, %v]; want pairs, 0.176777, around .5", r.IntervalFrom, r.StdErr, r.Low, r.High)
	}
	// The human figure: 3023 / 375 / 5553.
	ref := c.Reference
	if ref == nil || ref.Counts.Games() != 8951 || math.Abs(ref.Score-(3023+375/2.0)/8951) > 1e-12 {
		t.Fatalf("reference %+v, want the 8951 human games", ref)
	}
	if lo, hi := ref.Counts.ScoreInterval(0.95); ref.Low != lo || ref.High != hi {
		t.Errorf("reference interval [%v, %v], want [%v, %v]", ref.Low, ref.High, lo, hi)
	}
}

func TestCompareNoGames(t *testing.T) {
	entries := compareEntries()
	c := mustCompare(t, entries, len(entries)-1)
	for i, r := range c.Rows {
		if r.Diff != nil {
			t.Errorf("row %d has a difference from a baseline without games", i+1)
		}
	}
	last := c.Rows[len(c.Rows)-1]
	if last.Games != 0 || last.Score != 0 || last.IntervalFrom != "" {
		t.Errorf("row without games: %+v, want zero statistics", last)
	}
	var b bytes.Buffer
	if err := WriteCompareJSON(&b, c); err != nil {
		t.Fatalf("JSON of a comparison with an empty row: %v", err)
	}
}

func TestCompareErrors(t *testing.T) {
	if _, err := Compare(nil, 0, 0); !errors.Is(err, ErrNoEntries) {
		t.Errorf("Compare(nil) error = %v, want ErrNoEntries", err)
	}
	for _, base := range []int{-1, 6} {
		if _, err := Compare(compareEntries(), base, 0); err == nil {
			t.Errorf("baseline %d: no error", base)
		}
	}
	if _, err := Compare(compareEntries(), 0, 1.5); err == nil {
		t.Error("confidence 1.5: no error")
	}
}

func TestCompareGolden(t *testing.T) {
	c := mustCompare(t, compareEntries(), 0)
	for _, w := range []struct {
		file  string
		write func(*bytes.Buffer, *Comparison) error
	}{
		{"compare.md.golden", func(b *bytes.Buffer, c *Comparison) error { return WriteCompareMarkdown(b, c) }},
		{"compare-table.md.golden", func(b *bytes.Buffer, c *Comparison) error { return WriteCompareMarkdownTable(b, c) }},
		{"compare.csv.golden", func(b *bytes.Buffer, c *Comparison) error { return WriteCompareCSV(b, c) }},
		{"compare.json.golden", func(b *bytes.Buffer, c *Comparison) error { return WriteCompareJSON(b, c) }},
		{"compare.txt.golden", func(b *bytes.Buffer, c *Comparison) error { return WriteCompareTerminal(b, c) }},
		{"compare.html.golden", func(b *bytes.Buffer, c *Comparison) error { return WriteCompareHTML(b, c) }},
		{"compare.svg.golden", func(b *bytes.Buffer, c *Comparison) error { return WriteCompareSVG(b, c) }},
	} {
		t.Run(w.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := w.write(&b, c); err != nil {
				t.Fatal(err)
			}
			golden(t, w.file, b.Bytes())
		})
	}
}

// TestCompareJSONRoundTrip: the entries read back from compare.json give
// the same comparison, byte for byte.
func TestCompareJSONRoundTrip(t *testing.T) {
	c := mustCompare(t, compareEntries(), 1)
	var first bytes.Buffer
	if err := WriteCompareJSON(&first, c); err != nil {
		t.Fatal(err)
	}
	entries, base, conf, err := ReadCompareJSON(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	again, err := Compare(entries, base, conf)
	if err != nil {
		t.Fatal(err)
	}
	var second bytes.Buffer
	if err := WriteCompareJSON(&second, again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("round trip changed the comparison:\n%s\n---\n%s", first.Bytes(), second.Bytes())
	}
	if _, _, _, err := ReadCompareJSON(strings.NewReader("{")); err == nil {
		t.Error("ReadCompareJSON accepted a broken file")
	}
}

func TestCompareCSVParses(t *testing.T) {
	c := mustCompare(t, compareEntries(), 0)
	var b bytes.Buffer
	if err := WriteCompareCSV(&b, c); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+len(c.Rows) {
		t.Fatalf("%d records, want a header and %d rows", len(recs), len(c.Rows))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	if got := recs[1][col["score_pct"]]; got != "49.00" {
		t.Errorf("first row's score_pct %q, want 49.00", got)
	}
	if got := recs[1][col["pairs"]]; got != "200 12 60 8 220" {
		t.Errorf("first row's pairs %q", got)
	}
	if got := recs[6][col["score_pct"]]; got != "" {
		t.Errorf("row without games has score_pct %q, want empty", got)
	}
}

func TestCompareHTMLChart(t *testing.T) {
	c := mustCompare(t, compareEntries(), 0)
	ch := compareChart(c)
	if ch == nil {
		t.Fatal("no chart")
	}
	// Three rule sets have node limits; the clock run and the forfeited
	// one are left off.
	if len(ch.Series) != 3 {
		t.Errorf("%d lines, want 3", len(ch.Series))
	}
	if got := strings.Join(ch.Off, ", "); got != "clock <b>x</b> & y, all forfeits" {
		t.Errorf("left off %q", got)
	}
	// The cheversi line runs from 2000 to 20000 nodes: left to right.
	if s := ch.Series[0]; len(s.Dots) != 2 || s.Dots[0].Title[:11] != "cheversi-2k" {
		t.Errorf("first line %+v, want cheversi-2k then cheversi-20k", s)
	}
	if ch.Reference == nil || !strings.Contains(ch.Reference.Label, "35.9%") {
		t.Errorf("reference line %+v, want the human 35.9%%", ch.Reference)
	}
	var ticks []string
	for _, x := range ch.XTicks {
		ticks = append(ticks, x.Label)
	}
	if got := strings.Join(ticks, " "); got != "1k 10k 100k" {
		t.Errorf("x ticks %q, want 1k 10k 100k", got)
	}
	if compareChart(mustCompare(t, compareEntries()[4:5], 0)) != nil {
		t.Error("a chart without any node limit")
	}
	if err := WriteCompareSVG(io.Discard, mustCompare(t, compareEntries()[4:5], 0)); !errors.Is(err, ErrNoChart) {
		t.Errorf("SVG without anything to draw: %v, want ErrNoChart", err)
	}

	var b bytes.Buffer
	if err := WriteCompareHTML(&b, c); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<b>x", "a<i>", " src=", " href=", "@import", "url("} {
		if strings.Contains(out, bad) {
			t.Errorf("compare.html contains %q", bad)
		}
	}
	for _, u := range regexp.MustCompile(`https?://[^"' ]+`).FindAllString(out, -1) {
		if u != "http://www.w3.org/2000/svg" {
			t.Errorf("compare.html mentions %s", u)
		}
	}
}

// TestCompareChartLabels checks the chart's line names: the rules alone
// when the preset names the game, the game before a preset that does not.
func TestCompareChartLabels(t *testing.T) {
	entry := func(g, preset string, sw ...game.Setting) CompareEntry {
		return CompareEntry{Name: preset, Game: g, Preset: preset, Switches: sw, Bots: []string{"a", "b"},
			Strength: "1000 nodes", Nodes: 1000, FirstMover: "white", Counts: rating.WDL{Wins: 5, Draws: 1, Losses: 4}}
	}
	c := mustCompare(t, []CompareEntry{
		entry("cheversi", "cheversi"), entry("cheversi", "cheversi-classic"), entry("cheversi", "echeversi"),
		entry("cheversi", "cheversi", game.Setting{Key: "touch", Value: "any"}), entry("checkers", "american"),
	}, 0)
	var got []string
	for _, s := range compareChart(c).Series {
		got = append(got, s.Label)
	}
	want := []string{"cheversi", "cheversi-classic", "echeversi", "cheversi, touch=any", "checkers: american"}
	if !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
}

// TestCompareHTMLRendersInChromium lays out compare.html in headless
// Chromium and measures the chart: a line per rule set, drawn with some
// extent, a point per tournament with a node limit, and the names as text.
func TestCompareHTMLRendersInChromium(t *testing.T) {
	ctx := browsertest.Start(t)
	c := mustCompare(t, compareEntries(), 0)
	var b bytes.Buffer
	if err := WriteCompareHTML(&b, c); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "compare.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	browsertest.Open(t, ctx, "file://"+path)
	lines := browsertest.Eval[[]float64](t, ctx, `Array.from(document.querySelectorAll("#compare-chart polyline"), l => l.getBBox().width)`)
	if len(lines) != 3 || lines[0] <= 0 {
		t.Errorf("line widths %v, want 3 lines, the first (two strengths) wider than 0", lines)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("#compare-chart circle").length`); n != 4 {
		t.Errorf("%d points, want 4", n)
	}
	if h := browsertest.Eval[float64](t, ctx, `document.getElementById("compare-chart").getBoundingClientRect().height`); h < 100 {
		t.Errorf("chart %v pixels high", h)
	}
	text := browsertest.Eval[string](t, ctx, `document.getElementById("compare").innerText`)
	if !strings.Contains(text, "clock <b>x</b> & y") {
		t.Errorf("table text lacks the name as text:\n%s", text)
	}
	// The design metrics: one row for the one tournament that has them,
	// its cells under their headings, the table as wide as its text.
	type designCell struct{ Head, Cell string }
	cells := browsertest.Eval[[]designCell](t, ctx, `(() => {
		const heads = Array.from(document.querySelectorAll("#design thead th"), th => th.innerText.trim());
		const rows = document.querySelectorAll("#design tbody tr");
		if (rows.length !== 1) return [{Head: "rows", Cell: String(rows.length)}];
		return Array.from(rows[0].cells, (td, i) => ({Head: heads[i], Cell: td.innerText.trim()}));
	})()`)
	d := testDesign()
	want := map[string]string{"": "1 cheversi-20k", "Games": strconv.Itoa(d.Played), "Draws": fmt.Sprintf("%.1f%%", 100*d.DrawRate),
		"Balance": fmt.Sprintf("%.3f", d.Balance), "Branching": fmt.Sprintf("%.1f", d.Branching)}
	found := 0
	for _, c := range cells {
		if w, ok := want[c.Head]; ok {
			found++
			if c.Cell != w {
				t.Errorf("design metrics, %q: %q, want %q", c.Head, c.Cell, w)
			}
		}
	}
	if found != len(want) {
		t.Errorf("design metrics table %v lacks some of the columns %v", cells, want)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("#plies tbody tr").length`); n == 0 {
		t.Error("no branching by ply")
	}
	browsertest.Screenshot(t, ctx, "compare", 1300)
}
