package tournament_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/tournament"
)

// hashBots returns n bots whose moves depend on the game alone (see the
// hash test bot), so that two runs of one tournament play the same games
// with the same results.
func hashBots(n int, kind string) []testBot {
	bots := make([]testBot, n)
	for i := range bots {
		bots[i] = testBot{fmt.Sprintf("h%02d", i), fmt.Sprintf("%s:%d", kind, i)}
	}
	return bots
}

// gameLines returns each game of the journal of dir as a line of its ID,
// round, players, opening and result, by ID.
func gameLines(t *testing.T, dir string) map[int]string {
	t.Helper()
	out := map[int]string{}
	for _, r := range readRecords(t, dir) {
		if _, dup := out[r.ID]; dup {
			t.Errorf("%s: game %d recorded twice", dir, r.ID)
		}
		out[r.ID] = fmt.Sprintf("round %d %s-%s opening %d pair %q %s", r.Round, r.White, r.Black, r.Opening.Index, r.PairKey, r.Result)
	}
	return out
}

// sameLines reports the differences between two runs' games.
func sameLines(t *testing.T, what string, got, want map[int]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d games, want %d", what, len(got), len(want))
	}
	for id, w := range want {
		if g := got[id]; g != w {
			t.Errorf("%s: game %d is %q, want %q", what, id, g, w)
		}
	}
}

const swissBody = `
name = "swiss"
seed = 5
concurrency = 2
[game]
name = "cheversi"
[format]
kind = "swiss"
rounds = 4
[openings]
plies = 2
count = 3
[time]
move = "2s"
`

// TestSwissKillAndResume plays a Swiss of 9 bots (a bye every round) in
// a child process, kills it with SIGKILL twice in the middle of its
// rounds, resumes it to the end, and checks that every game (round,
// players, colours, opening and result) is the game of an uninterrupted
// run of the same tournament, and that each round pairs every bot but
// the one with the bye once, with no rematch and no second bye.
func TestSwissKillAndResume(t *testing.T) {
	mark := fmt.Sprintf("swisskill-%d", time.Now().UnixNano())
	path := writeConfig(t, swissBody, mark, hashBots(9, "slowhash")...)
	const total = 4 * 4 * 2 // four rounds of four boards
	out := filepath.Join(t.TempDir(), "killed")
	journalPath := filepath.Join(out, journal.File)
	for kill := 1; kill <= 2; kill++ {
		exe, _ := os.Executable()
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), testRunEnv+"="+path+"|"+out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill in round 2, then in round 3, with games in flight.
		want := 8*kill + 3
		deadline := time.Now().Add(2 * time.Minute)
		for {
			data, _ := os.ReadFile(journalPath)
			if strings.Count(string(data), "\n") >= want {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no %d games recorded within 2 minutes", want)
			}
			time.Sleep(2 * time.Millisecond)
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
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if !sum.Complete || sum.Recorded != total {
		t.Errorf("after resume: recorded %d of %d, complete %v", sum.Recorded, total, sum.Complete)
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: whole}); err != nil {
		t.Fatal(err)
	}
	killed, uninterrupted := gameLines(t, out), gameLines(t, whole)
	sameLines(t, "killed and resumed", killed, uninterrupted)
	checkComplete(t, readRecords(t, out), total)

	m, err := journal.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.LayRounds()
	if err != nil {
		t.Fatal(err)
	}
	met := map[[2]string]int{}
	for _, rec := range readRecords(t, out) {
		if rec.ID%2 == 1 {
			met[[2]string{min(rec.White, rec.Black), max(rec.White, rec.Black)}]++
		}
	}
	for pair, n := range met {
		if n > 1 {
			t.Errorf("%s and %s met %d times", pair[0], pair[1], n)
		}
	}
	_ = r
	waitNoBots(t, mark)
}

// TestKnockoutResume plays a knockout of six bots (byes for the top two
// seeds) with tiebreak pairs and an armageddon decider, interrupted after
// its first game and resumed, and checks it against an uninterrupted run:
// the same games, a winner, and a manifest that counts the games played
// once it is over.
func TestKnockoutResume(t *testing.T) {
	path := writeConfig(t, `
name = "knockout"
seed = 9
concurrency = 2
[game]
name = "cheversi"
[format]
kind = "knockout"
games = 2
tiebreak_pairs = 1
[openings]
plies = 2
count = 4
[time]
move = "2s"
`, "knockout", hashBots(6, "hash")...)
	out := filepath.Join(t.TempDir(), "interrupted")
	ctx, cancel := context.WithCancel(context.Background())
	obs := &cancelAtEnd{cancel: cancel}
	if _, err := tournament.Run(ctx, loadConfig(t, path), tournament.Options{Out: out, Observer: obs}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Complete {
		t.Errorf("knockout not complete: %d of %d games", sum.Recorded, sum.Total)
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: whole}); err != nil {
		t.Fatal(err)
	}
	sameLines(t, "interrupted and resumed", gameLines(t, out), gameLines(t, whole))
	m, err := journal.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Games != sum.Recorded || m.Games < 5*2 {
		t.Errorf("manifest counts %d games, %d played (at least 10: five matches of two games)", m.Games, sum.Recorded)
	}
	r, err := m.LayRounds()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range readRecords(t, out) {
		res, _ := rec.GameResult()
		if _, err := r.Record(rec.ID, res); err != nil {
			t.Fatal(err)
		}
	}
	if r.Winner() == "" || len(r.Placings()) != 6 {
		t.Errorf("no winner after replaying the journal: %+v", r.Placings())
	}
	// Running it again changes nothing.
	again, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil || again.Played != 0 || !again.Complete {
		t.Errorf("run of a finished knockout: %+v, %v", again, err)
	}
}

