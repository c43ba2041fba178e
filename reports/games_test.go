package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/reports/browsertest"
	"github.com/arena-games/arena/reports/viewer"
)

func TestSpreadVisitsEveryIndexOnce(t *testing.T) {
	for n := range 300 {
		seen := make([]bool, n)
		count := 0
		for i := range spread(n) {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("n=%d: index %d out of range or repeated", n, i)
			}
			seen[i] = true
			count++
		}
		if count != n {
			t.Errorf("n=%d: visited %d indices", n, count)
		}
	}
	var first []int
	for i := range spread(100) {
		if len(first) == 4 {
			break
		}
		first = append(first, i)
	}
	if fmt.Sprint(first) != "[0 64 32 96]" {
		t.Errorf("spread(100) starts %v, want [0 64 32 96]", first)
	}
}

// testGames returns n games of Cheversi between four bots with <, & and
// quotes in their names; every game is a real random game (a few distinct
// ones, reused), and every tenth is a forfeit.
func testGames(t testing.TB, n int) *Games {
	t.Helper()
	rules, err := cheversi.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	var games [][]viewer.Move
	for seed := range uint64(16) {
		rng := rand.New(rand.NewPCG(seed, 1))
		st := rules.Start()
		var moves []viewer.Move
		var buf []game.Move
		for !st.Outcome().Over() {
			buf = st.LegalMoves(buf[:0])
			m := buf[rng.IntN(len(buf))]
			moves = append(moves, viewer.Move{Text: m.String(), MS: rng.Float64() * 100})
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		games = append(games, moves)
	}
	bots := []string{"<b>Bob</b>", "x&y", `"q"`, "plain"}
	list := viewer.NewList("cheversi")
	for i := range n {
		w, b := bots[i%4], bots[(i/4+1+i%4)%4]
		if w == b {
			b = bots[(i+2)%4]
		}
		reason, res := "score", []string{"1-0", "0-1", "1/2-1/2"}[i%3]
		if i%10 == 9 {
			reason = "forfeit: time"
		}
		list.Add(viewer.Summary{ID: i + 1, Round: 1 + i/1000, White: w, Black: b, Opening: fmt.Sprintf("opening <%d>", i%7), Result: res, Reason: reason, Plies: 16})
	}
	load := func(i int) (*viewer.Game, error) {
		r := list.Rows[i]
		plies, err := viewer.Replay(rules, games[i%len(games)])
		if err != nil {
			return nil, err
		}
		g := &viewer.Game{ID: r.ID, Game: "cheversi", White: list.Bots[r.White], Black: list.Bots[r.Black], Opening: list.Openings[r.Opening],
			Result: []string{"1-0", "0-1", "1/2-1/2"}[r.Result], Reason: "score", Plies: plies}
		if strings.HasPrefix(list.Reasons[r.Reason], "forfeit") {
			g.Reason = "forfeit"
			g.Forfeit = &viewer.Forfeit{Kind: "time", Bot: g.White, Color: "white", Detail: "move took <5s>"}
		}
		return g, nil
	}
	return &Games{List: list, Load: load, Dir: "results/<dir>"}
}

// embedded decodes the viewer data of a report.html.
func embedded(t *testing.T, page string) viewerPage {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="game-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("report.html has no game data")
	}
	var v viewerPage
	if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
		t.Fatalf("game data: %v", err)
	}
	return v
}

