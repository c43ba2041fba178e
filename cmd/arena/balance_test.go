package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/bots/builtin"
	"github.com/arena-games/arena/reports"
)

// The balance study (docs/balance.md) is checked against its data: every
// table and the chart of the document are computed again from the
// configurations in configs/study and the result of every game, committed
// in docs/balance/results.tsv.gz. After a new run of the study,
//
//	go test ./cmd/arena -run TestBalanceDoc -balance.update
//
// reads the journals under results/study, rewrites the results file, the
// moves of the games TestBalanceReplay plays again, the chart and the
// tables between the document's markers; the prose is the author's. After
// a change to how the tables are written, -balance.tables rewrites the
// tables and charts from the committed data alone.
var (
	balanceUpdate  = flag.Bool("balance.update", false, "rebuild docs/balance/ and the tables of docs/balance.md from the journals in results/study")
	balanceRewrite = flag.Bool("balance.tables", false, "rewrite the tables and charts of docs/balance.md from the committed data")
)

// rewriteBalanceDoc reports whether the document's tables and charts are
// to be rewritten rather than checked.
func rewriteBalanceDoc() bool { return *balanceUpdate || *balanceRewrite || *balanceSweepsDir != "" }

const (
	balanceDoc     = "../../docs/balance.md"
	balanceResults = "../../docs/balance/results.tsv.gz"
	balanceChart   = "../../docs/balance/strength.svg"
	balanceReplay  = "../../docs/balance/replay.tsv"
	studyConfigs   = "../../configs/study"
	studyResults   = "../../results/study"
)

// balanceTable is one table of the document: the runs it compares and the
// index of its baseline.
type balanceTable struct {
	id       string
	runs     []string
	baseline int
}

var balanceTables = []balanceTable{
	{"presets", []string{"cheversi-10k", "classic-10k", "echeversi-10k"}, 0},
	{"strength-cheversi", []string{"cheversi-100", "cheversi-1k", "cheversi-10k"}, 0},
	{"strength-classic", []string{"classic-100", "classic-1k", "classic-10k"}, 0},
	{"strength-echeversi", []string{"echeversi-100", "echeversi-1k", "echeversi-10k"}, 0},
	{"switches", []string{"cheversi-10k", "cheversi-touch-any-10k", "cheversi-touch-none-10k", "cheversi-opening-king-queen-10k",
		"cheversi-opening-free-10k", "cheversi-bishops-any-10k", "cheversi-no-queen-call-10k", "cheversi-black-king-free-10k"}, 0},
	{"openings", []string{"cheversi-10k", "cheversi-2ply-10k"}, 0},
	{"checkers-10k", []string{"checkers-start-10k", "checkers-ballots-10k"}, 0},
	{"checkers-1k", []string{"checkers-start-1k", "checkers-ballots-1k"}, 0},
}

// balanceChartRuns are the runs of the chart: the presets at every
// strength.
var balanceChartRuns = slices.Concat(balanceTables[1].runs, balanceTables[2].runs, balanceTables[3].runs)

// studyRun is one tournament's results as committed: its schedule's
// fingerprint, the digest of its results (resultsDigest) and one letter
// per game in the order of ids: W, B or = on the board, w or b by a
// forfeit.
type studyRun struct {
	name, fingerprint, digest, results string
}

// openGzip opens a committed gzip-compressed data file for the test's
// duration.
func openGzip(t *testing.T, path string) *gzip.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

