package checkers

import (
	"math/bits"

	"github.com/arena-games/arena/arena/game"
)

// sides splits the side to move's pieces by the direction they step in
// (see split) and returns its kings, its pieces and the opponent's.
func (p Position) sides() (down, up, kings, own, opp, crown uint32) {
	us := p.turn & 1
	own, opp = p.pieces[us], p.pieces[us^1]
	down, up, crown = split(own, p.kings, us == game.Black)
	return down, up, own & p.kings, own, opp, crown
}

// split divides the pieces own of one side (Black when black is set) by the
// direction they step in: down (toward higher square numbers) and up.
// Black's men go down, White's up, and kings both ways. crown is the row
// where the side's men are crowned.
func split(own, kings uint32, black bool) (down, up, crown uint32) {
	if black {
		return own, own & kings, rowBlackCrown
	}
	return own & kings, own, rowWhiteCrown
}

// downJumpers returns the squares from which a piece stepping down can jump
// one of opp: for a step D, D(s) holds an opponent and D(D(s)) is empty. The
// squares s with D(s) in a set A are the inverse step of A.
func downJumpers(opp, empty uint32) uint32 {
	return upRight(opp&upRight(empty)) | upLeft(opp&upLeft(empty))
}

// upJumpers is downJumpers for a piece stepping up.
func upJumpers(opp, empty uint32) uint32 {
	return downRight(opp&downRight(empty)) | downLeft(opp&downLeft(empty))
}

// jumpers returns the pieces that can capture among down and up, the
// pieces that step down and up.
func jumpers(down, up, opp, empty uint32) uint32 {
	var j uint32
	if down != 0 {
		j |= down & downJumpers(opp, empty)
	}
	if up != 0 {
		j |= up & upJumpers(opp, empty)
	}
	return j
}

// manJumpers returns the squares from which a man of the side playing
// against opp (Black when black is set) could jump.
func manJumpers(opp, empty uint32, black bool) uint32 {
	if black {
		return downJumpers(opp, empty)
	}
	return upJumpers(opp, empty)
}

// HasCapture reports whether the side to move can capture. Captures are
// compulsory, so then every legal move is a capture.
func (p Position) HasCapture() bool {
	down, up, _, own, opp, _ := p.sides()
	return jumpers(down, up, opp, ^(own|opp)) != 0
}

// HasMoves reports whether the side to move has a legal move. A side
// without one has lost.
func (p Position) HasMoves() bool {
	down, up, _, own, opp, _ := p.sides()
	empty := ^(own | opp)
	if jumpers(down, up, opp, empty) != 0 {
		return true
	}
	return ((down&maskDown4)<<4|(down&maskDown3)<<3|(down&maskDown5)<<5|
		(up&maskUp4)>>4|(up&maskUp3)>>3|(up&maskUp5)>>5)&empty != 0
}

// CountMoves returns the number of legal moves, counting each capture path
// once, without building the moves. It equals len(GenerateMoves(nil)).
func (p Position) CountMoves() int {
	us := p.turn & 1
	return countMoves(p.pieces[us], p.pieces[us^1], p.kings, us == game.Black)
}

// countMoves is CountMoves for the side with pieces own (Black when black is
// set) against opp, with kings the kings of both sides.
func countMoves(own, opp, kings uint32, black bool) int {
	down, up, _ := split(own, kings, black)
	empty := ^(own | opp)
	if j := jumpers(down, up, opp, empty); j != 0 {
		n := 0
		if men := j &^ kings; men != 0 {
			if black {
				n += blackManPaths(men, opp, empty, downJumpers(opp, empty))
			} else {
				n += whiteManPaths(men, opp, empty, upJumpers(opp, empty))
			}
		}
		for j &= kings; j != 0; j &= j - 1 {
			i := uint8(bits.TrailingZeros32(j))
			c := capturer{opp: opp, occ: (own | opp) &^ (1 << i), dirs: dirsAll}
			n += c.count(i, 0)
		}
		return n
	}
	n := bits.OnesCount32((down&maskDown4)<<4&empty) +
		bits.OnesCount32((down&maskDown3)<<3&empty) +
		bits.OnesCount32((down&maskDown5)<<5&empty)
	if up != 0 {
		n += bits.OnesCount32((up&maskUp4)>>4&empty) +
			bits.OnesCount32((up&maskUp3)>>3&empty) +
			bits.OnesCount32((up&maskUp5)>>5&empty)
	}
	return n
}

// GenerateMoves appends the legal moves of the side to move to dst and
// returns the extended slice. When a capture is possible only captures are
// generated, one Move per distinct capture path. It allocates only when dst
// lacks capacity. The order is deterministic but not sorted: captures by
// starting square, simple moves grouped by the shape of the step (State.Moves
// and State.LegalMoves sort them).
func (p Position) GenerateMoves(dst []Move) []Move {
	down, up, kings, own, opp, crown := p.sides()
	empty := ^(own | opp)
	if j := jumpers(down, up, opp, empty); j != 0 {
		for ; j != 0; j &= j - 1 {
			i := uint8(bits.TrailingZeros32(j))
			c := capturer{opp: opp, occ: (own | opp) &^ (1 << i)}
			c.setPiece(i, kings, crown, p.turn)
			c.m.from = i + 1
			dst = c.generate(dst, i, 0, 0)
		}
		return dst
	}
	dst = appendSteps(dst, (down&maskDown4)<<4&empty, -4, kings, crown)
	dst = appendSteps(dst, (down&maskDown3)<<3&empty, -3, kings, crown)
	dst = appendSteps(dst, (down&maskDown5)<<5&empty, -5, kings, crown)
	if up != 0 {
		dst = appendSteps(dst, (up&maskUp4)>>4&empty, 4, kings, crown)
		dst = appendSteps(dst, (up&maskUp3)>>3&empty, 3, kings, crown)
		dst = appendSteps(dst, (up&maskUp5)>>5&empty, 5, kings, crown)
	}
	return dst
}

