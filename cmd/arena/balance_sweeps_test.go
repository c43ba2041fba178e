package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/arena/race"
	"github.com/arena-games/arena/arena/sweep"
	"github.com/arena-games/arena/reports"
	"github.com/arena-games/arena/reports/browsertest"
)

// The study's sweeps (configs/study/sweep-*.toml) are checked against
// their data as the tournaments are: the result of every game of every
// variant, first mover's point of view, and the design metrics of each
// variant's games are committed in docs/balance/sweeps.json.gz with the
// data key of the variant's tournament. TestBalanceSweeps draws every
// sweep's openings and builds its tournaments again from the
// configurations, requires the committed data keys to be theirs (a key
// covers the rules, the openings, the players and their node limits), runs
// each race again on the committed results and requires its tables
// (between <!-- balance:sweep-NAME --> markers) and its chart
// (docs/balance/sweep-NAME.svg) to be the document's. After the sweeps
// are played again,
//
//	go test ./cmd/arena -run TestBalanceDoc -balance.sweeps results/study
//
// reads them from results/study/sweep-NAME and rewrites the data, the
// charts and the tables.
var balanceSweepsDir = flag.String("balance.sweeps", "", "rebuild docs/balance/sweeps.json.gz, the sweeps' charts and their tables in docs/balance.md from the sweeps in `DIR` (DIR/sweep-komi, ...)")

const balanceSweepData = "../../docs/balance/sweeps.json.gz"

// studySweeps are the study's sweeps, in the order of the document.
var studySweeps = []string{"sweep-komi", "sweep-switches", "sweep-opening", "sweep-cheversi", "sweep-classic", "sweep-echeversi"}

// sweepArmData is one variant at one strength as committed.
type sweepArmData struct {
	Variant  string `json:"variant"`
	Strength string `json:"strength"`
	Key      string `json:"key"`
	// Results holds one letter per opening, in order, from the first
	// mover's point of view: W won, L lost, D drawn; lower case when a
	// forfeit decided the game.
	Results string          `json:"results"`
	Metrics metrics.Summary `json:"metrics"`
}

// sweepData is one sweep as committed.
type sweepData struct {
	Name string         `json:"name"`
	Arms []sweepArmData `json:"arms"`
}

// sweepPoints maps a result letter to the first mover's points.
var sweepPoints = map[byte]float64{'W': 1, 'D': 0.5, 'L': 0, 'w': 1, 'l': 0}