func TestHTMLGamesEscapedAndLinked(t *testing.T) {
	m := testMeta()
	m.Games = testGames(t, 40)
	var b bytes.Buffer
	if err := WriteHTML(&b, m, testAnalysis()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<b>Bob", "x&y", "<dir>", "opening <3>"} {
		if strings.Contains(out, bad) {
			t.Errorf("report.html contains unescaped %q", bad)
		}
	}
	// The only links are to the page's own game list; nothing is fetched.
	for _, l := range regexp.MustCompile(` (href|src)="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(l[2], "#games?") {
			t.Errorf("report.html links to %s", l[0])
		}
	}
	v := embedded(t, out)
	if len(v.List.Rows) != 40 || len(v.Games) != 40 || !strings.Contains(v.Note, "all 40 games") {
		t.Errorf("%d rows, %d games, note %q; want all 40", len(v.List.Rows), len(v.Games), v.Note)
	}
}

// TestViewerDataBudget: with a small budget the page holds the forfeits
// first, then games spread over the list, and never more than the budget.
func TestViewerDataBudget(t *testing.T) {
	g := testGames(t, 1000)
	const budget = 64 << 10
	var js bytes.Buffer
	if err := writeViewerData(&js, g, budget); err != nil {
		t.Fatal(err)
	}
	var v viewerPage
	if err := json.Unmarshal(js.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	total, forfeits, maxID := 0, 0, 0
	for id, data := range v.Games {
		total += len(data)
		var gm viewer.Game
		if err := json.Unmarshal(data, &gm); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(gm.ID) != id {
			t.Errorf("game %s holds game %d", id, gm.ID)
		}
		if gm.Forfeit != nil {
			forfeits++
		}
		maxID = max(maxID, gm.ID)
	}
	if total > budget {
		t.Errorf("%d bytes of games, budget %d", total, budget)
	}
	if len(v.Games) == 0 || len(v.Games) == 1000 {
		t.Fatalf("%d games embedded; want a sample", len(v.Games))
	}
	if forfeits == 0 || maxID < 900 {
		t.Errorf("sample of %d games has %d forfeits and reaches game %d; want forfeits and a spread", len(v.Games), forfeits, maxID)
	}
	if !strings.Contains(v.Note, fmt.Sprintf("%d of the 1000 games", len(v.Games))) || !strings.Contains(v.Missing, "arena serve results/<dir>") {
		t.Errorf("note %q, missing %q", v.Note, v.Missing)
	}
}

// maxHugeReport is the stated bound of report.html with 100,000 games.
const maxHugeReport = 8 << 20

// TestHTMLHundredThousandGames: the report of 100,000 games stays under
// its stated size and, in Chromium, lists, filters and pages through the
// games and opens one.
func TestHTMLHundredThousandGames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a report of 100,000 games")
	}
	m := testMeta()
	m.Games = testGames(t, 100_000)
	var b bytes.Buffer
	start := time.Now()
	if err := WriteHTML(&b, m, testAnalysis()); err != nil {
		t.Fatal(err)
	}
	t.Logf("report.html of 100,000 games: %d bytes in %v", b.Len(), time.Since(start).Round(time.Millisecond))
	if b.Len() > maxHugeReport {
		t.Errorf("report.html of 100,000 games is %d bytes, over the %d bound", b.Len(), maxHugeReport)
	}
	v := embedded(t, b.String())
	if len(v.List.Rows) != 100_000 {
		t.Fatalf("%d games listed", len(v.List.Rows))
	}

	ctx := browsertest.Start(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	browsertest.Open(t, ctx, "file://"+path)
	browsertest.WaitFor(t, ctx, "the page's script", `document.getElementById("render-check").getAttribute("data-ok") === "yes"`)
	t.Logf("Chromium loaded it in %v", time.Since(start).Round(time.Millisecond))
	count := func() int {
		return browsertest.Eval[int](t, ctx, `Number(document.querySelector(".av-count").getAttribute("data-count"))`)
	}
	if n := count(); n != 100_000 {
		t.Errorf("the list counts %d games", n)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("table.av-list tbody tr").length`); n != 50 {
		t.Errorf("a page of the list has %d rows, want 50", n)
	}
	browsertest.Click(t, ctx, "button.av-next")
	browsertest.WaitFor(t, ctx, "page 2", `document.querySelector("table.av-list tbody tr").getAttribute("data-id") === "51"`)
	// Filter on a reason: every tenth game is a forfeit.
	browsertest.Eval[bool](t, ctx, `(function () {
		const s = document.querySelector("select[data-filter=reason]");
		s.value = Array.from(s.options).find(function (o) { return o.text === "forfeit: time"; }).value;
		s.dispatchEvent(new Event("change"));
		return true;
	})()`)
	if n := count(); n != 10_000 {
		t.Errorf("%d forfeits listed, want 10000", n)
	}
	browsertest.Click(t, ctx, ".av-filters button")
	browsertest.WaitFor(t, ctx, "the whole list", `document.querySelector(".av-count").getAttribute("data-count") === "100000"`)
	// A listed game without moves in the page says where to see it; a
	// sampled one opens.
	missing := browsertest.Eval[int](t, ctx, `Number(document.querySelector("table.av-list tr.av-nodata").getAttribute("data-id"))`)
	browsertest.Click(t, ctx, fmt.Sprintf(`table.av-list tr[data-id="%d"]`, missing))
	browsertest.WaitFor(t, ctx, "the missing-game note", `document.querySelector("#av-game .av-missing")`)
	if s := browsertest.Eval[string](t, ctx, `document.querySelector("#av-game .av-missing").textContent`); !strings.Contains(s, "arena serve results/<dir>") {
		t.Errorf("missing game note %q", s)
	}
	sampled := browsertest.Eval[int](t, ctx, `Number(document.querySelector("table.av-list tr.av-row:not(.av-nodata)").getAttribute("data-id"))`)
	browsertest.Click(t, ctx, fmt.Sprintf(`table.av-list tr[data-id="%d"]`, sampled))
	browsertest.WaitFor(t, ctx, "the sampled game", `document.querySelector("#av-game svg.av-board")`)
}

