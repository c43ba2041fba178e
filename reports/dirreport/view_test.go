package dirreport

import (
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/journal/journaltest"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports/viewer"
)

func TestViewGame(t *testing.T) {
	rec := journaltest.Played(t, "checkers", []string{"9-13", "21-17", "5-9"}, 10) // stopped early: a forfeit
	g, err := ViewGame(&rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Plies) != 1+len(rec.AllMoves()) || g.OpeningPlies != 3 {
		t.Fatalf("%d plies (%d of the opening) for %d moves", len(g.Plies), g.OpeningPlies, len(rec.AllMoves()))
	}
	rules, err := journal.RulesOf(&rec)
	if err != nil {
		t.Fatal(err)
	}
	st, err := journal.Replay(rules, &rec)
	if err != nil {
		t.Fatal(err)
	}
	if last := g.Plies[len(g.Plies)-1]; last.Text != st.Text() || last.MS != 1 {
		t.Errorf("last ply %q (%v ms), want %q (1 ms)", last.Text, last.MS, st.Text())
	}
	if g.Plies[1].MS != 0 || g.Plies[1].Move != "9-13" {
		t.Errorf("first ply %+v, want the opening's 9-13 without a time", g.Plies[1])
	}
	// The search info recorded with a move is shown with it.
	score := -35
	rec.Moves[1].Info = &journal.SearchInfo{Depth: 7, Score: &score, Nodes: 12345, TimeMS: 40, PV: []string{"a", "b"}, Text: "x"}
	g, err = ViewGame(&rec)
	if err != nil {
		t.Fatal(err)
	}
	if i := g.Plies[len(rec.Opening.Moves)+2].Info; i == nil || i.Depth != 7 || *i.Score != -35 || i.Nodes != 12345 || i.TimeMS != 40 || len(i.PV) != 2 || i.Text != "x" {
		t.Errorf("search info of the second move: %+v", i)
	}
	if g.Plies[len(rec.Opening.Moves)+1].Info != nil {
		t.Errorf("search info on a move without one")
	}
	wantColor := "white"
	if rec.Forfeit.Bot == rec.Black {
		wantColor = "black"
	}
	if g.Forfeit == nil || g.Forfeit.Bot != rec.Forfeit.Bot || g.Forfeit.Color != wantColor || g.Forfeit.Kind != journal.ForfeitTime {
		t.Errorf("forfeit %+v, want %s (%s) on time", g.Forfeit, rec.Forfeit.Bot, wantColor)
	}

	rec.Reason, rec.Forfeit = journal.ReasonAdjudication, nil
	rec.Adjudication = &journal.Adjudicated{Rule: "resign", Detail: "both bots scored -900 for 4 moves"}
	if g, err = ViewGame(&rec); err != nil || g.Adjudication != "resign: both bots scored -900 for 4 moves" || g.Forfeit != nil {
		t.Errorf("adjudicated game: %+v, %v", g, err)
	}

	rec.Moves[len(rec.Moves)-1].Move = rec.Moves[0].Move
	if _, err := ViewGame(&rec); err == nil {
		t.Error("a record that does not replay gives no error")
	}
}

// TestViewGamesByID: journal records may come in any order; the list is
// by game ID and Load follows it.
func TestViewGamesByID(t *testing.T) {
	var recs []journal.Record
	for _, id := range []int{5, 2, 9, 1} {
		r := journaltest.Played(t, "cheversi", []string{"K@e4"}, 100)
		r.ID = id
		r.Opening.Name = ""
		r.Opening.Index = id
		recs = append(recs, r)
	}
	m := &journal.Manifest{Game: "cheversi", Setups: []journal.BotSetup{{Name: "a", Time: "1s/move"}, {Name: "b", Time: "10m0s+5s"}}}
	g := viewGames(m, "out", recs)
	for i, want := range []int{1, 2, 5, 9} {
		row := g.List.Rows[i]
		if row.ID != want || g.List.Openings[row.Opening] != "opening "+string(rune('0'+want)) || row.Result != viewer.Draw && row.Result != viewer.WhiteWins && row.Result != viewer.BlackWins {
			t.Errorf("row %d = %v, want game %d", i, row, want)
		}
		gm, err := g.Load(i)
		if err != nil {
			t.Fatal(err)
		}
		if gm.ID != want || len(gm.Plies) != 17 {
			t.Errorf("Load(%d) gives game %d with %d plies, want game %d with 17", i, gm.ID, len(gm.Plies), want)
		}
		if !slices.Equal(gm.Clocks, []string{"1s/move", "10m0s+5s"}) {
			t.Errorf("game %d: clocks %v", gm.ID, gm.Clocks)
		}
	}
}
