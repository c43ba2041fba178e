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
// empty square t next to s. The first s it tries (killer, when legal, is
// the square that last decided a position like this) it plays; for the
// others it plays neither move. For each it first reads an upper bound
// (pairTables.bound), which settles nearly every square: most positions
// here are lost for White, by more than the bound's slack. Where the bound
// does not settle s, the margin after both moves is the margin now,
// changed by what filling s and t costs each side and what the two new
// pieces attack, read from tables made once for the position (pt) and
// corrected, for each pair s, t, by the few sliders in line with both. It
// returns the square of the move that decided it.
func lastTwo(b *board, t *[cheversi.NumPieces]uint64, alpha, beta int, killer cheversi.Square, scratch *board, pt *pairTables) (int, cheversi.Square) {
	k, targets := lastKind(t)
	// Most positions are decided by one move: try it by playing it,
	// before making the tables the others need.
	first := cheversi.Square(bits.TrailingZeros64(targets))
	if targets&(1<<killer) != 0 {
		first = killer
	}
	*scratch = *b
	scratch.play(cheversi.NewMove(k, first))
	best := -kingLast(scratch)
	if best >= beta {
		return best, first
	}
	targets &^= 1 << first
	if targets == 0 {
		return best, first
	}
	pt.make(b, targets)
	sliders := false
	for t := targets; t != 0; t &= t - 1 {
		s := cheversi.Square(bits.TrailingZeros64(t))
		v := b.margin + pt.bound(b, k, s)
		if v > alpha {
			if !sliders {
				pt.makeSliders(b, targets)
				sliders = true
			}
			v = b.margin + pt.pair(b, k, s)
		}
		if v > best {
			best = v
			if v >= beta {
				return v, s
			}
		}
	}
	return best, first
}

// pairTables are what lastTwo reads for each pair of last moves.
type pairTables struct {
	// loss[x] is what White's pieces lose, minus what Black's lose, when
	// the empty square x fills (see lossTable), for the targets and their
	// neighbours; kept[x] is the same without what White's sliders lose.
	loss, kept [cheversi.NumSquares]int16
	// sliders[s] holds the sliders (bit i for piece i) that attack the
	// target s, and dir[s][i] the direction of the ray on which piece i
	// does (made by makeSliders).
	sliders [cheversi.NumSquares]uint16
	dir     [cheversi.NumSquares][cheversi.MaxPlies]uint8
}

// make fills pt's loss tables for the squares of targets, White's last
// moves, and their neighbours.
func (pt *pairTables) make(b *board, targets uint64) {
	pt.loss = [cheversi.NumSquares]int16{}
	pt.kept = [cheversi.NumSquares]int16{}
	empty := ^b.occ
	mask := targets | neighbours(targets)
	want := empty & mask
	for i := range b.n {
		sign := int16(1)
		if b.black>>i&1 != 0 {
			sign = -1
		}
		if b.slider>>i&1 == 0 {
			for a := b.att[i] & want; a != 0; a &= a - 1 {
				x := bits.TrailingZeros64(a)
				pt.loss[x] += sign
				pt.kept[x] += sign
			}
			continue
		}
		sq := b.sq[i]
		for ds := b.dirs[i]; ds != 0; ds &= ds - 1 {
			d := bits.TrailingZeros8(ds)
			seg := b.att[i] & rays[d][sq] & empty
			for a := seg & mask; a != 0; a &= a - 1 {
				x := bits.TrailingZeros64(a)
				l := sign * int16(1+bits.OnesCount64(seg&rays[d][x]))
				pt.loss[x] += l
				if sign < 0 {
					pt.kept[x] += l
				}
			}
		}
	}
}

// makeSliders fills pt's slider tables for the squares of targets.
func (pt *pairTables) makeSliders(b *board, targets uint64) {
	for t := targets; t != 0; t &= t - 1 {
		pt.sliders[bits.TrailingZeros64(t)] = 0
	}
	for i := range b.n {
		if b.slider>>i&1 == 0 || b.att[i]&targets == 0 {
			continue
		}
		for ds := b.dirs[i]; ds != 0; ds &= ds - 1 {
			d := bits.TrailingZeros8(ds)
			for a := b.att[i] & rays[d][b.sq[i]] & targets; a != 0; a &= a - 1 {
				x := bits.TrailingZeros64(a)
				pt.sliders[x] |= 1 << i
				pt.dir[x][i] = uint8(d)
			}
		}
	}
}