// BenchmarkWriteHTMLGames measures report.html with the game viewer for
// tournaments of 1,000 and 100,000 games (the moves of up to MaxGameBytes
// of them replayed and embedded).
func BenchmarkWriteHTMLGames(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := testMeta()
			m.Games = testGames(b, n)
			a := testAnalysis()
			var buf bytes.Buffer
			b.ResetTimer()
			for range b.N {
				buf.Reset()
				if err := WriteHTML(&buf, m, a); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len())/1e6, "MB")
		})
	}
}

// TestViewerDataStreamed: the viewer data written row by row is what
// json.Marshal writes for the whole page, whether the rows are in the
// list or read through Rows.
func TestViewerDataStreamed(t *testing.T) {
	for _, n := range []int{1, 7, 1000} {
		for _, budget := range []int{MaxGameBytes, 16 << 10} {
			g := testGames(t, n)
			page, err := viewerSample(g, budget)
			if err != nil {
				t.Fatal(err)
			}
			page.List = g.List
			want, err := json.Marshal(page)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := writeViewerData(&got, g, budget); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%d games, budget %d: streamed data differs from json.Marshal:\n%.300s\nwant\n%.300s", n, budget, got.Bytes(), want)
			}

			// The same list kept out of memory.
			rows := g.List.Rows
			header := *g.List
			header.Rows = nil
			out := &Games{List: &header, Rows: countingRows{sliceRows(rows)}, Load: g.Load, Dir: g.Dir}
			var kept bytes.Buffer
			if err := writeViewerData(&kept, out, budget); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(kept.Bytes(), want) {
				t.Errorf("%d games, budget %d: data from Rows differs from the list's", n, budget)
			}
			var list bytes.Buffer
			if err := WriteList(&list, &header, sliceRows(rows)); err != nil {
				t.Fatal(err)
			}
			if wantList, _ := json.Marshal(g.List); !bytes.Equal(list.Bytes(), wantList) {
				t.Errorf("%d games: WriteList = %.200s, want %.200s", n, list.Bytes(), wantList)
			}
		}
	}
}

// countingRows hides a list's rows behind the Rows interface.
type countingRows struct{ Rows }
