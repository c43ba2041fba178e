package checkers

import (
	"iter"
	"math/bits"
)

// Bitboard is a set of squares: bit i stands for square i+1, so square 1 is
// bit 0 and square 32 is bit 31.
type Bitboard uint32

// SquareBit returns the set holding only square sq, or the empty set when sq
// is not in 1..32.
func SquareBit(sq int) Bitboard {
	if sq < 1 || sq > NumSquares {
		return 0
	}
	return 1 << (sq - 1)
}

// Has reports whether square sq is in the set.
func (b Bitboard) Has(sq int) bool { return b&SquareBit(sq) != 0 }

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount32(uint32(b)) }

// All yields the squares of the set in increasing order.
func (b Bitboard) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for b != 0 {
			sq := bits.TrailingZeros32(uint32(b)) + 1
			b &= b - 1
			if !yield(sq) {
				return
			}
		}
	}
}

// NumSquares is the number of playing squares.
const NumSquares = 32

// Board geometry. Bit i lies on row i/4 (row 0 holds squares 1-4, Black's
// back row) and, in that row, on column 2*(i%4)+1 for even rows and 2*(i%4)
// for odd rows. Toward higher square numbers ("down", Black's forward
// direction) a diagonal step adds 3, 4 or 5 to the bit index depending on
// the row parity and the edge; toward lower numbers ("up", White's forward
// direction) it subtracts 3, 4 or 5. The masks below select the squares from
// which each shift is a diagonal step; geometry_test.go checks them against
// row/column coordinates.
const (
	rowBlackCrown = 0xF0000000 // squares 29-32: Black's men are crowned here
	rowWhiteCrown = 0x0000000F // squares 1-4: White's men are crowned here

	maskDownLeft4  = 0x0F0F0F0F // even rows: down-left is +4
	maskDownLeft3  = 0x00E0E0E0 // odd rows but the left edge: down-left is +3
	maskDownRight5 = 0x07070707 // even rows but the right edge: down-right is +5
	maskDownRight4 = 0x00F0F0F0 // odd rows: down-right is +4
	maskUpLeft4    = 0x0F0F0F00 // even rows: up-left is -4
	maskUpLeft5    = 0xE0E0E0E0 // odd rows but the left edge: up-left is -5
	maskUpRight3   = 0x07070700 // even rows but the right edge: up-right is -3
	maskUpRight4   = 0xF0F0F0F0 // odd rows: up-right is -4

	maskDown4 = maskDownLeft4 | maskDownRight4 // every square but the bottom row
	maskDown3 = maskDownLeft3
	maskDown5 = maskDownRight5
	maskUp4   = maskUpLeft4 | maskUpRight4 // every square but the top row
	maskUp3   = maskUpRight3
	maskUp5   = maskUpLeft5
)

func downLeft(x uint32) uint32  { return (x&maskDownLeft4)<<4 | (x&maskDownLeft3)<<3 }
func downRight(x uint32) uint32 { return (x&maskDownRight5)<<5 | (x&maskDownRight4)<<4 }
func upLeft(x uint32) uint32    { return (x&maskUpLeft4)>>4 | (x&maskUpLeft5)>>5 }
func upRight(x uint32) uint32   { return (x&maskUpRight3)>>3 | (x&maskUpRight4)>>4 }

// Directions, as indexes into the step tables. Black's men move down,
// White's men up; kings move both ways.
const (
	dirUpLeft = iota
	dirUpRight
	dirDownLeft
	dirDownRight
	numDirs
)

const (
	dirsUp   = 1<<dirUpLeft | 1<<dirUpRight
	dirsDown = 1<<dirDownLeft | 1<<dirDownRight
	dirsAll  = dirsUp | dirsDown
)

// offBoard is the table entry for a step that leaves the board. As a shift
// count it yields an empty bitboard (1<<32 == 0 for uint32), so lookups need
// no separate bounds test.
const offBoard = NumSquares

// stepTable[i][d] is the bit index of the neighbour of bit i in direction d
// and jumpTable[i][d] the landing square of a jump that way, or offBoard.
var stepTable, jumpTable = makeStepTables()

func makeStepTables() (step, jump [NumSquares][numDirs]uint8) {
	steppers := [numDirs]func(uint32) uint32{upLeft, upRight, downLeft, downRight}
	for i := range NumSquares {
		for d, f := range steppers {
			step[i][d], jump[i][d] = offBoard, offBoard
			if n := f(1 << i); n != 0 {
				step[i][d] = uint8(bits.TrailingZeros32(n))
				if j := f(n); j != 0 {
					jump[i][d] = uint8(bits.TrailingZeros32(j))
				}
			}
		}
	}
	return step, jump
}
