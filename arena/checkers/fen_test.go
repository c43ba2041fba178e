package checkers

import (
	"errors"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

const startFEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

func TestStartPosition(t *testing.T) {
	p := StartPosition()
	if got := p.String(); got != startFEN {
		t.Errorf("StartPosition() = %s, want %s", got, startFEN)
	}
	for _, c := range []game.Color{game.Black, game.White} {
		if men, kings := p.Material(c); men != 12 || kings != 0 {
			t.Errorf("Material(%v) = %d, %d; want 12, 0", c, men, kings)
		}
	}
	if p.Turn() != game.Black {
		t.Errorf("Turn() = %v, want black", p.Turn())
	}
	if got := p.Empty(); got != SquareBit(13)|SquareBit(14)|SquareBit(15)|SquareBit(16)|
		SquareBit(17)|SquareBit(18)|SquareBit(19)|SquareBit(20) {
		t.Errorf("Empty() = %#x, want squares 13-20", uint32(got))
	}
}

func TestParsePosition(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{startFEN, startFEN},
		{"B:W21-32:B1-12", startFEN},
		{"B:B1-12:W21-32.", startFEN},
		{" B : W21-24, 25-32 : B 1-12 . ", startFEN},
		{"b:w21-32:b1-12", startFEN},
		{"W:WK5,21:B1", "W:WK5,21:B1"},
		{"W:W21,K5:BK1-3,4", "W:WK5,21:BK1,K2,K3,4"},
		{"W:W:B5", "W:W:B5"},
		{"B:W32:B", "B:W32:B"},
		{"W:W18,K19,22:B5,K10,K26", "W:W18,K19,22:B5,K10,K26"},
		{"W:WK1,K2,K3,K4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,K29", "W:WK1,K2,K3,K4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,K29"},
	}
	for _, tt := range tests {
		p, err := ParsePosition(tt.in)
		if err != nil {
			t.Errorf("ParsePosition(%q): %v", tt.in, err)
			continue
		}
		if got := p.String(); got != tt.want {
			t.Errorf("ParsePosition(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if got, want := p.Hash(), p.computeHash(); got != want {
			t.Errorf("ParsePosition(%q).Hash() = %x, want %x", tt.in, got, want)
		}
	}
	p := mustPosition(t, "W:W18,K19,22:B5,K10,K26")
	for _, tt := range []struct {
		sq       int
		c        game.Color
		king, ok bool
	}{{18, game.White, false, true}, {19, game.White, true, true}, {10, game.Black, true, true},
		{5, game.Black, false, true}, {1, 0, false, false}, {0, 0, false, false}, {40, 0, false, false}} {
		c, king, ok := p.At(tt.sq)
		if c != tt.c || king != tt.king || ok != tt.ok {
			t.Errorf("At(%d) = %v, %v, %v; want %v, %v, %v", tt.sq, c, king, ok, tt.c, tt.king, tt.ok)
		}
	}
	if men, kings := p.Material(game.White); men != 2 || kings != 1 {
		t.Errorf("Material(white) = %d, %d; want 2, 1", men, kings)
	}
	if got, want := p.Kings(game.Black), SquareBit(10)|SquareBit(26); got != want {
		t.Errorf("Kings(black) = %#x, want %#x", uint32(got), uint32(want))
	}
	if got, want := p.Men(game.Black), SquareBit(5); got != want {
		t.Errorf("Men(black) = %#x, want %#x", uint32(got), uint32(want))
	}
	if got, want := p.Pieces(game.White), SquareBit(18)|SquareBit(19)|SquareBit(22); got != want {
		t.Errorf("Pieces(white) = %#x, want %#x", uint32(got), uint32(want))
	}
}

func TestParsePositionRejects(t *testing.T) {
	tests := []struct {
		in      string
		mention string
	}{
		{"", "three fields"},
		{"B", "three fields"},
		{"B:W21:B1:W2", "three fields"},
		{"X:W21:B1", "side to move"},
		{"B:W21:W22", "two white"},
		{"B:W21:X1", "W or B"},
		{"B:W21:", "empty piece field"},
		{"B:W21,21:B1", "listed twice"},
		{"B:W21,K21:B1", "listed twice"},
		{"B:W21:B21", "both"},
		{"B:W33:B1", "not in 1-32"},
		{"B:W0:B1", "not in 1-32"},
		{"B:Wx:B1", "not a square"},
		{"B:W21,:B1", "not a square"},
		{"B:W5-1:B10", "backwards"},
		{"B:W1-13:B30", "13 pieces"},
		{"B:W21:B29", "black man on 29"},
		{"B:W4:B1", "white man on 4"},
		{"B:W21:B1..", "not a square"},
		{"B:W21:B100", "not a square"},
	}
	for _, tt := range tests {
		p, err := ParsePosition(tt.in)
		if err == nil {
			t.Errorf("ParsePosition(%q) = %s, want an error", tt.in, p)
			continue
		}
		if !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("ParsePosition(%q) error %q does not wrap ErrBadPosition", tt.in, err)
		}
		if !strings.Contains(err.Error(), tt.mention) {
			t.Errorf("ParsePosition(%q) error %q does not mention %q", tt.in, err, tt.mention)
		}
	}
}

func TestNewPositionRejects(t *testing.T) {
	tests := []struct {
		name                string
		black, white, kings Bitboard
		turn                game.Color
	}{
		{"bad turn", 1, 0, 0, 7},
		{"overlap", 1, 1, 0, game.Black},
		{"king on empty square", 1, 0, 2, game.Black},
		{"too many black", 0x1FFF, 0, 0, game.Black},
	}
	for _, tt := range tests {
		if _, err := NewPosition(tt.black, tt.white, tt.kings, tt.turn); !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("%s: NewPosition error = %v, want ErrBadPosition", tt.name, err)
		}
	}
}
