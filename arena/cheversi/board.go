package cheversi

import (
	"fmt"
	"math/bits"
)

// Square is a board square, 0 (a1) to 63 (h8): file a..h is Square%8 and
// rank 1..8 is Square/8 + 1.
type Square uint8

// NumSquares is the number of squares on the board.
const NumSquares = 64

// File returns the file, 0 (a) to 7 (h).
func (s Square) File() int { return int(s & 7) }

// Rank returns the rank, 0 (rank 1) to 7 (rank 8).
func (s Square) Rank() int { return int(s>>3) & 7 }

// Dark reports whether s is a dark square; a1 is dark.
func (s Square) Dark() bool { return darkSquares&(1<<(s&63)) != 0 }

// String returns the square's name, "a1" to "h8".
func (s Square) String() string {
	if s >= NumSquares {
		return fmt.Sprintf("Square(%d)", uint8(s))
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// parseSquare decodes a lower-case square name.
func parseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return 0, false
	}
	return Square((s[1]-'1')*8 + (s[0] - 'a')), true
}

// Piece is a kind of piece. Both sides have the same set: one king, one
// queen, two rooks, two bishops and two knights.
type Piece uint8

// The piece kinds, in the order moves are generated.
const (
	King Piece = iota
	Queen
	Rook
	Bishop
	Knight
	// NumPieces is the number of piece kinds.
	NumPieces = 5
)

const pieceLetters = "KQRBN"

var (
	pieceNames = [NumPieces]string{"king", "queen", "rook", "bishop", "knight"}
	// pieceCount is how many pieces of each kind a side has.
	pieceCount = [NumPieces]int{1, 1, 2, 2, 2}
)

// String returns the piece's upper-case letter: K, Q, R, B or N.
func (p Piece) String() string {
	if p >= NumPieces {
		return fmt.Sprintf("Piece(%d)", uint8(p))
	}
	return pieceLetters[p : p+1]
}

// Count returns how many pieces of this kind each side has (0 for an
// invalid Piece).
func (p Piece) Count() int {
	if p >= NumPieces {
		return 0
	}
	return pieceCount[p]
}

func (p Piece) name() string {
	if p >= NumPieces {
		return p.String()
	}
	return pieceNames[p]
}

// Move places one piece of the side to move on a square. The zero Move is
// not a valid move. Moves are compared by value: the two rooks (bishops,
// knights) of a side are interchangeable, so R@a1 is one move.
type Move uint16

// NewMove returns the move placing a piece of kind pc on sq.
func NewMove(pc Piece, sq Square) Move {
	return Move(uint16(pc+1)<<6 | uint16(sq&63))
}

// Piece returns the kind of piece placed.
func (m Move) Piece() Piece { return Piece(m>>6) - 1 }

// Square returns the square the piece is placed on.
func (m Move) Square() Square { return Square(m & 63) }

// Valid reports whether m encodes a piece kind and a square (it says nothing
// about legality in a position).
func (m Move) Valid() bool { return m>>6 >= 1 && m>>6 <= NumPieces }

// String returns the move in drop notation, for example "K@e4".
func (m Move) String() string {
	if !m.Valid() {
		return fmt.Sprintf("Move(%d)", uint16(m))
	}
	return moveTexts[m]
}

// numMoveCodes bounds the codes of valid Moves.
const numMoveCodes = (NumPieces + 1) << 6

// moveTexts holds the text of every valid Move, so that String does not
// build it (the legal moves of every request are written as text).
var moveTexts = func() (t [numMoveCodes]string) {
	for pc := range Piece(NumPieces) {
		for sq := range Square(NumSquares) {
			t[NewMove(pc, sq)] = string([]byte{pieceLetters[pc], '@', 'a' + byte(sq.File()), '1' + byte(sq.Rank())})
		}
	}
	return t
}()

// Bitboards: bit i stands for Square i.
const (
	fileA       uint64 = 0x0101010101010101
	fileH       uint64 = fileA << 7
	darkSquares uint64 = 0xAA55AA55AA55AA55
	allSquares  uint64 = ^uint64(0)
)

