package checkers

import (
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// perftTable is the table of the rules text.
var perftTable = []uint64{
	1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740, 8: 845931,
	9: 3963680, 10: 18391564, 11: 85242128, 12: 388623673,
}

func TestPerftStart(t *testing.T) {
	for depth := 1; depth < len(perftTable); depth++ {
		if depth > 9 && testing.Short() {
			t.Skipf("depth %d and beyond skipped with -short", depth)
		}
		if got := StartPosition().Perft(depth); got != perftTable[depth] {
			t.Errorf("Perft(%d) = %d, want %d", depth, got, perftTable[depth])
		}
	}
}

func TestPerftEdges(t *testing.T) {
	p := StartPosition()
	for _, depth := range []int{0, -1} {
		if got := p.Perft(depth); got != 1 {
			t.Errorf("Perft(%d) = %d, want 1", depth, got)
		}
	}
	lost, err := ParsePosition("B:W21:B")
	if err != nil {
		t.Fatal(err)
	}
	if got := lost.Perft(3); got != 0 {
		t.Errorf("Perft(3) without moves = %d, want 0", got)
	}
}

// TestPerftMatchesSlowPerft checks the bulk-counting perft against plain
// generate-and-play on positions with kings and long captures.
func TestPerftMatchesSlowPerft(t *testing.T) {
	fens := []string{
		"B:WK14,K15,K22,K23:BK10", // a king's ring of captures
		"B:W6,7,14,15:B2",         // two paths to one square
		"W:W18,K19,22,24,27,28:B5,K10,11,13,15,K26",
		"B:W9,10,18,19,26,27,K30:BK1,K2,14,K25,3",
		"W:WK1,K2,K3,K4:BK29,K30,K31,K32",
		"B:WK5,K6,14,15,K22,23,27:BK1,10,K11,K18,19,K30",
	}
	for _, fen := range fens {
		p, err := ParsePosition(fen)
		if err != nil {
			t.Fatalf("ParsePosition(%q): %v", fen, err)
		}
		for depth := 1; depth <= 5; depth++ {
			if got, want := p.Perft(depth), perftSlow(p, depth); got != want {
				t.Errorf("%s: Perft(%d) = %d, want %d", fen, depth, got, want)
			}
		}
	}
}

func TestStatePerftIgnoresDrawRules(t *testing.T) {
	r, err := New("", []game.Setting{{Key: SettingMaxPlies, Value: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	s := r.NewState(StartPosition())
	if got := s.Perft(4); got != perftTable[4] {
		t.Errorf("State.Perft(4) = %d, want %d", got, perftTable[4])
	}
	playAll(t, s, "11-15")
	if o := s.Outcome(); o.Result != game.Draw || o.Reason != game.ReasonMaxPlies {
		t.Fatalf("outcome after one ply with max_plies=1: %+v, want a max-plies draw", o)
	}
	// White's seven opening moves are all still there: 21-17, 22-17, 22-18,
	// 23-18, 23-19, 24-19, 24-20.
	if got := s.Perft(1); got != 7 {
		t.Errorf("Perft(1) of a drawn game = %d, want 7", got)
	}
}
