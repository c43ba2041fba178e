package checkers

import (
	"fmt"
	"math/bits"

	"github.com/arena-games/arena/arena/game"
)

// MaxPieces is the largest number of pieces a side may have: the twelve it
// starts with. It also bounds the number of jumps in one capture.
const MaxPieces = 12

// Position is a checkers position: the pieces of both sides, which of them
// are kings, and the side to move. It is a small value type; copy it to keep
// a position before Play changes it. The zero Position is an empty board
// with White to move.
//
// A Position built by StartPosition, NewPosition or ParsePosition and changed
// only by Play with moves from its own GenerateMoves or ParseMove is always
// valid: at most twelve pieces a side and no man on its crowning row.
type Position struct {
	pieces [2]uint32 // indexed by game.Color
	kings  uint32    // kings of both sides
	turn   game.Color
	hash   uint64
}

// StartPosition returns the initial position: Black on 1-12, White on
// 21-32, Black to move.
func StartPosition() Position {
	return newPosition(0x00000FFF, 0xFFF00000, 0, game.Black)
}

// NewPosition builds a position from the squares of the black and the white
// pieces, the squares of the kings among them, and the side to move. It
// returns an error wrapping game.ErrBadPosition when the sets overlap, a king
// square is empty, a side has more than twelve pieces, or a man stands on
// the row where it would have been crowned.
func NewPosition(black, white, kings Bitboard, turn game.Color) (Position, error) {
	if err := checkPosition(black, white, kings, turn); err != nil {
		return Position{}, fmt.Errorf("%w: %v", game.ErrBadPosition, err)
	}
	return newPosition(black, white, kings, turn), nil
}

// newPosition builds a position that checkPosition has accepted.
func newPosition(black, white, kings Bitboard, turn game.Color) Position {
	p := Position{pieces: [2]uint32{game.White: uint32(white), game.Black: uint32(black)}, kings: uint32(kings), turn: turn}
	p.hash = p.computeHash()
	return p
}

func checkPosition(black, white, kings Bitboard, turn game.Color) error {
	switch {
	case turn != game.Black && turn != game.White:
		return fmt.Errorf("side to move %v is neither black nor white", turn)
	case black&white != 0:
		return fmt.Errorf("square %d holds both a black and a white piece", firstSquare(uint32(black&white)))
	case kings&^(black|white) != 0:
		return fmt.Errorf("king on empty square %d", firstSquare(uint32(kings&^(black|white))))
	case black.Count() > MaxPieces:
		return fmt.Errorf("black has %d pieces (at most %d)", black.Count(), MaxPieces)
	case white.Count() > MaxPieces:
		return fmt.Errorf("white has %d pieces (at most %d)", white.Count(), MaxPieces)
	case black&^kings&rowBlackCrown != 0:
		return fmt.Errorf("black man on %d would have been crowned", firstSquare(uint32(black&^kings&rowBlackCrown)))
	case white&^kings&rowWhiteCrown != 0:
		return fmt.Errorf("white man on %d would have been crowned", firstSquare(uint32(white&^kings&rowWhiteCrown)))
	}
	return nil
}

func firstSquare(b uint32) int { return bits.TrailingZeros32(b) + 1 }

// Turn returns the side to move.
func (p Position) Turn() game.Color { return p.turn }

// Pieces returns the squares of c's men and kings.
func (p Position) Pieces(c game.Color) Bitboard { return Bitboard(p.pieces[c&1]) }

// Men returns the squares of c's men.
func (p Position) Men(c game.Color) Bitboard { return Bitboard(p.pieces[c&1] &^ p.kings) }

// Kings returns the squares of c's kings.
func (p Position) Kings(c game.Color) Bitboard { return Bitboard(p.pieces[c&1] & p.kings) }

// Empty returns the empty squares.
func (p Position) Empty() Bitboard { return Bitboard(^(p.pieces[0] | p.pieces[1])) }

// Material returns the number of c's men and kings.
func (p Position) Material(c game.Color) (men, kings int) {
	return p.Men(c).Count(), p.Kings(c).Count()
}

// At reports the piece on square sq: its color, whether it is a king, and
// ok = false when the square is empty or not in 1..32.
func (p Position) At(sq int) (c game.Color, king, ok bool) {
	b := uint32(SquareBit(sq))
	switch {
	case p.pieces[game.Black]&b != 0:
		c = game.Black
	case p.pieces[game.White]&b != 0:
		c = game.White
	default:
		return 0, false, false
	}
	return c, p.kings&b != 0, true
}

// Hash returns the Zobrist hash of the position, side to move included.
// Play keeps it up to date incrementally.
func (p Position) Hash() uint64 { return p.hash }

// Play makes move m, which must come from this position's GenerateMoves or
// ParseMove: Play does not check legality. It moves the piece, removes the
// captured pieces, crowns a man that reaches the far row, and passes the
// turn. Playing the zero Move does nothing.
func (p *Position) Play(m Move) {
	if m.from == 0 {
		return
	}
	us := p.turn & 1
	them := us ^ 1
	from := uint32(1) << (m.from - 1)
	to := uint32(1) << (m.to - 1)
	h := p.hash ^ zobristWhiteToMove
	p.pieces[us] = p.pieces[us]&^from | to
	switch {
	case m.flags&flagKing != 0:
		p.kings = p.kings&^from | to
		h ^= zobrist[us][1][m.from-1] ^ zobrist[us][1][m.to-1]
	case m.flags&flagCrown != 0:
		p.kings |= to
		h ^= zobrist[us][0][m.from-1] ^ zobrist[us][1][m.to-1]
	default:
		h ^= zobrist[us][0][m.from-1] ^ zobrist[us][0][m.to-1]
	}
	if c := uint32(m.captured); c != 0 {
		for b := c; b != 0; b &= b - 1 {
			i := bits.TrailingZeros32(b)
			h ^= zobrist[them][p.kings>>i&1][i]
		}
		p.pieces[them] &^= c
		p.kings &^= c
	}
	p.turn = them
	p.hash = h
}

// zobrist[color][king][bit] are the piece keys; zobristWhiteToMove is mixed
// in when White is to move, so the zero Position hashes to 0.
var zobrist = makeZobrist()

const zobristWhiteToMove = 0x9e3779b97f4a7c15 ^ 0x2545f4914f6cdd1d

func makeZobrist() (z [2][2][NumSquares]uint64) {
	// SplitMix64 from a fixed seed: the keys, and so the hashes, are the
	// same in every run and on every machine.
	state := uint64(0x636865636b657273) // "checkers"
	for c := range z {
		for k := range z[c] {
			for i := range z[c][k] {
				state += 0x9e3779b97f4a7c15
				x := state
				x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
				x = (x ^ x>>27) * 0x94d049bb133111eb
				z[c][k][i] = x ^ x>>31
			}
		}
	}
	return z
}

func (p Position) computeHash() uint64 {
	var h uint64
	for c := range 2 {
		for b := p.pieces[c]; b != 0; b &= b - 1 {
			i := bits.TrailingZeros32(b)
			h ^= zobrist[c][p.kings>>i&1][i]
		}
	}
	if p.turn == game.White {
		h ^= zobristWhiteToMove
	}
	return h
}
