package checkers

import "strconv"

// Move is a checkers move: a simple step or a complete capture with every
// landing square. It is a fixed-size value (no slices), so move generation
// does not allocate, and two Moves are equal with == exactly when they are
// the same move from the same position. The zero Move is not a move.
type Move struct {
	captured Bitboard         // squares of the captured pieces
	from, to uint8            // square numbers 1..32
	jumps    uint8            // number of jumps; 0 for a simple move
	flags    uint8            // flagKing, flagCrown
	path     [MaxPieces]uint8 // landing squares; path[jumps-1] == to; zero beyond
}

const (
	flagKing  = 1 << iota // the moving piece is a king
	flagCrown             // a man reaches the far row and is crowned
)

// From returns the square the piece leaves.
func (m Move) From() int { return int(m.from) }

// To returns the square the piece ends on.
func (m Move) To() int { return int(m.to) }

// IsCapture reports whether the move jumps.
func (m Move) IsCapture() bool { return m.jumps != 0 }

// Jumps returns the number of jumps (the number of pieces captured); 0 for a
// simple move.
func (m Move) Jumps() int { return int(m.jumps) }

// Landing returns the square where jump i (0-based) lands; Landing(Jumps()-1)
// is To(). It returns 0 when i is out of range.
func (m Move) Landing(i int) int {
	if i < 0 || i >= int(m.jumps) {
		return 0
	}
	return int(m.path[i])
}

// Captured returns the squares of the pieces the move captures.
func (m Move) Captured() Bitboard { return m.captured }

// IsKingMove reports whether the moving piece is a king.
func (m Move) IsKingMove() bool { return m.flags&flagKing != 0 }

// Crowns reports whether the move crowns a man.
func (m Move) Crowns() bool { return m.flags&flagCrown != 0 }

// IsZero reports whether m is the zero Move, which is not a move.
func (m Move) IsZero() bool { return m.from == 0 }

// String returns the move in numeric notation: "11-15" for a simple move and
// every landing square for a capture, "1x10x19". The zero Move formats as
// "(none)".
func (m Move) String() string {
	var buf [3 * (MaxPieces + 1)]byte
	return string(m.appendText(buf[:0]))
}

// AppendText appends the notation of m (as String returns it) to b.
func (m Move) AppendText(b []byte) ([]byte, error) {
	return m.appendText(b), nil
}

func (m Move) appendText(b []byte) []byte {
	if m.IsZero() {
		return append(b, "(none)"...)
	}
	b = strconv.AppendUint(b, uint64(m.from), 10)
	if m.jumps == 0 {
		b = append(b, '-')
		return strconv.AppendUint(b, uint64(m.to), 10)
	}
	for _, sq := range m.path[:m.jumps] {
		b = append(b, 'x')
		b = strconv.AppendUint(b, uint64(sq), 10)
	}
	return b
}
