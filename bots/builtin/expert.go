package builtin

import (
	"context"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/bots/sdk"
)

// Expert is the strongest built-in Cheversi player (see the package
// documentation). In checkers it searches as AlphaBeta does, except that
// it breaks ties between equally scored moves by its seed. It keeps its
// transposition table, history and killer tables from one Choose to the
// next.
type Expert struct {
	seed uint64
	tt   *table
	cv   *exSearch
	ab   *AlphaBeta // checkers
}

// NewExpert returns an Expert player with a transposition table of hashMB
// MiB (DefaultHashMB when hashMB <= 0) that breaks ties between equally
// scored moves in an order drawn from seed.
func NewExpert(seed uint64, hashMB int) *Expert {
	if hashMB <= 0 {
		hashMB = DefaultHashMB
	}
	return &Expert{seed: seed, tt: newTable(min(hashMB, MaxHashMB))}
}

// Name returns "expert".
func (e *Expert) Name() string { return NameExpert }

// Reset forgets everything learnt in earlier searches, as before a new
// game.
func (e *Expert) Reset() {
	e.tt.clear()
	e.cv = nil
	if e.ab != nil {
		e.ab.Reset()
	}
}

// Choose searches st, a *cheversi.State or a *checkers.State, within lim
// and returns the best move found.
func (e *Expert) Choose(ctx context.Context, st game.State, lim Limits) (Result, error) {
	s, ok := st.(*cheversi.State)
	if !ok {
		if _, ok := st.(*checkers.State); !ok {
			return Result{}, unsupported(NameExpert, st)
		}
		if e.ab == nil {
			// The checkers search shares the table.
			e.ab = &AlphaBeta{tt: e.tt, seed: e.seed, seeded: true}
		}
		return e.ab.Choose(ctx, st, lim)
	}
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	e.tt.newSearch()
	if e.cv == nil {
		e.cv = &exSearch{cvBase: cvBase{tt: e.tt}, seed: e.seed}
	}
	o := s.Rules().Options()
	e.cv.ctl = newControl(ctx, lim)
	// A stopped iteration keeps the best move it has found, and the first
	// moves it searches are the likeliest: half of the limit is worth
	// starting one.
	e.cv.ctl.early = 0.5
	e.cv.w = weightsFor(o)
	e.cv.salt = rulesSalt(o)
	res, err := e.cv.run(s.Position(), lim)
	if err != nil {
		return Result{}, noMoves(st)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// expertBudget returns how long expert may think about the move req asks
// for. In Cheversi, with a clock, it knows how many moves it has left and
// that the last three take a moment (the search solves them), so it shares
// the remaining time and the increments to come among the others. Its
// limit is twice that share, at most three quarters of the remaining time
// (then capped as Budget caps it): the search starts a new iteration only
// while it expects to finish it, or within the first half of the limit
// (see Choose), so it uses about the share on average, and a stalled
// machine still leaves it time for the moves to come. Otherwise the budget
// is Budget's.
func expertBudget(req sdk.Request, moveTime, overhead time.Duration) time.Duration {
	if _, ok := req.State.(*cheversi.State); !ok || req.Clock.MoveTime > 0 {
		return Budget(req.Clock, req.Color, moveTime, overhead)
	}
	left := req.Clock.Remaining(req.Color)
	moves := (cheversi.MaxPlies - req.State.Ply() + 1) / 2 // this one included
	inc := req.Clock.Increment(req.Color)
	share := (left + inc*time.Duration(moves-1)) / time.Duration(max(moves-3, 1))
	return capBudget(min(2*share, left*3/4), moveTime, overhead)
}
