package tournament_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/game"
)

// playedRecord plays a game with the first legal move every ply, after the
// given opening, and records it as the arena would.
func playedRecord(t testing.TB, gameName string, opening []string, maxPlies int) journal.Record {
	t.Helper()
	rules := rulesFor(t, gameName, "")
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

func TestVerify(t *testing.T) {
	cheversi := playedRecord(t, "cheversi", []string{"K@e4"}, 100)
	checkers := playedRecord(t, "checkers", []string{"9-13", "21-17", "5-9"}, 1000)
	forfeit := playedRecord(t, "cheversi", nil, 5)
	for name, r := range map[string]journal.Record{"cheversi": cheversi, "checkers": checkers, "forfeit": forfeit} {
		if err := journal.Verify(&r); err != nil {
			t.Errorf("%s: Verify: %v", name, err)
		}
	}

	tamper := func(base journal.Record, f func(r *journal.Record)) journal.Record {
		r := base
		r.Moves = slices.Clone(base.Moves)
		if base.Scores != nil {
			s := *base.Scores
			r.Scores = &s
		}
		if base.Forfeit != nil {
			ff := *base.Forfeit
			r.Forfeit = &ff
		}
		f(&r)
		return r
	}
	flip := map[string]string{"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}
	for _, c := range []struct {
		name string
		rec  journal.Record
		want string
	}{
		{"illegal move", tamper(cheversi, func(r *journal.Record) { r.Moves[2].Move = r.Moves[0].Move }), "ply 4"},
		{"bad notation", tamper(checkers, func(r *journal.Record) { r.Moves[0].Move = "K@e4" }), "ply 4"},
		{"wrong result", tamper(cheversi, func(r *journal.Record) { r.Result, r.Winner = flip[r.Result], "" }), ""},
		{"wrong winner", tamper(cheversi, func(r *journal.Record) { r.Winner = "nobody" }), "winner"},
		{"wrong reason", tamper(cheversi, func(r *journal.Record) { r.Reason = game.ReasonNoMoves }), "replay ends"},
		{"wrong scores", tamper(cheversi, func(r *journal.Record) { r.Scores.White++ }), "scores"},
		{"missing scores", tamper(cheversi, func(r *journal.Record) { r.Scores = nil }), "scores"},
		{"scores in checkers", tamper(checkers, func(r *journal.Record) { r.Scores = &journal.Scores{} }), "scores"},
		{"unfinished", tamper(cheversi, func(r *journal.Record) { r.Moves = r.Moves[:len(r.Moves)-1] }), "not over"},
		{"extra move", tamper(cheversi, func(r *journal.Record) { r.Moves = append(r.Moves, r.Moves[0]) }), ""},
		{"first mover", tamper(checkers, func(r *journal.Record) { r.FirstMover = "white" }), "first mover"},
		{"forfeit after the end", tamper(cheversi, func(r *journal.Record) {
			r.Reason, r.Forfeit, r.Result, r.Winner = journal.ReasonForfeit, &journal.Forfeit{Kind: "crash", Bot: "a"}, "0-1", "b"
		}), "already over"},
		{"forfeit by a stranger", tamper(forfeit, func(r *journal.Record) { r.Forfeit.Bot = "zed" }), "did not play"},
		{"forfeit winner", tamper(forfeit, func(r *journal.Record) { r.Result, r.Winner = flip[r.Result], r.Forfeit.Bot }), "forfeited"},
		{"forfeit without details", tamper(forfeit, func(r *journal.Record) { r.Forfeit = nil }), "without forfeit details"},
		{"unknown rules", tamper(cheversi, func(r *journal.Record) { r.Preset = "nope" }), "nope"},
		{"same player", tamper(cheversi, func(r *journal.Record) { r.Black = "a" }), ""},
	} {
		err := journal.Verify(&c.rec)
		if !errors.Is(err, journal.ErrVerify) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Verify = %v, want ErrVerify mentioning %q", c.name, err, c.want)
		}
	}
}

func TestReplayReachesRecordedPosition(t *testing.T) {
	rec := playedRecord(t, "checkers", []string{"11-15", "23-19", "8-11"}, 30)
	st, err := journal.Replay(rulesFor(t, "checkers", ""), &rec)
	if err != nil {
		t.Fatal(err)
	}
	if st.Ply() != 33 {
		t.Errorf("replay ends at ply %d, want 33", st.Ply())
	}
}

// rulesFor builds a game's rules under a preset ("" for its default).
func rulesFor(t testing.TB, name, preset string) game.Rules {
	t.Helper()
	r, err := games.New(name, preset, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
