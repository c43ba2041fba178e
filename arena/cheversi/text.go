package cheversi

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/game"
)

// ParseMove decodes drop notation, "<piece>@<square>" with an upper-case
// piece letter (K, Q, R, B, N) and a lower-case square (a1..h8), for
// example "N@c3". It checks the notation only, not legality in a position;
// use Position.ParseMove or State.ParseMove for that. Errors wrap
// game.ErrBadNotation.
func ParseMove(text string) (Move, error) {
	if len(text) != 4 || text[1] != '@' {
		return 0, fmt.Errorf("%w: %q is not <piece>@<square>, e.g. K@e4", game.ErrBadNotation, text)
	}
	i := strings.IndexByte(pieceLetters, text[0])
	if i < 0 {
		if j := strings.IndexByte(strings.ToLower(pieceLetters), text[0]); j >= 0 {
			return 0, fmt.Errorf("%w: %q: piece letters are upper case (%c)", game.ErrBadNotation, text, pieceLetters[j])
		}
		return 0, fmt.Errorf("%w: %q: unknown piece %q (want one of K, Q, R, B, N)", game.ErrBadNotation, text, text[0:1])
	}
	sq, ok := parseSquare(text[2:])
	if !ok {
		return 0, fmt.Errorf("%w: %q: bad square %q (want a1..h8, lower case)", game.ErrBadNotation, text, text[2:])
	}
	return NewMove(Piece(i), sq), nil
}

