package checkers

import (
	"math/bits"

	"github.com/arena-games/arena/arena/game"
)

// Perft returns the number of distinct move sequences of the given depth
// from p, counting every capture path as one move (two paths that capture
// different pieces, or the same pieces in another order, count twice). It
// ignores the arena's draw rules. A depth of 0 or less counts p itself: 1.
//
// Perft does not allocate. It makes moves on bare bitboards, without Move
// values or hash updates, and counts the moves of the last ply in bulk
// without making them.
func (p Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	us := p.turn & 1
	return perft(p.pieces[us], p.pieces[us^1], p.kings, us == game.Black, depth)
}

// perft counts the leaves depth >= 1 plies below the position where the
// side with pieces own (Black when black is set) is to move against opp;
// kings holds the kings of both sides.
func perft(own, opp, kings uint32, black bool, depth int) uint64 {
	if depth == 1 {
		return uint64(countMoves(own, opp, kings, black))
	}
	down, up, crown := split(own, kings, black)
	empty := ^(own | opp)
	if j := jumpers(down, up, opp, empty); j != 0 {
		var n uint64
		if men := j &^ kings; men != 0 {
			w := manWalker{own: own, opp: opp, kings: kings, empty: empty, crown: crown,
				cont: manJumpers(opp, empty, black), black: black, depth: depth}
			for ; men != 0; men &= men - 1 {
				w.from = men & -men
				n += w.walk(w.from, 0)
			}
		}
		for j &= kings; j != 0; j &= j - 1 {
			i := uint8(bits.TrailingZeros32(j))
			w := kingWalker{own: own, opp: opp, kings: kings, occ: (own | opp) &^ (1 << i),
				from: 1 << i, black: black, depth: depth}
			n += w.walk(i, 0)
		}
		return n
	}
	s := stepper{own: own, opp: opp, kings: kings, crown: crown, black: black, depth: depth}
	n := s.children((down&maskDown4)<<4&empty, 4) +
		s.children((down&maskDown3)<<3&empty, 3) +
		s.children((down&maskDown5)<<5&empty, 5)
	if up != 0 {
		n += s.children((up&maskUp4)>>4&empty, -4) +
			s.children((up&maskUp3)>>3&empty, -3) +
			s.children((up&maskUp5)>>5&empty, -5)
	}
	return n
}

// stepper makes the simple moves of a position and counts below each.
type stepper struct {
	own, opp, kings, crown uint32
	black                  bool // the side to move is Black
	depth                  int
}

// children sums the counts below the simple moves to the squares of
// targets, each made by the piece shift bits before it (a negative shift:
// after it).
func (s *stepper) children(targets uint32, shift int) uint64 {
	var n uint64
	for ; targets != 0; targets &= targets - 1 {
		to := targets & -targets
		var from uint32
		if shift > 0 {
			from = to >> shift
		} else {
			from = to << -shift
		}
		k := s.kings
		switch {
		case k&from != 0:
			k ^= from | to
		case s.crown&to != 0:
			k |= to
		}
		n += perft(s.opp, s.own^from^to, k, !s.black, s.depth-1)
	}
	return n
}

// manWalker follows the capture paths of one man (see blackManPaths for why
// the position's opp and empty sets hold for the whole move) and counts
// below each.
type manWalker struct {
	own, opp, kings, empty, crown uint32
	cont                          uint32 // squares from which a man can jump
	from                          uint32 // the capturing man
	black                         bool   // the side to move is Black
	depth                         int
}

func (w *manWalker) walk(cur, captured uint32) uint64 {
	var overs [2]uint32
	if w.black {
		overs = [2]uint32{downLeft(cur) & w.opp, downRight(cur) & w.opp}
	} else {
		overs = [2]uint32{upLeft(cur) & w.opp, upRight(cur) & w.opp}
	}
	var n uint64
	for k, over := range overs {
		var land uint32
		switch {
		case over == 0:
			continue
		case w.black && k == 0:
			land = downLeft(over)
		case w.black:
			land = downRight(over)
		case k == 0:
			land = upLeft(over)
		default:
			land = upRight(over)
		}
		if land&w.empty == 0 {
			continue
		}
		taken := captured | over
		if land&w.cont != 0 {
			n += w.walk(land, taken)
			continue
		}
		n += perft(w.opp&^taken, w.own&^w.from|land, w.kings&^taken|land&w.crown, !w.black, w.depth-1)
	}
	return n
}

// kingWalker follows the capture paths of one king and counts below each.
// Jumped pieces stay in occ until the move ends; the king's starting square
// is left out of it.
type kingWalker struct {
	own, opp, kings, occ uint32
	from                 uint32 // the capturing king
	black                bool   // the side to move is Black
	depth                int
}

func (w *kingWalker) walk(cur uint8, captured uint32) uint64 {
	var n uint64
	found := false
	for d := range numDirs {
		over := uint32(1) << stepTable[cur][d]
		land := jumpTable[cur][d]
		if over&w.opp&^captured == 0 || (uint32(1)<<land)&^w.occ == 0 {
			continue
		}
		found = true
		n += w.walk(land, captured|over)
	}
	if found || captured == 0 {
		return n
	}
	to := uint32(1) << cur
	return perft(w.opp&^captured, w.own&^w.from|to, w.kings&^(captured|w.from)|to, !w.black, w.depth-1)
}