// loadStudySweep loads the configuration of a study sweep.
func loadStudySweep(t *testing.T, name string) *sweep.Config {
	t.Helper()
	cfg, err := config.Load(filepath.Join(studyConfigs, name+".toml"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := sweep.FromConfig(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// readSweepData reads the committed sweeps.
func readSweepData(t *testing.T) map[string]sweepData {
	t.Helper()
	zr := openGzip(t, balanceSweepData)
	var list []sweepData
	if err := json.NewDecoder(zr).Decode(&list); err != nil {
		t.Fatalf("%s: %v", balanceSweepData, err)
	}
	out := map[string]sweepData{}
	for _, s := range list {
		out[s.Name] = s
	}
	return out
}

// collectSweep reads a played sweep: its status from the journals in dir
// and every variant's results up to where the race took them.
func collectSweep(t *testing.T, name, dir string) sweepData {
	t.Helper()
	sc := loadStudySweep(t, name)
	sc.Base.Output = dir
	st, err := sweep.Run(context.Background(), sc, sweep.Options{ReportOnly: true})
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	if !st.Done {
		t.Fatalf("%s: the race is not over (%d variants still running)", dir, len(st.Active()))
	}
	data := sweepData{Name: name}
	for _, v := range st.Variants {
		letters := bytes.Repeat([]byte("."), v.Arm.Openings)
		err := journal.Scan(filepath.Join(v.Dir, journal.File), func(r *journal.Record) error {
			if r.ID > v.Arm.Openings {
				return nil
			}
			first, err := r.FirstMoverColor()
			if err != nil {
				return err
			}
			res, err := r.GameResult()
			if err != nil {
				return err
			}
			l := byte('D')
			if w, ok := res.Winner(); ok {
				l = 'L'
				if w == first {
					l = 'W'
				}
			}
			if r.Forfeit != nil {
				l += 'a' - 'A'
			}
			letters[r.ID-1] = l
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", v.Dir, err)
		}
		if i := bytes.IndexByte(letters, '.'); i >= 0 {
			t.Fatalf("%s: game %d is missing", v.Dir, i+1)
		}
		data.Arms = append(data.Arms, sweepArmData{v.Name, v.Strength, v.Key, string(letters), v.Metrics})
	}
	return data
}

// writeSweepData writes the committed sweeps.
func writeSweepData(t *testing.T, list []sweepData) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	enc := json.NewEncoder(zw)
	if err := enc.Encode(list); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(balanceSweepData, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replayStudySweep runs the race of a study sweep again on its committed
// results, after checking that every variant's data key is the one its
// configuration gives now.
func replayStudySweep(t *testing.T, data sweepData) *sweep.Status {
	t.Helper()
	sc := loadStudySweep(t, data.Name)
	lay, err := sweep.Lay(context.Background(), sc)
	if err != nil {
		t.Fatalf("%s: %v", data.Name, err)
	}
	if len(lay.Arms) != len(data.Arms) {
		t.Fatalf("%s: %d variants committed, the configuration has %d", data.Name, len(data.Arms), len(lay.Arms))
	}
	recorded := make([]sweep.Recorded, len(data.Arms))
	for i, a := range data.Arms {
		if l := lay.Arms[i]; l.Name != a.Variant || l.Strength != a.Strength || l.Key != a.Key {
			t.Fatalf("%s: variant %d is %s at %s with data key %s; the data are of %s at %s with key %s",
				data.Name, i+1, l.Name, l.Strength, l.Key, a.Variant, a.Strength, a.Key)
		}
		rec := sweep.Recorded{Metrics: a.Metrics}
		for k := range len(a.Results) {
			p, ok := sweepPoints[a.Results[k]]
			if !ok {
				t.Fatalf("%s, %s at %s: opening %d has result %q", data.Name, a.Variant, a.Strength, k+1, a.Results[k])
			}
			rec.Points = append(rec.Points, p)
			if a.Results[k] == 'w' || a.Results[k] == 'l' {
				rec.Forfeits = append(rec.Forfeits, k+1)
			}
		}
		recorded[i] = rec
	}
	st, err := sweep.Replay(context.Background(), sc, recorded)
	if err != nil {
		t.Fatalf("%s: %v", data.Name, err)
	}
	if !st.Done {
		t.Fatalf("%s: the race on the committed data is not over", data.Name)
	}
	return st
}

// sweepChartPath is where the chart of a study sweep is committed.
func sweepChartPath(name string) string {
	return filepath.Join(filepath.Dir(balanceChart), name+".svg")
}

// studySweepTables checks (or, with -balance.update, rewrites) the
// tables and charts of the study's sweeps in doc and returns the document
// and the text of every table.
func studySweepTables(t *testing.T, doc string) (string, string) {
	t.Helper()
	update := rewriteBalanceDoc()
	if *balanceSweepsDir != "" {
		var list []sweepData
		for _, name := range studySweeps {
			list = append(list, collectSweep(t, name, filepath.Join(*balanceSweepsDir, name)))
		}
		writeSweepData(t, list)
	}
	committed := readSweepData(t)
	var tables strings.Builder
	for _, name := range studySweeps {
		data, ok := committed[name]
		if !ok {
			t.Errorf("%s has no data for %s", balanceSweepData, name)
			continue
		}
		st := replayStudySweep(t, data)
		var b, svg bytes.Buffer
		if err := reports.WriteSweepMarkdownTables(&b, st); err != nil {
			t.Fatal(err)
		}
		if err := reports.WriteSweepSVG(&svg, st); err != nil {
			t.Fatal(err)
		}
		tables.WriteString(b.String())
		i, j, ok := section(doc, name)
		switch {
		case !ok:
			t.Errorf("%s has no section for %s (<!-- balance:%[2]s --> ... <!-- /balance:%[2]s -->)", balanceDoc, name)
		case update:
			doc = doc[:i] + b.String() + doc[j:]
		case doc[i:j] != b.String():
			t.Errorf("the tables of %s in %s differ from the data (go test -run TestBalanceDoc -balance.update rewrites them)\n--- document ---\n%s--- data ---\n%s",
				name, balanceDoc, doc[i:j], b.String())
		}
		chart := sweepChartPath(name)
		if update {
			if err := os.WriteFile(chart, svg.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := os.ReadFile(chart); err != nil || !bytes.Equal(got, svg.Bytes()) {
			t.Errorf("%s differs from the data (%v)", chart, err)
		}
	}
	return doc, tables.String()
}

// TestBalanceKomiSweepPage lays out, in headless Chromium, the page arena
// sweep writes for the study's komi sweep (sixteen variants of komi and
// touch rule at two strengths), from its committed results: every
// variant's row in the race table and in the chart, each stopped variant
// with its stop marker, and the variant the findings name first at the
// top of its strength.
func TestBalanceKomiSweepPage(t *testing.T) {
	ctx := browsertest.Start(t)
	st := replayStudySweep(t, readSweepData(t)["sweep-komi"])
	if len(st.Variants) < 24 {
		t.Fatalf("the komi sweep has %d variants, want 16 at each of two strengths", len(st.Variants))
	}
	var b bytes.Buffer
	if err := reports.WriteSweepHTML(&b, st); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sweep.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	browsertest.Open(t, ctx, "file://"+path)
	browsertest.WaitFor(t, ctx, "the chart", `document.querySelectorAll("#sweep-chart g.variant").length > 0`)
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("#race tbody tr").length`); n != len(st.Variants) {
		t.Errorf("the race table has %d rows, want %d", n, len(st.Variants))
	}
	type row struct {
		Label string
		Stop  bool
	}
	rows := browsertest.Eval[[]row](t, ctx, `Array.from(document.querySelectorAll("#sweep-chart g.variant"), g =>
		({Label: g.querySelector("text").textContent, Stop: g.querySelector("line.stop") !== null}))`)
	if len(rows) != len(st.Variants) {
		t.Fatalf("%d rows in the chart, want %d", len(rows), len(st.Variants))
	}
	stopped := 0
	for _, v := range st.Variants {
		if v.Arm.Reason != race.Running && v.Arm.Reason != race.Budget {
			stopped++
		}
	}
	marked := 0
	for _, r := range rows {
		if r.Stop {
			marked++
		}
	}
	if stopped == 0 || marked < stopped {
		t.Errorf("%d of the chart's rows carry a stop marker; %d variants stopped early", marked, stopped)
	}
	half := len(rows) / 2
	if rows[0].Label != "komi=0.5 touch=opponent" || rows[half].Label != "komi=1.5 touch=any" {
		t.Errorf("the chart's first rows at each strength are %q and %q, want the nearest to 50 %%: komi=0.5 touch=opponent at 1000 nodes, komi=1.5 touch=any at 10000",
			rows[0].Label, rows[half].Label)
	}
	if w := browsertest.Eval[float64](t, ctx, `document.getElementById("sweep-chart").getBoundingClientRect().width`); w < 600 {
		t.Errorf("the chart is %v pixels wide", w)
	}
	browsertest.Screenshot(t, ctx, "balance-komi-sweep", 1300)
}
