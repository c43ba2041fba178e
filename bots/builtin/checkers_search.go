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

	// The draw rules of the game and the game's ply at the root.
	repetition, quietMoves, maxPlies int
	rootPly                          int

	moves   [ckMaxPly][maxCheckersMoves]checkers.Move
	order   [ckMaxPly][maxCheckersMoves]int32
	perm    [ckMaxPly][maxCheckersMoves]uint16 // search order of the moves
	hashes  [ckMaxPly + 1]uint64               // position hashes along the current line
	killers [ckMaxPly][2]checkers.Move
	history [2][checkers.NumSquares + 1][checkers.NumSquares + 1]int32
}

// run searches the position of st by iterative deepening within the
// control's limits.
func (s *ckSearch) run(st *checkers.State, lim Limits) (Result, error) {
	p := st.Position()
	root := p.GenerateMoves(s.moves[0][:0])
	if len(root) == 0 || st.Outcome().Over() {
		return Result{}, ErrNoMoves
	}
	r := st.Rules()
	s.repetition, s.quietMoves, s.maxPlies = r.Repetition(), r.QuietMoves(), r.MaxPlies()
	s.rootPly = st.Ply()
	s.hashes[0] = p.Hash()
	s.killers = [ckMaxPly][2]checkers.Move{}
	for c := range s.history {
		for f := range s.history[c] {
			for t := range s.history[c][f] {
				s.history[c][f][t] /= 8
			}
		}
	}
	type rootMove struct {
		m     checkers.Move
		score int
	}
	rm := make([]rootMove, len(root))
	for i, m := range root {
		q := p
		q.Play(m)
		rm[i] = rootMove{m, -s.eval.eval(&q)}
	}
	sortRoot := func() {
		for i := 1; i < len(rm); i++ {
			for j := i; j > 0 && rm[j].score > rm[j-1].score; j-- {
				rm[j], rm[j-1] = rm[j-1], rm[j]
			}
		}
	}
	sortRoot()
	res := Result{Move: rm[0].m, Score: rm[0].score}
	maxDepth := ckMaxDepth
	if lim.Depth > 0 {
		maxDepth = min(maxDepth, lim.Depth)
	}
	if len(rm) == 1 {
		// A forced move: one iteration scores it, through any captures
		// that follow.
		maxDepth = 1
	}
	quiet := st.QuietPlies()
	for depth := 1; depth <= maxDepth; depth++ {
		alpha, beta := -WinScore-1, WinScore+1
		best, bestIdx := -WinScore-1, -1
		for i := range rm {
			q := p
			q.Play(rm[i].m)
			cq := childQuiet(rm[i].m, quiet)
			s.hashes[1] = q.Hash()
			var sc int
			if i == 0 {
				sc = -s.negamax(&q, depth-1, -beta, -alpha, 1, cq)
			} else {
				sc = -s.negamax(&q, depth-1, -alpha-1, -alpha, 1, cq)
				if sc > alpha && !s.ctl.stopped {
					sc = -s.negamax(&q, depth-1, -beta, -alpha, 1, cq)
				}
			}
			if s.ctl.stopped {
				break
			}
			if sc > best {
				best, bestIdx = sc, i
				alpha = max(alpha, sc)
				rm[i].score = sc
			} else {
				rm[i].score = min(sc, best-1)
			}
		}
		if bestIdx < 0 {
			break
		}
		if s.ctl.stopped {
			if bestIdx > 0 {
				res.Move, res.Score = rm[bestIdx].m, best
			}
			break
		}
		sortRoot()
		res.Move, res.Score, res.Depth = rm[0].m, best, depth
		s.tt.store(p.Hash(), depth, scoreToTT(best, 0), boundExact, s.code(p, rm[0].m))
		res.Nodes, res.Elapsed = s.ctl.nodes, s.ctl.elapsed()
		res.PV = s.pv(p, depth)
		s.ctl.iterationDone()
		if lim.Progress != nil {
			lim.Progress(res)
		}
		if best > WinScore/2 && WinScore-best <= depth {
			break // a win whose every line the search has seen
		}
		if !s.ctl.another() {
			break
		}
	}
	if len(res.PV) == 0 || res.PV[0] != game.Move(res.Move) {
		res.PV = []game.Move{res.Move}
	}
	res.Nodes, res.Elapsed = s.ctl.nodes, s.ctl.elapsed()
	return res, nil
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
	if s.ctl.poll() {
		return 0
	}
	if !p.HasMoves() {
		return -(WinScore - ply)
	}
	if s.draw(ply, quiet) {
		return 0
	}
	if ply >= ckMaxPly-1 {
		return s.eval.eval(p)
	}
	capture := p.HasCapture()
	if depth <= 0 && !capture {
		return s.eval.eval(p)
	}
	key := p.Hash()
	var ttCode uint16
	if e := s.tt.probe(key); e != nil {
		ttCode = e.move
		if int(e.depth) >= depth && beta-alpha == 1 {
			sc := scoreFromTT(int(e.score), ply)
			switch b := e.bound(); {
			case b == boundExact,
				b == boundLower && sc >= beta,
				b == boundUpper && sc <= alpha:
				return sc
			}
		}
	}
	moves := p.GenerateMoves(s.moves[ply][:0])
	if len(moves) == 1 {
		depth++ // a forced move costs no depth
	}
	us := p.Turn()
	var order []int32
	var perm []uint16
	if n := len(moves); n <= maxCheckersMoves {
		order, perm = s.order[ply][:n], s.perm[ply][:n]
	} else {
		// More moves than the buffers hold (contrived king positions).
		order, perm = make([]int32, n), make([]uint16, n)
	}
	k0, k1 := s.killers[ply][0], s.killers[ply][1]
	hist := &s.history[us]
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
	}
	for i := range perm {
		perm[i] = uint16(i)
	}
	origAlpha := alpha
	best, bestCode := -WinScore-1, uint16(0)
	for i := range perm {
		// Selection: bring the best-ordered remaining move to i.
		j := i
		for k := i + 1; k < len(perm); k++ {
			if order[perm[k]] > order[perm[j]] {
				j = k
			}
		}
		perm[i], perm[j] = perm[j], perm[i]
		m := moves[perm[i]]
		q := *p
		q.Play(m)
		s.hashes[ply+1] = q.Hash()
		cq := childQuiet(m, quiet)
		var sc int
		if i == 0 {
			sc = -s.negamax(&q, depth-1, -beta, -alpha, ply+1, cq)
		} else {
			sc = -s.negamax(&q, depth-1, -alpha-1, -alpha, ply+1, cq)
			if sc > alpha && sc < beta && !s.ctl.stopped {
				sc = -s.negamax(&q, depth-1, -beta, -alpha, ply+1, cq)
			}
		}
		if s.ctl.stopped {
			return 0
		}
		if sc > best {
			best, bestCode = sc, uint16(perm[i])+1
			if sc > alpha {
				alpha = sc
				if alpha >= beta {
					if !capture {
						if m != k0 {
							s.killers[ply][1], s.killers[ply][0] = k0, m
						}
						if h := &hist[m.From()][m.To()]; *h < 1<<20 {
							*h += int32(depth * depth)
						}
					}
					break
				}
			}
		}
	}
	bound := uint8(boundExact)
	switch {
	case best <= origAlpha:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	s.tt.store(key, max(depth, 0), scoreToTT(best, ply), bound, bestCode)
	return best
}
