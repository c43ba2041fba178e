package builtin

import (
	"math/bits"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/game"
)

// Board geometry for the evaluation, derived from coordinates: bit i of a
// checkers.Bitboard is square i+1, on row i/4 (row 0 holds squares 1-4,
// Black's back row) and column 2*(i%4)+1 on even rows, 2*(i%4) on odd ones.
var (
	// ckDown[i] and ckUp[i] are the squares one diagonal step from bit i
	// toward higher square numbers (Black's forward direction) and toward
	// lower ones (White's).
	ckDown, ckUp [checkers.NumSquares]uint32
	ckRow, ckCol [checkers.NumSquares]int8
)

func init() {
	bit := func(r, c int) uint32 {
		if r < 0 || r > 7 || c < 0 || c > 7 || (r+c)%2 == 0 {
			return 0
		}
		return 1 << (r*4 + c/2)
	}
	for i := range checkers.NumSquares {
		r := i / 4
		c := 2 * (i % 4)
		if r%2 == 0 {
			c++
		}
		ckRow[i], ckCol[i] = int8(r), int8(c)
		ckDown[i] = bit(r+1, c-1) | bit(r+1, c+1)
		ckUp[i] = bit(r-1, c-1) | bit(r-1, c+1)
	}
}

// Masks of squares the evaluation rewards.
const (
	ckBlackBack  uint32 = 0x0000000F                    // squares 1-4
	ckWhiteBack  uint32 = 0xF0000000                    // squares 29-32
	ckCentre     uint32 = 1<<13 | 1<<14 | 1<<17 | 1<<18 // squares 14, 15, 18, 19
	ckWideCentre uint32 = 1<<9 | 1<<10 | 1<<21 | 1<<22 | 1<<12 | 1<<15 | 1<<16 | 1<<19
)

// steps returns how many simple moves the pieces own (men stepping down
// when down is set, else up; kings either way) have onto the empty squares.
func steps(own, kings, empty uint32, down bool) int {
	n := 0
	for b := own; b != 0; b &= b - 1 {
		i := bits.TrailingZeros32(b)
		var to uint32
		switch {
		case kings>>i&1 != 0:
			to = ckDown[i] | ckUp[i]
		case down:
			to = ckDown[i]
		default:
			to = ckUp[i]
		}
		n += bits.OnesCount32(to & empty)
	}
	return n
}

// ckEval holds the weights of the checkers evaluation, in hundredths of a
// man.
type ckEval struct {
	king       int // a king's value (a man is manValue)
	advance    int // per row a man has advanced, multiplied by phase
	backGuard  int // per man on its own back row while the opponent has no king
	centre     int // per piece on one of the four centre squares
	wideCentre int // per piece on the ring around them
	kingCentre int // extra per king in the centre or its ring
	mobility   int // per simple move available
	trade      int // bonus for exchanges when ahead, scaled by material left
	hunt       int // per square of distance a king of the side ahead closes on the enemy
}

var defaultCkEval = ckEval{
	king:       kingValue,
	advance:    3,
	backGuard:  8,
	centre:     6,
	wideCentre: 3,
	kingCentre: 4,
	mobility:   2,
	trade:      40,
	hunt:       3,
}

// eval returns a static evaluation of p for the side to move.
func (w *ckEval) eval(p *checkers.Position) int {
	black, white := uint32(p.Pieces(game.Black)), uint32(p.Pieces(game.White))
	kings := uint32(p.Kings(game.Black) | p.Kings(game.White))
	empty := ^(black | white)
	bMen, wMen := black&^kings, white&^kings
	bKings, wKings := black&kings, white&kings
	nb, nw := bits.OnesCount32(black), bits.OnesCount32(white)
	total := nb + nw

	matB := manValue*bits.OnesCount32(bMen) + w.king*bits.OnesCount32(bKings)
	matW := manValue*bits.OnesCount32(wMen) + w.king*bits.OnesCount32(wKings)
	v := matB - matW // from Black's side until the end

	// Advancement matters more as the board empties (phase 1..4).
	phase := 1 + (24-total)/6
	for b := bMen; b != 0; b &= b - 1 {
		v += w.advance * phase * int(ckRow[bits.TrailingZeros32(b)])
	}
	for b := wMen; b != 0; b &= b - 1 {
		v -= w.advance * phase * int(7-ckRow[bits.TrailingZeros32(b)])
	}
	if wKings == 0 {
		v += w.backGuard * bits.OnesCount32(bMen&ckBlackBack)
	}
	if bKings == 0 {
		v -= w.backGuard * bits.OnesCount32(wMen&ckWhiteBack)
	}
	v += w.centre*(bits.OnesCount32(black&ckCentre)-bits.OnesCount32(white&ckCentre)) +
		w.wideCentre*(bits.OnesCount32(black&ckWideCentre)-bits.OnesCount32(white&ckWideCentre)) +
		w.kingCentre*(bits.OnesCount32(bKings&(ckCentre|ckWideCentre))-bits.OnesCount32(wKings&(ckCentre|ckWideCentre)))
	v += w.mobility * (steps(black, kings, empty, true) - steps(white, kings, empty, false))

	if d := matB - matW; d != 0 && total > 0 {
		// The side ahead gains by trading down, and its kings by closing
		// in on what is left of the enemy.
		v += d * w.trade / (total * 10)
		if total <= 10 {
			if d > 0 {
				v += w.hunt * closeness(bKings, white)
			} else {
				v -= w.hunt * closeness(wKings, black)
			}
		}
	}
	if p.Turn() == game.White {
		return -v
	}
	return v
}

// closeness rewards kings for being near the enemy pieces: for each king,
// 7 minus its distance (in king steps) to the nearest enemy piece.
func closeness(kings, enemy uint32) int {
	n := 0
	for k := kings; k != 0; k &= k - 1 {
		i := bits.TrailingZeros32(k)
		nearest := 7
		for e := enemy; e != 0; e &= e - 1 {
			j := bits.TrailingZeros32(e)
			d := max(abs(int(ckRow[i])-int(ckRow[j])), abs(int(ckCol[i])-int(ckCol[j])))
			nearest = min(nearest, d)
		}
		n += 7 - nearest
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
