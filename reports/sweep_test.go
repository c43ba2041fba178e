package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/arena/race"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/sweep"
	"github.com/arena-games/arena/reports/browsertest"
)

// testSweep is a sweep of three komi values at two strengths, raced on
// fixed patterns of results: some variants stop at each look, one runs to
// its budget. Its metrics come from made-up games.
func testSweep(t testing.TB) *sweep.Status {
	t.Helper()
	names := []string{"komi=0", "komi=0.5 <b>", "komi=3"}
	patterns := [][]float64{
		{1, 1, 1, 0.5, 0, 1, 0, 1, 0.5, 0}, // 0.6
		{1, 1, 0, 1, 0, 1, 0, 1, 0, 0},     // 0.5
		{0, 0, 1, 0, 0, 0, 1, 0, 0, 0},     // 0.2
	}
	cfg := race.Config{Arms: 6, Target: 0.5, Precision: 0.05, Alpha: 0.05, MaxOpenings: 1000, MinOpenings: 100, Groups: []int{0, 0, 0, 1, 1, 1}}
	r, err := race.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]rating.WDL, 6)
	for !r.Done() {
		for i := range 6 {
			for k := 0; k < 100 && r.Active(i); k++ {
				p := patterns[i%3][(r.Openings(i)+i/3)%10]
				if err := r.Add(i, p); err != nil {
					t.Fatal(err)
				}
				switch p {
				case 1:
					counts[i].Wins++
				case 0:
					counts[i].Losses++
				default:
					counts[i].Draws++
				}
			}
		}
		r.Look()
	}
	st := &sweep.Status{Name: "komi <test>", Game: "cheversi", Preset: "cheversi", Base: []game.Setting{{Key: "touch", Value: "any"}},
		Bots: []string{"expert-1", "expert-2"}, Race: cfg, ArmAlpha: cfg.ArmAlpha(), ContrastAlpha: cfg.ContrastAlpha(),
		Batch: 100, Looks: r.Looks(), Openings: 1000, Done: true, Key: "0123456789abcdef",
		Reference: "The exact margin under best play is not known yet."}
	for i := range 6 {
		var gs []metrics.Game
		for k := range 10 {
			res := []game.Result{game.WhiteWins, game.BlackWins, game.Draw}[(k+i)%3]
			gs = append(gs, metrics.Game{FirstMover: game.White, Result: res, Reason: game.ReasonScore, Plies: 4,
				Scores: []int{20 + k, 18 + i}, Legal: []int{64, 26, 20 + k%3, 1},
				Evals: []metrics.Eval{{Ply: 3, Mover: game.White, Score: k - 4}, {Ply: 4, Mover: game.Black, Score: 3 - k}}})
		}
		strength := []string{"1000 nodes", "10000 nodes"}[i/3]
		v := sweep.Variant{Name: names[i%3], Strength: strength, Group: i / 3, Dir: "arms/" + strconv.Itoa(i),
			Key: "key" + strconv.Itoa(i), Arm: r.Arm(i), Counts: counts[i], Metrics: metrics.Summarize(gs)}
		if i%3 == 1 {
			v.Proved = &game.Solution{Statement: "from the empty board, perfect play draws", Result: "draw <proved>", Source: "a proof & its checks"}
		}
		if i%3 != 0 {
			if d, ok := r.Difference(i, i/3*3); ok {
				v.Versus = &d
			}
		}
		if i >= 3 {
			if d, ok := r.Difference(i, i-3); ok {
				v.VersusStrength = &d
			}
		}
		st.Variants = append(st.Variants, v)
	}
	return st
}

func TestSweepGolden(t *testing.T) {
	s := testSweep(t)
	for _, w := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"sweep.md.golden", func(b *bytes.Buffer) error { return WriteSweepMarkdown(b, s) }},
		{"sweep.csv.golden", func(b *bytes.Buffer) error { return WriteSweepCSV(b, s) }},
		{"sweep.json.golden", func(b *bytes.Buffer) error { return WriteSweepJSON(b, s) }},
		{"sweep.html.golden", func(b *bytes.Buffer) error { return WriteSweepHTML(b, s) }},
		{"sweep.txt.golden", func(b *bytes.Buffer) error { return WriteSweepTerminal(b, s, 0) }},
		{"sweep80.txt.golden", func(b *bytes.Buffer) error { return WriteSweepTerminal(b, s, 80) }},
	} {
		var b bytes.Buffer
		if err := w.write(&b); err != nil {
			t.Fatalf("%s: %v", w.file, err)
		}
		golden(t, w.file, b.Bytes())
	}
	// The JSON is the status, whole.
	var b bytes.Buffer
	WriteSweepJSON(&b, s)
	var back sweep.Status
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Variants) != 6 || back.Variants[4].Arm != s.Variants[4].Arm {
		t.Errorf("sweep.json read back: %v, %+v", err, back.Variants)
	}
}