// bound returns an upper bound on pair(b, k, s), from the loss tables
// alone. Black's King on t changes White's margin by pair's e(t), at most
// -kept[t] minus the empty squares the King attacks: what pair subtracts
// for White's new piece attacking t is never negative, and its correction
// for the sliders in line with s and t at most gives back what White's
// sliders lose at t, which kept leaves out.
func (pt *pairTables) bound(b *board, k cheversi.Piece, s cheversi.Square) int {
	empty := ^b.occ
	cand := kingSquares[s] & empty
	if cand == 0 {
		return -NoMoves // Black's King has nowhere to go
	}
	occ1 := b.occ | 1<<s
	empty1 := ^occ1
	na := cheversi.Attacks(k, s, occ1)
	worst := 1 << 30
	for c := cand; c != 0; c &= c - 1 {
		x := bits.TrailingZeros64(c)
		worst = min(worst, -int(pt.kept[x])-bits.OnesCount64(kingSquares[x]&empty1))
	}
	return -int(pt.loss[s]) + bits.OnesCount64(na&empty1) + worst
}

// pair returns the change of White's margin when White places k on s
// and Black then places its King next to s where that is best for Black.
func (pt *pairTables) pair(b *board, k cheversi.Piece, s cheversi.Square) int {
	sbit := uint64(1) << s
	occ1 := b.occ | sbit
	empty1 := ^occ1
	cand := kingSquares[s] & empty1
	if cand == 0 {
		return -NoMoves // Black's King has nowhere to go
	}
	emptyNow := ^b.occ
	// corr[t] corrects loss[t] for the sliders in line with s and t: a
	// slider whose ray passes s then t no longer reaches t once s is
	// filled; one whose ray passes t then s no longer sees past t.
	var corr [cheversi.NumSquares]int16
	for sl := pt.sliders[s]; sl != 0; sl &= sl - 1 {
		i := bits.TrailingZeros16(sl)
		d := pt.dir[s][i]
		sign := int16(1)
		if b.black>>i&1 != 0 {
			sign = -1
		}
		seg := b.att[i] & rays[d][b.sq[i]] & emptyNow
		if after := nextSquare[d][s]; after < cheversi.NumSquares && cand&(1<<after) != 0 {
			corr[after] -= sign * int16(1+bits.OnesCount64(seg&rays[d][after]))
		}
		if before := nextSquare[d^4][s]; before != b.sq[i] && before < cheversi.NumSquares && cand&(1<<before) != 0 {
			corr[before] -= sign * int16(1+bits.OnesCount64(seg&rays[d][s]))
		}
	}
	// White's new piece: what it attacks once s is filled, then what it
	// loses when the King fills t.
	na := cheversi.Attacks(k, s, occ1)
	d := -int(pt.loss[s]) + bits.OnesCount64(na&empty1)
	slides := k != cheversi.King && k != cheversi.Knight
	worst := 1 << 30
	for c := cand; c != 0; c &= c - 1 {
		x := cheversi.Square(bits.TrailingZeros64(c))
		e := -int(pt.loss[x]+corr[x]) - bits.OnesCount64(kingSquares[x]&empty1)
		if na&(1<<x) != 0 {
			l := 1
			if slides {
				l += bits.OnesCount64(rays[adjacentDir(s, x)][x] & na & empty1)
			}
			e -= l
		}
		worst = min(worst, e)
	}
	return d + worst
}

// nextSquare[d][s] is the square next to s in direction d
// (cheversi.NumSquares past the edge).
var nextSquare = func() (n [8][cheversi.NumSquares]cheversi.Square) {
	for d := range 8 {
		for s := range cheversi.NumSquares {
			n[d][s] = cheversi.NumSquares
			if r := rays[d][s]; r != 0 {
				if d < dirS {
					n[d][s] = cheversi.Square(bits.TrailingZeros64(r))
				} else {
					n[d][s] = cheversi.Square(63 - bits.LeadingZeros64(r))
				}
			}
		}
	}
	return n
}()

// adjacentDir returns the direction from s to x, a square next to it.
func adjacentDir(s, x cheversi.Square) int {
	return adjDirs[int(x)-int(s)+9]
}