// Ray directions. The first four increase the square index, so the nearest
// blocker along them is the lowest set bit; the last four decrease it.
const (
	dirN = iota
	dirE
	dirNE
	dirNW
	dirS
	dirW
	dirSW
	dirSE
	numDirs
)

var (
	kingAttacks   [NumSquares]uint64
	knightAttacks [NumSquares]uint64
	rays          [numDirs][NumSquares]uint64
	// rayDir[a][b] is the direction of the ray from a through b, or
	// numDirs when b is on none of a's rays.
	rayDir [NumSquares][NumSquares]uint8
)

func init() {
	step := [numDirs][2]int{{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}
	jumps := [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	on := func(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }
	for sq := range NumSquares {
		f, r := sq&7, sq>>3
		for d, st := range step {
			if on(f+st[0], r+st[1]) {
				kingAttacks[sq] |= 1 << ((r+st[1])*8 + f + st[0])
			}
			for i := 1; on(f+i*st[0], r+i*st[1]); i++ {
				rays[d][sq] |= 1 << ((r+i*st[1])*8 + f + i*st[0])
			}
		}
		for _, j := range jumps {
			if on(f+j[0], r+j[1]) {
				knightAttacks[sq] |= 1 << ((r+j[1])*8 + f + j[0])
			}
		}
	}
	for a := range NumSquares {
		for b := range NumSquares {
			rayDir[a][b] = numDirs
		}
		for d := range numDirs {
			for b := rays[d][a]; b != 0; b &= b - 1 {
				rayDir[a][bits.TrailingZeros64(b)] = uint8(d)
			}
		}
	}
}

// Beyond returns the squares past to on the line from from through to, up
// to the edge of the board: what a slider on from would see beyond to on
// an empty board. It returns 0 when to is not on a rank, file or diagonal
// of from, or a square is invalid.
func Beyond(from, to Square) uint64 {
	if from >= NumSquares || to >= NumSquares {
		return 0
	}
	d := rayDir[from][to]
	if d == numDirs {
		return 0
	}
	return rays[d][to]
}

// neighbours returns the squares adjacent (the eight king steps) to at
// least one square of b.
func neighbours(b uint64) uint64 {
	east := (b << 1) &^ fileA
	west := (b >> 1) &^ fileH
	row := b | east | west
	return east | west | row<<8 | row>>8
}

// ray returns the squares a slider on sq attacks in direction d, up to and
// including the first occupied square.
func ray(d int, sq Square, occ uint64) uint64 {
	a := rays[d][sq]
	if b := a & occ; b != 0 {
		var s int
		if d < dirS {
			s = bits.TrailingZeros64(b)
		} else {
			s = 63 - bits.LeadingZeros64(b)
		}
		a ^= rays[d][s]
	}
	return a
}

func rookAttacks(sq Square, occ uint64) uint64 {
	return ray(dirN, sq, occ) | ray(dirE, sq, occ) | ray(dirS, sq, occ) | ray(dirW, sq, occ)
}

func bishopAttacks(sq Square, occ uint64) uint64 {
	return ray(dirNE, sq, occ) | ray(dirNW, sq, occ) | ray(dirSW, sq, occ) | ray(dirSE, sq, occ)
}

// Attacks returns the squares a piece of kind pc standing on sq attacks
// when the squares of occ are occupied: sliding attacks stop at, and
// include, the first occupied square. It returns 0 for an invalid piece or
// square.
func Attacks(pc Piece, sq Square, occ uint64) uint64 {
	if sq >= NumSquares {
		return 0
	}
	switch pc {
	case King:
		return kingAttacks[sq]
	case Queen:
		return rookAttacks(sq, occ) | bishopAttacks(sq, occ)
	case Rook:
		return rookAttacks(sq, occ)
	case Bishop:
		return bishopAttacks(sq, occ)
	case Knight:
		return knightAttacks[sq]
	}
	return 0
}
