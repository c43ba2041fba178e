package tournament_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/tournament"
)

// TestSPRTStopsMatch plays a long match between a bot that plays legal
// moves and one that forfeits every game: the test accepts H1 long before
// the schedule is done, the match stops, and a second run plays nothing.
func TestSPRTStopsMatch(t *testing.T) {
	body := cheversiBody + "\n[format]\nrounds = 40\n\n[sprt]\nelo0 = 0\nelo1 = 50\n"
	path := writeConfig(t, body, "sprt", testBot{"first", "first"}, testBot{"loser", "illegal"})
	out := filepath.Join(t.TempDir(), "out")
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	const total = 40 * 3 * 2
	if sum.Total != total {
		t.Fatalf("scheduled %d games, want %d", sum.Total, total)
	}
	if sum.SPRT == nil || sum.SPRT.Decision != rating.AcceptH1 {
		t.Fatalf("SPRT = %+v, want H1 accepted", sum.SPRT)
	}
	if sum.Complete || sum.Recorded >= total/2 {
		t.Errorf("recorded %d of %d games (complete %v); want the match stopped early", sum.Recorded, total, sum.Complete)
	}
	if sum.SPRT.LLR < sum.SPRT.Upper {
		t.Errorf("LLR %.2f below the upper bound %.2f after H1 was accepted", sum.SPRT.LLR, sum.SPRT.Upper)
	}
	recs := readRecords(t, out)
	if len(recs) != sum.Recorded {
		t.Errorf("journal has %d games, summary says %d", len(recs), sum.Recorded)
	}
	for _, r := range recs {
		if r.Winner != "first" {
			t.Errorf("game %d: winner %q, want first", r.ID, r.Winner)
		}
	}

	sum2, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("second Run: %v", err)
	}
	if sum2.Played != 0 || sum2.Recorded != sum.Recorded || sum2.SPRT == nil || sum2.SPRT.Decision != rating.AcceptH1 {
		t.Errorf("second run: played %d, recorded %d, SPRT %+v; want nothing played and H1 still accepted", sum2.Played, sum2.Recorded, sum2.SPRT)
	}
}