// TestRoundsJournalDamage checks that a Swiss journal whose line was
// changed (another pairing) is refused as damaged.
func TestRoundsJournalDamage(t *testing.T) {
	path := writeConfig(t, strings.Replace(swissBody, "rounds = 4", "rounds = 2", 1), "damage", hashBots(4, "hash")...)
	out := filepath.Join(t.TempDir(), "out")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	jp := filepath.Join(out, journal.File)
	data, err := os.ReadFile(jp)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	// A round-2 game's players swapped for others.
	last := lines[len(lines)-2]
	var a, b string
	fmt.Sscanf(last[strings.Index(last, `"white":`):], `"white":%q,"black":%q`, &a, &b)
	changed := strings.Replace(last, fmt.Sprintf(`"white":%q`, a), `"white":"h03"`, 1)
	if a == "h03" {
		changed = strings.Replace(last, fmt.Sprintf(`"white":%q`, a), `"white":"h00"`, 1)
	}
	lines[len(lines)-2] = changed
	if err := os.WriteFile(jp, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if !errors.Is(err, journal.ErrDamaged) {
		t.Fatalf("run on a changed journal: %v, want an error wrapping ErrDamaged", err)
	}
}

// TestRoundsRefusesShards checks that a Swiss is not dealt into slices.
func TestRoundsRefusesShards(t *testing.T) {
	path := writeConfig(t, swissBody, "shard", hashBots(4, "hash")...)
	_, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: t.TempDir(), Shard: &schedule.Shard{Index: 0, Count: 2}})
	if !errors.Is(err, schedule.ErrShard) || !strings.Contains(err.Error(), "round before") {
		t.Fatalf("Run with a shard: %v", err)
	}
}

// cancelAtTiebreak cancels a run once a knockout's first tiebreak game
// (of plan) has ended.
type cancelAtTiebreak struct {
	once   sync.Once
	plan   schedule.Plan
	cancel context.CancelFunc
}

func (c *cancelAtTiebreak) GameStarted(journal.Record)    {}
func (c *cancelAtTiebreak) Moved(int, journal.MoveRecord) {}
func (c *cancelAtTiebreak) GameEnded(id int) {
	if c.plan.Tiebreak(id) {
		c.once.Do(c.cancel)
	}
}

// TestKnockoutTiebreakTime plays a knockout whose tiebreak games (pairs
// and armageddon decider) have a faster time control of their own, killed
// after its first tiebreak game and resumed: each bot is given the
// tiebreak clock in those games and its own time per move in the others,
// the journal records the tiebreak games' time control, the resumed run
// plays the games of an uninterrupted one, and a resume with another
// tiebreak time is refused.
func TestKnockoutTiebreakTime(t *testing.T) {
	body := `
name = "knockout"
seed = 3
concurrency = 2
[game]
name = "cheversi"
[format]
kind = "knockout"
games = 2
tiebreak_pairs = 1
tiebreak_time = { base = "20s", increment = "100ms" }
[openings]
plies = 2
count = 4
[time]
move = "2s"
`
	path := writeConfig(t, body, "tiebreak-time", hashBots(6, "hashtime")...)
	cfg := loadConfig(t, path)
	plan := cfg.Plan()
	if plan.TiebreakTime != "20s+100ms" {
		t.Fatalf("plan's tiebreak time %q, want 20s+100ms", plan.TiebreakTime)
	}
	out := filepath.Join(t.TempDir(), "interrupted")
	ctx, cancel := context.WithCancel(context.Background())
	obs := &cancelAtTiebreak{plan: plan, cancel: cancel}
	if _, err := tournament.Run(ctx, cfg, tournament.Options{Out: out, Observer: obs}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	if sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out}); err != nil || !sum.Complete {
		t.Fatalf("resumed run: %+v, %v", sum, err)
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: whole}); err != nil {
		t.Fatal(err)
	}
	sameLines(t, "interrupted and resumed", gameLines(t, out), gameLines(t, whole))
	tiebreaks := 0
	for _, rec := range readRecords(t, out) {
		want, wantTime := "movetime 2s wtime 0s winc 0s", ""
		if plan.Tiebreak(rec.ID) {
			tiebreaks++
			want, wantTime = "movetime 0s wtime ", "20s+100ms"
		}
		if rec.Time != wantTime {
			t.Errorf("game %d: journal's time %q, want %q", rec.ID, rec.Time, wantTime)
		}
		for i, mv := range rec.Moves {
			if mv.Info == nil || !strings.HasPrefix(mv.Info.Text, want) || wantTime != "" && !strings.HasSuffix(mv.Info.Text, "winc 100ms") {
				t.Errorf("game %d move %d: the bot was given %+v, want %q...", rec.ID, i+1, mv.Info, want)
				break
			}
		}
	}
	if tiebreaks == 0 {
		t.Fatal("no match went to a tiebreak: the test needs one")
	}
	// The tiebreak time is part of the matches: another one is refused.
	other := writeConfig(t, strings.Replace(body, `base = "20s"`, `base = "30s"`, 1), "tiebreak-time", hashBots(6, "hashtime")...)
	_, err := tournament.Run(context.Background(), loadConfig(t, other), tournament.Options{Out: out})
	if !errors.Is(err, journal.ErrScheduleChanged) || !strings.Contains(err.Error(), "tiebreak games at 20s+100ms") {
		t.Errorf("resume with another tiebreak time: %v", err)
	}
}
