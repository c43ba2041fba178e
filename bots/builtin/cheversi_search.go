package builtin

import (
	"math/bits"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// maxCheversiMoves bounds the legal moves of a Cheversi position: five
// piece kinds on 64 squares.
const maxCheversiMoves = cheversi.NumPieces * cheversi.NumSquares

// cvSearch is alphabeta's Cheversi searcher. Its buffers are reused from
// one Choose to the next.
type cvSearch struct {
	cvBase
	w *cvEval
}

// cvBase is what alphabeta's and expert's Cheversi searchers share: the
// control, the transposition table, the buffers of each ply and the move
// ordering memory, with the bookkeeping of a node around them.
type cvBase struct {
	ctl   *control
	tt    *table
	salt  uint64 // mixed into hash keys: the rule set
	moves [cheversi.MaxPlies + 1][maxCheversiMoves]cheversi.Move
	// pos holds the child position of each ply, so that the recursion
	// does not allocate one per node.
	pos   [cheversi.MaxPlies + 2]cheversi.Position
	order [cheversi.MaxPlies + 1][maxCheversiMoves]int32
	cvOrdering
}

// cvNode is the bookkeeping of one node of a search: its table key and
// move, its window, and the best score and move found so far.
type cvNode struct {
	key                    uint64
	ttMove                 cheversi.Move
	alpha, beta, origAlpha int
	depth, ply             int
	best                   int
	bestMove               cheversi.Move
}

// open starts the node of p searched depth plies deep with the window
// (alpha, beta), ply plies from the root. When the transposition table
// settles it, or p has no legal move (a loss), it returns the score and
// done; otherwise the node and its legal moves.
func (b *cvBase) open(p *cheversi.Position, depth, alpha, beta, ply int) (n cvNode, moves []cheversi.Move, score int, done bool) {
	n = cvNode{key: p.Hash() ^ b.salt, alpha: alpha, beta: beta, origAlpha: alpha, depth: depth, ply: ply, best: -WinScore - 1}
	if e := b.tt.probe(n.key); e != nil {
		n.ttMove = cheversi.Move(e.move)
		if sc, ok := e.cutoff(depth, alpha, beta, ply); ok {
			return n, nil, sc, true
		}
	}
	moves = p.GenerateMoves(b.moves[ply][:0])
	if len(moves) == 0 {
		return n, nil, -(WinScore - ply), true
	}
	return n, moves, 0, false
}

// raise counts move m of side us with score sc in n and reports whether it
// cuts the node off (recorded for the move ordering).
func (b *cvBase) raise(n *cvNode, us game.Color, m cheversi.Move, sc int) bool {
	if sc <= n.best {
		return false
	}
	n.best, n.bestMove = sc, m
	if sc <= n.alpha {
		return false
	}
	n.alpha = sc
	if n.alpha < n.beta {
		return false
	}
	b.cutoff(us, n.ply, n.depth, m, n.ttMove)
	return true
}

// close stores n's result in the transposition table and returns its
// score.
func (b *cvBase) close(n *cvNode) int {
	b.tt.store(n.key, n.depth, scoreToTT(n.best, n.ply), boundOf(n.best, n.origAlpha, n.beta), cvCode(n.bestMove))
	return n.best
}

// pv follows the transposition table from p for at most n moves.
func (b *cvBase) pv(p cheversi.Position, n int) []game.Move {
	var line []game.Move
	for range n {
		e := b.tt.probe(p.Hash() ^ b.salt)
		if e == nil || e.move == 0 {
			break
		}
		m := cheversi.Move(e.move)
		if !p.Legal(m) {
			break
		}
		line = append(line, m)
		p.Play(m)
	}
	return line
}

// cvOrdering is what a Cheversi search remembers to order its moves:
// killers, quiet moves that caused a cutoff at the same ply, and history,
// which scores moves by the cutoffs they caused, per side.
type cvOrdering struct {
	killers [cheversi.MaxPlies + 1][2]cheversi.Move
	history [2][cheversi.NumPieces][cheversi.NumSquares]int32
}

// newRoot forgets the killers and ages the history, before a search from
// a new root.
func (o *cvOrdering) newRoot() {
	o.killers = [cheversi.MaxPlies + 1][2]cheversi.Move{}
	ageHistory(o.history[0][:], o.history[1][:])
}

// first returns the ordering key of m at ply when it is one of the moves
// searched first: the transposition table's move, then the killers.
// Otherwise it returns m's history count for side us (capped below 1<<12,
// for the caller to add its own estimate above) and false.
func (o *cvOrdering) first(us game.Color, ply int, m, ttMove cheversi.Move) (int32, bool) {
	switch m {
	case ttMove:
		return 1 << 30, true
	case o.killers[ply][0]:
		return 1 << 29, true
	case o.killers[ply][1]:
		return 1<<29 - 1, true
	}
	return min(o.history[us][m.Piece()][m.Square()], 1<<12-1), false
}

// cutoff records that m caused a cutoff at ply in a search depth plies
// deep, for side us.
func (o *cvOrdering) cutoff(us game.Color, ply, depth int, m, ttMove cheversi.Move) {
	if k0 := o.killers[ply][0]; m != ttMove && m != k0 {
		o.killers[ply][1], o.killers[ply][0] = k0, m
	}
	if h := &o.history[us][m.Piece()][m.Square()]; *h < 1<<20 {
		*h += int32(depth * depth)
	}
}

// pickNext brings the move of moves[i:] with the highest key in order[i:]
// to i, swapping the keys alike (a selection step), and returns it.
func pickNext[M any](moves []M, order []int32, i int) M {
	j := i
	for k := i + 1; k < len(moves); k++ {
		if order[k] > order[j] {
			j = k
		}
	}
	moves[i], moves[j] = moves[j], moves[i]
	order[i], order[j] = order[j], order[i]
	return moves[i]
}

// rulesSalt returns a hash of a rule set, so that one table can serve games
// under different rules.
func rulesSalt(o cheversi.Options) uint64 {
	x := uint64(o.Opening) | uint64(o.Touch)<<4 | uint64(o.Scoring)<<8
	for i, b := range []bool{o.BishopsOpposite, o.QueenCall, o.BlackKingLast} {
		if b {
			x |= 1 << (12 + i)
		}
	}
	return splitmix(x + 0x1234567)
}

// splitmix is the SplitMix64 finaliser: a good 64-bit mix.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// cvCode is a move's code in the transposition table: the Move itself,
// which is never 0 for a real move.
func cvCode(m cheversi.Move) uint16 { return uint16(m) }

// run searches p by iterative deepening within the control's limits and
// returns the result of the deepest completed iteration (or the better
// move a stopped iteration had fully searched). The iterations stop at
// the end of the game, where the last plies have been searched exactly.
func (s *cvSearch) run(p cheversi.Position, lim Limits) (Result, error) {
	root := p.GenerateMoves(s.moves[0][:0])
	if len(root) == 0 {
		return Result{}, ErrNoMoves
	}
	s.newRoot()
	r := rootSearch[cheversi.Move]{
		tt:       s.tt,
		key:      p.Hash() ^ s.salt,
		moves:    root,
		maxDepth: cheversi.MaxPlies - p.Ply(),
		static: func(m cheversi.Move) int {
			q := p
			q.Play(m)
			return -s.eval(&q)
		},
		search: func(m cheversi.Move, depth, alpha, beta int) int {
			q := p
			q.Play(m)
			return -s.negamax(&q, depth-1, -beta, -alpha, 1)
		},
		code: cvCode,
		pv:   func(n int) []game.Move { return s.pv(p, n) },
	}
	return r.deepen(s.ctl, lim), nil
}

// negamax returns the value of p for the side to move, searched depth
// plies deep, within the window (alpha, beta); ply is the distance from the
// root. When the control stops the search the value is meaningless.
func (s *cvSearch) negamax(p *cheversi.Position, depth, alpha, beta, ply int) int {
	if s.ctl.poll() {
		return 0
	}
	if p.Ply() >= cheversi.MaxPlies {
		us := p.Turn()
		return p.Score(us) - p.Score(us.Other())
	}
	if depth <= 0 {
		if p.CountMoves() == 0 {
			return -(WinScore - ply)
		}
		return s.eval(p)
	}
	n, moves, score, done := s.open(p, depth, alpha, beta, ply)
	if done {
		return score
	}
	us := p.Turn()
	order := s.order[ply][:len(moves)]
	for i, m := range moves {
		o, first := s.first(us, ply, m, n.ttMove)
		if !first && depth >= 2 {
			q := *p
			q.Play(m)
			o += int32(-s.eval(&q)) << 12
		}
		order[i] = o
	}
	for i := range moves {
		m := pickNext(moves, order, i)
		q := &s.pos[ply+1]
		*q = *p
		q.Play(m)
		var sc int
		if i == 0 {
			sc = -s.negamax(q, depth-1, -n.beta, -n.alpha, ply+1)
		} else {
			sc = -s.negamax(q, depth-1, -n.alpha-1, -n.alpha, ply+1)
			if sc > n.alpha && sc < n.beta && !s.ctl.stopped {
				sc = -s.negamax(q, depth-1, -n.beta, -n.alpha, ply+1)
			}
		}
		if s.ctl.stopped {
			return 0
		}
		if s.raise(&n, us, m, sc) {
			break
		}
	}
	return s.close(&n)
}

// cvEval holds the weights of the Cheversi evaluation, in score points.
type cvEval struct {
	// potential is what an unplaced piece of each kind (K, Q, R, B, N)
	// is expected to add to its side's score when placed on an empty
	// board; it shrinks as the board fills.
	potential [cheversi.NumPieces]int
}

var defaultCvEval = cvEval{
	potential: [cheversi.NumPieces]int{6, 16, 10, 8, 5},
}

// eval returns a static evaluation of p for the side to move: the score
// difference of the placed pieces, plus the expected contribution of the
// pieces each side has still to place, which shrinks with the room left.
// Between two positions of the same ply (the leaves of one iteration)
// the second term weighs which pieces each side has kept back.
func (s *cvSearch) eval(p *cheversi.Position) int {
	us := p.Turn()
	them := us.Other()
	v := p.Score(us) - p.Score(them)
	empty := bits.OnesCount64(^(p.Occupied(us) | p.Occupied(them)))
	pot := 0
	for k := range cheversi.Piece(cheversi.NumPieces) {
		pot += (p.Unplaced(us, k) - p.Unplaced(them, k)) * s.w.potential[k]
	}
	return v + pot*empty/cheversi.NumSquares
}
