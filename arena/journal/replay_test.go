package journal_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal/journaltest"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/game"
)

func TestVerify(t *testing.T) {
	cheversi := journaltest.Played(t, "cheversi", []string{"K@e4"}, 100)
	checkers := journaltest.Played(t, "checkers", []string{"9-13", "21-17", "5-9"}, 1000)
	forfeit := journaltest.Played(t, "cheversi", nil, 5)
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
	rec := journaltest.Played(t, "checkers", []string{"11-15", "23-19", "8-11"}, 30)
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
