package cheversi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// TestSideReference: the human games are the reference of the cheversi
// preset as it is, and of no other rule set; their source states the
// rounded ratios and how those games differ from a tournament's.
func TestSideReference(t *testing.T) {
	r, err := New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	var _ game.Referenced = r
	ref, ok := r.SideReference()
	if !ok {
		t.Fatal("no reference for the cheversi preset")
	}
	n := float64(ref.Wins + ref.Draws + ref.Losses)
	for _, k := range []int{ref.Wins, ref.Draws, ref.Losses} {
		if pct := fmt.Sprintf("%.2f %%", 100*float64(k)/n); !strings.Contains(ref.Source, pct) {
			t.Errorf("source %q lacks the rounded %s", ref.Source, pct)
		}
	}
	for _, w := range []string{"BrainKing", "people", "empty board", "random openings"} {
		if !strings.Contains(ref.Source, w) {
			t.Errorf("source %q does not say %q", ref.Source, w)
		}
	}
	for _, c := range []struct {
		preset string
		set    []game.Setting
	}{
		{"cheversi-classic", nil},
		{"echeversi", nil},
		{"", []game.Setting{{Key: "touch", Value: "any"}}},
		{"", []game.Setting{{Key: "komi", Value: "0.5"}}},
	} {
		other, err := New(c.preset, c.set)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := other.SideReference(); ok {
			t.Errorf("preset %q with %v has the human games as its reference", c.preset, c.set)
		}
	}
}