// appendSteps appends a simple move to each square of targets from the
// square delta bits away.
func appendSteps(dst []Move, targets uint32, delta int, kings, crown uint32) []Move {
	for ; targets != 0; targets &= targets - 1 {
		to := bits.TrailingZeros32(targets)
		from := to + delta
		m := Move{from: uint8(from + 1), to: uint8(to + 1)}
		switch {
		case kings>>from&1 != 0:
			m.flags = flagKing
		case crown>>to&1 != 0:
			m.flags = flagCrown
		}
		dst = append(dst, m)
	}
	return dst
}

// capturer walks the capture paths of one piece depth first. Jumped pieces
// stay in occ (they block) and in captured (they cannot be jumped again)
// until the move ends; the starting square is left out of occ.
type capturer struct {
	opp, occ uint32
	crown    uint32 // the crowning row for a man; 0 for a king
	dirs     uint8  // bit set of the directions the piece may jump
	m        Move   // the path being built (generate only)
}

func (c *capturer) setPiece(i uint8, kings, crown uint32, turn game.Color) {
	switch {
	case kings>>i&1 != 0:
		c.dirs = dirsAll
		c.m.flags = flagKing
	case turn == game.Black:
		c.dirs, c.crown = dirsDown, crown
	default:
		c.dirs, c.crown = dirsUp, crown
	}
}

// blackManPaths counts the capture paths of Black men standing on the
// squares of from. A man only jumps forward, so the squares it left and the
// pieces it jumped lie behind it and the original opp and empty sets hold
// for the whole move; cont is the set of squares from which a Black man
// could jump. Each landing square of a jump in one direction has one source,
// so landings are counted with a population count, and only those that can
// jump on are followed. A man reaching the far row has no forward jump left
// (cont excludes the last two rows), which ends the move there.
//
// It and whiteManPaths are kept apart, rather than one function taking the
// color, because perft's last ply runs through them: the fixed directions
// keep the recursion free of a per-call branch.
func blackManPaths(from, opp, empty, cont uint32) int {
	n := 0
	for _, l := range [2]uint32{downLeft(downLeft(from)&opp) & empty, downRight(downRight(from)&opp) & empty} {
		n += bits.OnesCount32(l &^ cont)
		for l &= cont; l != 0; l &= l - 1 {
			n += blackManPaths(l&-l, opp, empty, cont)
		}
	}
	return n
}

// whiteManPaths is blackManPaths for White men, which jump up.
func whiteManPaths(from, opp, empty, cont uint32) int {
	n := 0
	for _, l := range [2]uint32{upLeft(upLeft(from)&opp) & empty, upRight(upRight(from)&opp) & empty} {
		n += bits.OnesCount32(l &^ cont)
		for l &= cont; l != 0; l &= l - 1 {
			n += whiteManPaths(l&-l, opp, empty, cont)
		}
	}
	return n
}

// count returns the number of complete capture paths that go on from bit
// index cur after the jumps that took the pieces in captured. The caller has
// checked that the piece can jump from cur.
func (c *capturer) count(cur uint8, captured uint32) int {
	total := 0
	for ds := c.dirs; ds != 0; ds &= ds - 1 {
		d := bits.TrailingZeros8(ds)
		over := uint32(1) << stepTable[cur][d]
		land := jumpTable[cur][d]
		lb := uint32(1) << land
		if over&c.opp&^captured == 0 || lb&^c.occ == 0 {
			continue
		}
		if lb&c.crown == 0 && c.canJump(lb, captured|over) {
			total += c.count(land, captured|over)
		} else {
			total++
		}
	}
	return total
}

// canJump reports whether the piece can jump from square b when the pieces
// in captured have been taken.
func (c *capturer) canJump(b, captured uint32) bool {
	opp := c.opp &^ captured
	var t uint32
	if c.dirs&dirsDown != 0 {
		t |= downLeft(downLeft(b)&opp) | downRight(downRight(b)&opp)
	}
	if c.dirs&dirsUp != 0 {
		t |= upLeft(upLeft(b)&opp) | upRight(upRight(b)&opp)
	}
	return t&^c.occ != 0
}

// generate is count that appends each completed path to dst.
func (c *capturer) generate(dst []Move, cur uint8, captured uint32, n int) []Move {
	found := false
	for ds := c.dirs; ds != 0; ds &= ds - 1 {
		d := bits.TrailingZeros8(ds)
		over := uint32(1) << stepTable[cur][d]
		land := jumpTable[cur][d]
		lb := uint32(1) << land
		if over&c.opp&^captured == 0 || lb&^c.occ == 0 {
			continue
		}
		found = true
		c.m.path[n] = land + 1
		switch {
		case lb&c.crown != 0:
			dst = c.emit(dst, n+1, captured|over, flagCrown)
		case n+1 < MaxPieces:
			dst = c.generate(dst, land, captured|over, n+1)
		default:
			dst = c.emit(dst, n+1, captured|over, 0)
		}
		c.m.path[n] = 0
	}
	if !found && n > 0 {
		dst = c.emit(dst, n, captured, 0)
	}
	return dst
}

func (c *capturer) emit(dst []Move, n int, captured uint32, flags uint8) []Move {
	m := c.m
	m.jumps = uint8(n)
	m.to = m.path[n-1]
	m.captured = Bitboard(captured)
	m.flags |= flags
	return append(dst, m)
}
