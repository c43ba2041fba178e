package builtin

import (
	"math/bits"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// exSearch is expert's Cheversi searcher. Its buffers are reused from one
// Choose to the next.
//
// Its scores are in 1/evalScale points for the side to move. Where the
// search reaches the end of the game it scores the result only: exactWin,
// 0 or -exactWin. Cheversi is won by any margin, so proving the result
// needs only null-window tests around 0, and a position searched to the
// end is solved by a few of them, far cheaper than its exact margin.
type exSearch struct {
	cvBase
	w *expertWeights
	// seed orders the root moves before the first iteration, so that two
	// players with different seeds break ties between equally scored
	// moves differently (and still deterministically).
	seed uint64
	// ps[ply] holds the pieces of the position at ply: the root's, and
	// each node's, set by its parent before searching it.
	ps [cheversi.MaxPlies + 2]pieces
}

// run searches p by iterative deepening within the control's limits. The
// last iteration, when the limits allow it, searches to the end of the
// game and so plays a proved win when there is one, or else a proved
// draw; a position proved lost keeps the move the deepest heuristic
// iteration preferred.
func (s *exSearch) run(p cheversi.Position, lim Limits) (Result, error) {
	root := p.GenerateMoves(s.moves[0][:0])
	if len(root) == 0 {
		return Result{}, ErrNoMoves
	}
	shuffleMoves(root, s.seed, p.Hash())
	s.newRoot()
	s.ps[0].of(&p)
	r := rootSearch[cheversi.Move]{
		tt:       s.tt,
		key:      p.Hash() ^ s.salt,
		moves:    root,
		maxDepth: cheversi.MaxPlies - p.Ply(),
		static: func(m cheversi.Move) int {
			q := p
			q.Play(m)
			var ps pieces
			ps.after(&s.ps[0], m, p.Turn())
			return -s.w.evaluate(&q, &ps)
		},
		search: func(m cheversi.Move, depth, alpha, beta int) int {
			q := p
			q.Play(m)
			s.ps[1].after(&s.ps[0], m, p.Turn())
			return -s.negamax(&q, depth-1, -beta, -alpha, 1)
		},
		code: cvCode,
		pv:   func(n int) []game.Move { return s.pv(p, n) },
	}
	return r.deepen(s.ctl, lim), nil
}

// shuffleMoves puts moves in an order drawn from seed and key (the
// position's hash), so that the stable sorts of a root search break ties
// between equally scored moves by it.
func shuffleMoves[M game.Move](moves []M, seed, key uint64) {
	x := splitmix(seed ^ key)
	for i := len(moves) - 1; i > 0; i-- {
		x = splitmix(x)
		j := int(x % uint64(i+1))
		moves[i], moves[j] = moves[j], moves[i]
	}
}

// fullOrderDepth is the least depth at which the moves are ordered by the
// evaluation of the positions they lead to; shallower searches order them
// by their gains, which are much cheaper.
const fullOrderDepth = 3

// lmrMoves is how many moves of a heuristic search are searched at full
// depth before the later ones are reduced.
const lmrMoves = 4

// result returns the proved score of a finished game for the side to move,
// the komi counted.
func result(p *cheversi.Position) int {
	switch d := p.Lead(p.Turn()); {
	case d > 0:
		return exactWin
	case d < 0:
		return -exactWin
	}
	return 0
}

// negamax returns the score of p for the side to move, searched depth
// plies deep, within the window (alpha, beta); ply is the distance from the
// root. A search as deep as the plies left is exact. When the control
// stops the search the value is meaningless.
func (s *exSearch) negamax(p *cheversi.Position, depth, alpha, beta, ply int) int {
	left := cheversi.MaxPlies - p.Ply()
	// Searching deeper than the end is searching to the end: one depth
	// for all, which the transposition table then shares.
	depth = min(depth, left)
	if sc, done := s.leaf(p, depth, left, beta, ply); done {
		return sc
	}
	n, moves, score, done := s.open(p, depth, alpha, beta, ply)
	if done {
		return score
	}
	us := p.Turn()
	order := s.orderMoves(p, moves, n.ttMove, depth, ply)
	for i := range moves {
		m := pickNext(moves, order, i)
		q := &s.pos[ply+1]
		*q = *p
		q.Play(m)
		s.ps[ply+1].after(&s.ps[ply], m, us)
		sc := s.child(q, i, order[i], depth, left, &n, ply)
		if s.ctl.stopped {
			return 0
		}
		if s.raise(&n, us, m, sc) {
			break
		}
	}
	return s.close(&n)
}

// leaf returns the score of p without a search (done) when the search
// stops, the game is over, the depth is spent or one move is left, at
// depth (at most left, the plies to the end).
func (s *exSearch) leaf(p *cheversi.Position, depth, left, beta, ply int) (score int, done bool) {
	if s.ctl.poll() {
		return 0, true
	}
	if left == 0 {
		return result(p), true
	}
	if depth <= 0 {
		if p.CountMoves() == 0 {
			return -(WinScore - ply), true
		}
		return s.w.evaluate(p, &s.ps[ply]), true
	}
	if depth == 1 && left == 1 {
		return s.lastMove(p, beta, ply), true
	}
	return 0, false
}

// orderMoves returns the ordering keys of moves at ply: the table's move
// and the killers first, then by the evaluation after each move (searched
// deep) or by the gain each makes (near the leaves).
func (s *exSearch) orderMoves(p *cheversi.Position, moves []cheversi.Move, ttMove cheversi.Move, depth, ply int) []int32 {
	us := p.Turn()
	order := s.order[ply][:len(moves)]
	ps := &s.ps[ply]
	var g gains
	if depth < fullOrderDepth {
		g.init(p, ps, s.w)
	}
	for i, m := range moves {
		o, first := s.first(us, ply, m, ttMove)
		switch {
		case first:
		case depth >= fullOrderDepth:
			q := *p
			q.Play(m)
			var c pieces
			c.after(ps, m, us)
			o += int32(-s.w.estimate(&q, &c)) << 12
		default:
			o += int32(g.of(m)) << 12
		}
		order[i] = o
	}
	return order
}

// child returns the score of the position q after the i-th move (of
// ordering key o) for the side that played it: the first move with the
// node's full window, the others with a null window first, late ones of
// them less deep at first (late move reductions).
func (s *exSearch) child(q *cheversi.Position, i int, o int32, depth, left int, n *cvNode, ply int) int {
	if i == 0 {
		return -s.negamax(q, depth-1, -n.beta, -n.alpha, ply+1)
	}
	// Late moves of a heuristic search are first searched less
	// deep, and again at full depth only if they raise alpha.
	r := 0
	if depth >= 3 && depth < left && i >= lmrMoves && o < 1<<29-1 {
		r = 1
		if i >= 4*lmrMoves && depth >= 4 {
			r = 2
		}
	}
	sc := -s.negamax(q, depth-1-r, -n.alpha-1, -n.alpha, ply+1)
	if r > 0 && sc > n.alpha && !s.ctl.stopped {
		sc = -s.negamax(q, depth-1, -n.alpha-1, -n.alpha, ply+1)
	}
	if sc > n.alpha && sc < n.beta && !s.ctl.stopped {
		sc = -s.negamax(q, depth-1, -n.beta, -n.alpha, ply+1)
	}
	return sc
}

// lastMove returns the proved score of p, where one piece is left to
// place, for the side to move: the best result of its moves, stopping at
// the first that reaches beta.
func (s *exSearch) lastMove(p *cheversi.Position, beta, ply int) int {
	moves := p.GenerateMoves(s.moves[ply][:0])
	if len(moves) == 0 {
		return -(WinScore - ply)
	}
	best := -exactWin - 1
	for _, m := range moves {
		// Each final position counts as a node.
		if s.ctl.poll() {
			return 0
		}
		q := *p
		q.Play(m)
		// The opponent is to move in q: its result is ours negated.
		if sc := -result(&q); sc > best {
			best = sc
			if best >= beta || best == exactWin {
				break
			}
		}
	}
	return best
}

// counts holds, bit-sliced, how many pieces attack each square: bit i of
// n[j] is bit j of square i's count. A side has eight pieces, so four
// slices hold any count.
type counts struct{ n [4]uint64 }

func (c *counts) add(a uint64) {
	for i := range c.n {
		carry := c.n[i] & a
		c.n[i] ^= a
		a = carry
	}
}

func (c *counts) at(sq cheversi.Square) int {
	return int(c.n[0]>>sq&1 | (c.n[1]>>sq&1)<<1 | (c.n[2]>>sq&1)<<2 | (c.n[3]>>sq&1)<<3)
}

// gains estimates the worth of each move in a position cheaply, for move
// ordering: the empty squares the placed piece attacks, less the attacks of
// the mover's pieces on its square, plus those of the opponent's, less
// what the evaluation expects the piece to be worth unplaced.
type gains struct {
	occ      uint64
	us, them counts
	unplaced [cheversi.NumPieces]int // in 1/evalScale points
}

func (g *gains) init(p *cheversi.Position, ps *pieces, w *expertWeights) {
	us := p.Turn()
	*g = gains{occ: ps.occ}
	// The moves go to empty squares: the counts need only the empty
	// squares each piece attacks.
	for _, x := range ps.pl[:ps.n] {
		if x.color == us {
			g.us.add(x.a)
		} else {
			g.them.add(x.a)
		}
	}
	row := &w[p.Ply()]
	sign := 1
	if us == game.Black {
		sign = -1
	}
	for k := range g.unplaced {
		g.unplaced[k] = sign * int(row[int(us)*featuresPerSide+featUnplaced+k]) * evalScale / weightScale
	}
}

func (g *gains) of(m cheversi.Move) int {
	k, sq := m.Piece(), m.Square()
	occ := g.occ | 1<<sq
	v := bits.OnesCount64(cheversi.Attacks(k, sq, occ)&^occ) - g.us.at(sq) + g.them.at(sq)
	return v*evalScale - g.unplaced[k]
}
