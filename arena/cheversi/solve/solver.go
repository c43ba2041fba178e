package solve

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// NoMoves is the value, for the side to move, of a position whose side to
// move has no legal move: that side loses, whatever the scores. It is below
// every score margin; -NoMoves is above every one.
const NoMoves = -1000

// Value is the outcome of a position under best play, for the side to move.
type Value int8

// The values.
const (
	Loss Value = -1
	Draw Value = 0
	Win  Value = 1
)

// String returns "win", "draw" or "loss".
func (v Value) String() string {
	switch v {
	case Win:
		return "win"
	case Draw:
		return "draw"
	case Loss:
		return "loss"
	}
	return fmt.Sprintf("Value(%d)", int8(v))
}

// Neg returns the value for the other side.
func (v Value) Neg() Value { return -v }

// DefaultTableBytes is the transposition table size a Solver gets when
// SolverOptions gives none.
const DefaultTableBytes = 256 << 20

// SolverOptions configures a Solver.
type SolverOptions struct {
	// TableBytes is the size of the transposition table
	// (DefaultTableBytes when 0 and Table is nil).
	TableBytes int64
	// Table, when not nil, is used instead of a table of the Solver's own:
	// Solvers working at once on positions of one rule set can share it.
	Table *Table
	// Plain leaves out the code of its own that the solver has for the
	// last two plies under black_king_last, and the enhanced transposition
	// cutoffs: every position is searched move by move. It is slower; a
	// check of values found with them is then a search that does not
	// share that code.
	Plain bool
}

// Solver finds the exact value of Cheversi positions under any rule set by
// a null-window alpha-beta search of the final score margin, with a
// transposition table, the moves ordered by the history heuristic and by
// how much they change the margin at once, the score kept up to date move
// by move, and the last plies solved without generating their positions.
//
// A Solver is not safe for concurrent use; several Solvers may share one
// Table. Its table keeps what it learnt from one call to the next, for
// positions of one rule set: use a new Solver (or Clear the table) for
// another rule set.
type Solver struct {
	s     searcher
	stop  atomic.Bool
	plain bool
}

// NewSolver returns a Solver.
func NewSolver(o SolverOptions) *Solver {
	t := o.Table
	if t == nil {
		size := o.TableBytes
		if size <= 0 {
			size = DefaultTableBytes
		}
		t = NewTable(size)
	}
	s := &Solver{plain: o.Plain}
	s.s = searcher{tt: t, ttPlies: 14, sortPlies: 14, etcPlies: 10, lastTwo: true, stop: &s.stop}
	if o.Plain {
		s.s.etcPlies, s.s.lastTwo = 0, false
	}
	return s
}

// Table returns the Solver's transposition table.
func (s *Solver) Table() *Table { return s.s.tt }

// Positions returns the number of positions searched at each ply (index
// 16 counts the final positions) since the Solver was made or ResetStats
// was last called.
func (s *Solver) Positions() [cheversi.MaxPlies + 1]uint64 { return s.s.nodes }

// TotalPositions returns the sum of Positions.
func (s *Solver) TotalPositions() uint64 { return s.s.total() }

// ResetStats sets the position counts to zero.
func (s *Solver) ResetStats() { s.s.nodes = [cheversi.MaxPlies + 1]uint64{} }

// prepare sets the search up for p's rule set and makes ctx stop it.
func (s *Solver) prepare(ctx context.Context, p *cheversi.Position) (board, func() bool) {
	o := p.Options()
	s.s.kingLast = o.BlackKingLast && o.Scoring == cheversi.ScoreAttacks && !s.plain
	s.s.kingLastSquares = o.BlackKingLast && o.Scoring == cheversi.ScoreSquares && !s.plain
	s.s.history.clear(p.Ply()) // what one position's moves decided says little about another's
	s.stop.Store(false)
	stop := context.AfterFunc(ctx, func() { s.stop.Store(true) })
	return newBoard(p), stop
}

// AtLeast reports whether the side to move in p can make sure that its
// final score minus its opponent's is at least t (a win by no legal move
// counts as above every t).
func (s *Solver) AtLeast(ctx context.Context, p *cheversi.Position, t int) (bool, error) {
	b, stop := s.prepare(ctx, p)
	defer stop()
	v := s.s.search(&b, t-1, t)
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return v >= t, nil
}

