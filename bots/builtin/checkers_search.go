package builtin

import (
	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/game"
)

// maxCheckersMoves is the room reserved for the legal moves of a checkers
// position (more are possible in theory; the buffers then grow).
const maxCheckersMoves = 64

// ckMaxPly bounds the distance from the root the checkers search goes,
// extensions and capture sequences included.
const ckMaxPly = 96

// ckMaxDepth bounds the iterations of iterative deepening.
const ckMaxDepth = 64

// ckSearch is alphabeta's checkers searcher. Its buffers are reused from
// one Choose to the next.
type ckSearch struct {
	ctl  *control
	tt   *table
	eval *ckEval
	// seed and seeded: see AlphaBeta's.
	seed   uint64
	seeded bool

	// The draw rules of the game and the game's ply at the root.
	repetition, quietMoves, maxPlies int
	rootPly                          int

	pos     [ckMaxPly + 1]checkers.Position // child position of each ply: no allocation per node
	moves   [ckMaxPly][maxCheckersMoves]checkers.Move
	order   [ckMaxPly][maxCheckersMoves]int32
	perm    [ckMaxPly][maxCheckersMoves]uint16 // search order of the moves
	hashes  [ckMaxPly + 1]uint64               // position hashes along the current line
	killers [ckMaxPly][2]checkers.Move
	history [2][checkers.NumSquares + 1][checkers.NumSquares + 1]int32
}

// run searches the position of st by iterative deepening within the
// control's limits. A forced move gets one iteration; the iterations stop
// early at a win whose every line the search has seen.
func (s *ckSearch) run(st *checkers.State, lim Limits) (Result, error) {
	p := st.Position()
	root := p.GenerateMoves(s.moves[0][:0])
	if len(root) == 0 || st.Outcome().Over() {
		return Result{}, ErrNoMoves
	}
	if s.seeded {
		shuffleMoves(root, s.seed, p.Hash())
	}
	rules := st.Rules()
	s.repetition, s.quietMoves, s.maxPlies = rules.Repetition(), rules.QuietMoves(), rules.MaxPlies()
	s.rootPly = st.Ply()
	s.hashes[0] = p.Hash()
	s.killers = [ckMaxPly][2]checkers.Move{}
	ageHistory(s.history[0][:], s.history[1][:])
	quiet := st.QuietPlies()
	r := rootSearch[checkers.Move]{
		tt:       s.tt,
		key:      p.Hash(),
		moves:    root,
		maxDepth: ckMaxDepth,
		static: func(m checkers.Move) int {
			q := p
			q.Play(m)
			return -s.eval.eval(&q)
		},
		search: func(m checkers.Move, depth, alpha, beta int) int {
			q := p
			q.Play(m)
			s.hashes[1] = q.Hash()
			return -s.negamax(&q, depth-1, -beta, -alpha, 1, childQuiet(m, quiet))
		},
		code: func(m checkers.Move) uint16 { return s.code(p, m) },
		pv:   func(n int) []game.Move { return s.pv(p, n) },
		settled: func(depth, best int) bool {
			return best > WinScore/2 && WinScore-best <= depth
		},
	}
	if len(root) == 1 {
		// A forced move: one iteration scores it, through any captures
		// that follow.
		r.maxDepth = 1
	}
	return r.deepen(s.ctl, lim), nil
}

// childQuiet returns the quiet-ply count after m, given the count before:
// a capture or a man's move resets it.
func childQuiet(m checkers.Move, quiet int) int {
	if m.IsCapture() || !m.IsKingMove() {
		return 0
	}
	return quiet + 1
}

// code returns m's code in the transposition table: 1 + its index in p's
// move generation order, which is fixed for a position.
func (s *ckSearch) code(p checkers.Position, m checkers.Move) uint16 {
	var buf [maxCheckersMoves]checkers.Move
	for i, g := range p.GenerateMoves(buf[:0]) {
		if g == m {
			return uint16(i + 1)
		}
	}
	return 0
}

// pv follows the transposition table from p for at most n moves.
func (s *ckSearch) pv(p checkers.Position, n int) []game.Move {
	var line []game.Move
	var buf [maxCheckersMoves]checkers.Move
	for range n {
		e := s.tt.probe(p.Hash())
		if e == nil || e.move == 0 {
			break
		}
		moves := p.GenerateMoves(buf[:0])
		if int(e.move) > len(moves) {
			break
		}
		m := moves[e.move-1]
		line = append(line, m)
		p.Play(m)
	}
	return line
}

// draw reports whether the game is drawn by the rules at p, ply plies from
// the root with quiet plies since the last capture or man move. A
// repetition counts as a draw the first time the position recurs on the
// line searched (positions before the root are not known). The caller has
// checked that the side to move has a move.
func (s *ckSearch) draw(ply, quiet int) bool {
	if s.maxPlies > 0 && s.rootPly+ply >= s.maxPlies {
		return true
	}
	if s.quietMoves > 0 && quiet >= 2*s.quietMoves {
		return true
	}
	if s.repetition > 0 {
		h := s.hashes[ply]
		for i := ply - 4; i >= 0 && i >= ply-quiet; i -= 2 {
			if s.hashes[i] == h {
				return true
			}
		}
	}
	return false
}

