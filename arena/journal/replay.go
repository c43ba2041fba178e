package journal

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
)

// ErrVerify is wrapped by the errors of Verify: a recorded game that does
// not replay legally or does not reproduce its recorded result.
var ErrVerify = errors.New("recorded game does not verify")

// RulesOf builds the rules a record was played under.
func RulesOf(rec *Record) (game.Rules, error) {
	rules, err := games.New(rec.Game, rec.Preset, rec.Rules)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	return rules, nil
}

// Replay plays the opening and the moves of rec from the start position of
// rules and returns the final state. It fails (wrapping ErrVerify and the
// rules' error, such as game.ErrIllegalMove) at the first move that is not
// legal.
func Replay(rules game.Rules, rec *Record) (game.State, error) {
	st := rules.Start()
	for i, text := range rec.AllMoves() {
		if _, err := game.PlayText(st, text); err != nil {
			return nil, fmt.Errorf("%w: game %d: ply %d %q: %w", ErrVerify, rec.ID, i+1, text, err)
		}
	}
	return st, nil
}

// Verify replays rec under the rules it names and checks that the result
// follows: for a game that ended on the board, the final position must be
// over with the recorded result, reason and scores; for a forfeit, the game
// must still have been going and the forfeiting bot must have lost. It
// also checks that the winner and first mover fields agree with the rest.
func Verify(rec *Record) error {
	rules, err := RulesOf(rec)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrVerify, err)
	}
	return VerifyWith(rules, rec)
}

// VerifyWith is Verify with the rules given (they are not compared with
// the rules the record names).
func VerifyWith(rules game.Rules, rec *Record) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: game %d: %s", ErrVerify, rec.ID, fmt.Sprintf(format, args...))
	}
	res, err := rec.GameResult()
	if err != nil {
		return bad("%v", err)
	}
	first, err := rec.FirstMoverColor()
	if err != nil {
		return bad("%v", err)
	}
	if first != rules.FirstMover() {
		return bad("first mover %s, but %s moves first under the rules", first, rules.FirstMover())
	}
	if rec.White == rec.Black {
		return bad("%q plays both colours", rec.White)
	}
	wantWinner := ""
	if c, ok := res.Winner(); ok {
		wantWinner = rec.White
		if c == game.Black {
			wantWinner = rec.Black
		}
	}
	if rec.Winner != wantWinner {
		return bad("winner %q, but the result %s makes it %q", rec.Winner, rec.Result, wantWinner)
	}
	st, err := Replay(rules, rec)
	if err != nil {
		return err
	}
	out := st.Outcome()
	if rec.Reason == ReasonForfeit {
		f := rec.Forfeit
		if f == nil {
			return bad("reason %q without forfeit details", rec.Reason)
		}
		var loser game.Color
		switch f.Bot {
		case rec.White:
			loser = game.White
		case rec.Black:
			loser = game.Black
		default:
			return bad("forfeit by %q, who did not play", f.Bot)
		}
		if res != game.Win(loser.Other()) {
			return bad("%s forfeited as %s but the result is %s", f.Bot, loser, rec.Result)
		}
		if out.Over() {
			return bad("forfeit recorded, but the game was already over (%s, %s)", out.Result, out.Reason)
		}
		return nil
	}
	if rec.Forfeit != nil {
		return bad("forfeit details with reason %q", rec.Reason)
	}
	if rec.Reason == ReasonAdjudication {
		switch a := rec.Adjudication; {
		case a == nil:
			return bad("reason %q without adjudication details", rec.Reason)
		case a.Rule == AdjudicatedDraw && res != game.Draw, a.Rule == AdjudicatedResign && res == game.Draw,
			a.Rule != AdjudicatedDraw && a.Rule != AdjudicatedResign:
			return bad("adjudicated by rule %q with the result %s", a.Rule, rec.Result)
		case out.Over():
			return bad("adjudication recorded, but the game was already over (%s, %s)", out.Result, out.Reason)
		}
		return nil
	}
	if rec.Adjudication != nil {
		return bad("adjudication details with reason %q", rec.Reason)
	}
	if !out.Over() {
		return bad("recorded as %s (%s) but the game is not over after %d plies", rec.Result, rec.Reason, st.Ply())
	}
	if out.Result != res || out.Reason != rec.Reason {
		return bad("recorded as %s (%s) but the replay ends %s (%s)", rec.Result, rec.Reason, out.Result, out.Reason)
	}
	switch {
	case out.Scores == nil && rec.Scores != nil:
		return bad("scores recorded for a game without scores")
	case out.Scores != nil:
		want := []int{int(game.White): 0, int(game.Black): 0}
		if rec.Scores != nil {
			want[game.White], want[game.Black] = rec.Scores.White, rec.Scores.Black
		}
		if rec.Scores == nil || !slices.Equal(out.Scores, want) {
			return bad("recorded scores %v, replay gives %v", rec.Scores, out.Scores)
		}
	}
	return nil
}
