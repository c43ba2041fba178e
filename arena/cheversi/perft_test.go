package cheversi

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// perftFigures are the reference counts from the rules document.
var perftFigures = []struct {
	name      string
	preset    string
	overrides []game.Setting
	want      []uint64 // want[i] is perft(i+1)
}{
	{"cheversi", "cheversi", nil, []uint64{64, 1680, 32760, 985824, 28173744, 974020552}},
	{"cheversi-classic", "cheversi-classic", nil, []uint64{64, 4032, 999936, 243984384, 54896486400}},
	{"echeversi", "echeversi", nil, []uint64{64, 4032, 999936, 243984384, 54896486400}},
	{"cheversi touch=any", "cheversi", []game.Setting{{Key: "touch", Value: "any"}}, []uint64{64, 1680, 50232, 1805208}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftFigures {
		r, err := New(tc.preset, tc.overrides)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range tc.want {
			depth := i + 1
			t.Run(fmt.Sprintf("%s/depth%d", tc.name, depth), func(t *testing.T) {
				if testing.Short() && want > 100_000_000 {
					t.Skip("long perft skipped in short mode")
				}
				st := r.Start().(*State)
				if got := st.Perft(depth); got != want {
					t.Errorf("perft(%d) = %d, want %d", depth, got, want)
				}
			})
		}
	}
}

// TestPerftDivide checks the bulk-counting Perft against the split the
// command line prints: each legal move played on a clone, then
// Perft(depth-1).
func TestPerftDivide(t *testing.T) {
	tests := []struct {
		preset, text string
		depth        int
	}{
		{"cheversi", "8/8/8/8/8/8/8/8 w 0 -", 4},
		{"cheversi", "8/8/8/4q3/4K3/8/8/8 w 2 e5", 4},
		{"cheversi", "8/8/8/8/8/8/8/KQRRbbnn w 8 h1", 3},
		{"echeversi", "8/8/8/4q3/4K3/8/8/8 w 2 e5", 3},
	}
	for _, tc := range tests {
		st := mustState(t, mustRules(t, tc.preset), tc.text)
		var sum uint64
		for _, m := range st.LegalMoves(nil) {
			c := st.Clone().(*State)
			if err := c.Play(m); err != nil {
				t.Fatalf("%s: Play(%v): %v", tc.text, m, err)
			}
			sum += c.Perft(tc.depth - 1)
		}
		if got := st.Perft(tc.depth); got != sum {
			t.Errorf("%s %q: Perft(%d) = %d, divide sums to %d", tc.preset, tc.text, tc.depth, got, sum)
		}
		if st.Perft(0) != 1 {
			t.Errorf("Perft(0) = %d, want 1", st.Perft(0))
		}
	}
}
