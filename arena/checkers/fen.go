package checkers

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/game"
)

// ParsePosition decodes a position in PDN FEN, for example
// "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12".
// The first field is the side to move (B or W); the other two list each
// side's squares after its color letter, kings with a K prefix ("WK5,21").
// Ranges such as "1-12" (or "K1-4" for kings), spaces around the fields and
// squares, and a trailing "." are accepted; the color fields may come in
// either order and may be empty ("W:W:B1"). Errors wrap game.ErrBadPosition.
func ParsePosition(text string) (Position, error) {
	s := strings.TrimSpace(text)
	s = strings.TrimSpace(strings.TrimSuffix(s, "."))
	fields := strings.Split(s, ":")
	if len(fields) != 3 {
		return Position{}, fmt.Errorf("%w: %q: want three fields separated by ':' (side to move, white pieces, black pieces)",
			game.ErrBadPosition, text)
	}
	turn, ok := parseColorLetter(strings.TrimSpace(fields[0]))
	if !ok {
		return Position{}, fmt.Errorf("%w: %q: side to move %q is not B or W", game.ErrBadPosition, text, fields[0])
	}
	var pieces [2]Bitboard
	var kings Bitboard
	var seen [2]bool
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			return Position{}, fmt.Errorf("%w: %q: empty piece field (want W or B and the squares)", game.ErrBadPosition, text)
		}
		c, ok := parseColorLetter(f[:1])
		if !ok {
			return Position{}, fmt.Errorf("%w: %q: piece field %q does not start with W or B", game.ErrBadPosition, text, f)
		}
		if seen[c] {
			return Position{}, fmt.Errorf("%w: %q: two %v piece fields", game.ErrBadPosition, text, c)
		}
		seen[c] = true
		men, k, err := parseSquareList(f[1:])
		if err != nil {
			return Position{}, fmt.Errorf("%w: %q: %v pieces: %v", game.ErrBadPosition, text, c, err)
		}
		pieces[c], kings = men|k, kings|k
	}
	if !seen[game.White] || !seen[game.Black] {
		return Position{}, fmt.Errorf("%w: %q: want one W and one B piece field", game.ErrBadPosition, text)
	}
	if err := checkPosition(pieces[game.Black], pieces[game.White], kings, turn); err != nil {
		return Position{}, fmt.Errorf("%w: %q: %v", game.ErrBadPosition, text, err)
	}
	return newPosition(pieces[game.Black], pieces[game.White], kings, turn), nil
}

func parseColorLetter(s string) (game.Color, bool) {
	switch s {
	case "W", "w":
		return game.White, true
	case "B", "b":
		return game.Black, true
	}
	return 0, false
}

// parseSquareList decodes "21,K22,1-4,K5-6" into men and kings.
func parseSquareList(s string) (men, kings Bitboard, err error) {
	if strings.TrimSpace(s) == "" {
		return 0, 0, nil
	}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		king := false
		if rest, ok := strings.CutPrefix(item, "K"); ok {
			king, item = true, strings.TrimSpace(rest)
		}
		lo, hi, isRange := strings.Cut(item, "-")
		a, err := parseSquare(lo)
		if err != nil {
			return 0, 0, err
		}
		b := a
		if isRange {
			if b, err = parseSquare(hi); err != nil {
				return 0, 0, err
			}
			if b < a {
				return 0, 0, fmt.Errorf("range %q runs backwards", item)
			}
		}
		for sq := a; sq <= b; sq++ {
			bit := SquareBit(sq)
			if (men|kings)&bit != 0 {
				return 0, 0, fmt.Errorf("square %d listed twice", sq)
			}
			if king {
				kings |= bit
			} else {
				men |= bit
			}
		}
	}
	return men, kings, nil
}

// parseSquare decodes a square number 1..32 written in at most two digits.
func parseSquare(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 2 || strings.Trim(s, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not a square number", s)
	}
	n, _ := strconv.Atoi(s) // cannot fail: one or two digits
	if n < 1 || n > NumSquares {
		return 0, fmt.Errorf("square %d is not in 1-32", n)
	}
	return n, nil
}

// String returns the position in canonical PDN FEN: the side to move, then
// White's and Black's squares in increasing order, kings prefixed with K,
// for example "W:W17,22,K30:B1,2,K13". ParsePosition accepts it back.
func (p Position) String() string {
	b := make([]byte, 0, 8+3*(bits.OnesCount32(p.pieces[0]|p.pieces[1])+2))
	b = append(b, colorLetter(p.turn), ':')
	for i, c := range [2]game.Color{game.White, game.Black} {
		if i > 0 {
			b = append(b, ':')
		}
		b = append(b, colorLetter(c))
		first := true
		for sq := range p.Pieces(c).All() {
			if !first {
				b = append(b, ',')
			}
			first = false
			if p.kings&uint32(SquareBit(sq)) != 0 {
				b = append(b, 'K')
			}
			b = strconv.AppendInt(b, int64(sq), 10)
		}
	}
	return string(b)
}

func colorLetter(c game.Color) byte {
	if c == game.White {
		return 'W'
	}
	return 'B'
}
