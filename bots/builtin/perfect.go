package builtin

import (
	"context"
	"fmt"
	"time"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/arena/game"
)

// NamePerfect is the name of the Cheversi player that plays by the solver.
const NamePerfect = "perfect"

// PerfectExactPly is the ply from which Perfect always solves the position
// before it moves: past it a solve takes well under a second.
const PerfectExactPly = 8

// Perfect plays Cheversi by the exact value of the position: from the
// shipped proofs where they hold the position, by solving it where that is
// cheap (from PerfectExactPly on, and earlier within half its time), and
// as expert where neither answers. It keeps a won or drawn position won or
// drawn; in a lost one, where every move loses against best play, it plays
// expert's move, which leaves an imperfect opponent the most to get wrong.
// It plays only Cheversi: checkers is not solved.
type Perfect struct {
	expert *Expert
	solver *solve.Solver
	hashMB int
}

// NewPerfect returns a Perfect player whose solver has a transposition
// table of hashMB MiB (DefaultHashMB when hashMB <= 0), with an expert of
// the given seed for the positions it does not solve.
func NewPerfect(seed uint64, hashMB int) *Perfect {
	if hashMB <= 0 {
		hashMB = DefaultHashMB
	}
	return &Perfect{expert: NewExpert(seed, DefaultHashMB), hashMB: min(hashMB, MaxHashMB)}
}

// Name returns "perfect".
func (p *Perfect) Name() string { return NamePerfect }

// Reset forgets what the expert learnt; the solver's table stays, as its
// bounds hold in every game of a rule set.
func (p *Perfect) Reset() { p.expert.Reset() }

// Choose returns a move that keeps the value of st, a *cheversi.State, for
// the side to move where it knows the value (Score then +10000 for a win,
// 0 for a draw, -10000 for a loss), and expert's move where it does not.
func (p *Perfect) Choose(ctx context.Context, st game.State, lim Limits) (Result, error) {
	s, ok := st.(*cheversi.State)
	if !ok {
		return Result{}, fmt.Errorf("%s: %w %T (only Cheversi is solved)", NamePerfect, ErrUnsupported, st)
	}
	start := time.Now()
	pos := s.Position()
	if pos.Over() {
		return Result{}, noMoves(st)
	}
	v, m, ok := p.lookup(&pos)
	if !ok {
		v, m, ok = p.solve(ctx, &pos, lim, start)
	}
	if ok && v != solve.Loss && m != 0 {
		return Result{Move: m, Score: proven(v), Depth: cheversi.MaxPlies - pos.Ply(), PV: []game.Move{m}, Elapsed: time.Since(start)}, nil
	}
	// Lost, or not known: expert chooses, in the time left.
	if lim.Time > 0 {
		lim.Time = max(lim.Time-time.Since(start), time.Millisecond)
	}
	res, err := p.expert.Choose(ctx, st, lim)
	if err != nil {
		return res, err
	}
	if ok {
		res.Score = proven(v)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// lookup answers from the shipped proofs.
func (p *Perfect) lookup(pos *cheversi.Position) (solve.Value, cheversi.Move, bool) {
	b, err := solve.ShippedBook(pos.Options())
	if err != nil {
		return 0, 0, false
	}
	v, m, ok := b.Lookup(pos)
	if !ok || (v == solve.Draw && m == 0) {
		// A drawn position's book entry has no move: solve it.
		return 0, 0, false
	}
	return v, m, true
}

// solve solves pos from PerfectExactPly on, and before within half the
// time limit; ok is false when it did not finish.
func (p *Perfect) solve(ctx context.Context, pos *cheversi.Position, lim Limits, start time.Time) (solve.Value, cheversi.Move, bool) {
	if pos.Ply() < PerfectExactPly {
		if lim.Time <= 0 {
			return 0, 0, false
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(lim.Time/2))
		defer cancel()
	}
	if p.solver == nil {
		p.solver = solve.NewSolver(solve.SolverOptions{TableBytes: int64(p.hashMB) << 20})
	}
	r, err := p.solver.Solve(ctx, pos)
	if err != nil {
		return 0, 0, false
	}
	return r.Value, r.Move, true
}

// proven returns the score Perfect reports for a known value, on expert's
// scale.
func proven(v solve.Value) int { return int(v) * 10000 }
