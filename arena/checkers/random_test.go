package checkers

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// TestRandomGames replays seeded random games and checks, in every position,
// that each legal move formats and parses back to itself, that the position
// text round-trips, and that the generator agrees with the reference one.
func TestRandomGames(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 60
	}
	r, err := New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	reasons := map[string]int{}
	positions, captures, kingMoves := 0, 0, 0
	for range games {
		s := r.Start().(*State)
		for !s.Outcome().Over() {
			positions++
			checkRoundTrips(t, r, s)
			checkAgainstReference(t, s.Position())
			moves := s.LegalMoves(nil)
			if len(moves) == 0 {
				t.Fatalf("%s: no legal moves but the game is not over", s.Text())
			}
			m := moves[rng.IntN(len(moves))].(Move)
			if m.IsCapture() {
				captures++
			}
			if m.IsKingMove() {
				kingMoves++
			}
			before := s.Position()
			if err := s.Play(m); err != nil {
				t.Fatalf("%s: Play(%v): %v", before, m, err)
			}
			if got, want := s.Hash(), s.Position().computeHash(); got != want {
				t.Fatalf("%s after %v: hash %x, want %x", before, m, got, want)
			}
		}
		reasons[s.Outcome().Reason]++
	}
	t.Logf("%d games, %d positions, %d captures, %d king moves, endings %v", games, positions, captures, kingMoves, reasons)
	if captures == 0 || kingMoves == 0 || reasons[game.ReasonNoMoves] == 0 {
		t.Errorf("random games did not exercise captures, kings and decisive endings: %d, %d, %v", captures, kingMoves, reasons)
	}
}

func checkRoundTrips(t *testing.T, r *Rules, s *State) {
	t.Helper()
	text := s.Text()
	gs, err := r.ParseState(text)
	if err != nil {
		t.Fatalf("ParseState(%q): %v", text, err)
	}
	if got := gs.Text(); got != text {
		t.Fatalf("ParseState(%q).Text() = %q", text, got)
	}
	if got, want := gs.(*State).Position(), s.Position(); got != want {
		t.Fatalf("ParseState(%q) = %+v, want %+v", text, got, want)
	}
	for _, gm := range s.LegalMoves(nil) {
		m := gm.(Move)
		pm, err := s.ParseMove(m.String())
		if err != nil {
			t.Fatalf("%s: ParseMove(%q): %v", text, m, err)
		}
		if pm != game.Move(m) || pm.String() != m.String() {
			t.Fatalf("%s: ParseMove(%q) = %v, want %v", text, m, pm, m)
		}
	}
}
