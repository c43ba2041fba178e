package builtin

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// Greedy plays the move with the best immediate result and breaks ties at
// random (from its seed):
//
//   - Cheversi: the mover's score minus the opponent's score right after
//     the move;
//   - checkers: the mover's material minus the opponent's (a man 100, a
//     king 130) after the move and after the captures it leaves the
//     opponent, which are compulsory, have been played out, each side
//     choosing the capture line best for it.
type Greedy struct {
	rng  *rand.Rand
	best []int // indexes of the moves tied for best
	cv   [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
	ck   [maxCheckersMoves]checkers.Move
}

// NewGreedy returns a Greedy player whose tie-breaks are seeded with seed.
func NewGreedy(seed uint64) *Greedy {
	return &Greedy{rng: rand.New(rand.NewPCG(seed, seedStream))}
}

// Name returns "greedy".
func (g *Greedy) Name() string { return NameGreedy }

// Choose returns the move with the best immediate result in st, a
// *cheversi.State or a *checkers.State.
func (g *Greedy) Choose(ctx context.Context, st game.State, _ Limits) (Result, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	var (
		res Result
		err error
	)
	switch s := st.(type) {
	case *cheversi.State:
		res, err = g.cheversi(s.Position())
	case *checkers.State:
		if s.Outcome().Over() {
			return Result{}, noMoves(st)
		}
		res, err = g.checkers(s.Position())
	default:
		return Result{}, unsupported(NameGreedy, st)
	}
	if err != nil {
		return Result{}, noMoves(st)
	}
	res.Depth = 1
	res.PV = []game.Move{res.Move}
	res.Elapsed = time.Since(start)
	return res, nil
}

// pick chooses at random among the indexes in g.best.
func (g *Greedy) pick() int { return g.best[g.rng.IntN(len(g.best))] }

// consider records move i with value v, keeping the indexes tied for the
// best value so far.
func (g *Greedy) consider(i, v int, bestV *int) {
	switch {
	case len(g.best) == 0 || v > *bestV:
		*bestV = v
		g.best = append(g.best[:0], i)
	case v == *bestV:
		g.best = append(g.best, i)
	}
}

func (g *Greedy) cheversi(p cheversi.Position) (Result, error) {
	moves := p.GenerateMoves(g.cv[:0])
	if len(moves) == 0 {
		return Result{}, ErrNoMoves
	}
	us := p.Turn()
	g.best = g.best[:0]
	bestV := 0
	for i, m := range moves {
		q := p
		q.Play(m)
		g.consider(i, q.Score(us)-q.Score(us.Other()), &bestV)
	}
	return Result{Move: moves[g.pick()], Score: bestV, Nodes: int64(len(moves)) + 1}, nil
}

func (g *Greedy) checkers(p checkers.Position) (Result, error) {
	moves := p.GenerateMoves(g.ck[:0])
	if len(moves) == 0 {
		return Result{}, ErrNoMoves
	}
	nodes := int64(1)
	g.best = g.best[:0]
	bestV := 0
	for i, m := range moves {
		q := p
		q.Play(m)
		// resolveCaptures scores q for the opponent, who moves next.
		g.consider(i, -resolveCaptures(q, maxCaptureResolve, &nodes), &bestV)
	}
	return Result{Move: moves[g.pick()], Score: bestV, Nodes: nodes}, nil
}

// maxCaptureResolve bounds the plies resolveCaptures follows.
const maxCaptureResolve = 24

// resolveCaptures returns the material balance of p for the side to move
// after the compulsory captures from p have been played out: while the side
// to move must capture, it picks the capture that is best for it. A side
// without any move at all has lost. It counts the positions it visits in
// *nodes.
func resolveCaptures(p checkers.Position, depth int, nodes *int64) int {
	*nodes++
	if depth <= 0 || !p.HasCapture() {
		if !p.HasMoves() {
			return -WinScore
		}
		return material(&p, p.Turn())
	}
	var buf [maxCheckersMoves]checkers.Move
	best := -WinScore
	for _, m := range p.GenerateMoves(buf[:0]) {
		q := p
		q.Play(m)
		best = max(best, -resolveCaptures(q, depth-1, nodes))
	}
	return best
}

// Material values in hundredths of a man.
const (
	manValue  = 100
	kingValue = 130
)

// material returns c's material minus the opponent's.
func material(p *checkers.Position, c game.Color) int {
	o := c.Other()
	return manValue*(p.Men(c).Count()-p.Men(o).Count()) + kingValue*(p.Kings(c).Count()-p.Kings(o).Count())
}