// Text returns the position text described in the package documentation,
// for example "8/8/8/8/4K3/8/8/8 b 1 e4".
func (p *Position) Text() string {
	var sb strings.Builder
	sb.Grow(64 + 12)
	for r := 7; r >= 0; r-- {
		run := 0
		for f := range 8 {
			pc, c, ok := p.PieceAt(Square(r*8 + f))
			if !ok {
				run++
				continue
			}
			if run > 0 {
				sb.WriteByte(byte('0' + run))
				run = 0
			}
			l := pieceLetters[pc]
			if c == game.Black {
				l += 'a' - 'A'
			}
			sb.WriteByte(l)
		}
		if run > 0 {
			sb.WriteByte(byte('0' + run))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteString([]string{" w ", " b "}[p.ply&1])
	sb.WriteString(strconv.Itoa(int(p.ply)))
	sb.WriteByte(' ')
	if sq, ok := p.Last(); ok {
		sb.WriteString(sq.String())
	} else {
		sb.WriteByte('-')
	}
	return sb.String()
}

// ParsePosition decodes a position text (see the package documentation)
// under r's rule set. It accepts exactly the canonical form Text writes and
// checks that the position is consistent: piece counts within each side's
// set, ply equal to the number of pieces, side to move matching the ply, the
// last square holding a piece of the side that just moved, and the rules
// that show in the placed pieces (the opening, bishop colours, Black's King
// only as the 16th piece). Errors wrap game.ErrBadPosition.
func (r *Rules) ParsePosition(text string) (Position, error) {
	p := r.StartPosition()
	fields := strings.Split(text, " ")
	if len(fields) != 4 {
		return Position{}, badPosition("want 4 fields separated by single spaces (board, side, ply, last square), got %d", len(fields))
	}
	placed, err := p.parseBoard(fields[0])
	if err != nil {
		return Position{}, err
	}
	turn, ply, err := parseTurnPly(fields[1], fields[2], placed)
	if err != nil {
		return Position{}, err
	}
	// Each side places on its own turns, so White has ceil(ply/2) pieces.
	if nw := bits.OnesCount64(p.occ[game.White]); nw != (ply+1)/2 {
		return Position{}, badPosition("white has %s at ply %d, want %d", pieces(nw), ply, (ply+1)/2)
	}
	p.ply = uint8(ply)
	if err := p.parseLast(fields[3], turn.Other()); err != nil {
		return Position{}, err
	}
	if err := p.checkRules(); err != nil {
		return Position{}, fmt.Errorf("%w: %w", game.ErrBadPosition, err)
	}
	return p, nil
}

// badPosition returns a game.ErrBadPosition saying what is wrong.
func badPosition(format string, args ...any) error {
	return fmt.Errorf("%w: %s", game.ErrBadPosition, fmt.Sprintf(format, args...))
}

// parseBoard places the pieces of a position text's board field on p and
// returns how many it placed.
func (p *Position) parseBoard(field string) (placed int, err error) {
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return 0, badPosition("board has %d ranks, want 8 separated by /", len(ranks))
	}
	for i, row := range ranks {
		n, err := p.parseRank(7-i, row)
		if err != nil {
			return 0, err
		}
		placed += n
	}
	return placed, nil
}

// parseRank places the pieces of rank r (0 for the first) described by row
// on p and returns how many it placed.
func (p *Position) parseRank(r int, row string) (placed int, err error) {
	f := 0
	prevDigit := false
	for j := 0; j < len(row); j++ {
		ch := row[j]
		if ch >= '1' && ch <= '8' {
			if prevDigit {
				return 0, badPosition("rank %d: empty run split into adjacent digits", r+1)
			}
			prevDigit = true
			f += int(ch - '0')
			if f > 8 {
				return 0, badPosition("rank %d describes more than 8 squares", r+1)
			}
			continue
		}
		prevDigit = false
		c := game.White
		k := strings.IndexByte(pieceLetters, ch)
		if k < 0 {
			c = game.Black
			k = strings.IndexByte("kqrbn", ch)
		}
		if k < 0 {
			return 0, badPosition("rank %d: unexpected character %q (want KQRBN, kqrbn or 1-8)", r+1, ch)
		}
		if f >= 8 {
			return 0, badPosition("rank %d describes more than 8 squares", r+1)
		}
		pc := Piece(k)
		if p.Unplaced(c, pc) == 0 {
			return 0, badPosition("%s has more than %d %s", c, pieceCount[pc], pluralName(pc))
		}
		p.place(uint8(c), pc, Square(r*8+f))
		placed++
		f++
	}
	if f != 8 {
		return 0, badPosition("rank %d describes %d squares, want 8", r+1, f)
	}
	return placed, nil
}

// parseTurnPly reads the side-to-move and ply fields of a position text
// whose board holds placed pieces.
func parseTurnPly(side, plyField string, placed int) (turn game.Color, ply int, err error) {
	switch side {
	case "w":
		turn = game.White
	case "b":
		turn = game.Black
	default:
		return 0, 0, badPosition("side to move %q, want w or b", side)
	}
	ply, err = strconv.Atoi(plyField)
	if err != nil || strconv.Itoa(ply) != plyField || ply < 0 || ply > MaxPlies {
		return 0, 0, badPosition("ply %q, want a number from 0 to %d", plyField, MaxPlies)
	}
	if ply != placed {
		return 0, 0, badPosition("ply %d but %s on the board", ply, pieces(placed))
	}
	if game.Color(ply&1) != turn {
		return 0, 0, badPosition("side to move %s does not match ply %d", turn, ply)
	}
	return turn, ply, nil
}

// parseLast reads the last-square field of a position text into p, whose
// ply is set; mover is the side that placed the last piece.
func (p *Position) parseLast(field string, mover game.Color) error {
	if field == "-" {
		if p.ply != 0 {
			return badPosition("no last square at ply %d", p.ply)
		}
		p.last = 0
		return nil
	}
	sq, ok := parseSquare(field)
	if !ok {
		return badPosition("last square %q, want a1..h8 or -", field)
	}
	if p.ply == 0 {
		return badPosition("last square %v at ply 0, want -", sq)
	}
	if p.occ[mover]&(1<<sq) == 0 {
		return badPosition("last square %v does not hold a %s piece", sq, mover)
	}
	p.last = uint8(sq) + 1
	return nil
}

// checkRules rejects placements the rule set cannot produce and that show
// in the pieces alone.
func (p *Position) checkRules() error {
	o := &p.opts
	if o.Opening != OpeningFree && p.ply >= 1 && p.pieces[game.White][King] == 0 {
		return fmt.Errorf("white's king is not placed (opening %v)", o.Opening)
	}
	if o.Opening == OpeningKingQueen && p.ply >= 2 && p.pieces[game.Black][Queen] == 0 {
		return fmt.Errorf("black's queen is not placed (opening %v)", o.Opening)
	}
	if o.BlackKingLast && p.pieces[game.Black][King] != 0 &&
		(p.ply < MaxPlies || p.pieces[game.Black][King] != 1<<p.lastSquare()) {
		return fmt.Errorf("black's king is placed before black's last move (black_king_last)")
	}
	if o.BishopsOpposite {
		for c := range game.Color(2) {
			if b := p.pieces[c][Bishop]; bits.OnesCount64(b&darkSquares) == 2 || bits.OnesCount64(b&^darkSquares) == 2 {
				return fmt.Errorf("%s's bishops are on squares of the same colour (bishops_opposite)", c)
			}
		}
	}
	return nil
}

func pluralName(pc Piece) string {
	if pieceCount[pc] == 1 {
		return pc.name()
	}
	return pc.name() + "s"
}

// pieces counts pieces in words: "1 piece", "3 pieces".
func pieces(n int) string {
	if n == 1 {
		return "1 piece"
	}
	return strconv.Itoa(n) + " pieces"
}
