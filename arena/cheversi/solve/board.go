package solve

import (
	"math/bits"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// board is a position as the search keeps it: the rules' Position (for the
// legal moves and the hash) and, for each placed piece, the squares it
// attacks, so that the score margin is kept up to date move by move instead
// of being counted at the end.
type board struct {
	pos     cheversi.Position
	n       int                                // pieces placed
	sq      [cheversi.MaxPlies]cheversi.Square // their squares
	slider  uint16                             // bit i: piece i slides (Q, R, B)
	black   uint16                             // bit i: piece i is Black's
	att     [cheversi.MaxPlies]uint64          // squares each attacks (sliders up to the first piece)
	dirs    [cheversi.MaxPlies]uint8           // the ray directions of each slider (bit d for direction d)
	occ     uint64
	squares bool // scoring "squares"
	// margin is White's score minus Black's over the empty squares now.
	margin int
}

func newBoard(p *cheversi.Position) board {
	b := board{squares: p.Options().Scoring == cheversi.ScoreSquares}
	// Rebuild the attack sets from the occupancy of p; the order of the
	// pieces does not matter.
	occ := p.Occupied(game.White) | p.Occupied(game.Black)
	for c := range game.Color(2) {
		for k := range cheversi.Piece(cheversi.NumPieces) {
			for bb := p.Pieces(c, k); bb != 0; bb &= bb - 1 {
				sq := cheversi.Square(bits.TrailingZeros64(bb))
				i := b.n
				b.sq[i] = sq
				b.att[i] = cheversi.Attacks(k, sq, occ)
				b.dirs[i] = pieceDirs[k]
				if k != cheversi.King && k != cheversi.Knight {
					b.slider |= 1 << i
				}
				if c == game.Black {
					b.black |= 1 << i
				}
				b.n++
			}
		}
	}
	b.occ = occ
	b.pos = *p
	b.margin = b.count()
	return b
}

// count returns White's score minus Black's, counted from the attack sets.
func (b *board) count() int {
	empty := ^b.occ
	if b.squares {
		var a [2]uint64
		for i := range b.n {
			a[b.black>>i&1] |= b.att[i]
		}
		return bits.OnesCount64(a[0]&empty) - bits.OnesCount64(a[1]&empty)
	}
	m := 0
	for i := range b.n {
		v := bits.OnesCount64(b.att[i] & empty)
		if b.black>>i&1 != 0 {
			v = -v
		}
		m += v
	}
	return m
}

// play places m for the side to move, keeping the attack sets and the
// margin up to date.
func (b *board) play(m cheversi.Move) {
	k, s := m.Piece(), m.Square()
	bit := uint64(1) << s
	black := b.pos.Turn() == game.Black
	b.pos.Play(m)
	empty := ^(b.occ | bit)
	d := 0
	for i := range b.n {
		a := b.att[i]
		if a&bit == 0 {
			continue
		}
		lost := 1
		if b.slider>>i&1 != 0 {
			beyond := cheversi.Beyond(b.sq[i], s) & a
			lost += bits.OnesCount64(beyond & empty)
			b.att[i] = a &^ beyond
		}
		if b.black>>i&1 != 0 {
			lost = -lost
		}
		d -= lost
	}
	b.occ |= bit
	i := b.n
	b.sq[i] = s
	b.att[i] = cheversi.Attacks(k, s, b.occ)
	b.dirs[i] = pieceDirs[k]
	if k != cheversi.King && k != cheversi.Knight {
		b.slider |= 1 << i
	}
	gain := bits.OnesCount64(b.att[i] & empty)
	if black {
		b.black |= 1 << i
		gain = -gain
	}
	b.n++
	if b.squares {
		b.margin = b.count()
		return
	}
	b.margin += d + gain
}

// delta returns how m, for the side to move, would change the margin
// (White's score minus Black's), without playing it.
func (b *board) delta(m cheversi.Move) int {
	k, s := m.Piece(), m.Square()
	if b.squares {
		return b.deltaSquares(k, s)
	}
	bit := uint64(1) << s
	occ := b.occ | bit
	empty := ^occ
	d := 0
	for a := b.attackersOf(bit); a != 0; a &= a - 1 {
		i := bits.TrailingZeros16(a)
		lost := 1
		if b.slider>>i&1 != 0 {
			lost += bits.OnesCount64(cheversi.Beyond(b.sq[i], s) & b.att[i] & empty)
		}
		if b.black>>i&1 != 0 {
			lost = -lost
		}
		d -= lost
	}
	gain := bits.OnesCount64(cheversi.Attacks(k, s, occ) & empty)
	if b.pos.Turn() == game.Black {
		gain = -gain
	}
	return d + gain
}

// deltaSquares is delta under the scoring "squares": the squares each
// side attacks once k is on s, counted over the squares then empty, less
// the margin now. Only the rays through s change, so it needs no copy of b.
func (b *board) deltaSquares(k cheversi.Piece, s cheversi.Square) int {
	bit := uint64(1) << s
	occ := b.occ | bit
	var u [2]uint64
	for i := range b.n {
		a := b.att[i]
		if a&bit != 0 && b.slider>>i&1 != 0 {
			a &^= cheversi.Beyond(b.sq[i], s)
		}
		u[b.black>>i&1] |= a
	}
	side := 0
	if b.pos.Turn() == game.Black {
		side = 1
	}
	u[side] |= cheversi.Attacks(k, s, occ)
	empty := ^occ
	return bits.OnesCount64(u[0]&empty) - bits.OnesCount64(u[1]&empty) - b.margin
}

// attackersOf returns the set of pieces (bit i for piece i) that attack
// a square of bit.
func (b *board) attackersOf(bit uint64) uint16 {
	var a uint16
	for i := range b.n {
		if b.att[i]&bit != 0 {
			a |= 1 << i
		}
	}
	return a
}

// Ray directions: the first four increase the square index.
const (
	dirN = iota
	dirE
	dirNE
	dirNW
	dirS
	dirW
	dirSW
	dirSE
)

// rays[d][sq] holds the squares from sq (excluded) to the edge of the board
// in direction d; pieceDirs the directions each kind slides in.
var (
	rays      = rayTable()
	pieceDirs = [cheversi.NumPieces]uint8{
		cheversi.Queen:  0xff,
		cheversi.Rook:   1<<dirN | 1<<dirE | 1<<dirS | 1<<dirW,
		cheversi.Bishop: 1<<dirNE | 1<<dirNW | 1<<dirSW | 1<<dirSE,
	}
)

// rayTable returns the rays of every direction from every square. (It is
// a function, not an init, so that the tables made from it at package
// initialisation see it filled.)
func rayTable() (rays [8][cheversi.NumSquares]uint64) {
	step := [8][2]int{{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}
	for sq := range cheversi.NumSquares {
		for d, st := range step {
			f, r := sq&7+st[0], sq>>3+st[1]
			for ; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+st[0], r+st[1] {
				rays[d][sq] |= 1 << (r*8 + f)
			}
		}
	}
	return rays
}

// lossTable sets loss[x], for each empty square x, to what White's pieces
// would lose, minus what Black's would, if x filled: a point for each piece
// attacking x and, for a slider, one for each empty square it sees past x.
// Entries of occupied squares are left as they are.
func (b *board) lossTable(loss *[cheversi.NumSquares]int16) {
	b.lossTableOn(loss, ^b.occ)
}

// lossTableOn is lossTable for the empty squares of mask only.
func (b *board) lossTableOn(loss *[cheversi.NumSquares]int16, mask uint64) {
	empty := ^b.occ
	want := empty & mask
	for i := range b.n {
		sign := int16(1)
		if b.black>>i&1 != 0 {
			sign = -1
		}
		if b.slider>>i&1 == 0 {
			for a := b.att[i] & want; a != 0; a &= a - 1 {
				loss[bits.TrailingZeros64(a)] += sign
			}
			continue
		}
		sq := b.sq[i]
		for ds := b.dirs[i]; ds != 0; ds &= ds - 1 {
			d := bits.TrailingZeros8(ds)
			seg := b.att[i] & rays[d][sq] & empty
			for a := seg & mask; a != 0; a &= a - 1 {
				x := bits.TrailingZeros64(a)
				loss[x] += sign * int16(1+bits.OnesCount64(seg&rays[d][x]))
			}
		}
	}
}
