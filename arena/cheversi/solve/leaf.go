package solve

import (
	"math/bits"

	"github.com/arena-games/arena/arena/cheversi"
)

// kingSquares holds the eight neighbours of each square.
var kingSquares = func() (k [cheversi.NumSquares]uint64) {
	for sq := range cheversi.Square(cheversi.NumSquares) {
		k[sq] = cheversi.Attacks(cheversi.King, sq, 0)
	}
	return k
}()

// kingLast returns the value for Black of b, a position at ply 15 under
// black_king_last with scoring "attacks": Black's King goes on one of the
// empty squares next to White's last piece, and Black takes the best.
func kingLast(b *board) int {
	s, _ := b.pos.Last()
	cand := kingSquares[s] &^ b.occ
	if cand == 0 {
		return NoMoves
	}
	return -b.margin + bestKing(b, cand)
}

// kingLastCount returns the number of final positions kingLast looks at.
func kingLastCount(b *board) int {
	s, _ := b.pos.Last()
	return bits.OnesCount64(kingSquares[s] &^ b.occ)
}

// bestKing returns the largest change, in Black's favour, that Black's King
// placed on one of the squares of cand can make to b's margin.
func bestKing(b *board, cand uint64) int {
	// lost[t] is what White's pieces lose, minus what Black's lose, when
	// t fills: each attacker loses t and, for a slider, the empty squares
	// behind t.
	var lost [cheversi.NumSquares]int8
	empty := ^b.occ
	for i := range b.n {
		a := b.att[i] & cand
		if a == 0 {
			continue
		}
		slides := b.slider>>i&1 != 0
		sign := int8(1)
		if b.black>>i&1 != 0 {
			sign = -1
		}
		for ; a != 0; a &= a - 1 {
			t := cheversi.Square(bits.TrailingZeros64(a))
			l := int8(1)
			if slides {
				l += int8(bits.OnesCount64(cheversi.Beyond(b.sq[i], t) & b.att[i] & empty))
			}
			lost[t] += sign * l
		}
	}
	best := -1 << 30
	for ; cand != 0; cand &= cand - 1 {
		t := cheversi.Square(bits.TrailingZeros64(cand))
		v := int(lost[t]) + bits.OnesCount64(kingSquares[t]&empty&^(1<<t))
		best = max(best, v)
	}
	return best
}