// negamax returns the value of p for the side to move, searched depth
// plies deep (and on through forced captures), within (alpha, beta); ply
// is the distance from the root and quiet the plies since the last
// capture or man move. When the control stops the search the value is
// meaningless.
func (s *ckSearch) negamax(p *checkers.Position, depth, alpha, beta, ply, quiet int) int {
	sc, capture, done := s.leaf(p, depth, ply, quiet)
	if done {
		return sc
	}
	key := p.Hash()
	var ttCode uint16
	if e := s.tt.probe(key); e != nil {
		ttCode = e.move
		if sc, ok := e.cutoff(depth, alpha, beta, ply); ok {
			return sc
		}
	}
	moves := p.GenerateMoves(s.moves[ply][:0])
	if len(moves) == 1 {
		depth++ // a forced move costs no depth
	}
	hist := &s.history[p.Turn()]
	order, perm := s.orderMoves(moves, ply, ttCode, capture, hist)
	origAlpha := alpha
	best, bestCode := -WinScore-1, uint16(0)
	for i := range perm {
		pickBest(order, perm, i)
		m := moves[perm[i]]
		sc := s.child(p, m, i == 0, depth, alpha, beta, ply, quiet)
		if s.ctl.stopped {
			return 0
		}
		if sc <= best {
			continue
		}
		best, bestCode = sc, uint16(perm[i])+1
		if sc <= alpha {
			continue
		}
		alpha = sc
		if alpha >= beta {
			if !capture {
				s.noteCutoff(m, ply, depth, hist)
			}
			break
		}
	}
	s.tt.store(key, max(depth, 0), scoreToTT(best, ply), boundOf(best, origAlpha, beta), bestCode)
	return best
}

// leaf returns the score of p without a search (done) when the search
// stops, the game is over or the depth is spent in a quiet position, and
// whether the side to move has a capture.
func (s *ckSearch) leaf(p *checkers.Position, depth, ply, quiet int) (score int, capture, done bool) {
	if s.ctl.poll() {
		return 0, false, true
	}
	if !p.HasMoves() {
		return -(WinScore - ply), false, true
	}
	if s.draw(ply, quiet) {
		return 0, false, true
	}
	if ply >= ckMaxPly-1 {
		return s.eval.eval(p), false, true
	}
	capture = p.HasCapture()
	if depth <= 0 && !capture {
		return s.eval.eval(p), false, true
	}
	return 0, capture, false
}

// orderMoves returns the ordering keys of moves at ply (the table's move
// first, then captures by size, the killers, and the rest by history) and
// the identity permutation that pickBest sorts by them.
func (s *ckSearch) orderMoves(moves []checkers.Move, ply int, ttCode uint16, capture bool, hist *[checkers.NumSquares + 1][checkers.NumSquares + 1]int32) (order []int32, perm []uint16) {
	if n := len(moves); n <= maxCheckersMoves {
		order, perm = s.order[ply][:n], s.perm[ply][:n]
	} else {
		// More moves than the buffers hold (contrived king positions).
		order, perm = make([]int32, n), make([]uint16, n)
	}
	k0, k1 := s.killers[ply][0], s.killers[ply][1]
	for i, m := range moves {
		var o int32
		switch {
		case uint16(i+1) == ttCode:
			o = 1 << 30
		case capture:
			o = 1<<28 + int32(m.Jumps())<<8 + int32(m.Captured().Count())
		case m == k0:
			o = 1 << 27
		case m == k1:
			o = 1<<27 - 1
		default:
			o = hist[m.From()][m.To()]
		}
		order[i] = o
		perm[i] = uint16(i)
	}
	return order, perm
}

// pickBest brings the best-ordered of the moves perm[i:] to perm[i]
// (selection, so that a cutoff spares sorting the rest).
func pickBest(order []int32, perm []uint16, i int) {
	j := i
	for k := i + 1; k < len(perm); k++ {
		if order[perm[k]] > order[perm[j]] {
			j = k
		}
	}
	perm[i], perm[j] = perm[j], perm[i]
}

// child plays m from p and returns its score for the side to move in p:
// the first move with the full window, the others with a null window
// first (principal variation search).
func (s *ckSearch) child(p *checkers.Position, m checkers.Move, first bool, depth, alpha, beta, ply, quiet int) int {
	q := &s.pos[ply+1]
	*q = *p
	q.Play(m)
	s.hashes[ply+1] = q.Hash()
	cq := childQuiet(m, quiet)
	if first {
		return -s.negamax(q, depth-1, -beta, -alpha, ply+1, cq)
	}
	sc := -s.negamax(q, depth-1, -alpha-1, -alpha, ply+1, cq)
	if sc > alpha && sc < beta && !s.ctl.stopped {
		sc = -s.negamax(q, depth-1, -beta, -alpha, ply+1, cq)
	}
	return sc
}

// noteCutoff records the quiet move m that cut off at ply as a killer and
// in the history.
func (s *ckSearch) noteCutoff(m checkers.Move, ply, depth int, hist *[checkers.NumSquares + 1][checkers.NumSquares + 1]int32) {
	if k0 := s.killers[ply][0]; m != k0 {
		s.killers[ply][1], s.killers[ply][0] = k0, m
	}
	if h := &hist[m.From()][m.To()]; *h < 1<<20 {
		*h += int32(depth * depth)
	}
}
