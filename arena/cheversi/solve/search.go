package solve

import (
	"math/bits"
	"sync/atomic"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// searcher is one search: its table, counters and the rule set.
type searcher struct {
	tt              *Table
	ttPlies         int                              // positions with fewer pieces placed use the table
	sortPlies       int                              // positions with fewer pieces placed order their moves
	kingLast        bool                             // black_king_last with scoring "attacks": ply 15 has its own code
	kingLastSquares bool                             // black_king_last with scoring "squares": plies 14 and 15 have their own code
	lastTwo         bool                             // with kingLast: ply 14 has its own code too
	killer          cheversi.Square                  // the square of White's last move that last decided a position at ply 14
	killers         [cheversi.MaxPlies]cheversi.Move // at each ply, the move that last decided a position
	history         historyTable                     // at each ply, how much each move decided
	pairs           pairTables                       // lastTwo's tables
	etcPlies        int                              // positions with fewer pieces placed look for a cutoff in their children's table entries first
	nodes           [cheversi.MaxPlies + 1]uint64
	// stack[i] holds the child being searched of the position at ply i-1,
	// so that search allocates nothing.
	stack [cheversi.MaxPlies + 1]board
	stop  *atomic.Bool
}

// search returns the value of b for the side to move, fail-soft: the exact
// final margin (mover's score minus the opponent's) when it lies strictly
// between alpha and beta, an upper bound <= alpha when the exact value is
// <= alpha, a lower bound >= beta when it is >= beta.
func (s *searcher) search(b *board, alpha, beta int) int {
	ply := b.n
	s.nodes[ply]++
	if ply == cheversi.MaxPlies {
		return b.margin
	}
	if ply == cheversi.MaxPlies-1 && s.kingLast {
		s.nodes[cheversi.MaxPlies] += uint64(kingLastCount(b))
		return kingLast(b)
	}
	t := b.pos.Targets()
	switch {
	case t == ([cheversi.NumPieces]uint64{}):
		return NoMoves
	case ply == cheversi.MaxPlies-1:
		return s.last(b, &t, beta)
	case ply == cheversi.MaxPlies-2 && s.kingLast && s.lastTwo:
		s.nodes[cheversi.MaxPlies-1] += uint64(countTargets(&t))
		v, cut := lastTwo(b, &t, alpha, beta, s.killer, &s.stack[ply+1], &s.pairs)
		if v >= beta {
			s.killer = cut
		}
		return v
	case ply == cheversi.MaxPlies-2 && s.kingLastSquares:
		v, cut, moves, leaves := lastTwoSquares(b, &t, alpha, beta, s.killer)
		s.nodes[cheversi.MaxPlies-1] += uint64(moves)
		s.nodes[cheversi.MaxPlies] += uint64(leaves)
		if v >= beta {
			s.killer = cut
		}
		return v
	}
	return s.interior(b, &t, alpha, beta)
}

// node is what search keeps of a position between its table lookup and
// its table update.
type node struct {
	key    uint64 // the position's hash, if it uses the table
	useTT  bool
	lo, hi int           // bounds known before the search
	move   cheversi.Move // the table's move
}

// interior searches b, a position with legal moves t whose moves are
// searched one by one: it looks it up in the table, tries the enhanced
// transposition cutoff, searches the moves, and records what it found.
func (s *searcher) interior(b *board, t *[cheversi.NumPieces]uint64, alpha, beta int) int {
	ply := b.n
	n := node{useTT: ply < s.ttPlies, lo: NoMoves, hi: -NoMoves}
	if n.useTT {
		if v, done := s.probe(b, &n, &alpha, &beta); done {
			return v
		}
	}
	first := n.move
	if first == 0 || t[first.Piece()]&(1<<first.Square()) == 0 {
		first = s.killers[ply]
	}
	var ml moveList
	ml.gen(t, first)
	if n.useTT && ply < s.etcPlies {
		if v, ok := s.etc(b, &ml, &n, beta); ok {
			return v
		}
	}
	before := s.total()
	best, bestMove, stopped := s.tryMoves(b, &ml, first, alpha, beta)
	if stopped {
		return 0
	}
	if n.useTT {
		switch {
		case best <= alpha:
			n.hi = best
		case best >= beta:
			n.lo = best
		default:
			n.lo, n.hi = best, best
		}
		s.tt.store(n.key, entry{lo: n.lo, hi: n.hi, move: bestMove, work: workOf(s.total() - before)})
	}
	return best
}

// probe looks b up in the table. It returns the value to return when the
// bounds found decide the search, and otherwise narrows the window to
// them and keeps them, with the table's move, in n.
func (s *searcher) probe(b *board, n *node, alpha, beta *int) (int, bool) {
	n.key = b.pos.Hash()
	e, ok := s.tt.probe(n.key)
	if !ok {
		return 0, false
	}
	switch {
	case e.lo >= *beta:
		return e.lo, true
	case e.hi <= *alpha:
		return e.hi, true
	case e.lo == e.hi:
		return e.lo, true
	}
	*alpha, *beta = max(*alpha, e.lo), min(*beta, e.hi)
	n.lo, n.hi, n.move = e.lo, e.hi, e.move
	return 0, false
}

// etc is the enhanced transposition cutoff: a child already known to be
// good enough ends the search of b before any move is searched.
func (s *searcher) etc(b *board, ml *moveList, n *node, beta int) (int, bool) {
	for _, m := range ml.moves[:ml.n] {
		q := b.pos
		q.Play(m)
		if e, ok := s.tt.probe(q.Hash()); ok && -e.hi >= beta {
			n.lo = max(n.lo, -e.hi)
			s.tt.store(n.key, entry{lo: n.lo, hi: n.hi, move: m, work: 1})
			return -e.hi, true
		}
	}
	return 0, false
}

// tryMoves searches the moves of ml in b until one reaches beta, and
// returns the best value and move; stopped is true when the search was
// stopped (its values are then meaningless). The first move (the table's,
// or the one that last decided a position at this ply) goes first; the
// others are sorted only if it does not decide the position.
func (s *searcher) tryMoves(b *board, ml *moveList, first cheversi.Move, alpha, beta int) (best int, bestMove cheversi.Move, stopped bool) {
	ply := b.n
	sorted := ply >= s.sortPlies
	if ml.n > 0 && ml.moves[0] != first {
		ml.sort(b, 0, &s.history[ply])
		sorted = true
	}
	best = NoMoves - 1
	c := &s.stack[ply+1]
	for idx := 0; idx < ml.n; idx++ {
		if idx == 1 && !sorted {
			ml.sort(b, first, &s.history[ply])
			sorted = true
		}
		m := ml.moves[idx]
		*c = *b
		c.play(m)
		v := -s.search(c, -beta, -max(alpha, best))
		if ply < stopPlies && s.stop.Load() {
			return 0, 0, true
		}
		if v > best {
			best, bestMove = v, m
			if v >= beta {
				s.killers[ply] = m
				s.history.credit(ply, m)
				break
			}
		}
	}
	return best, bestMove, false
}

// stopPlies: positions with fewer pieces placed check whether the search
// was stopped after each move.
const stopPlies = 12

// root searches b like search and returns its best move too.
func (s *searcher) root(b *board, alpha, beta int) (int, cheversi.Move) {
	ply := b.n
	s.nodes[ply]++
	t := b.pos.Targets()
	var ttMove cheversi.Move
	if e, ok := s.tt.probe(b.pos.Hash()); ok {
		ttMove = e.move
	}
	var ml moveList
	ml.gen(&t, ttMove)
	ml.sort(b, ttMove, nil)
	best, bestMove := NoMoves-1, cheversi.Move(0)
	c := &s.stack[ply+1]
	for _, m := range ml.moves[:ml.n] {
		*c = *b
		c.play(m)
		v := -s.search(c, -beta, -max(alpha, best))
		if s.stop.Load() {
			return 0, 0
		}
		if v > best {
			best, bestMove = v, m
			if v >= beta {
				break
			}
		}
	}
	return best, bestMove
}

func (s *searcher) total() uint64 {
	var n uint64
	for _, c := range s.nodes {
		n += c
	}
	return n
}

// last returns the value of b, at ply 15, for Black: the best of its last
// moves.
func (s *searcher) last(b *board, t *[cheversi.NumPieces]uint64, beta int) int {
	best := NoMoves - 1
	for k := range cheversi.Piece(cheversi.NumPieces) {
		for bb := t[k]; bb != 0; bb &= bb - 1 {
			m := cheversi.NewMove(k, cheversi.Square(bits.TrailingZeros64(bb)))
			s.nodes[cheversi.MaxPlies]++
			v := -(b.margin + b.delta(m))
			if v > best {
				best = v
				if v >= beta {
					return v
				}
			}
		}
	}
	return best
}

// moveList is the legal moves of a position in the order they are searched.
type moveList struct {
	n     int
	moves [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
	keys  [cheversi.NumPieces * cheversi.NumSquares]int64
}

// gen fills l with the moves of t, first (when legal) at the front.
func (l *moveList) gen(t *[cheversi.NumPieces]uint64, first cheversi.Move) {
	n := 0
	if first != 0 && t[first.Piece()]&(1<<first.Square()) != 0 {
		l.moves[0] = first
		n = 1
	} else {
		first = 0
	}
	for k := range cheversi.Piece(cheversi.NumPieces) {
		for bb := t[k]; bb != 0; bb &= bb - 1 {
			m := cheversi.NewMove(k, cheversi.Square(bits.TrailingZeros64(bb)))
			if m != first {
				l.moves[n] = m
				n++
			}
		}
	}
	l.n = n
}

// sort orders the moves after the first (when it is first), best first:
// by their counts in h when h is not nil, and then by how much they change
// the margin in the mover's favour.
func (l *moveList) sort(b *board, first cheversi.Move, h *[historyMoves]uint32) {
	start := 0
	if first != 0 && l.n > 0 && l.moves[0] == first {
		start = 1
	}
	sign := int32(1)
	if b.pos.Turn() == game.Black {
		sign = -1
	}
	if b.squares {
		for i := start; i < l.n; i++ {
			l.keys[i] = int64(sign * int32(b.delta(l.moves[i])))
		}
	} else {
		var loss [cheversi.NumSquares]int16
		b.lossTable(&loss)
		for i := start; i < l.n; i++ {
			m := l.moves[i]
			s := m.Square()
			occ := b.occ | 1<<s
			gain := int32(bits.OnesCount64(cheversi.Attacks(m.Piece(), s, occ) &^ occ))
			l.keys[i] = int64(gain - sign*int32(loss[s]))
		}
	}
	if h != nil {
		for i := start; i < l.n; i++ {
			l.keys[i] += int64(h[historyIndex(l.moves[i])]) << 32
		}
	}
	// Insertion sort: the lists are short.
	for i := start + 1; i < l.n; i++ {
		m, k := l.moves[i], l.keys[i]
		j := i
		for ; j > start && l.keys[j-1] < k; j-- {
			l.moves[j], l.keys[j] = l.moves[j-1], l.keys[j-1]
		}
		l.moves[j], l.keys[j] = m, k
	}
}

func countTargets(t *[cheversi.NumPieces]uint64) int {
	return bits.OnesCount64(t[0]) + bits.OnesCount64(t[1]) + bits.OnesCount64(t[2]) +
		bits.OnesCount64(t[3]) + bits.OnesCount64(t[4])
}

// historyMoves is the number of moves a history table counts at each ply.
const historyMoves = cheversi.NumPieces * cheversi.NumSquares

// historyTable counts, at each ply, how much each move decided positions in
// the search so far: the history heuristic inside one search, as history
// (tree.go) is for a Driver's units above the cut. The two stay apart: this
// one is read at every position searched, so it is a flat array, weighted
// by the plies left, and starts empty with each call. A move that ends the search of
// a position with d plies left earns d²; the moves are tried in the order
// of their counts, then in the order of how much they change the margin.
// On the work units of the cheversi and queen_call=false solves it cuts the
// positions searched by about a fifth against the margin order alone.
type historyTable [cheversi.MaxPlies][historyMoves]uint32

// historyLimit: when a count passes it, all the counts of its ply are
// halved, so that none overflows.
const historyLimit = 1 << 30

// historyIndex returns m's place in a ply's counts.
func historyIndex(m cheversi.Move) int {
	return int(m.Piece())*cheversi.NumSquares + int(m.Square())
}

// clear sets the counts of the plies from ply on to zero.
func (h *historyTable) clear(ply int) {
	for i := max(ply, 0); i < len(h); i++ {
		h[i] = [historyMoves]uint32{}
	}
}

// credit counts m as having decided a position at ply.
func (h *historyTable) credit(ply int, m cheversi.Move) {
	d := uint32(cheversi.MaxPlies - ply)
	c := &h[ply][historyIndex(m)]
	*c += d * d
	if *c > historyLimit {
		for i := range h[ply] {
			h[ply][i] /= 2
		}
	}
}
