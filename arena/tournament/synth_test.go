package tournament_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/pgn"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/tournament"
)

// synthOptions describes a synthetic tournament directory: a journal of
// real-looking games (legal moves from their openings, times and search
// info) written without playing them.
type synthOptions struct {
	games   int  // games in the journal
	missing int  // scheduled games left out of it (a resume plays them)
	slices  int  // when set, also write the games as this many slice directories
	info    bool // moves carry search info, as from real engines (about 3 KB a line)
	// bots are the [[bots]] of the configuration, four named alpha, beta,
	// gamma and delta; "" for built-in random bots.
	bots string
}

// synthConfig is the configuration of a synthetic tournament but its
// bots: eight two-ply openings, as many rounds as the games need.
const synthConfig = `name = "synth"
output = "whole"
concurrency = 2
[game]
name = "cheversi"
[openings]
plies = 2
count = 8
[format]
rounds = %d
[time]
move = "5s"
`

// synthBuiltinBots are the bots of a synthetic tournament played by the
// arena executable.
const synthBuiltinBots = `
[[bots]]
name = "alpha"
builtin = "random"
args = ["--seed", "1"]
[[bots]]
name = "beta"
builtin = "random"
args = ["--seed", "2"]
[[bots]]
name = "gamma"
builtin = "random"
args = ["--seed", "3"]
[[bots]]
name = "delta"
builtin = "random"
args = ["--seed", "4"]
`

