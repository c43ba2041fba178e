package pairing

import (
	"slices"
	"testing"
)

func TestBracket(t *testing.T) {
	tests := []struct {
		n    int
		want []int
	}{
		{1, []int{0, -1}},
		{2, []int{0, 1}},
		{3, []int{0, -1, 1, 2}},
		{4, []int{0, 3, 1, 2}},
		{5, []int{0, -1, 3, 4, 1, -1, 2, -1}},
		{8, []int{0, 7, 3, 4, 1, 6, 2, 5}},
	}
	for _, tt := range tests {
		if got := Bracket(tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("Bracket(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

// TestBracketSeedsMeetLate plays every bracket up to 100 players with the
// higher seed always winning: in the round of 2^r exactly the top 2^r
// seeds are left, each meeting the seed 2^r-1-k, and the byes go to the
// top seeds, none of whom meets another bye.
func TestBracketSeedsMeetLate(t *testing.T) {
	for n := 1; n <= 100; n++ {
		slots := Bracket(n)
		size := len(slots)
		if size&(size-1) != 0 || size < n || size >= 2*n && n > 1 {
			t.Fatalf("Bracket(%d) has %d slots", n, size)
		}
		byes := 0
		for k := 0; k < size; k += 2 {
			a, b := slots[k], slots[k+1]
			if a == -1 && b == -1 {
				t.Fatalf("Bracket(%d): two byes meet", n)
			}
			if a == -1 || b == -1 {
				byes++
				if s := max(a, b); s >= size-n {
					t.Errorf("Bracket(%d): seed %d has a bye, but only the top %d should", n, s, size-n)
				}
			}
		}
		for len(slots) > 1 {
			var next []int
			for k := 0; k < len(slots); k += 2 {
				a, b := slots[k], slots[k+1]
				if a != -1 && b != -1 && a+b != len(slots)-1 {
					t.Errorf("Bracket(%d): in the round of %d, seed %d meets seed %d", n, len(slots), a, b)
				}
				switch {
				case a == -1:
					next = append(next, b)
				case b == -1:
					next = append(next, a)
				default:
					next = append(next, min(a, b))
				}
			}
			slots = next
		}
		if slots[0] != 0 {
			t.Errorf("Bracket(%d): the top seed does not win", n)
		}
	}
}