// Margin returns the exact value of p for the side to move: its final score
// minus its opponent's (in points, without the komi) under best play by
// both sides, when each plays for the largest margin, NoMoves when best
// play leaves it without a legal move, -NoMoves when best play leaves the
// opponent without one. It costs several null-window searches; Solve is
// cheaper when only the outcome is wanted.
func (s *Solver) Margin(ctx context.Context, p *cheversi.Position) (int, error) {
	b, stop := s.prepare(ctx, p)
	defer stop()
	lo, hi := NoMoves, -NoMoves
	g := 0
	for lo < hi {
		beta := max(g, lo+1)
		c := b
		v := s.s.search(&c, beta-1, beta)
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if v < beta {
			hi = v
		} else {
			lo = v
		}
		g = v
	}
	return lo, nil
}

// MarginMove returns Margin(p) and a move that reaches it: a best move for
// the largest margin, which Solve's move need not be when every move keeps
// the same outcome. The move is 0 when p has no legal move.
func (s *Solver) MarginMove(ctx context.Context, p *cheversi.Position) (int, cheversi.Move, error) {
	m, err := s.Margin(ctx, p)
	if err != nil || p.Ply() == cheversi.MaxPlies || p.Over() {
		return m, 0, err
	}
	b, stop := s.prepare(ctx, p)
	defer stop()
	_, mv := s.s.root(&b, m-1, m+1)
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	return m, mv, nil
}

// Result is the outcome of a position under best play.
type Result struct {
	// Value is the outcome for the side to move.
	Value Value
	// Move is a best move: one that keeps Value (any move when every move
	// loses); 0 when the game is over.
	Move cheversi.Move
}

// Solve returns the outcome of p for the side to move under best play,
// and a move that achieves it.
func (s *Solver) Solve(ctx context.Context, p *cheversi.Position) (Result, error) {
	b, stop := s.prepare(ctx, p)
	defer stop()
	alpha, beta := window(p)
	if b.n == cheversi.MaxPlies || p.Over() {
		v := s.s.search(&b, alpha, beta)
		return Result{Value: valueOf(v, alpha, beta)}, nil
	}
	v, m := s.s.root(&b, alpha, beta)
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return Result{Value: valueOf(v, alpha, beta)}.withMove(m), nil
}

func (r Result) withMove(m cheversi.Move) Result { r.Move = m; return r }

// window returns the search window that tells p's outcome for the side to
// move under its rule set's komi: the side to move wins when its margin m
// is at least beta, loses when m is at most alpha, and draws in between
// (which only a whole-point komi leaves room for). With the komi K in
// half-points, White wins when 2m > K and Black when 2m > -K (m being the
// mover's margin in both cases).
func window(p *cheversi.Position) (alpha, beta int) {
	c := komiFor(p)
	return ceilHalf(c) - 1, floorHalf(c) + 1
}

// komiFor returns the komi in half-points as the side to move sees it: a
// debt for White, a gift for Black.
func komiFor(p *cheversi.Position) int {
	k := int(p.Options().Komi)
	if p.Turn() == game.Black {
		return -k
	}
	return k
}

func floorHalf(c int) int {
	if c < 0 {
		return -((-c + 1) / 2)
	}
	return c / 2
}

func ceilHalf(c int) int { return -floorHalf(-c) }

// valueOf maps the result v of a search with the window (alpha, beta)
// from window to the outcome.
func valueOf(v, alpha, beta int) Value {
	switch {
	case v >= beta:
		return Win
	case v <= alpha:
		return Loss
	}
	return Draw
}

// Values returns the outcome, for the side to move in p, of each legal
// move: the value of the position it leads to, for the player making it.
func (s *Solver) Values(ctx context.Context, p *cheversi.Position) (map[cheversi.Move]Value, error) {
	var buf [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
	out := make(map[cheversi.Move]Value)
	for _, m := range p.GenerateMoves(buf[:0]) {
		q := *p
		q.Play(m)
		r, err := s.Solve(ctx, &q)
		if err != nil {
			return nil, err
		}
		out[m] = r.Value.Neg()
	}
	return out, nil
}
