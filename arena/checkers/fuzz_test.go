package checkers

import (
	"errors"
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func FuzzParseMove(f *testing.F) {
	seeds := []struct{ fen, text string }{
		{startFEN, "11-15"},
		{startFEN, "9-14"},
		{startFEN, "11x15"},
		{"B:W6,15:B1", "1x19"},
		{"B:W6,15:B1", "1x10x19"},
		{"B:W6,7,14,15:B2", "2x18"},
		{"B:W14,15,22,23:BK10", "10x10"},
		{"B:W14,15,22,23:BK10", "10x17x26x19x10"},
		{"W:WK15:B18", "15X22"},
		{"B:W26,27:B22", "22x31x24"},
		{startFEN, " 9-13 "},
		{startFEN, "1x2x3x4x5x6x7x8x9x10x11x12x13"},
		{startFEN, "99-1"},
	}
	for _, s := range seeds {
		f.Add(s.fen, s.text)
	}
	f.Fuzz(func(t *testing.T, fen, text string) {
		p, err := ParsePosition(fen)
		if err != nil {
			return
		}
		m, err := p.ParseMove(text)
		if err != nil {
			if !errors.Is(err, game.ErrBadNotation) && !errors.Is(err, game.ErrIllegalMove) {
				t.Fatalf("ParseMove(%q) error %v wraps neither ErrBadNotation nor ErrIllegalMove", text, err)
			}
			return
		}
		if !slices.Contains(p.GenerateMoves(nil), m) {
			t.Fatalf("%s: ParseMove(%q) = %v, not a generated move", p, text, m)
		}
		back, err := p.ParseMove(m.String())
		if err != nil || back != m {
			t.Fatalf("%s: ParseMove(%q) = %v, %v; want %v", p, m.String(), back, err, m)
		}
	})
}

func FuzzParseState(f *testing.F) {
	for _, s := range []string{
		startFEN,
		"B:W21-32:B1-12",
		"B:B1-12:W21-32.",
		"W:WK5,21:B1",
		"W:W:B5",
		"W:W18,K19,22:B5,K10,K26",
		"B:WK1-4:BK29-32",
		" b : w 21 , K22 : b 1 - 3 ",
		"B:W21,21:B1",
		"B:W1-13:B30",
	} {
		f.Add(s)
	}
	r, err := New("", nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := r.ParseState(text)
		if err != nil {
			if !errors.Is(err, game.ErrBadPosition) {
				t.Fatalf("ParseState(%q) error %v does not wrap ErrBadPosition", text, err)
			}
			return
		}
		p := s.(*State).Position()
		out := s.Text()
		q, err := ParsePosition(out)
		if err != nil {
			t.Fatalf("ParsePosition(%q) of Text() of %q: %v", out, text, err)
		}
		if q != p || q.String() != out {
			t.Fatalf("%q: Text() %q parses to %s", text, out, q)
		}
		for _, c := range []game.Color{game.White, game.Black} {
			if n := p.Pieces(c).Count(); n > MaxPieces {
				t.Fatalf("%q: %v has %d pieces", text, c, n)
			}
		}
		if p.Hash() != p.computeHash() {
			t.Fatalf("%q: hash %x, want %x", text, p.Hash(), p.computeHash())
		}
		if n := p.CountMoves(); n != len(p.GenerateMoves(nil)) {
			t.Fatalf("%q: CountMoves %d != GenerateMoves %d", text, n, len(p.GenerateMoves(nil)))
		}
	})
}
