package checkers

import (
	"slices"
	"testing"
)

func TestSquareNumbering(t *testing.T) {
	// The rules text fixes these squares.
	tests := []struct {
		sq       int
		row, col int
	}{
		{1, 0, 1}, {4, 0, 7}, {5, 1, 0}, {8, 1, 6}, {29, 7, 0}, {32, 7, 6},
	}
	for _, tt := range tests {
		r, c := coords(tt.sq)
		if r != tt.row || c != tt.col {
			t.Errorf("coords(%d) = (%d, %d), want (%d, %d)", tt.sq, r, c, tt.row, tt.col)
		}
		if got := squareAt(tt.row, tt.col); got != tt.sq {
			t.Errorf("squareAt(%d, %d) = %d, want %d", tt.row, tt.col, got, tt.sq)
		}
	}
}

// TestStepFunctions checks the shift-and-mask steps against row/column
// arithmetic for every square.
func TestStepFunctions(t *testing.T) {
	steps := []struct {
		name   string
		f      func(uint32) uint32
		dr, dc int
	}{
		{"upLeft", upLeft, -1, -1},
		{"upRight", upRight, -1, 1},
		{"downLeft", downLeft, 1, -1},
		{"downRight", downRight, 1, 1},
	}
	for d, s := range steps {
		for sq := 1; sq <= 32; sq++ {
			r, c := coords(sq)
			want := uint32(SquareBit(squareAt(r+s.dr, c+s.dc)))
			if got := s.f(uint32(SquareBit(sq))); got != want {
				t.Errorf("%s(%d) = %#x, want %#x", s.name, sq, got, want)
			}
			wantStep, wantJump := squareAt(r+s.dr, c+s.dc), squareAt(r+2*s.dr, c+2*s.dc)
			if wantJump == 0 || wantStep == 0 {
				wantJump = 0
			}
			if got := int(stepTable[sq-1][d]) + 1; got != wantStep && !(wantStep == 0 && got == offBoard+1) {
				t.Errorf("stepTable[%d][%s] = square %d, want %d", sq, s.name, got, wantStep)
			}
			if got := int(jumpTable[sq-1][d]) + 1; got != wantJump && !(wantJump == 0 && got == offBoard+1) {
				t.Errorf("jumpTable[%d][%s] = square %d, want %d", sq, s.name, got, wantJump)
			}
		}
	}
	// Every step of several squares at once is the union of single steps.
	all := uint32(0xFFFFFFFF)
	for _, s := range steps {
		var want uint32
		for sq := 1; sq <= 32; sq++ {
			want |= s.f(uint32(SquareBit(sq)))
		}
		if got := s.f(all); got != want {
			t.Errorf("%s(all) = %#x, want %#x", s.name, got, want)
		}
	}
}

func TestBitboard(t *testing.T) {
	b := SquareBit(1) | SquareBit(7) | SquareBit(32)
	if got, want := slices.Collect(b.All()), []int{1, 7, 32}; !slices.Equal(got, want) {
		t.Errorf("All() = %v, want %v", got, want)
	}
	if got := b.Count(); got != 3 {
		t.Errorf("Count() = %d, want 3", got)
	}
	for _, tt := range []struct {
		sq   int
		want bool
	}{{1, true}, {2, false}, {7, true}, {32, true}, {0, false}, {33, false}, {-1, false}} {
		if got := b.Has(tt.sq); got != tt.want {
			t.Errorf("Has(%d) = %v, want %v", tt.sq, got, tt.want)
		}
	}
	if SquareBit(0) != 0 || SquareBit(33) != 0 {
		t.Errorf("SquareBit out of range is not empty")
	}
	for sq := range b.All() {
		if sq == 7 {
			break // All must stop when the loop does
		}
	}
}
