package tournament_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/tournament"
)

// TestSPRTStopsMatch plays a long match between a bot that plays legal
// moves and one that forfeits every game: the test accepts H1 long before
// the schedule is done, the match stops, and a second run plays nothing.
//
// The line that announced the decision while the match ran, the summary of
// a second run and the reports all give the same LLR after the same number
// of pairs, although games in flight at the decision were recorded too.
func TestSPRTStopsMatch(t *testing.T) {
	body := strings.Replace(cheversiBody, "concurrency = 2", "concurrency = 4", 1) + "\n[format]\nrounds = 40\n\n[sprt]\nelo0 = 0\nelo1 = 50\n"
	path := writeConfig(t, body, "sprt", testBot{"first", "first"}, testBot{"loser", "illegal"})
	out := filepath.Join(t.TempDir(), "out")
	var progress noticeLog
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out, Progress: &progress})
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

	var live string
	for _, line := range strings.Split(progress.String(), "\n") {
		if l, ok := strings.CutSuffix(line, "; stopping the match"); ok {
			live = l
		}
	}
	if !strings.Contains(live, "logistic Elo") || !strings.Contains(live, "reached the upper bound 2.94 after") || !strings.Contains(live, "H1 accepted") {
		t.Errorf("live decision line %q, want the model, the bound reached and the decision", live)
	}
	if sum.SPRTText != live {
		t.Errorf("summary %q, live line %q", sum.SPRTText, live)
	}
	// The progress is given the ratio as it goes, and where it ended.
	if last := progress.test; !strings.Contains(last, fmt.Sprintf("LLR %.2f ≥ %.2f: H1", sum.SPRT.LLR, sum.SPRT.Upper)) {
		t.Errorf("last state of the test given to the progress %q does not show the decision", last)
	}

	sum2, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("second Run: %v", err)
	}
	if sum2.Played != 0 || sum2.Recorded != sum.Recorded || sum2.SPRT == nil || sum2.SPRT.Decision != rating.AcceptH1 {
		t.Errorf("second run: played %d, recorded %d, SPRT %+v; want nothing played and H1 still accepted", sum2.Played, sum2.Recorded, sum2.SPRT)
	}
	if *sum2.SPRT != *sum.SPRT || sum2.SPRTText != live {
		t.Errorf("second run: %+v %q; live %+v %q", *sum2.SPRT, sum2.SPRTText, *sum.SPRT, live)
	}
	rep, err := dirreport.Write(context.Background(), out, dirreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.Meta.Run
	if run == nil || run.SPRT != live || !run.Finished || !strings.Contains(run.Stopped, "SPRT accepted H1") || run.Played != rep.Games || run.Scheduled != total {
		t.Errorf("report run status %+v, want the live line %q, finished early", run, live)
	}
}
