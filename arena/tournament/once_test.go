package tournament_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/pgn"
	"github.com/arena-games/arena/arena/tournament"
)

const onceBody = `
name = "once"
seed = 5
concurrency = 2

[game]
name = "cheversi"
preset = "cheversi"

[openings]
plies = 2
count = 7
once = true

[time]
move = "2s"
margin = "1s"
`

// TestOnceInStages plays every opening once, in stages (Until), resumes,
// and refuses the same directory for the schedule played twice.
func TestOnceInStages(t *testing.T) {
	path := writeConfig(t, onceBody, "once", testBot{"a", "random:1"}, testBot{"b", "random:2"})
	cfg := loadConfig(t, path)
	out := t.TempDir()
	for _, until := range []int{3, 3, 6, 0} {
		sum, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out, Until: until})
		if err != nil {
			t.Fatalf("until %d: %v", until, err)
		}
		want := until
		if until == 0 {
			want = 7
		}
		if sum.Recorded != want || sum.Total != 7 || sum.Complete != (want == 7) {
			t.Errorf("until %d: recorded %d of %d (complete %v), want %d of 7", until, sum.Recorded, sum.Total, sum.Complete, want)
		}
	}
	recs := readRecords(t, out)
	if len(recs) != 7 {
		t.Fatalf("%d games, want 7", len(recs))
	}
	openings := map[int]bool{}
	for _, r := range recs {
		if r.PairKey != "" || openings[r.Opening.Index] {
			t.Errorf("game %d: pair %q, opening %d (seen before %v)", r.ID, r.PairKey, r.Opening.Index, openings[r.Opening.Index])
		}
		openings[r.Opening.Index] = true
		white := "a"
		if r.Opening.Index%2 == 0 { // openings counted from 1: a has White on the odd ones
			white = "b"
		}
		if r.White != white || r.Opening.Index != r.ID {
			t.Errorf("game %d on opening %d: %s-%s, want %s White", r.ID, r.Opening.Index, r.White, r.Black, white)
		}
	}
	m, err := journal.ReadManifest(out)
	if err != nil || !m.Once || m.Games != 7 {
		t.Fatalf("manifest %+v, %v: want once, 7 games", m, err)
	}
	if _, err := m.Schedule(context.Background()); err != nil {
		t.Errorf("the manifest's schedule: %v", err)
	}

	// The same configuration played twice per opening is another
	// tournament.
	appendTOML(t, path, "")
	twice := loadConfig(t, path)
	twice.Openings.Once = false
	_, err = tournament.Run(context.Background(), twice, tournament.Options{Out: out})
	if !errors.Is(err, journal.ErrScheduleChanged) || !strings.Contains(err.Error(), "once") {
		t.Errorf("resuming with the openings played twice: %v, want a changed schedule naming once", err)
	}
}

// TestDeferredOpenings: the players play the first plies, the arena the
// random ones after them, the same on every run of the same opening and
// marked in the record; the games replay.
func TestDeferredOpenings(t *testing.T) {
	body := strings.Replace(onceBody, "count = 7", "count = 6\nafter = 2", 1)
	path := writeConfig(t, body, "deferred", testBot{"a", "first"}, testBot{"b", "first"})
	cfg := loadConfig(t, path)
	var runs [2][]journal.Record
	for i := range runs {
		out := t.TempDir()
		if _, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out}); err != nil {
			t.Fatal(err)
		}
		text, err := os.ReadFile(filepath.Join(out, pgn.FileName("cheversi")))
		if n := strings.Count(string(text), "{random ply}"); err != nil || n != 2*6 {
			t.Errorf("the game file marks %d random plies (%v), want 12", n, err)
		}
		runs[i] = readRecords(t, out) // replays every game
		slices.SortFunc(runs[i], func(a, b journal.Record) int { return a.ID - b.ID })
	}
	distinct := map[string]bool{}
	for k, r := range runs[0] {
		if len(r.Opening.Moves) != 0 || len(r.Moves) < 4 {
			t.Fatalf("game %d: opening %v, %d moves", r.ID, r.Opening.Moves, len(r.Moves))
		}
		for j, m := range r.Moves[:4] {
			if m.Random != (j >= 2) {
				t.Errorf("game %d, ply %d (%s): random %v, want the players' first two plies and the arena's next two", r.ID, j+1, m.Move, m.Random)
			}
		}
		// "first" plays the first legal move: the players' plies are the
		// same in every game, the random ones differ with the opening.
		if r.Moves[0].Move != runs[0][0].Moves[0].Move || r.Moves[1].Move != runs[0][0].Moves[1].Move {
			t.Errorf("game %d: the players opened %s %s, game 1 %s %s", r.ID, r.Moves[0].Move, r.Moves[1].Move,
				runs[0][0].Moves[0].Move, runs[0][0].Moves[1].Move)
		}
		distinct[r.Moves[2].Move+" "+r.Moves[3].Move] = true
		other := runs[1][k]
		for j := range 4 {
			if other.Moves[j].Move != r.Moves[j].Move || other.Moves[j].Random != r.Moves[j].Random {
				t.Errorf("game %d, ply %d: %s on one run, %s on the other", r.ID, j+1, r.Moves[j].Move, other.Moves[j].Move)
			}
		}
	}
	if len(distinct) < 4 {
		t.Errorf("the random plies of 6 openings take %d forms, want them to differ", len(distinct))
	}
}