// TestSweepHTMLInChromium loads sweep.html in headless Chromium and checks
// the chart as drawn: a row per variant in the race table's order, every
// interval around its score, the target inside the tolerance band, a stop
// marker at the end of the bar of every variant that stopped, and names
// shown as text.
func TestSweepHTMLInChromium(t *testing.T) {
	ctx := browsertest.Start(t)
	s := testSweep(t)
	// One variant still running, to be drawn without a stop marker.
	s.Variants[3].Arm.Reason, s.Variants[3].Arm.Look, s.Done = race.Running, 0, false
	path := filepath.Join(t.TempDir(), "sweep.html")
	var b bytes.Buffer
	if err := WriteSweepHTML(&b, s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	browsertest.Open(t, ctx, "file://"+path)
	browsertest.WaitFor(t, ctx, "the chart", `document.querySelectorAll("#sweep-chart g.variant").length > 0`)
	type row struct {
		Label      string
		X1, X2, CX float64
		Stop       bool
		LabelRight float64
		Colour     string
	}
	rows := browsertest.Eval[[]row](t, ctx, `Array.from(document.querySelectorAll("#sweep-chart g.variant")).map(g => {
		const num = (sel, attr) => { const e = g.querySelector(sel); return e ? parseFloat(e.getAttribute(attr)) : NaN; };
		const label = g.querySelector("text"), box = label.getBBox();
		return {Label: label.textContent, X1: num("line.interval", "x1"), X2: num("line.interval", "x2"), CX: num("circle.score", "cx"),
			Stop: g.querySelector("line.stop") !== null, LabelRight: box.x + box.width,
			Colour: g.querySelector("circle.score").getAttribute("fill")};
	})`)
	plotLeft := browsertest.Eval[float64](t, ctx, `parseFloat(document.querySelector("#sweep-chart line.axis-score").getAttribute("x1"))`)
	if len(rows) != len(s.Variants) {
		t.Fatalf("%d rows in the chart, want %d", len(rows), len(s.Variants))
	}
	var order []string
	for g := range s.Groups() {
		for _, v := range sweepRanking(s, g) {
			order = append(order, v.Name)
		}
	}
	left := browsertest.Eval[float64](t, ctx, `parseFloat(document.querySelector("#sweep-chart line.target").getAttribute("x1"))`)
	band := browsertest.Eval[[]float64](t, ctx, `(() => { const b = document.querySelector("#sweep-chart rect.band"); return [parseFloat(b.getAttribute("x")), parseFloat(b.getAttribute("width"))]; })()`)
	if !(band[0] < left && left < band[0]+band[1]) {
		t.Errorf("the target line at %v is not inside the tolerance band %v", left, band)
	}
	for i, r := range rows {
		if r.Label != order[i] {
			t.Errorf("row %d: %q, want %q (the race table's order)", i+1, r.Label, order[i])
		}
		if !(r.X1 <= r.CX && r.CX <= r.X2) {
			t.Errorf("row %q: score at %v outside its interval [%v, %v]", r.Label, r.CX, r.X1, r.X2)
		}
		if r.LabelRight > plotLeft {
			t.Errorf("row %q: its label runs into the plot (ends at %v, the plot starts at %v)", r.Label, r.LabelRight, plotLeft)
		}
	}
	k := 0
	for g := range s.Groups() {
		for _, v := range sweepRanking(s, g) {
			r := rows[k]
			k++
			if r.Stop != (v.Arm.Reason != race.Running) {
				t.Errorf("row %q (%s): stop marker %v", r.Label, v.Arm.Reason, r.Stop)
			}
			if r.Colour != statusColours[v.Arm.Reason] {
				t.Errorf("row %q (%s): colour %s, want %s", r.Label, v.Arm.Reason, r.Colour, statusColours[v.Arm.Reason])
			}
		}
	}
	page := browsertest.Eval[string](t, ctx, "document.documentElement.outerHTML")
	if strings.Contains(page, "<b>") || !strings.Contains(page, "komi=0.5 &lt;b&gt;") {
		t.Error("a variant's name became markup")
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("#race tbody tr").length`); n != 6 {
		t.Errorf("the race table has %d rows, want 6", n)
	}
	if w := browsertest.Eval[float64](t, ctx, `document.getElementById("sweep-chart").getBoundingClientRect().width`); w < 600 || w > 1300 {
		t.Errorf("the chart is %v pixels wide", w)
	}
	browsertest.Screenshot(t, ctx, "sweep", 1300)
}

func TestSweepTablesAndSVG(t *testing.T) {
	s := testSweep(t)
	var b bytes.Buffer
	if err := WriteSweepMarkdownTables(&b, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "sweep-tables.md.golden", b.Bytes())
	b.Reset()
	if err := WriteSweepSVG(&b, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "sweep.svg.golden", b.Bytes())
	if !strings.HasPrefix(b.String(), "<svg ") || strings.Count(b.String(), `class="variant"`) != 6 {
		t.Errorf("the chart alone is not an SVG document with 6 variants:\n%.300s", b.String())
	}
}
