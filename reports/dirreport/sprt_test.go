package dirreport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/rating"
)

// TestSPRTDecisionStands: the test decides at the first recorded game that
// takes it across a bound; games recorded after that (which here all go
// the other way) change neither the decision nor its ratio, in the reports
// as in a later run.
func TestSPRTDecisionStands(t *testing.T) {
	var recs []journal.Record
	for id := 1; id <= 400; id++ {
		r := journal.Record{ID: id, PairKey: fmt.Sprint("p", (id+1)/2), White: "a", Black: "b", FirstMover: "white"}
		if id%2 == 0 {
			r.White, r.Black = "b", "a"
		}
		switch {
		case id > 300:
			r.Result, r.Winner = map[string]string{"a": "0-1", "b": "1-0"}[r.White], "b"
		case id%5 == 3:
			r.Result = "1/2-1/2"
		default:
			r.Result, r.Winner = map[string]string{"a": "1-0", "b": "0-1"}[r.White], "a"
		}
		recs = append(recs, r)
	}
	m := &journal.Manifest{Name: "m", Games: 1000, Bots: []string{"a", "b"},
		SPRT: &rating.SPRTParams{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: rating.NormalizedElo}}
	want := reportMeta(m, recs).Run
	if want.SPRT == "" {
		t.Fatal("no SPRT in the report")
	}
	// The decision comes from the first games; all 400 would say otherwise.
	if got := reportMeta(m, recs[:300]).Run; got.SPRT != want.SPRT {
		t.Errorf("decision from the first 300 games %q, from all %q", got.SPRT, want.SPRT)
	}
	if !strings.Contains(want.SPRT, "normalized Elo") || !strings.Contains(want.Stopped, "accepted H1") || !want.Finished {
		t.Errorf("run %+v: want H1 accepted in the normalized model", want)
	}
}
