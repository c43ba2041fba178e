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

// lastTwo returns the value for White of b, a position at ply 14 under
// black_king_last with scoring "attacks", fail-soft in the window (alpha,
// beta): White places its last piece on s, then Black's King goes on an
// empty square t next to s. It plays neither move: the margin after both
// is the margin now, changed by what filling s and t costs each side and
// what the two new pieces attack, all read from tables made once for the
// position and corrected, for each pair s, t, by the few sliders in line
// with both.
func lastTwo(b *board, t *[cheversi.NumPieces]uint64, alpha, beta int, killer cheversi.Square, scratch *board) (int, cheversi.Square) {
	var k cheversi.Piece
	var targets uint64
	for pc := range cheversi.Piece(cheversi.NumPieces) {
		if t[pc] != 0 {
			k, targets = pc, t[pc]
			break
		}
	}
	best := NoMoves - 1
	// Most positions are decided by one move (most often the one that
	// decided the last position like this): try it by playing it, before
	// making the tables the others need.
	first := cheversi.Square(bits.TrailingZeros64(targets))
	if targets&(1<<killer) != 0 {
		first = killer
	}
	*scratch = *b
	scratch.play(cheversi.NewMove(k, first))
	best = -kingLast(scratch)
	if best >= beta {
		return best, first
	}
	targets &^= 1 << first
	if targets == 0 {
		return best, first
	}
	// loss[x] is what White's pieces lose, minus what Black's lose, when
	// the empty square x fills.
	var loss [cheversi.NumSquares]int16
	b.lossTableOn(&loss, neighbours(targets))
	for ; targets != 0; targets &= targets - 1 {
		s := cheversi.Square(bits.TrailingZeros64(targets))
		v := b.margin + lastPair(b, k, s, &loss)
		if v > best {
			best = v
			if v >= beta {
				return v, s
			}
		}
	}
	return best, first
}

// lastPair returns the change of White's margin when White places k on s
// and Black then places its King next to s where that is best for Black.
func lastPair(b *board, k cheversi.Piece, s cheversi.Square, loss *[cheversi.NumSquares]int16) int {
	sbit := uint64(1) << s
	occ1 := b.occ | sbit
	empty1 := ^occ1
	cand := kingSquares[s] & empty1
	// corr[t] corrects loss[t] for the sliders in line with s and t: a
	// slider whose ray passes s then t no longer reaches t once s is
	// filled; one whose ray passes t then s no longer sees past t.
	var corr [cheversi.NumSquares]int16
	emptyNow := ^b.occ
	d := 0 // White's margin change from filling s
	for i := range b.n {
		a := b.att[i]
		if a&sbit == 0 {
			continue
		}
		sign := 1
		if b.black>>i&1 != 0 {
			sign = -1
		}
		if b.slider>>i&1 == 0 {
			d -= sign
			continue
		}
		beyond := cheversi.Beyond(b.sq[i], s) & a
		d -= sign * (1 + bits.OnesCount64(beyond&emptyNow))
		// The square after s on the ray: t there is cut off.
		if after := beyond & kingSquares[s] & cand; after != 0 {
			x := bits.TrailingZeros64(after)
			corr[x] -= int16(sign * (1 + bits.OnesCount64(cheversi.Beyond(b.sq[i], cheversi.Square(x))&a&emptyNow)))
		}
		// The square before s on the ray, unless it is the slider's
		// own: past it the slider saw s and what is past s, no longer.
		if pre := squareBefore(b.sq[i], s) & cand; pre != 0 {
			x := bits.TrailingZeros64(pre)
			corr[x] -= int16(sign * (1 + bits.OnesCount64(beyond&emptyNow)))
		}
	}
	// White's new piece: what it attacks once s is filled, then what it
	// loses when the King fills t.
	na := cheversi.Attacks(k, s, occ1)
	d += bits.OnesCount64(na & empty1)
	slides := k != cheversi.King && k != cheversi.Knight
	if cand == 0 {
		return -NoMoves // Black's King has nowhere to go
	}
	worst := 1 << 30
	for c := cand; c != 0; c &= c - 1 {
		x := cheversi.Square(bits.TrailingZeros64(c))
		xb := uint64(1) << x
		e := -int(loss[x]+corr[x]) - bits.OnesCount64(kingSquares[x]&empty1)
		if na&xb != 0 {
			l := 1
			if slides {
				l += bits.OnesCount64(cheversi.Beyond(s, x) & na & empty1)
			}
			e -= l
		}
		worst = min(worst, e)
	}
	return d + worst
}

// squareBefore returns the square next to s on the line from from to s,
// on from's side, as a bit set: 0 when it is from itself.
func squareBefore(from, s cheversi.Square) uint64 {
	df := sign(s.File() - from.File())
	dr := sign(s.Rank() - from.Rank())
	x := int(s) - dr*8 - df
	if x == int(from) {
		return 0
	}
	return 1 << x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// neighbours returns the squares next to at least one square of b.
func neighbours(b uint64) uint64 {
	const fileA, fileH = 0x0101010101010101, 0x0101010101010101 << 7
	east := (b << 1) &^ fileA
	west := (b >> 1) &^ fileH
	row := b | east | west
	return east | west | row<<8 | row>>8
}
