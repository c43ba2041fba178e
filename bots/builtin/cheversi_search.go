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
	ctl   *control
	tt    *table
	w     *cvEval
	salt  uint64 // mixed into hash keys: the rule set
	moves [cheversi.MaxPlies + 1][maxCheversiMoves]cheversi.Move
	// pos holds the child position of each ply, so that the recursion
	// does not allocate one per node.
	pos   [cheversi.MaxPlies + 2]cheversi.Position
	order [cheversi.MaxPlies + 1][maxCheversiMoves]int32
	// killers are quiet moves that caused a cutoff at the same ply.
	killers [cheversi.MaxPlies + 1][2]cheversi.Move
	// history scores moves by the cutoffs they caused, per side.
	history [2][cheversi.NumPieces][cheversi.NumSquares]int32
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
	s.killers = [cheversi.MaxPlies + 1][2]cheversi.Move{}
	ageHistory(s.history[0][:], s.history[1][:])
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

// pv follows the transposition table from p for at most n moves.
func (s *cvSearch) pv(p cheversi.Position, n int) []game.Move {
	var line []game.Move
	for range n {
		e := s.tt.probe(p.Hash() ^ s.salt)
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
	key := p.Hash() ^ s.salt
	var ttMove cheversi.Move
	if e := s.tt.probe(key); e != nil {
		ttMove = cheversi.Move(e.move)
		if sc, ok := e.cutoff(depth, alpha, beta, ply); ok {
			return sc
		}
	}
	moves := p.GenerateMoves(s.moves[ply][:0])
	if len(moves) == 0 {
		return -(WinScore - ply)
	}
	us := p.Turn()
	order := s.order[ply][:len(moves)]
	k0, k1 := s.killers[ply][0], s.killers[ply][1]
	hist := &s.history[us]
	for i, m := range moves {
		var o int32
		switch m {
		case ttMove:
			o = 1 << 30
		case k0:
			o = 1 << 29
		case k1:
			o = 1<<29 - 1
		default:
			o = min(hist[m.Piece()][m.Square()], 1<<12-1)
			if depth >= 2 {
				q := *p
				q.Play(m)
				o += int32(-s.eval(&q)) << 12
			}
		}
		order[i] = o
	}
	origAlpha := alpha
	best, bestMove := -WinScore-1, cheversi.Move(0)
	for i := range moves {
		// Selection: bring the best-ordered remaining move to i.
		j := i
		for k := i + 1; k < len(moves); k++ {
			if order[k] > order[j] {
				j = k
			}
		}
		moves[i], moves[j] = moves[j], moves[i]
		order[i], order[j] = order[j], order[i]
		m := moves[i]
		q := &s.pos[ply+1]
		*q = *p
		q.Play(m)
		var sc int
		if i == 0 {
			sc = -s.negamax(q, depth-1, -beta, -alpha, ply+1)
		} else {
			sc = -s.negamax(q, depth-1, -alpha-1, -alpha, ply+1)
			if sc > alpha && sc < beta && !s.ctl.stopped {
				sc = -s.negamax(q, depth-1, -beta, -alpha, ply+1)
			}
		}
		if s.ctl.stopped {
			return 0
		}
		if sc > best {
			best, bestMove = sc, m
			if sc > alpha {
				alpha = sc
				if alpha >= beta {
					if m != ttMove && m != k0 {
						s.killers[ply][1], s.killers[ply][0] = k0, m
					}
					if h := &hist[m.Piece()][m.Square()]; *h < 1<<20 {
						*h += int32(depth * depth)
					}
					break
				}
			}
		}
	}
	s.tt.store(key, depth, scoreToTT(best, ply), boundOf(best, origAlpha, beta), cvCode(bestMove))
	return best
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
