package checkers

import (
	"errors"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func mustPosition(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParsePosition(fen)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", fen, err)
	}
	return p
}

func TestParseMoveAccepts(t *testing.T) {
	tests := []struct {
		fen, text, want string
	}{
		{"B:W21-32:B1-12", "11-15", "11-15"},
		{"B:W21-32:B1-12", " 11-15 ", "11-15"},
		{"B:W21-32:B1-12", "09-13", "9-13"},
		{"B:W14:B9", "9x18", "9x18"},
		{"B:W14:B9", "9X18", "9x18"},
		{"B:W6,15:B1", "1x10x19", "1x10x19"},
		// The short form for a unique multi-jump.
		{"B:W6,15:B1", "1x19", "1x10x19"},
		{"B:W6,15,14,22:B1", "1x10x19", "1x10x19"},
		// 10x17 lands on 17 in one jump: the full path, not the short form
		// of 10x19x26x17x10... which ends on 10.
		{"B:W14,15,22,23:BK10", "10x17x26x19x10", "10x17x26x19x10"},
		{"W:WK15:B18", "15x22", "15x22"},
	}
	for _, tt := range tests {
		p := mustPosition(t, tt.fen)
		m, err := p.ParseMove(tt.text)
		if err != nil {
			t.Errorf("%s: ParseMove(%q): %v", tt.fen, tt.text, err)
			continue
		}
		if got := m.String(); got != tt.want {
			t.Errorf("%s: ParseMove(%q) = %s, want %s", tt.fen, tt.text, got, tt.want)
		}
	}
}

func TestParseMoveRejects(t *testing.T) {
	tests := []struct {
		fen, text string
		sentinel  error
		mention   []string // substrings the message must hold
	}{
		{"B:W21-32:B1-12", "", game.ErrBadNotation, []string{"empty"}},
		{"B:W21-32:B1-12", "11", game.ErrBadNotation, []string{"from and a to"}},
		{"B:W21-32:B1-12", "11-", game.ErrBadNotation, []string{"square number"}},
		{"B:W21-32:B1-12", "-15", game.ErrBadNotation, []string{"square number"}},
		{"B:W21-32:B1-12", "11--15", game.ErrBadNotation, []string{"square number"}},
		{"B:W21-32:B1-12", "11-33", game.ErrBadNotation, []string{"33", "1-32"}},
		{"B:W21-32:B1-12", "0-4", game.ErrBadNotation, []string{"square 0"}},
		{"B:W21-32:B1-12", "111-15", game.ErrBadNotation, []string{"111"}},
		{"B:W21-32:B1-12", "11/15", game.ErrBadNotation, []string{"unexpected"}},
		{"B:W21-32:B1-12", "11-15-18", game.ErrBadNotation, []string{"two squares"}},
		{"B:W21-32:B1-12", "1x10-19", game.ErrBadNotation, []string{"mixes"}},
		{"B:W21-32:B1-12", "a1-b2", game.ErrBadNotation, nil},
		{"B:W21-32:B1-12", "1x2x3x4x5x6x7x8x9x10x11x12x13x14", game.ErrBadNotation, []string{"more than 12"}},
		{"B:W21-32:B1-12", "11-17", game.ErrIllegalMove, []string{"not a legal move (from 11: 11-15, 11-16)"}},
		{"B:W21-32:B1-12", "15-19", game.ErrIllegalMove, []string{"no black piece on 15"}},
		{"B:W21-32:B1-12", "21-17", game.ErrIllegalMove, []string{"no black piece on 21"}},
		{"B:W21-32:B1-12", "1-5", game.ErrIllegalMove, []string{"cannot move"}},
		{"B:W21-32:B1-12", "9x18", game.ErrIllegalMove, []string{"no capture"}},
		{"B:W14:B1,9", "1-6", game.ErrIllegalMove, []string{"capture is compulsory: 9x18 is available"}},
		{"B:W14,15:B1,9,10", "1-6", game.ErrIllegalMove, []string{"capture is compulsory: 9x18, 10x17, 10x19 are available"}},
		{"B:W14:B1,9", "1x10", game.ErrIllegalMove, []string{"cannot capture", "9x18"}},
		{"B:W6,15:B1", "1x10", game.ErrIllegalMove, []string{"must be completed", "1x10x19"}},
		{"B:W6,15:B1", "1x10x17", game.ErrIllegalMove, []string{"not a legal capture path", "1x10x19"}},
		{"B:W6,15:B1", "1x28", game.ErrIllegalMove, []string{"not a legal capture path"}},
		// Short forms joining two paths are ambiguous.
		{"B:W6,7,14,15:B2", "2x18", game.ErrBadNotation, []string{"ambiguous", "2x9x18, 2x11x18"}},
		{"B:W14,15,22,23:BK10", "10x10", game.ErrBadNotation, []string{"ambiguous", "10x17x26x19x10, 10x19x26x17x10"}},
		{"B:W21:B", "1-5", game.ErrIllegalMove, []string{"black has no legal move"}},
	}
	for _, tt := range tests {
		p := mustPosition(t, tt.fen)
		m, err := p.ParseMove(tt.text)
		if err == nil {
			t.Errorf("%s: ParseMove(%q) = %v, want an error", tt.fen, tt.text, m)
			continue
		}
		if !errors.Is(err, tt.sentinel) {
			t.Errorf("%s: ParseMove(%q) error %q does not wrap %q", tt.fen, tt.text, err, tt.sentinel)
		}
		for _, s := range tt.mention {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: ParseMove(%q) error %q does not mention %q", tt.fen, tt.text, err, s)
			}
		}
	}
}

func TestMoveAccessors(t *testing.T) {
	p := mustPosition(t, "B:W6,15:B1")
	m, err := p.ParseMove("1x19")
	if err != nil {
		t.Fatal(err)
	}
	if m.From() != 1 || m.To() != 19 || m.Jumps() != 2 || m.Landing(0) != 10 || m.Landing(1) != 19 ||
		m.Landing(2) != 0 || m.Landing(-1) != 0 {
		t.Errorf("1x10x19: From %d To %d Jumps %d Landing %d,%d,%d", m.From(), m.To(), m.Jumps(), m.Landing(0), m.Landing(1), m.Landing(2))
	}
	if got, want := m.Captured(), SquareBit(6)|SquareBit(15); got != want {
		t.Errorf("Captured() = %v, want %v", got, want)
	}
	if m.IsZero() || !m.IsCapture() || m.IsKingMove() || m.Crowns() {
		t.Errorf("1x10x19: IsZero %v IsCapture %v IsKingMove %v Crowns %v", m.IsZero(), m.IsCapture(), m.IsKingMove(), m.Crowns())
	}
	b, err := m.AppendText([]byte("move "))
	if err != nil || string(b) != "move 1x10x19" {
		t.Errorf("AppendText = %q, %v; want \"move 1x10x19\"", b, err)
	}
	var zero Move
	if !zero.IsZero() || zero.String() != "(none)" {
		t.Errorf("zero Move: IsZero %v String %q", zero.IsZero(), zero.String())
	}
	before := p
	p.Play(zero)
	if p != before {
		t.Errorf("Play(zero Move) changed the position: %s", p)
	}
}