// writeSynth writes, under root, the configuration synth.toml and the
// tournament directory whole (and slice-I for each slice), and returns the
// configuration's path. The journal holds the schedule's first o.games
// games, in blocks of eight written in a shuffled order, as a run playing
// several games at a time leaves them.
func writeSynth(tb testing.TB, root string, o synthOptions) string {
	tb.Helper()
	const perRound = 12 * 8 // 4 bots: 6 pairings, 2 colours, 8 openings
	rounds := max(1, (o.games+o.missing+perRound-1)/perRound)
	path := filepath.Join(root, "synth.toml")
	bots := o.bots
	if bots == "" {
		bots = synthBuiltinBots
	}
	if err := os.WriteFile(path, fmt.Appendf(nil, synthConfig+bots, rounds), 0o644); err != nil {
		tb.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	openings, err := config.LoadOpenings(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	sched, err := schedule.New(cfg.Format.Kind, cfg.Format.Rounds, cfg.BotNames(), nil, openings)
	if err != nil {
		tb.Fatal(err)
	}
	pools := synthPools(tb, cfg.Rules, openings, o.info)

	type out struct {
		f *os.File
		w *bufio.Writer
	}
	open := func(dir string, m *journal.Manifest) out {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := m.Write(dir); err != nil {
			tb.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, journal.File))
		if err != nil {
			tb.Fatal(err)
		}
		return out{f, bufio.NewWriterSize(f, 1<<20)}
	}
	whole := open(filepath.Join(root, "whole"), tournament.NewManifest(cfg, sched))
	var parts []out
	for i := range o.slices {
		sh := &schedule.Shard{Index: i, Count: o.slices}
		m := tournament.NewManifest(cfg, sched)
		m.Shard, m.Games = sh, sched.SliceLen(sh)
		parts = append(parts, open(filepath.Join(root, "slice-"+strconv.Itoa(i)), m))
	}

	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	rulesName, preset, settings := cfg.Rules.Game(), cfg.Rules.Preset(), cfg.Rules.Settings()
	for base := 1; base <= o.games; base += 8 {
		ids := make([]int, 0, 8)
		for id := base; id < base+8 && id <= o.games; id++ {
			ids = append(ids, id)
		}
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for _, id := range ids {
			g, ok := sched.Game(id)
			if !ok {
				tb.Fatalf("game %d is not scheduled", id)
			}
			p := pools[g.Opening][rng.IntN(len(pools[g.Opening]))]
			rec := journal.Record{
				ID: g.ID, Round: g.Round, PairKey: g.PairKey, Game: rulesName, Preset: preset, Rules: settings,
				Opening: journal.RecordOpening{Index: g.Opening + 1, Name: openings[g.Opening].Name, Moves: openings[g.Opening].Moves},
				White:   g.White, Black: g.Black, FirstMover: cfg.Rules.FirstMover().String(),
				Moves: p.moves, Result: p.outcome.Result.String(), Reason: p.outcome.Reason,
				Start: start.Add(time.Duration(id) * time.Second), DurationMS: 900 + float64(id%200),
			}
			if w, ok := p.outcome.Result.Winner(); ok {
				rec.Winner = map[game.Color]string{game.White: g.White, game.Black: g.Black}[w]
			}
			if s := p.outcome.Scores; s != nil {
				rec.Scores = &journal.Scores{White: s[game.White], Black: s[game.Black]}
			}
			if id%97 == 0 { // now and then a forfeit
				rec.Moves = p.moves[:len(p.moves)/2]
				loser, winner, result := g.White, g.Black, game.BlackWins
				if id%2 == 0 {
					loser, winner, result = g.Black, g.White, game.WhiteWins
				}
				rec.Result, rec.Winner, rec.Reason, rec.Scores = result.String(), winner, journal.ReasonForfeit, nil
				rec.Forfeit = &journal.Forfeit{Kind: journal.ForfeitTime, Bot: loser, Detail: "no move within 5.2s"}
			}
			line, err := json.Marshal(&rec)
			if err != nil {
				tb.Fatal(err)
			}
			line = append(line, '\n')
			whole.w.Write(line)
			if o.slices > 0 {
				parts[((id-1)/2)%o.slices].w.Write(line)
			}
		}
	}
	for _, f := range append(parts, whole) {
		if err := f.w.Flush(); err != nil {
			tb.Fatal(err)
		}
		if err := f.f.Close(); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// synthGame is a game played from an opening with random legal moves.
type synthGame struct {
	moves   []journal.MoveRecord
	outcome game.Outcome
}

// synthPools plays 16 random games from each opening.
func synthPools(tb testing.TB, rules game.Rules, openings []openings.Opening, info bool) [][]synthGame {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	pools := make([][]synthGame, len(openings))
	for i, o := range openings {
		for range 16 {
			st := rules.Start()
			for _, m := range o.Moves {
				if _, err := game.PlayText(st, m); err != nil {
					tb.Fatal(err)
				}
			}
			var texts []string
			var buf []game.Move
			for !st.Outcome().Over() {
				buf = st.LegalMoves(buf[:0])
				m := buf[rng.IntN(len(buf))]
				texts = append(texts, m.String())
				if err := st.Play(m); err != nil {
					tb.Fatal(err)
				}
			}
			g := synthGame{outcome: st.Outcome()}
			for j, text := range texts {
				mr := journal.MoveRecord{Move: text, MS: float64(rng.IntN(200000)) / 1000}
				if info {
					score := rng.IntN(400) - 200
					mr.Info = &journal.SearchInfo{
						Depth: 4 + rng.IntN(8), Score: &score, Nodes: int64(rng.IntN(2_000_000)),
						TimeMS: int64(mr.MS), PV: texts[j:min(len(texts), j+8)],
						Text: strings.Repeat("x", rng.IntN(24)),
					}
				}
				g.moves = append(g.moves, mr)
			}
			pools[i] = append(pools[i], g)
		}
	}
	return pools
}

// synthEnv, set to "GAMES[:MISSING[:SLICES[:info]]]|ROOT", makes
// TestWriteSynth write a synthetic tournament under ROOT, for measuring
// the arena on journals too large to keep in the repository:
//
//	ARENA_SYNTH='1000000:10:4:info|/tmp/synth' go test -run TestWriteSynth ./arena/tournament
//	arena report /tmp/synth/whole
//	arena run --out /tmp/synth/whole /tmp/synth/synth.toml   # plays the 10 missing games
//	arena merge --partial --out /tmp/synth/merged /tmp/synth/slice-*
const synthEnv = "ARENA_SYNTH"

func TestWriteSynth(t *testing.T) {
	spec := os.Getenv(synthEnv)
	if spec == "" {
		t.Skip(synthEnv + " is not set")
	}
	params, root, ok := strings.Cut(spec, "|")
	if !ok {
		t.Fatalf("%s=%q: want GAMES[:MISSING[:SLICES[:info]]]|ROOT", synthEnv, spec)
	}
	var o synthOptions
	for i, f := range strings.Split(params, ":") {
		if i == 3 {
			o.info = f == "info"
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %v", synthEnv, err)
		}
		*[]*int{&o.games, &o.missing, &o.slices}[i] = n
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	path := writeSynth(t, root, o)
	fi, err := os.Stat(filepath.Join(root, "whole", journal.File))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d games, journal %.1f MB (%.0f bytes a line), written in %v", path, o.games, float64(fi.Size())/1e6,
		float64(fi.Size())/float64(max(1, o.games)), time.Since(start).Round(time.Millisecond))
}

// resumeEnv, set to "ROOT|ARENA", makes TestResumeToFirstGame resume the
// synthetic tournament written under ROOT (see synthEnv), with the arena
// executable ARENA running the built-in bots, and stop as soon as the
// first game starts: it prints the time that took and the process's peak
// resident memory (VmHWM) by then. The journal is left as it was (the
// game in flight is abandoned).
const resumeEnv = "ARENA_RESUME"

func TestResumeToFirstGame(t *testing.T) {
	spec := os.Getenv(resumeEnv)
	if spec == "" {
		t.Skip(resumeEnv + " is not set")
	}
	root, self, _ := strings.Cut(spec, "|")
	cfg, err := config.Load(filepath.Join(root, "synth.toml"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	obs := &firstGame{cancel: cancel, started: make(chan struct{})}
	start := time.Now()
	go func() { // ends when the first game starts or the run returns
		select {
		case <-obs.started:
			obs.elapsed, obs.hwm = time.Since(start), vmHWM(t)
			cancel()
		case <-ctx.Done():
		}
	}()
	sum, err := tournament.Run(ctx, cfg, tournament.Options{Out: filepath.Join(root, "whole"), Self: self, Observer: obs})
	if obs.elapsed == 0 {
		t.Fatalf("no game started: %v", err)
	}
	t.Logf("resumed %d recorded games: first game after %v, peak RSS %d MiB", sum.Recorded, obs.elapsed.Round(time.Millisecond), obs.hwm>>10)
}

// firstGame is an Observer that says when the first game starts.
type firstGame struct {
	cancel  context.CancelFunc
	started chan struct{}
	once    sync.Once
	elapsed time.Duration
	hwm     int64 // KiB
}

func (f *firstGame) GameStarted(journal.Record)    { f.once.Do(func() { close(f.started) }) }
func (f *firstGame) Moved(int, journal.MoveRecord) {}
func (f *firstGame) GameEnded(int)                 {}

// vmHWM returns the process's peak resident memory in KiB.
func vmHWM(t testing.TB) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// TestWriteDirReportsCanceled: a report stopped by its context returns the
// context's error and leaves the directory as it was, its earlier reports
// and game text intact and no temporary file behind.
func TestWriteDirReportsCanceled(t *testing.T) {
	root := t.TempDir()
	writeSynth(t, root, synthOptions{games: 200})
	dir := filepath.Join(root, "whole")
	if _, err := dirreport.Write(context.Background(), dir, dirreport.Options{GameText: true}); err != nil {
		t.Fatal(err)
	}
	before := dirFiles(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := dirreport.Write(ctx, dir, dirreport.Options{GameText: true})
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("WriteDirReports with a canceled context = %v, %v; want nil, context.Canceled", rep, err)
	}
	after := dirFiles(t, dir)
	for name, data := range before {
		if got, ok := after[name]; !ok || !bytes.Equal(got, data) {
			t.Errorf("%s changed or went (present %v)", name, ok)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s left behind", name)
		}
	}
}

// TestWriteDirReportsAsFromRecords: the reports WriteDirReports writes
// reading the journal one game at a time, with the game list kept in
// temporary files, are byte for byte those WriteReports and
// RewriteGameText write from every record in memory. The journal holds
// its games out of order, forfeits among them, and more moves than
// report.html holds, so that the page carries a sample.
func TestWriteDirReportsAsFromRecords(t *testing.T) {
	games := 1200
	if testing.Short() {
		games = 300
	}
	root := t.TempDir()
	writeSynth(t, root, synthOptions{games: games, missing: 5, info: !testing.Short()})
	dir := filepath.Join(root, "whole")
	outputs := []string{"games.pgn", "report.md", "standings.csv", "report.json", "report.html"}

	m, recs, err := journal.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dirreport.WriteRecords(dir, m, recs); err != nil {
		t.Fatal(err)
	}
	if err := pgn.RewriteFile(dir, m.Game, recs, m.Name); err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, name := range outputs {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want[name] = data
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if !testing.Short() && !strings.Contains(string(want["report.html"]), "A report holds a sample") {
		t.Fatalf("report.html holds every game's moves; the test wants a sample")
	}

	rep, err := dirreport.Write(context.Background(), dir, dirreport.Options{GameText: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != len(recs) || rep.Analysis == nil {
		t.Errorf("report of %d games, analysis %v; want %d games", rep.Games, rep.Analysis != nil, len(recs))
	}
	if run := rep.Meta.Run; run.Played != len(recs) || run.Scheduled != m.Games || run.Finished != (len(recs) == m.Games) || run.SPRT != "" {
		t.Errorf("run status %+v, want %d of %d games played", *run, len(recs), m.Games)
	}
	if got, want := fmt.Sprint(rep.Standings), fmt.Sprint(journal.Standings(recs, m.Bots)); got != want {
		t.Errorf("standings %s, want %s", got, want)
	}
	for _, name := range outputs {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[name]) {
			i := 0
			for i < min(len(got), len(want[name])) && got[i] == want[name][i] {
				i++
			}
			t.Errorf("%s: %d bytes, want %d; first difference at byte %d", name, len(got), len(want[name]), i)
		}
	}
	// Nothing is left behind: the temporary files were removed.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, ".") && name != ".lock" {
			t.Errorf("%s left in the directory", name)
		}
	}
}
