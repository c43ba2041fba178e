package solve

import (
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// TestStartSolution reads what the shipped proofs show of the empty board
// under rule sets they cover, wholly or in part, and under some they do
// not: the value says who wins under the komi asked for, the margin is
// the same under every komi, and a rule set no proof covers has nothing.
func TestStartSolution(t *testing.T) {
	tests := []struct {
		set          []game.Setting
		result, text string // "" result: nothing is known
	}{
		{nil, "black wins", "black wins with perfect play; best play leaves black exactly 2 points ahead"},
		{[]game.Setting{{Key: "komi", Value: "-2"}}, "draw", "perfect play draws; best play leaves black exactly 2 points ahead before komi"},
		{[]game.Setting{{Key: "komi", Value: "-1.5"}}, "black wins", "black exactly 2 points ahead before komi"},
		{[]game.Setting{{Key: "komi", Value: "-2.5"}}, "white wins", "black exactly 2 points ahead before komi"},
		{[]game.Setting{{Key: "komi", Value: "3"}}, "black wins", "before komi"},
		// A draw under komi 0 is a margin of exactly 0, which decides
		// every other komi.
		{[]game.Setting{{Key: "opening", Value: "free"}}, "draw", "perfect play draws; best play leaves the scores level"},
		{[]game.Setting{{Key: "opening", Value: "free"}, {Key: "komi", Value: "1"}}, "black wins", "black wins with perfect play; best play leaves the scores level before komi"},
		{[]game.Setting{{Key: "opening", Value: "free"}, {Key: "komi", Value: "-0.5"}}, "white wins", "the scores level before komi"},
		// Proved from cheversi's units, which it shares from ply 2 on.
		{[]game.Setting{{Key: "opening", Value: "king-queen"}}, "black wins", "black wins with perfect play; best play leaves black exactly 2 points ahead"},
		{[]game.Setting{{Key: "opening", Value: "king-queen"}, {Key: "komi", Value: "-2"}}, "draw", "perfect play draws"},
		// A win under komi 0 alone: the margin is at least a point.
		{[]game.Setting{{Key: "queen_call", Value: "false"}}, "black wins", "black wins with perfect play; best play leaves black at least 1 point ahead"},
		{[]game.Setting{{Key: "queen_call", Value: "false"}, {Key: "komi", Value: "-0.5"}}, "black wins", "black at least 1 point ahead before komi"},
		{[]game.Setting{{Key: "queen_call", Value: "false"}, {Key: "komi", Value: "-1"}}, "black at least draws", "black does not lose with perfect play (at least a draw; a win not proved)"},
		{[]game.Setting{{Key: "bishops_opposite", Value: "false"}}, "black wins", "black wins with perfect play; best play leaves black at least 1 point ahead"},
		// Wins under komi 0 and komi -2: the margin is at least 3.
		{[]game.Setting{{Key: "black_king_last", Value: "false"}}, "black wins", "black wins with perfect play; best play leaves black at least 3 points ahead"},
		{[]game.Setting{{Key: "black_king_last", Value: "false"}, {Key: "komi", Value: "-2"}}, "black wins", "black at least 3 points ahead before komi"},
		{[]game.Setting{{Key: "black_king_last", Value: "false"}, {Key: "komi", Value: "-2.5"}}, "black wins", "black at least 3 points ahead before komi"},
		{[]game.Setting{{Key: "black_king_last", Value: "false"}, {Key: "komi", Value: "-3"}}, "black at least draws", "a win not proved"},
		{[]game.Setting{{Key: "scoring", Value: "squares"}}, "black wins", "black wins with perfect play; best play leaves black at least 1 point ahead"},
		{[]game.Setting{{Key: "touch", Value: "none"}}, "", ""},
	}
	for _, tt := range tests {
		r, err := cheversi.New(cheversi.DefaultPreset, tt.set)
		if err != nil {
			t.Fatal(err)
		}
		// The headers alone say what the whole book says of the empty
		// board.
		book, err := ShippedBook(r.Options())
		if err != nil {
			t.Fatal(err)
		}
		start := r.StartPosition()
		v, d, _ := startBounds(r)
		if bv, _ := book.Bounds(&start); v != bv || d != book.Margin(&start) {
			t.Errorf("%v: the headers give %v and margin %+v, the book %v and %+v", tt.set, v, d, bv, book.Margin(&start))
		}
		s, ok := StartSolution(r)
		if ok != (tt.result != "") {
			t.Errorf("%v: known %v, want %v (%+v)", tt.set, ok, !ok, s)
			continue
		}
		if !ok {
			continue
		}
		if s.Result != tt.result || !strings.HasPrefix(s.Statement, "from the empty board, ") || !strings.Contains(s.Statement, tt.text) || s.Source == "" {
			t.Errorf("%v: %+v, want the result %q and a statement with %q", tt.set, s, tt.result, tt.text)
		}
	}
	for _, preset := range []string{"cheversi-classic", "echeversi"} {
		r, err := cheversi.New(preset, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := StartSolution(r); ok {
			t.Errorf("%s: %+v, want nothing known", preset, s)
		}
	}
}

// TestMarginWords says every shape of bounds on the margin.
func TestMarginWords(t *testing.T) {
	const n = marginLimit
	tests := []struct {
		lo, hi int
		want   string
	}{
		{-n, n, ""},
		{0, 0, "leaves the scores level"},
		{-2, -2, "leaves black exactly 2 points ahead"},
		{1, 1, "leaves white exactly 1 point ahead"},
		{3, n, "leaves white at least 3 points ahead"},
		{-n, -1, "leaves black at least 1 point ahead"},
		{0, n, "leaves white level or ahead"},
		{-n, 0, "leaves black level or ahead"},
		{-2, n, "leaves black at most 2 points ahead"},
		{-n, 4, "leaves white at most 4 points ahead"},
		{-1, 2, "leaves white between -1 and +2 points of black"},
	}
	for _, tt := range tests {
		if got := marginWords(MarginBounds{Lo: tt.lo, Hi: tt.hi}); got != tt.want {
			t.Errorf("marginWords(%d, %d) = %q, want %q", tt.lo, tt.hi, got, tt.want)
		}
	}
}