// adjDirs maps the index difference of neighbouring squares, plus 9, to
// the direction between them.
var adjDirs = [19]int{
	-9 + 9: dirSW, -8 + 9: dirS, -7 + 9: dirSE, -1 + 9: dirW,
	1 + 9: dirE, 7 + 9: dirNW, 8 + 9: dirN, 9 + 9: dirNE,
}

// neighbours returns the squares next to at least one square of b.
func neighbours(b uint64) uint64 {
	const fileA, fileH = 0x0101010101010101, 0x0101010101010101 << 7
	east := (b << 1) &^ fileA
	west := (b >> 1) &^ fileH
	row := b | east | west
	return east | west | row<<8 | row>>8
}

// lastTwoSquares is lastTwo under the scoring "squares", where a side
// scores each empty square it attacks once: for each square s of White's
// last piece (killer first, when legal), and each empty square x next to
// s for Black's King, it counts the squares each side attacks once both
// are filled, from the attack sets of b shortened where s, then x, cut a
// ray, without playing either move. It returns the value for White,
// fail-soft in (alpha, beta), the square that decided it, and the number
// of White's last moves and of final positions it looked at.
func lastTwoSquares(b *board, t *[cheversi.NumPieces]uint64, alpha, beta int, killer cheversi.Square) (v int, cut cheversi.Square, moves, leaves int) {
	k, targets := lastKind(t)
	order := [2]uint64{0, targets}
	if targets&(1<<killer) != 0 {
		order = [2]uint64{1 << killer, targets &^ (1 << killer)}
	}
	best, bestSq := NoMoves-1, cheversi.Square(0)
	var att [cheversi.MaxPlies + 1]uint64
	for _, set := range order {
		for ; set != 0; set &= set - 1 {
			s := cheversi.Square(bits.TrailingZeros64(set))
			v, l := squaresPair(b, k, s, max(alpha, best), &att)
			moves++
			leaves += l
			if v > best {
				best, bestSq = v, s
				if v >= beta {
					return v, s, moves, leaves
				}
			}
		}
	}
	return best, bestSq, moves, leaves
}

// squaresPair returns White's margin when White places k on s and Black
// its King where that is best for Black, or an upper bound <= floor once
// one King square holds White to floor or less; and the number of King
// squares it counted. att is scratch space.
func squaresPair(b *board, k cheversi.Piece, s cheversi.Square, floor int, att *[cheversi.MaxPlies + 1]uint64) (int, int) {
	sbit := uint64(1) << s
	occ1 := b.occ | sbit
	cand := kingSquares[s] &^ occ1
	if cand == 0 {
		return -NoMoves, 0 // Black's King has nowhere to go
	}
	n := b.n
	for i := range n {
		a := b.att[i]
		if a&sbit != 0 && b.slider>>i&1 != 0 {
			a &^= cheversi.Beyond(b.sq[i], s)
		}
		att[i] = a
	}
	att[n] = cheversi.Attacks(k, s, occ1)
	slides := k != cheversi.King && k != cheversi.Knight
	worst, leaves := 1<<30, 0
	for ; cand != 0; cand &= cand - 1 {
		x := cheversi.Square(bits.TrailingZeros64(cand))
		xbit := uint64(1) << x
		var u [2]uint64
		for i := range n {
			a := att[i]
			if a&xbit != 0 && b.slider>>i&1 != 0 {
				a &^= cheversi.Beyond(b.sq[i], x)
			}
			u[b.black>>i&1] |= a
		}
		a := att[n]
		if a&xbit != 0 && slides {
			a &^= cheversi.Beyond(s, x)
		}
		u[0] |= a
		u[1] |= kingSquares[x]
		empty := ^(occ1 | xbit)
		leaves++
		worst = min(worst, bits.OnesCount64(u[0]&empty)-bits.OnesCount64(u[1]&empty))
		if worst <= floor {
			break
		}
	}
	return worst, leaves
}

// lastKind returns the kind of piece of the legal moves t, at ply 14 the
// one White has left to place, and its squares.
func lastKind(t *[cheversi.NumPieces]uint64) (cheversi.Piece, uint64) {
	for k := range cheversi.Piece(cheversi.NumPieces) {
		if t[k] != 0 {
			return k, t[k]
		}
	}
	return 0, 0
}
