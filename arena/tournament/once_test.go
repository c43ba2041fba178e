package tournament_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
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
