package checkers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arena-games/arena/arena/game"
)

// moveText is a move as written: its squares in order and its separator.
type moveText struct {
	squares [MaxPieces + 1]uint8
	n       int
	capture bool // written with 'x'
}

// parseMoveText checks the syntax of a move: two square numbers joined by
// '-', or two or more joined by 'x'. Errors wrap game.ErrBadNotation.
func parseMoveText(text string) (moveText, error) {
	var mt moveText
	s := strings.TrimSpace(text)
	if s == "" {
		return mt, fmt.Errorf("%w: empty move (want e.g. 11-15 or 15x24)", game.ErrBadNotation)
	}
	var sep byte
	for i := 0; ; {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return mt, fmt.Errorf("%w: %q: want a square number at offset %d (e.g. 11-15 or 15x24)", game.ErrBadNotation, text, i)
		}
		sq, err := parseSquare(s[i:j])
		if err != nil {
			return mt, fmt.Errorf("%w: %q: %w", game.ErrBadNotation, text, err)
		}
		if mt.n == len(mt.squares) {
			return mt, fmt.Errorf("%w: %q: more than %d jumps", game.ErrBadNotation, text, MaxPieces)
		}
		mt.squares[mt.n] = uint8(sq)
		mt.n++
		if j == len(s) {
			break
		}
		c := s[j]
		if c == 'X' {
			c = 'x'
		}
		switch {
		case c != '-' && c != 'x':
			return mt, fmt.Errorf("%w: %q: unexpected %q (squares are joined by '-' or 'x')", game.ErrBadNotation, text, s[j])
		case sep != 0 && c != sep:
			return mt, fmt.Errorf("%w: %q: mixes '-' and 'x'", game.ErrBadNotation, text)
		}
		sep, i = c, j+1
	}
	switch {
	case mt.n < 2:
		return mt, fmt.Errorf("%w: %q: want a from and a to square (e.g. 11-15 or 15x24)", game.ErrBadNotation, text)
	case sep == '-' && mt.n > 2:
		return mt, fmt.Errorf("%w: %q: a simple move names two squares; a capture is written with x", game.ErrBadNotation, text)
	}
	mt.capture = sep == 'x'
	return mt, nil
}

// matches reports whether m is the move written in full as mt.
func (mt *moveText) matches(m *Move) bool {
	if m.from != mt.squares[0] || mt.capture != m.IsCapture() {
		return false
	}
	if !mt.capture {
		return m.to == mt.squares[1]
	}
	return int(m.jumps) == mt.n-1 && slices.Equal(m.path[:m.jumps], mt.squares[1:mt.n])
}

// continues reports whether mt is a strict prefix of capture m.
func (mt *moveText) continues(m *Move) bool {
	return mt.capture && m.from == mt.squares[0] && int(m.jumps) > mt.n-1 &&
		slices.Equal(m.path[:mt.n-1], mt.squares[1:mt.n])
}

// ParseMove decodes a move in numeric notation against p: "11-15" for a
// simple move, "1x10x19" for a capture with every landing square. The short
// form "1x19" is accepted for a multi-jump when exactly one legal capture
// path joins the two squares (a single jump written so is always exact).
// Syntax errors wrap game.ErrBadNotation, as does an ambiguous short form
// (the error names the candidates); a well-formed move that is not legal
// here wraps game.ErrIllegalMove with the reason.
func (p Position) ParseMove(text string) (Move, error) {
	mt, err := parseMoveText(text)
	if err != nil {
		return Move{}, err
	}
	var buf [64]Move
	moves := p.GenerateMoves(buf[:0])
	for i := range moves {
		if mt.matches(&moves[i]) {
			return moves[i], nil
		}
	}
	if m, ok, err := shortCapture(text, &mt, moves); ok || err != nil {
		return m, err
	}
	return Move{}, p.explain(text, &mt, moves)
}

// explain builds the error for a move text that names no legal move.
func (p Position) explain(text string, mt *moveText, moves []Move) error {
	from := int(mt.squares[0])
	if len(moves) == 0 {
		return fmt.Errorf("%w: %q: %v has no legal move", game.ErrIllegalMove, text, p.turn)
	}
	if c, _, ok := p.At(from); !ok || c != p.turn {
		return fmt.Errorf("%w: %q: no %v piece on %d", game.ErrIllegalMove, text, p.turn, from)
	}
	captures := moves[0].IsCapture()
	var fromHere []Move
	for _, m := range moves {
		if int(m.from) == from {
			fromHere = append(fromHere, m)
		}
	}
	switch {
	case !mt.capture && captures:
		return fmt.Errorf("%w: %q: capture is compulsory: %s", game.ErrIllegalMove, text, available(moves))
	case mt.capture && !captures:
		return fmt.Errorf("%w: %q: there is no capture to make", game.ErrIllegalMove, text)
	case !mt.capture && len(fromHere) == 0:
		return fmt.Errorf("%w: %q: the piece on %d cannot move", game.ErrIllegalMove, text, from)
	case !mt.capture:
		return fmt.Errorf("%w: %q: not a legal move (from %d: %s)", game.ErrIllegalMove, text, from, list(fromHere))
	case len(fromHere) == 0:
		return fmt.Errorf("%w: %q: the piece on %d cannot capture; capture is compulsory: %s",
			game.ErrIllegalMove, text, from, available(moves))
	}
	for i := range fromHere {
		if mt.continues(&fromHere[i]) {
			return fmt.Errorf("%w: %q: the capture must be completed (from %d: %s)", game.ErrIllegalMove, text, from, list(fromHere))
		}
	}
	return fmt.Errorf("%w: %q: not a legal capture path (from %d: %s)", game.ErrIllegalMove, text, from, list(fromHere))
}

// shortCapture resolves "AxB" to the unique capture path from A to B.
func shortCapture(text string, mt *moveText, moves []Move) (Move, bool, error) {
	if !mt.capture || mt.n != 2 {
		return Move{}, false, nil
	}
	var found []Move
	for _, m := range moves {
		if m.from == mt.squares[0] && m.to == mt.squares[1] {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return Move{}, false, nil
	case 1:
		return found[0], true, nil
	}
	return Move{}, false, fmt.Errorf("%w: %q is ambiguous: %s", game.ErrBadNotation, text, list(found))
}

// available describes the legal captures for an error message.
func available(moves []Move) string {
	if len(moves) == 1 {
		return moves[0].String() + " is available"
	}
	return list(moves) + " are available"
}

// list joins moves in sorted order, at most eight of them.
func list(moves []Move) string {
	moves = slices.Clone(moves)
	slices.SortFunc(moves, compareMoves)
	const limit = 8
	var b strings.Builder
	for i, m := range moves {
		if i == limit {
			fmt.Fprintf(&b, " and %d more", len(moves)-limit)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(m.String())
	}
	return b.String()
}

// compareMoves orders moves by their squares as written: from, then each
// landing square (or the to square of a simple move).
func compareMoves(a, b Move) int {
	if a.from != b.from {
		return int(a.from) - int(b.from)
	}
	if a.jumps == 0 || b.jumps == 0 {
		return int(a.to) - int(b.to)
	}
	return slices.Compare(a.path[:a.jumps], b.path[:b.jumps])
}
