package builtin

import (
	"context"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// AlphaBeta searches with iterative deepening alpha-beta (see the package
// documentation). It keeps its transposition table, history and killer
// tables from one Choose to the next.
type AlphaBeta struct {
	tt *table
	cv *cvSearch
	ck *ckSearch
	// With seeded, seed orders the root moves of a checkers search before
	// its first iteration, as expert's seed does in Cheversi, so that
	// players with different seeds break ties differently; alphabeta's own
	// searches keep the order of move generation.
	seed   uint64
	seeded bool
}

// NewAlphaBeta returns an AlphaBeta player with a transposition table of
// hashMB MiB (DefaultHashMB when hashMB <= 0).
func NewAlphaBeta(hashMB int) *AlphaBeta {
	if hashMB <= 0 {
		hashMB = DefaultHashMB
	}
	return &AlphaBeta{tt: newTable(min(hashMB, MaxHashMB))}
}

// Name returns "alphabeta".
func (a *AlphaBeta) Name() string { return NameAlphaBeta }

// Reset forgets everything learnt in earlier searches (the transposition
// table, history and killers), as before a new game.
func (a *AlphaBeta) Reset() {
	a.tt.clear()
	a.cv, a.ck = nil, nil
}

// Choose searches st, a *cheversi.State or a *checkers.State, within lim
// and returns the best move found.
func (a *AlphaBeta) Choose(ctx context.Context, st game.State, lim Limits) (Result, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	ctl := newControl(ctx, lim)
	a.tt.newSearch()
	var (
		res Result
		err error
	)
	switch s := st.(type) {
	case *cheversi.State:
		if a.cv == nil {
			a.cv = &cvSearch{cvBase: cvBase{tt: a.tt}, w: &defaultCvEval}
		}
		a.cv.ctl = ctl
		a.cv.salt = rulesSalt(s.Rules().Options())
		res, err = a.cv.run(s.Position(), lim)
	case *checkers.State:
		if a.ck == nil {
			a.ck = &ckSearch{tt: a.tt, eval: &defaultCkEval, seed: a.seed, seeded: a.seeded}
		}
		a.ck.ctl = ctl
		res, err = a.ck.run(s, lim)
	default:
		return Result{}, unsupported(NameAlphaBeta, st)
	}
	if err != nil {
		return Result{}, noMoves(st)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