func readStudyRuns(t *testing.T) map[string]studyRun {
	t.Helper()
	zr := openGzip(t, balanceResults)
	runs := map[string]studyRun{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 4 {
			t.Fatalf("%s: line %q has %d fields, want 4", balanceResults, sc.Text(), len(fields))
		}
		runs[fields[0]] = studyRun{fields[0], fields[1], fields[2], fields[3]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return runs
}

// resultLetters maps a journal's result (and whether a forfeit decided it)
// to its letter and back.
var resultLetters = map[string]string{"1-0": "W", "0-1": "B", "1/2-1/2": "=", "1-0 forfeit": "w", "0-1 forfeit": "b"}

// studySetup is a study run's configuration, manifest and schedule.
type studySetup struct {
	cfg   *config.Config
	m     *journal.Manifest
	sched *schedule.Schedule
}

// studySchedules holds the setups studySchedule has built, by run: the
// tests of the study share them.
var studySchedules = map[string]studySetup{}

// studySchedule loads a study configuration and builds its manifest and
// schedule.
func studySchedule(t *testing.T, name string) (*config.Config, *journal.Manifest, *schedule.Schedule) {
	t.Helper()
	if s, ok := studySchedules[name]; ok {
		return s.cfg, s.m, s.sched
	}
	cfg, err := config.Load(filepath.Join(studyConfigs, name+".toml"))
	if err != nil {
		t.Fatal(err)
	}
	sched := configSchedule(t, cfg)
	m := tournament.NewManifest(cfg, sched)
	studySchedules[name] = studySetup{cfg, m, sched}
	return cfg, m, sched
}

// studyEntry rebuilds a run's comparison entry from its configuration and
// its committed results.
func studyEntry(t *testing.T, run studyRun) reports.CompareEntry {
	t.Helper()
	cfg, m, sched := studySchedule(t, run.name)
	if m.Fingerprint != run.fingerprint {
		t.Fatalf("%s: the configuration's schedule has fingerprint %s, the results %s", run.name, m.Fingerprint, run.fingerprint)
	}
	if len(run.results) != sched.Len() {
		t.Fatalf("%s: %d results for %d scheduled games", run.name, len(run.results), sched.Len())
	}
	letters := map[string]string{}
	for k, v := range resultLetters {
		letters[v] = k
	}
	var games compareGames
	for g := range sched.Games() {
		res, forfeit, _ := strings.Cut(letters[run.results[g.ID-1:g.ID]], " ")
		if res == "" {
			t.Fatalf("%s: game %d has result %q", run.name, g.ID, run.results[g.ID-1:g.ID])
		}
		rec := journal.Record{ID: g.ID, PairKey: g.PairKey, White: g.White, Black: g.Black,
			FirstMover: cfg.Rules.FirstMover().String(), Result: res}
		if forfeit != "" {
			rec.Forfeit = &journal.Forfeit{Kind: journal.ForfeitError}
		}
		games.add(&rec)
	}
	e, err := compareEntryOfGames(filepath.ToSlash(filepath.Join("results/study", run.name)), m, &games)
	if err != nil {
		t.Fatal(err)
	}
	if e.Results != run.digest {
		t.Fatalf("%s: the results digest to %s, the file says %s", run.name, e.Results, run.digest)
	}
	return e
}

// writeStudyRuns reads the journals of the study's runs and writes the
// results file and the replay file.
func writeStudyRuns(t *testing.T, names []string) {
	t.Helper()
	var b, replay bytes.Buffer
	zw := gzip.NewWriter(&b)
	for _, name := range names {
		m, recs, err := journal.LoadDir(filepath.Join(studyResults, name))
		if err != nil {
			t.Fatal(err)
		}
		letters := bytes.Repeat([]byte("."), m.Games)
		for _, r := range recs {
			key := r.Result
			if r.Forfeit != nil {
				key += " forfeit"
			}
			l, ok := resultLetters[key]
			if !ok || r.ID < 1 || r.ID > m.Games {
				t.Fatalf("%s: game %d: result %q", name, r.ID, key)
			}
			letters[r.ID-1] = l[0]
		}
		fmt.Fprintf(zw, "%s\t%s\t%s\t%s\n", name, m.Fingerprint, resultsDigest(recs), letters)
		for _, id := range replayIDs(name, m.Games) {
			i := slices.IndexFunc(recs, func(r journal.Record) bool { return r.ID == id })
			if i < 0 {
				t.Fatalf("%s: game %d has not been played", name, id)
			}
			moves := make([]string, len(recs[i].Moves))
			for j, mv := range recs[i].Moves {
				moves[j] = mv.Move
			}
			fmt.Fprintf(&replay, "%s\t%d\t%s\n", name, id, strings.Join(moves, " "))
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(balanceResults), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(balanceResults, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(balanceReplay, replay.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// section returns the text of doc between the markers of table id.
func section(doc, id string) (start, end int, ok bool) {
	open, closing := "<!-- balance:"+id+" -->\n", "<!-- /balance:"+id+" -->"
	i := strings.Index(doc, open)
	if i < 0 {
		return 0, 0, false
	}
	j := strings.Index(doc[i:], closing)
	if j < 0 {
		return 0, 0, false
	}
	return i + len(open), i + j, true
}

func TestBalanceDoc(t *testing.T) {
	var names []string
	for _, tb := range balanceTables {
		for _, r := range tb.runs {
			if !slices.Contains(names, r) {
				names = append(names, r)
			}
		}
	}
	if *balanceUpdate {
		writeStudyRuns(t, names)
	}
	runs := readStudyRuns(t)
	entries := map[string]reports.CompareEntry{}
	for _, name := range names {
		run, ok := runs[name]
		if !ok {
			t.Fatalf("%s has no results for %s", balanceResults, name)
		}
		entries[name] = studyEntry(t, run)
	}
	compare := func(names []string, baseline int) *reports.Comparison {
		es := make([]reports.CompareEntry, len(names))
		for i, n := range names {
			es[i] = entries[n]
		}
		c, err := reports.Compare(es, baseline, 0)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	data, err := os.ReadFile(balanceDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	var tables strings.Builder
	for _, tb := range balanceTables {
		var b strings.Builder
		if err := reports.WriteCompareMarkdownTable(&b, compare(tb.runs, tb.baseline)); err != nil {
			t.Fatal(err)
		}
		tables.WriteString(b.String())
		i, j, ok := section(doc, tb.id)
		if !ok {
			t.Errorf("%s has no section for table %s (<!-- balance:%[2]s --> ... <!-- /balance:%[2]s -->)", balanceDoc, tb.id)
			continue
		}
		if rewriteBalanceDoc() {
			doc = doc[:i] + b.String() + doc[j:]
			continue
		}
		if doc[i:j] != b.String() {
			t.Errorf("table %s of %s differs from the data (go test -run TestBalanceDoc -balance.update rewrites it)\n--- document ---\n%s--- data ---\n%s",
				tb.id, balanceDoc, doc[i:j], b.String())
		}
	}
	doc, sweepTables := studySweepTables(t, doc)
	tables.WriteString(sweepTables)
	var svg bytes.Buffer
	if err := reports.WriteCompareSVG(&svg, compare(balanceChartRuns, 0)); err != nil {
		t.Fatal(err)
	}
	if rewriteBalanceDoc() {
		if err := os.WriteFile(balanceDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(balanceChart, svg.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := os.ReadFile(balanceChart); err != nil || !bytes.Equal(got, svg.Bytes()) {
		t.Errorf("%s differs from the data (%v)", balanceChart, err)
	}

	// Every decimal figure of the findings is one of the tables': the
	// text quotes the data, it does not restate it.
	findings, ok := strings.CutPrefix(doc[strings.Index(doc, "\n## Findings\n")+1:], "## Findings\n")
	if !ok {
		t.Fatalf("%s has no Findings section", balanceDoc)
	}
	if i := strings.Index(findings, "\n## "); i >= 0 {
		findings = findings[:i]
	}
	figures := regexp.MustCompile(`[+-]?\d+\.\d+%?`)
	for _, f := range figures.FindAllString(findings, -1) {
		if !strings.Contains(tables.String(), f) {
			t.Errorf("the findings of %s quote %s, which no table holds", balanceDoc, f)
		}
	}
}

// TestStudyConfigs loads every configuration of the study: each names
// itself after its file and writes under results/study.
func TestStudyConfigs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(studyConfigs, "*.toml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no study configurations (%v)", err)
	}
	for _, p := range paths {
		cfg, err := config.Load(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		name := strings.TrimSuffix(filepath.Base(p), ".toml")
		if cfg.Name != name || cfg.Output != "results/study/"+name {
			t.Errorf("%s: name %q, output %q; want %q in results/study/%[3]s", p, cfg.Name, cfg.Output, name)
		}
	}
}

// balanceReplays are the study's runs TestBalanceReplay plays games of
// again, and how many games of each: those whose bots search little, so
// that it takes seconds.
var balanceReplays = []struct {
	run   string
	games int
}{
	{"cheversi-100", 8}, {"classic-100", 8}, {"echeversi-100", 8},
	{"cheversi-1k", 3}, {"classic-1k", 3}, {"echeversi-1k", 3},
	{"cheversi-10k", 1}, {"classic-10k", 1}, {"echeversi-10k", 1},
	{"checkers-start-1k", 1}, {"checkers-ballots-1k", 1},
}

// replayIDs returns the ids of the games of run, a tournament of n games,
// that TestBalanceReplay plays again: spread evenly over the schedule.
func replayIDs(run string, n int) []int {
	var ids []int
	for _, c := range balanceReplays {
		if c.run == run {
			for k := range c.games {
				ids = append(ids, 1+k*n/c.games)
			}
		}
	}
	return ids
}

// readReplays reads the replay file: the moves after the opening of each
// game TestBalanceReplay plays again, by run and id.
func readReplays(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(balanceReplay)
	if err != nil {
		t.Fatal(err)
	}
	games := map[string][]string{}
	for line := range strings.Lines(string(data)) {
		fields := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(fields) != 3 {
			t.Fatalf("%s: line %q has %d fields, want 3", balanceReplay, line, len(fields))
		}
		games[fields[0]+"#"+fields[1]] = strings.Fields(fields[2])
	}
	return games
}

// TestBalanceReplay plays again, in-process, some of the study's games
// (spread over each run's schedule; with -short, one of each run) with the
// built-in bots, their seeds and node limits as configured, and requires
// the moves and the results the study recorded: a change to the bots that
// changes their games fails here, and the study is then to be played
// again. A node-limited search does not depend on the machine or on the
// time it is given, so the games are the same as through the protocol.
func TestBalanceReplay(t *testing.T) {
	runs := readStudyRuns(t)
	replays := readReplays(t)
	for _, c := range balanceReplays {
		t.Run(c.run, func(t *testing.T) {
			run, ok := runs[c.run]
			if !ok {
				t.Fatalf("%s has no results for %s", balanceResults, c.run)
			}
			cfg, m, sched := studySchedule(t, c.run)
			if m.Fingerprint != run.fingerprint {
				t.Fatalf("the configuration's schedule has fingerprint %s, the results %s", m.Fingerprint, run.fingerprint)
			}
			players := studyPlayers(t, cfg)
			ids := replayIDs(c.run, sched.Len())
			if testing.Short() {
				ids = ids[:1]
			}
			for _, id := range ids {
				g, ok := sched.Game(id)
				if !ok {
					t.Fatalf("no game %d", id)
				}
				want, ok := replays[c.run+"#"+strconv.Itoa(id)]
				if !ok {
					t.Fatalf("%s has no moves for game %d", balanceReplay, id)
				}
				op := sched.Openings[g.Opening]
				moves, result := replayStudyGame(t, cfg, op, [2]string{g.White, g.Black}, players)
				if !slices.Equal(moves, want) {
					t.Errorf("game %d (%s, %s against %s): played again\n%s\nthe study recorded\n%s",
						id, op, g.White, g.Black, strings.Join(moves, " "), strings.Join(want, " "))
				}
				if want := run.results[id-1 : id]; result != want {
					t.Errorf("game %d (%s, %s against %s): played again it ends %q, the study recorded %q",
						id, op, g.White, g.Black, result, want)
				}
			}
		})
	}
}

// studyPlayers returns the built-in players of cfg's bots, by name, with
// their seeds and hash sizes as configured.
func studyPlayers(t *testing.T, cfg *config.Config) map[string]builtin.Player {
	t.Helper()
	players := map[string]builtin.Player{}
	for _, b := range cfg.Bots {
		o := builtin.DefaultOptions()
		fs := flag.NewFlagSet(b.Name, flag.ContinueOnError)
		o.AddFlags(fs, b.Builtin)
		if err := fs.Parse(b.Args); err != nil {
			t.Fatalf("bot %s: %v", b.Name, err)
		}
		p, err := builtin.New(b.Builtin, builtin.Config{Seed: o.Seed, HashMB: o.HashMB})
		if err != nil {
			t.Fatalf("bot %s: %v", b.Name, err)
		}
		players[b.Name] = p
	}
	return players
}

// replayStudyGame plays one game from its opening between the players
// named by names (White's, Black's), each searching within its node and
// depth limits, and returns the moves after the opening and the result's
// letter (resultLetters).
func replayStudyGame(t *testing.T, cfg *config.Config, op openings.Opening, names [2]string, players map[string]builtin.Player) ([]string, string) {
	t.Helper()
	for _, n := range names {
		if r, ok := players[n].(interface{ Reset() }); ok {
			r.Reset()
		}
	}
	st := cfg.Rules.Start()
	for _, text := range op.Moves {
		if _, err := game.PlayText(st, text); err != nil {
			t.Fatalf("opening %s: %v", op, err)
		}
	}
	var moves []string
	for !st.Outcome().Over() {
		name := names[st.Turn()]
		tc := cfg.BotTime(name)
		res, err := players[name].Choose(context.Background(), st, builtin.Limits{Nodes: tc.Nodes, Depth: tc.Depth})
		if err != nil {
			t.Fatalf("opening %s, ply %d: %s: %v", op, st.Ply()+1, name, err)
		}
		moves = append(moves, res.Move.String())
		if err := st.Play(res.Move); err != nil {
			t.Fatalf("opening %s, ply %d: %s plays %s: %v", op, st.Ply()+1, name, res.Move, err)
		}
	}
	return moves, resultLetters[st.Outcome().Result.String()]
}
