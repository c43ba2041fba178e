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

// Replay plays the opening and the moves of rec from the position the game
// started from (see Record.StartState) and returns the final state. It
// fails (wrapping ErrVerify and the rules' error, such as
// game.ErrIllegalMove) at the first move that is not legal.
func Replay(rules game.Rules, rec *Record) (game.State, error) {
	st, err := rec.StartState(rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrVerify, err)
	}
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
	v := verifier{rec: rec}
	res, err := rec.GameResult()
	if err != nil {
		return v.bad("%v", err)
	}
	if err := v.players(rules, res); err != nil {
		return err
	}
	st, err := Replay(rules, rec)
	if err != nil {
		return err
	}
	out := st.Outcome()
	switch {
	case rec.Reason == ReasonForfeit:
		return v.forfeit(res, out)
	case rec.Forfeit != nil:
		return v.bad("forfeit details with reason %q", rec.Reason)
	case rec.Reason == ReasonAdjudication:
		return v.adjudication(res, out)
	case rec.Adjudication != nil:
		return v.bad("adjudication details with reason %q", rec.Reason)
	}
	return v.ending(res, st)
}

// verifier checks a record for Verify.
type verifier struct{ rec *Record }

// bad returns the error of a record that does not verify.
func (v verifier) bad(format string, args ...any) error {
	return fmt.Errorf("%w: game %d: %s", ErrVerify, v.rec.ID, fmt.Sprintf(format, args...))
}

// players checks the first mover, the players and the winner.
func (v verifier) players(rules game.Rules, res game.Result) error {
	rec := v.rec
	first, err := rec.FirstMoverColor()
	if err != nil {
		return v.bad("%v", err)
	}
	if first != rules.FirstMover() {
		return v.bad("first mover %s, but %s moves first under the rules", first, rules.FirstMover())
	}
	if rec.White == rec.Black {
		return v.bad("%q plays both colours", rec.White)
	}
	wantWinner := ""
	if c, ok := res.Winner(); ok {
		wantWinner = rec.White
		if c == game.Black {
			wantWinner = rec.Black
		}
	}
	if rec.Winner != wantWinner {
		return v.bad("winner %q, but the result %s makes it %q", rec.Winner, rec.Result, wantWinner)
	}
	return nil
}

// forfeit checks a game lost by forfeit: the game was still going and the
// forfeiting bot lost it.
func (v verifier) forfeit(res game.Result, out game.Outcome) error {
	rec := v.rec
	f := rec.Forfeit
	if f == nil {
		return v.bad("reason %q without forfeit details", rec.Reason)
	}
	var loser game.Color
	switch f.Bot {
	case rec.White:
		loser = game.White
	case rec.Black:
		loser = game.Black
	default:
		return v.bad("forfeit by %q, who did not play", f.Bot)
	}
	if res != game.Win(loser.Other()) {
		return v.bad("%s forfeited as %s but the result is %s", f.Bot, loser, rec.Result)
	}
	if out.Over() {
		return v.bad("forfeit recorded, but the game was already over (%s, %s)", out.Result, out.Reason)
	}
	return nil
}

// adjudication checks a game adjudicated by agreement: the game was still
// going and the rule gives the result.
func (v verifier) adjudication(res game.Result, out game.Outcome) error {
	rec := v.rec
	switch a := rec.Adjudication; {
	case a == nil:
		return v.bad("reason %q without adjudication details", rec.Reason)
	case a.Rule == AdjudicatedDraw && res != game.Draw, a.Rule == AdjudicatedResign && res == game.Draw,
		a.Rule != AdjudicatedDraw && a.Rule != AdjudicatedResign:
		return v.bad("adjudicated by rule %q with the result %s", a.Rule, rec.Result)
	case out.Over():
		return v.bad("adjudication recorded, but the game was already over (%s, %s)", out.Result, out.Reason)
	}
	return nil
}

// ending checks a game that ended on the board, in st: over, with the
// recorded result, reason and scores.
func (v verifier) ending(res game.Result, st game.State) error {
	rec, out := v.rec, st.Outcome()
	if !out.Over() {
		return v.bad("recorded as %s (%s) but the game is not over after %d plies", rec.Result, rec.Reason, st.Ply())
	}
	if out.Result != res || out.Reason != rec.Reason {
		return v.bad("recorded as %s (%s) but the replay ends %s (%s)", rec.Result, rec.Reason, out.Result, out.Reason)
	}
	switch {
	case out.Scores == nil && rec.Scores != nil:
		return v.bad("scores recorded for a game without scores")
	case out.Scores != nil:
		want := []int{int(game.White): 0, int(game.Black): 0}
		if rec.Scores != nil {
			want[game.White], want[game.Black] = rec.Scores.White, rec.Scores.Black
		}
		if rec.Scores == nil || !slices.Equal(out.Scores, want) {
			return v.bad("recorded scores %v, replay gives %v", rec.Scores, out.Scores)
		}
	}
	return nil
}
