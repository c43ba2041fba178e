package cheversi

import "math/bits"

// Symmetry is one of the eight symmetries of the board: the identity, the
// rotations by 90, 180 and 270 degrees and the four reflections. Every
// Cheversi rule set keeps all eight: attacks, adjacency and the knight's
// jump look the same in every direction, and bishops_opposite asks for the
// other square colour than the first bishop's, whichever colour that is. So
// a position and its image under a Symmetry have the same value, and the
// image of a legal move is legal in the image of the position.
type Symmetry uint8

// NumSymmetries is the number of Symmetry values, 0 (the identity) to 7.
const NumSymmetries = 8

// Identity is the Symmetry that leaves every square where it is.
const Identity Symmetry = 0

var (
	symSquares [NumSymmetries][NumSquares]Square
	symInverse [NumSymmetries]Symmetry
)

func init() {
	for s := range Symmetry(NumSymmetries) {
		for sq := range Square(NumSquares) {
			f, r := sq.File(), sq.Rank()
			if s&4 != 0 { // the reflection across the a1-h8 diagonal, first
				f, r = r, f
			}
			for range s & 3 { // then s&3 quarter turns
				f, r = r, 7-f
			}
			symSquares[s][sq] = Square(r*8 + f)
		}
	}
	for s := range Symmetry(NumSymmetries) {
		for t := range Symmetry(NumSymmetries) {
			if symSquares[t][symSquares[s][1]] == 1 && symSquares[t][symSquares[s][8]] == 8 {
				symInverse[s] = t
			}
		}
	}
}

// Square returns the image of sq.
func (s Symmetry) Square(sq Square) Square { return symSquares[s&7][sq&63] }

// Move returns the image of m: the same piece on the image of its square.
func (s Symmetry) Move(m Move) Move { return NewMove(m.Piece(), s.Square(m.Square())) }

// Bits returns the image of a set of squares (bit i for Square i).
func (s Symmetry) Bits(b uint64) uint64 {
	var out uint64
	for ; b != 0; b &= b - 1 {
		out |= 1 << s.Square(Square(bits.TrailingZeros64(b)))
	}
	return out
}

// Inverse returns the Symmetry that undoes s.
func (s Symmetry) Inverse() Symmetry { return symInverse[s&7] }

// ImageHashes returns the Hash of p's image under each Symmetry, indexed by
// it: what Transform then Hash give, without building the images.
func (p *Position) ImageHashes() [NumSymmetries]uint64 {
	var h [NumSymmetries]uint64
	for c := range 2 {
		for pc := range Piece(NumPieces) {
			z := &zobrist[c][pc]
			for b := p.pieces[c][pc]; b != 0; b &= b - 1 {
				sq := Square(bits.TrailingZeros64(b))
				for s := range Symmetry(NumSymmetries) {
					h[s] ^= z[symSquares[s][sq]]
				}
			}
		}
	}
	if p.hashesLast() {
		for s := range Symmetry(NumSymmetries) {
			h[s] ^= zobristLast[symSquares[s][p.lastSquare()]]
		}
	}
	return h
}

// Transform returns the image of p under s: every piece on the image of its
// square, the same side to move, ply and rule set, and the image of the
// last placed square.
func (p *Position) Transform(s Symmetry) Position {
	q := Position{ply: p.ply, opts: p.opts}
	for c := range 2 {
		for pc := range Piece(NumPieces) {
			for b := p.pieces[c][pc]; b != 0; b &= b - 1 {
				sq := s.Square(Square(bits.TrailingZeros64(b)))
				q.pieces[c][pc] |= 1 << sq
				q.occ[c] |= 1 << sq
				q.key ^= zobrist[c][pc][sq]
			}
		}
	}
	if p.last != 0 {
		q.last = uint8(s.Square(p.lastSquare())) + 1
	}
	return q
}
