package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports/browsertest"
)

// groupsAnalysis is computed from games: two groups of players that never
// met, openings and colour-reversed pairs.
func groupsAnalysis(t *testing.T) *rating.Analysis {
	t.Helper()
	var games []rating.Game
	add := func(w, b string, r game.Result, opening, key string) {
		games = append(games, rating.Game{White: w, Black: b, FirstMover: game.Black, Result: r, Opening: opening, PairKey: key})
	}
	add("x<1>", "y&2", game.WhiteWins, "o1", "k1")
	add("y&2", "x<1>", game.Draw, "o1", "k1")
	add("x<1>", "y&2", game.BlackWins, "o2", "k2")
	add("y&2", "x<1>", game.BlackWins, "o2", "k2")
	add("p", "q", game.Draw, "", "")
	add("q", "r", game.WhiteWins, "", "")
	add("r", "p", game.Draw, "", "")
	a, err := rating.Analyze(games, rating.Options{Model: rating.Ordo, Offset: 1500})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestHTMLEscapesAndIsSelfContained(t *testing.T) {
	for name, a := range map[string]*rating.Analysis{"hand-made": testAnalysis(), "groups": groupsAnalysis(t)} {
		var b bytes.Buffer
		if err := WriteHTML(&b, testMeta(), a); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, bad := range []string{"<b>Bob", "<cup>", "<note>", "<x>", "x<1>", "y&2"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: report.html contains unescaped %q", name, bad)
			}
		}
		// Nothing is fetched: no links, sources, imports or CSS urls; the
		// only URL is the SVG namespace.
		for _, bad := range []string{" src=", " href=", "@import", "url("} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: report.html refers to outside content (%q)", name, bad)
			}
		}
		urls := regexp.MustCompile(`https?://[^"' ]+`).FindAllString(out, -1)
		for _, u := range urls {
			if u != "http://www.w3.org/2000/svg" {
				t.Errorf("%s: report.html mentions %s", name, u)
			}
		}
		if got := strings.Count(out, "<svg "); got != 2 {
			t.Errorf("%s: %d charts, want 2", name, got)
		}
	}
}

// TestHTMLRendersInChromium loads report.html in headless Chromium and
// checks that the charts are there and that the page's script ran (it
// flips a marker element), which it would not after a script error.
func TestHTMLRendersInChromium(t *testing.T) {
	ctx := browsertest.Start(t)
	dir := t.TempDir()
	for name, a := range map[string]*rating.Analysis{"handmade": testAnalysis(), "groups": groupsAnalysis(t)} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".html")
			var b bytes.Buffer
			if err := WriteHTML(&b, testMeta(), a); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			browsertest.Open(t, ctx, "file://"+path)
			browsertest.WaitFor(t, ctx, "the page's script", `document.getElementById("render-check").getAttribute("data-ok") === "yes"`)
			page := browsertest.Eval[string](t, ctx, "document.documentElement.outerHTML")
			for _, want := range []string{"Click a column heading to sort its table", `id="ratings-chart"`, `id="side-chart"`, `id="cross"`, "<circle"} {
				if !strings.Contains(page, want) {
					t.Errorf("rendered page lacks %q", want)
				}
			}
			// The names come out as text, not markup.
			for _, p := range a.Players {
				if strings.ContainsAny(p.Name, "<&") && !strings.Contains(page, strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(p.Name)) {
					t.Errorf("name %q not shown as text", p.Name)
				}
			}
			if strings.Contains(page, "<b>Bob</b>") {
				t.Error("a player's name became markup")
			}
			// What is proved of the rules stands beside the verdict, as
			// text, only when there is something.
			proved := browsertest.Eval[string](t, ctx, `(document.getElementById("proved") || {textContent: ""}).textContent`)
			if want := provedText(a); proved != want || (want == "") != (a.SideBalance.Proved == nil) {
				t.Errorf("proved paragraph %q, want %q", proved, want)
			}
		})
	}
}

// TestRatingsChartHugeRatings: ratings so large that a tick step is below
// their precision still give a finite set of ticks, in order.
func TestRatingsChartHugeRatings(t *testing.T) {
	for _, offset := range []float64{0, 1500, 1e17, 1e18, 4e18, 1e300} {
		a := testAnalysis()
		a.Fit.Offset = offset
		for i := range a.Players {
			a.Players[i].Elo += offset
			a.Players[i].Interval = 1
		}
		done := make(chan ratingChart, 1)
		go func() { done <- ratingsChart(a) }()
		select {
		case c := <-done:
			if len(c.Ticks) > 8 {
				t.Errorf("offset %g: %d ticks, want at most 8", offset, len(c.Ticks))
			}
			if offset < 1e15 && len(c.Ticks) < 2 {
				t.Errorf("offset %g: %d ticks, want at least 2", offset, len(c.Ticks))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("offset %g: the ratings chart did not finish", offset)
		}
	}
}

// TestSideChartOnlyForfeits: when every game was a forfeit the side
// balance has no games, and the chart draws no bar rather than NaN widths.
func TestSideChartOnlyForfeits(t *testing.T) {
	games := []rating.Game{
		{White: "a", Black: "b", FirstMover: game.White, Result: game.WhiteWins, Forfeit: true},
		{White: "b", Black: "a", FirstMover: game.White, Result: game.BlackWins, Forfeit: true},
	}
	a, err := rating.Analyze(games, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, Meta{}, a); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "NaN") {
		t.Errorf("report.html of forfeits only contains NaN")
	}
}
