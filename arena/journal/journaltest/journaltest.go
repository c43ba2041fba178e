package journaltest

import (
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"
)

// Played returns the record of game 7 between "a" (White) and "b" of the
// named game under its default rules, from opening, each side playing its
// first legal move, one millisecond each: played to its end, or stopped
// after maxPlies plies with a time forfeit of the side to move.
func Played(t testing.TB, gameName string, opening []string, maxPlies int) journal.Record {
	t.Helper()
	rules, err := games.New(gameName, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := journal.Record{
		ID: 7, Round: 1, PairKey: "r1/o1/a/b", Game: gameName, Preset: rules.Preset(), Rules: rules.Settings(),
		White: "a", Black: "b", FirstMover: rules.FirstMover().String(),
		Opening: journal.RecordOpening{Index: 1, Moves: opening},
	}
	st := rules.Start()
	for _, m := range opening {
		mv, err := st.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		st.Play(mv)
	}
	var buf []game.Move
	for !st.Outcome().Over() && len(rec.Moves) < maxPlies {
		buf = st.LegalMoves(buf[:0])
		rec.Moves = append(rec.Moves, journal.MoveRecord{Move: buf[0].String(), MS: 1})
		st.Play(buf[0])
	}
	out := st.Outcome()
	if out.Over() {
		rec.Result, rec.Reason = out.Result.String(), out.Reason
		if w, ok := out.Result.Winner(); ok {
			rec.Winner = map[game.Color]string{game.White: "a", game.Black: "b"}[w]
		}
		if out.Scores != nil {
			rec.Scores = &journal.Scores{White: out.Scores[game.White], Black: out.Scores[game.Black]}
		}
	} else {
		// Stopped early: the side to move forfeits.
		loser := st.Turn()
		rec.Result = game.Win(loser.Other()).String()
		rec.Reason = journal.ReasonForfeit
		names := map[game.Color]string{game.White: "a", game.Black: "b"}
		rec.Winner = names[loser.Other()]
		rec.Forfeit = &journal.Forfeit{Kind: journal.ForfeitTime, Bot: names[loser]}
	}
	return rec
}
