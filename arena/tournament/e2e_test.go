package tournament_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/tournament"
)

// testBot is a bot of the end-to-end tests: the test binary run with
// testBotEnv set to kind.
type testBot struct{ name, kind string }

// writeConfig writes a tournament configuration with the given top-level
// TOML (game, format, openings, time...) and bots into a fresh directory
// and returns its path. Every bot carries mark in its environment, so that
// a test can find bot processes that outlive the arena.
func writeConfig(t testing.TB, body, mark string, bots ...testBot) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(body)
	for _, bot := range bots {
		fmt.Fprintf(&b, "\n[[bots]]\nname = %q\ncommand = %q\nenv = { %s = %q, ARENA_TEST_MARK = %q }\n",
			bot.name, exe, testBotEnv, bot.kind, mark)
	}
	path := filepath.Join(t.TempDir(), "tournament.toml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// appendTOML appends text to the configuration at path: keys of its last
// bot, or tables of its own.
func appendTOML(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func loadConfig(t testing.TB, path string) *config.Config {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return cfg
}

// readRecords reads the journal of dir and verifies every game in it.
func readRecords(t testing.TB, dir string) []journal.Record {
	t.Helper()
	recs, err := journal.Read(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatalf("ReadJournal: %v", err)
	}
	for i := range recs {
		if err := journal.Verify(&recs[i]); err != nil {
			t.Errorf("Verify: %v", err)
		}
	}
	return recs
}

// checkComplete checks that recs are exactly the games of a schedule of
// total games: IDs 1..total, each once, and each pair key on two games with
// the colours reversed and the same opening and round.
func checkComplete(t testing.TB, recs []journal.Record, total int) {
	t.Helper()
	if len(recs) != total {
		t.Errorf("journal has %d games, want %d", len(recs), total)
	}
	ids := map[int]int{}
	pairs := map[string][]journal.Record{}
	for _, r := range recs {
		ids[r.ID]++
		pairs[r.PairKey] = append(pairs[r.PairKey], r)
	}
	for id := 1; id <= total; id++ {
		if ids[id] != 1 {
			t.Errorf("game %d recorded %d times, want once", id, ids[id])
		}
	}
	for key, ps := range pairs {
		if len(ps) != 2 {
			t.Errorf("pair %s has %d games, want 2", key, len(ps))
			continue
		}
		a, b := ps[0], ps[1]
		if a.White != b.Black || a.Black != b.White {
			t.Errorf("pair %s: %s-%s and %s-%s are not the colours reversed", key, a.White, a.Black, b.White, b.Black)
		}
		if a.Round != b.Round || !slices.Equal(a.Opening.Moves, b.Opening.Moves) {
			t.Errorf("pair %s: round/opening differ: %d %v vs %d %v", key, a.Round, a.Opening.Moves, b.Round, b.Opening.Moves)
		}
	}
}

const cheversiBody = `
name = "e2e"
seed = 11
concurrency = 2

[game]
name = "cheversi"
preset = "cheversi"

[openings]
plies = 2
count = 3

[time]
move = "2s"
margin = "1s"
`

func TestRoundRobinFourBots(t *testing.T) {
	path := writeConfig(t, cheversiBody, "rr4",
		testBot{"first", "first"}, testBot{"rand1", "random:1"}, testBot{"rand2", "random:2"}, testBot{"legal", "legal"})
	cfg := loadConfig(t, path)
	out := filepath.Join(t.TempDir(), "out")
	sum, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	const want = 6 * 3 * 2 // pairs x openings x colours
	if sum.Total != want || sum.Played != want || sum.Recorded != want || !sum.Complete {
		t.Errorf("summary: total %d, played %d, recorded %d, complete %v; want %d games all played",
			sum.Total, sum.Played, sum.Recorded, sum.Complete, want)
	}
	recs := readRecords(t, out)
	checkComplete(t, recs, want)
	for _, r := range recs {
		if r.Forfeit != nil {
			t.Errorf("game %d: unexpected forfeit %+v", r.ID, *r.Forfeit)
		}
		if r.Reason != game.ReasonScore && r.Reason != game.ReasonNoMoves {
			t.Errorf("game %d: reason %q", r.ID, r.Reason)
		}
		if r.Scores == nil {
			t.Errorf("game %d: no scores", r.ID)
		}
		if n := len(r.Opening.Moves) + len(r.Moves); n != 16 && r.Reason == game.ReasonScore {
			t.Errorf("game %d: %d plies, want 16", r.ID, n)
		}
	}
	games := 0
	for _, s := range sum.Standings {
		games += s.Games
		if s.Games != 18 {
			t.Errorf("%s played %d games, want 18", s.Bot, s.Games)
		}
	}
	if games != 2*want {
		t.Errorf("standings count %d bot-games, want %d", games, 2*want)
	}
	pgn, err := os.ReadFile(filepath.Join(out, "games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pgn), "[Event "); n != want {
		t.Errorf("games.pgn holds %d games, want %d", n, want)
	}
	if !strings.Contains(string(pgn), `[Variant "cheversi"]`) {
		t.Errorf("games.pgn has no Variant tag")
	}

	// A second run finds the tournament complete and plays nothing.
	sum2, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("second Run: %v", err)
	}
	if sum2.Played != 0 || !sum2.Complete || sum2.Recorded != want {
		t.Errorf("second run: played %d, recorded %d, complete %v; want 0, %d, true", sum2.Played, sum2.Recorded, sum2.Complete, want)
	}
}

var errKinds = map[string]string{
	"crash":       journal.ForfeitCrash,
	"hang":        journal.ForfeitTime,
	"garbage":     journal.ForfeitProtocol,
	"illegal":     journal.ForfeitIllegalMove,
	"badnotation": journal.ForfeitIllegalMove,
}

// TestMisbehavingBots plays a round robin of two well-behaved bots and one
// of each kind of misbehaviour. Every bot answers at once or never, and
// only hang's time is short: its timeout is then the only one that can
// happen, however late a loaded machine runs the bots.
func TestMisbehavingBots(t *testing.T) {
	bots := []testBot{{"good", "first"}, {"other", "random:5"}}
	for kind := range errKinds {
		if kind != "hang" {
			bots = append(bots, testBot{kind, kind})
		}
	}
	slices.SortFunc(bots, func(a, b testBot) int { return strings.Compare(a.name, b.name) })
	bots = append(bots, testBot{"hang", "hang"})
	path := writeConfig(t, `
name = "misbehaving"
concurrency = 2
[game]
name = "cheversi"
[time]
move = "1m"
`, "misbehaving", bots...)
	appendTOML(t, path, "[bots.time]\nmove = \"150ms\"\nmargin = \"150ms\"\n") // hang's
	out := filepath.Join(t.TempDir(), "out")
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	n := len(bots)
	want := n * (n - 1) // one opening, both colours
	recs := readRecords(t, out)
	checkComplete(t, recs, want)
	if !sum.Complete {
		t.Errorf("tournament not complete")
	}
	for _, r := range recs {
		// Misbehaving bots misbehave at their second move, but hang at
		// its first; White moves first in Cheversi, so otherwise White's
		// misbehaviour comes first.
		offender := ""
		if r.White == "hang" || r.Black == "hang" {
			offender = "hang"
		} else if _, bad := errKinds[r.White]; bad {
			offender = r.White
		} else if _, bad := errKinds[r.Black]; bad {
			offender = r.Black
		}
		moves := []int{2, 3} // before the forfeit
		if offender == "hang" {
			moves = []int{0}
			if r.Black == "hang" {
				moves = []int{1}
			}
		}
		switch {
		case offender == "" && r.Forfeit != nil:
			t.Errorf("game %d %s-%s: unexpected forfeit %+v", r.ID, r.White, r.Black, *r.Forfeit)
		case offender != "" && r.Forfeit == nil:
			t.Errorf("game %d %s-%s: no forfeit, want one by %s", r.ID, r.White, r.Black, offender)
		case offender != "":
			if r.Forfeit.Bot != offender || r.Forfeit.Kind != errKinds[offender] {
				t.Errorf("game %d %s-%s: forfeit %s by %s, want %s by %s (%s)", r.ID, r.White, r.Black,
					r.Forfeit.Kind, r.Forfeit.Bot, errKinds[offender], offender, r.Forfeit.Detail)
			}
			if r.Reason != journal.ReasonForfeit || r.Winner == offender || r.Winner == "" {
				t.Errorf("game %d: reason %q winner %q after a forfeit by %s", r.ID, r.Reason, r.Winner, offender)
			}
			if !slices.Contains(moves, len(r.Moves)) {
				t.Errorf("game %d %s-%s: %d moves before the forfeit, want %v", r.ID, r.White, r.Black, len(r.Moves), moves)
			}
		}
	}
	log, err := os.ReadFile(filepath.Join(out, "logs", "crash.log"))
	if err != nil || !strings.Contains(string(log), "crashing on purpose") {
		t.Errorf("logs/crash.log does not hold the bot's stderr (%v): %q", err, log)
	}
	// Each crash needs a new process for the crashing bot's next game;
	// the well-behaved bots keep theirs.
	crashes := 0
	for _, r := range recs {
		if r.Forfeit != nil && r.Forfeit.Bot == "crash" {
			crashes++
		}
	}
	// All its games but those against hang and the 3 others misbehaving
	// first as White.
	if want := 2*(n-1) - 2 - 3; crashes != want {
		t.Errorf("crash forfeited %d games, want %d", crashes, want)
	}
	if sum.Starts["crash"] < crashes {
		t.Errorf("crash started %d times for %d crashes", sum.Starts["crash"], crashes)
	}
	if sum.Starts["good"] > 2 {
		t.Errorf("good started %d times, want at most 2 (one per worker)", sum.Starts["good"])
	}
}

func TestPreflightRejectsBots(t *testing.T) {
	for _, tc := range []struct {
		bot       testBot
		handshake string // the rejected bot's handshake timeout
		want      string
	}{
		// Short: the bot never answers.
		{testBot{"silent", "nohandshake"}, "300ms", `bot "silent"`},
		// The default: the bot answers at once, however loaded the machine.
		{testBot{"martian", "othergame"}, "10s", `bot "martian" does not play cheversi (it plays go)`},
	} {
		t.Run(tc.bot.name, func(t *testing.T) {
			path := writeConfig(t, "[game]\nname = \"cheversi\"\n", "preflight", testBot{"good", "first"}, tc.bot)
			appendTOML(t, path, "handshake_timeout = \""+tc.handshake+"\"\n")
			out := filepath.Join(t.TempDir(), "out")
			sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
			if err == nil || sum != nil {
				t.Fatalf("Run = %v, %v; want an error and no summary", sum, err)
			}
			if !errors.Is(err, tournament.ErrBot) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want ErrBot mentioning %q", err, tc.want)
			}
			recs, err := journal.Read(filepath.Join(out, journal.File))
			if err != nil || len(recs) != 0 {
				t.Errorf("journal after a rejected bot: %d games, %v; want none", len(recs), err)
			}
		})
	}
}

// bots returns the pids of live processes whose environment holds
// ARENA_TEST_MARK=mark.
func botsAlive(t testing.TB, mark string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	needle := []byte("ARENA_TEST_MARK=" + mark + "\x00")
	var pids []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if strings.Contains(string(stat), ") Z ") {
			continue // a zombie is dead
		}
		if strings.Contains(string(env)+"\x00", string(needle)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitNoBots waits up to 30s for the bots marked mark to be gone: their
// supervisors kill them once the arena has died, when the machine lets
// them run.
func waitNoBots(t testing.TB, mark string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		pids := botsAlive(t, mark)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("bot processes still alive after the arena ended: %v", pids)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestKillAndResume(t *testing.T) {
	mark := fmt.Sprintf("kill-%d", time.Now().UnixNano())
	path := writeConfig(t, `
name = "kill"
seed = 3
concurrency = 2
[game]
name = "cheversi"
[openings]
plies = 1
count = 8
[time]
move = "1s"
`, mark, testBot{"a", "slow:20"}, testBot{"b", "random:9"}, testBot{"c", "slow:10"})
	// The slow bots make the tournament last seconds after each kill's
	// threshold, so that the kill comes before its end however late a
	// loaded machine runs this test.
	const total = 3 * 8 * 2
	out := filepath.Join(t.TempDir(), "out")
	journalPath := filepath.Join(out, journal.File)

	for kill := 1; kill <= 2; kill++ {
		exe, _ := os.Executable()
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), testRunEnv+"="+path+"|"+out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill the arena once some games are recorded.
		deadline := time.Now().Add(2 * time.Minute)
		for {
			data, _ := os.ReadFile(journalPath)
			if strings.Count(string(data), "\n") >= 8*kill {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no %d games recorded within 2 minutes", 8*kill)
			}
			time.Sleep(5 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		waitNoBots(t, mark)
		recs, err := journal.Read(journalPath)
		if err != nil {
			t.Fatalf("journal after kill %d: %v", kill, err)
		}
		if len(recs) >= total {
			t.Fatalf("the tournament finished before it was killed; make it longer")
		}
	}
	// A crash in the middle of a write leaves a torn line.
	f, err := os.OpenFile(journalPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"id":17,"round":1,"pair":"r1/o`)
	f.Close()

	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if !sum.Complete || sum.Recorded != total {
		t.Errorf("after resume: recorded %d of %d, complete %v", sum.Recorded, total, sum.Complete)
	}
	checkComplete(t, readRecords(t, out), total)
	pgn, _ := os.ReadFile(filepath.Join(out, "games.pgn"))
	if n := strings.Count(string(pgn), "[Event "); n != total {
		t.Errorf("games.pgn holds %d games after resume, want %d", n, total)
	}
	waitNoBots(t, mark)
}

// cancelAtEnd cancels a tournament as its first game ends: that game is
// recorded, and at most the one game in progress beside it.
type cancelAtEnd struct {
	once   sync.Once
	cancel context.CancelFunc
}

func (c *cancelAtEnd) GameStarted(journal.Record)    {}
func (c *cancelAtEnd) Moved(int, journal.MoveRecord) {}
func (c *cancelAtEnd) GameEnded(int)                 { c.once.Do(c.cancel) }

func TestInterruptAndResume(t *testing.T) {
	mark := fmt.Sprintf("interrupt-%d", time.Now().UnixNano())
	path := writeConfig(t, cheversiBody, mark, testBot{"a", "slow:5"}, testBot{"b", "slow:5"})
	const total = 1 * 3 * 2
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := tournament.Run(ctx, loadConfig(t, path), tournament.Options{Out: out, Progress: &noticeLog{},
		Observer: &cancelAtEnd{cancel: cancel}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel: err = %v, want context.Canceled", err)
	}
	if sum == nil || sum.Complete || sum.Recorded >= total || sum.Recorded < 1 {
		t.Fatalf("Run after cancel: summary %+v, want an incomplete tournament", sum)
	}
	waitNoBots(t, mark)
	first := readRecords(t, out)
	if len(first) != sum.Recorded {
		t.Errorf("journal has %d games, summary says %d", len(first), sum.Recorded)
	}
	sum, err = tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if sum.Played != total-len(first) {
		t.Errorf("resume played %d games, want %d", sum.Played, total-len(first))
	}
	checkComplete(t, readRecords(t, out), total)
}

// noticeLog is a tournament.Progress that keeps the notices, one a line,
// and the last state of the sequential test it was given.
type noticeLog struct {
	mu   sync.Mutex
	b    strings.Builder
	test string
}

func (n *noticeLog) Started(tournament.ProgressStart) {}
func (n *noticeLog) Finished()                        {}

func (n *noticeLog) Recorded(_ *journal.Record, test string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.test = test
}

func (n *noticeLog) Notice(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.b.WriteString(msg + "\n")
}

func (n *noticeLog) String() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.b.String()
}

func TestScheduleChangeRefused(t *testing.T) {
	path := writeConfig(t, cheversiBody, "change", testBot{"a", "first"}, testBot{"b", "first"})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	changed := strings.Replace(string(data), "count = 3", "count = 4", 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if !errors.Is(err, journal.ErrScheduleChanged) || !strings.Contains(err.Error(), "number of openings was 3") {
		t.Errorf("Run with more openings: %v; want ErrScheduleChanged naming the openings", err)
	}
}

// TestRejectedStartThenFixed: a tournament whose bots were all rejected
// at start recorded no game, so a changed configuration starts afresh in
// its directory.
func TestRejectedStartThenFixed(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	bad := writeConfig(t, cheversiBody, "fixed", testBot{"a", "first"}, testBot{"martian", "othergame"})
	if _, err := tournament.Run(context.Background(), loadConfig(t, bad), tournament.Options{Out: out}); !errors.Is(err, tournament.ErrBot) {
		t.Fatalf("Run with a bot of another game: %v, want ErrBot", err)
	}
	if _, err := os.Stat(filepath.Join(out, journal.ManifestFile)); err != nil {
		t.Fatalf("no manifest after the rejected start: %v", err)
	}
	fixed := writeConfig(t, cheversiBody, "fixed", testBot{"a", "first"}, testBot{"b", "first"})
	sum, err := tournament.Run(context.Background(), loadConfig(t, fixed), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("Run with the fixed configuration: %v", err)
	}
	if !sum.Complete || !slices.Equal(sum.Manifest.Bots, []string{"a", "b"}) {
		t.Errorf("summary: complete %v, bots %v; want the fixed tournament complete", sum.Complete, sum.Manifest.Bots)
	}
	checkComplete(t, readRecords(t, out), sum.Total)
}

// TestForeignOutputRefused: a directory that holds something other than a
// tournament is refused before anything is written to it.
func TestForeignOutputRefused(t *testing.T) {
	path := writeConfig(t, cheversiBody, "foreign", testBot{"a", "first"}, testBot{"b", "first"})
	for _, c := range []struct {
		name, file, want string
	}{
		{"journal without manifest", journal.File, "holds a games.jsonl but no manifest.json"},
		{"other files", "notes.txt", "is not a tournament's output directory (it holds notes.txt"},
	} {
		out := t.TempDir()
		if err := os.WriteFile(filepath.Join(out, c.file), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Run = %v, want an error saying %q", c.name, err, c.want)
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != 1 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("%s: the directory holds %v after the refusal, want only %s", c.name, names, c.file)
		}
	}
	// An empty directory is fine.
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: t.TempDir()}); err != nil {
		t.Errorf("Run into an empty directory: %v", err)
	}
}

func TestCheckersBallots(t *testing.T) {
	path := writeConfig(t, `
name = "checkers"
seed = 5
concurrency = 2
[game]
name = "checkers"
[openings]
deck = "ctd"
limit = 2
[adjudication]
max_plies = 120
[time]
move = "2s"
`, "checkers", testBot{"x", "random:1"}, testBot{"y", "legal"})
	out := filepath.Join(t.TempDir(), "out")
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	recs := readRecords(t, out)
	checkComplete(t, recs, 4)
	if sum.Total != 4 {
		t.Errorf("total %d, want 4", sum.Total)
	}
	for _, r := range recs {
		if r.FirstMover != "black" || len(r.Opening.Moves) != 3 || !strings.HasPrefix(r.Opening.Name, "ACF ") {
			t.Errorf("game %d: first mover %s, opening %q %v", r.ID, r.FirstMover, r.Opening.Name, r.Opening.Moves)
		}
		if len(r.Opening.Moves)+len(r.Moves) > 120 {
			t.Errorf("game %d: %d plies, over the cap", r.ID, len(r.Opening.Moves)+len(r.Moves))
		}
	}
	pdn, err := os.ReadFile(filepath.Join(out, "games.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pdn), `[GameType "21"]`); n != 4 {
		t.Errorf("games.pdn: %d GameType tags, want 4", n)
	}
}

// TestLengthCapCountsOpeningPlies checks the decision docs/rules/checkers.md
// states: the length cap counts from the initial position, the ballot's
// opening plies included.
func TestLengthCapCountsOpeningPlies(t *testing.T) {
	path := writeConfig(t, "[game]\nname = \"checkers\"\n[openings]\nlimit = 2\n[adjudication]\nmax_plies = 5\n", "cap",
		testBot{"a", "first"}, testBot{"b", "first"})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, out)
	checkComplete(t, recs, 4)
	for _, r := range recs {
		if len(r.Opening.Moves) != 3 || len(r.Moves) != 2 || r.Reason != game.ReasonMaxPlies {
			t.Errorf("game %d: %d opening plies, %d played, reason %s; want 3, 2 and %s",
				r.ID, len(r.Opening.Moves), len(r.Moves), r.Reason, game.ReasonMaxPlies)
		}
	}
}

// TestBotLogCappedPerBot checks that a bot's log is capped for the whole
// tournament, not per process, and keeps the stderr of its last crash.
func TestBotLogCappedPerBot(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 12 MB of bot output")
	}
	body := "name = \"flood\"\nconcurrency = 1\n[game]\nname = \"cheversi\"\n[openings]\nlimit = 1\n[format]\nrounds = 2\n[time]\nmove = \"5s\"\n"
	cfg := loadConfig(t, writeConfig(t, body, "flood", testBot{"flood", "floodcrash"}, testBot{"first", "first"}))
	out := filepath.Join(t.TempDir(), "out")
	sum, err := tournament.Run(t.Context(), cfg, tournament.Options{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Starts["flood"] < 4 {
		t.Fatalf("flood started %d times, want a process per game (4)", sum.Starts["flood"])
	}
	log, err := os.ReadFile(filepath.Join(out, "logs", "flood.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(log) > engine.DefaultLogLimit+512 {
		t.Errorf("log of 4 crashes writing 3 MB each is %d bytes, want at most %d and a note", len(log), engine.DefaultLogLimit)
	}
	if !strings.Contains(string(log), "[arena: log capped at") {
		t.Error("log does not say it was capped")
	}
	if !strings.HasSuffix(strings.TrimRight(string(log), "\n"), "crashing on purpose, process "+lastPid(string(log))) ||
		strings.Count(string(log), "crashing on purpose") == 0 {
		t.Errorf("log does not end with the last crash's words: ...%q", log[max(0, len(log)-300):])
	}
}

// lastPid returns the process id in the last "crashing on purpose" line.
func lastPid(log string) string {
	i := strings.LastIndex(log, "crashing on purpose, process ")
	if i < 0 {
		return "?"
	}
	rest := log[i+len("crashing on purpose, process "):]
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// TestPreflightRetriesFailedStart checks that a bot that dies while it
// starts (or misses its handshake timeout, as a slow start on a loaded
// machine can) gets a second try before the tournament is refused.
func TestPreflightRetriesFailedStart(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "started")
	body := "name = \"slow\"\n[game]\nname = \"cheversi\"\n[openings]\nlimit = 1\n[time]\nmove = \"5s\"\n"
	path := writeConfig(t, body, "slow", testBot{"slow", "failstart:" + flag}, testBot{"first", "first"})
	cfg := loadConfig(t, path)
	sum, err := tournament.Run(t.Context(), cfg, tournament.Options{Out: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if sum.Starts["slow"] < 2 || !sum.Complete {
		t.Errorf("slow started %d times, complete %v; want a second start and the tournament played", sum.Starts["slow"], sum.Complete)
	}
}

// TestPreflightParallelism checks that the pre-tournament check does not
// start every bot at once.
func TestPreflightParallelism(t *testing.T) {
	limit := max(2, runtime.GOMAXPROCS(0))
	if limit > 8 {
		t.Skipf("%d CPUs: too many bots to start", limit)
	}
	log := filepath.Join(t.TempDir(), "starts")
	var bots []testBot
	for i := range 2*limit + 2 {
		bots = append(bots, testBot{fmt.Sprintf("b%d", i), "startlog:" + log})
	}
	body := "name = \"many\"\n[game]\nname = \"cheversi\"\n[openings]\nlimit = 1\n[format]\nkind = \"gauntlet\"\nplayers = [\"b0\"]\n[time]\nmove = \"5s\"\n"
	cfg := loadConfig(t, writeConfig(t, body, "many", bots...))
	if _, err := tournament.Run(t.Context(), cfg, tournament.Options{Out: filepath.Join(t.TempDir(), "out")}); err != nil {
		t.Fatalf("Run: %v", err)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	type span struct{ begin, end int64 }
	var spans []span
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var s span
		if _, err := fmt.Sscan(line, &s.begin, &s.end); err != nil {
			t.Fatalf("bad line %q", line)
		}
		spans = append(spans, s)
	}
	if len(spans) < len(bots) {
		t.Fatalf("%d handshakes logged, want %d", len(spans), len(bots))
	}
	most := 0
	for _, a := range spans[:len(bots)] {
		n := 0
		for _, b := range spans[:len(bots)] {
			if b.begin <= a.begin && a.begin < b.end {
				n++
			}
		}
		most = max(most, n)
	}
	if most > limit {
		t.Errorf("%d bots in their handshake at once, want at most %d", most, limit)
	}
}

// TestSwappedJournalLine checks that a journal line whose colours were
// swapped by hand is refused as a damaged journal, not blamed on the
// configuration (which has not changed).
func TestSwappedJournalLine(t *testing.T) {
	path := writeConfig(t, "name = \"swap\"\n[game]\nname = \"cheversi\"\n[openings]\nlimit = 1\n", "swap",
		testBot{"a", "first"}, testBot{"b", "first"})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := tournament.Run(t.Context(), loadConfig(t, path), tournament.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	journalPath := filepath.Join(out, journal.File)
	data, err := os.ReadFile(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(data), "\n")
	swapped := strings.NewReplacer(`"white":"a","black":"b"`, `"white":"b","black":"a"`, `"white":"b","black":"a"`, `"white":"a","black":"b"`).Replace(first)
	if swapped == first {
		t.Fatalf("no colours to swap in %s", first)
	}
	if err := os.WriteFile(journalPath, []byte(swapped+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = tournament.Run(t.Context(), loadConfig(t, path), tournament.Options{Out: out})
	if !errors.Is(err, journal.ErrDamaged) || errors.Is(err, journal.ErrScheduleChanged) || strings.Contains(err.Error(), "configuration") {
		t.Errorf("Run on a journal with swapped colours: %v; want a damaged journal, not the configuration blamed", err)
	}
}

// TestRestartFailureIsStart checks that a bot that cannot be restarted
// (it exits at once) forfeits with kind start, and that a huge illegal
// move is not stored whole.
func TestRestartFailureIsStart(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "started")
	body := "name = \"restart\"\nconcurrency = 1\n[game]\nname = \"cheversi\"\n[openings]\nlimit = 1\n[format]\nrounds = 2\n[time]\nmove = \"5s\"\n"
	path := writeConfig(t, body, "restart", testBot{"once", "onlyonce:" + flag}, testBot{"huge", "hugemove"}, testBot{"first", "first"})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := tournament.Run(t.Context(), loadConfig(t, path), tournament.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	kinds := map[string][]string{}
	for _, r := range readRecords(t, out) {
		if r.Forfeit != nil {
			kinds[r.Forfeit.Bot] = append(kinds[r.Forfeit.Bot], r.Forfeit.Kind)
		}
	}
	// Its first game ends with a crash (or with huge's illegal move); every
	// later one with a failed restart.
	once := kinds["once"]
	if len(once) < 3 || once[len(once)-1] != journal.ForfeitStart || slices.Contains(once[1:], journal.ForfeitCrash) {
		t.Errorf("once forfeited %v, want start for every game after its first", once)
	}
	if !slices.Contains(kinds["huge"], journal.ForfeitIllegalMove) {
		t.Errorf("huge forfeited %v, want an illegal move", kinds["huge"])
	}
	data, err := os.ReadFile(filepath.Join(out, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if len(line) > 4<<10 {
			t.Errorf("journal line %d is %d bytes: a bot's text is stored whole", i+1, len(line))
		}
	}
}
