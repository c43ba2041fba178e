package openings_test

import (
	"errors"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/openings"
)

func TestDeferred(t *testing.T) {
	a, err := openings.Deferred(7, 2, 3, 50)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := openings.Deferred(7, 2, 3, 50)
	c, _ := openings.Deferred(8, 2, 3, 50)
	seeds := map[uint64]bool{}
	for i, o := range a {
		if !o.Deferred() || o.After != 2 || o.Random != 3 || len(o.Moves) != 0 {
			t.Errorf("opening %d: %+v (again %+v)", i, o, b[i])
		}
		if o.Seed != b[i].Seed || o.Seed == c[i].Seed {
			t.Errorf("opening %d: seed %d, again %d, from another seed %d", i, o.Seed, b[i].Seed, c[i].Seed)
		}
		seeds[o.Seed] = true
	}
	if len(seeds) != len(a) {
		t.Errorf("%d distinct seeds for %d openings", len(seeds), len(a))
	}
	for ply, want := range map[int]bool{1: false, 2: false, 3: true, 5: true, 6: false} {
		if got := a[0].RandomPly(ply); got != want {
			t.Errorf("RandomPly(%d) = %v, want %v", ply, got, want)
		}
	}
	for _, bad := range [][3]int{{-1, 2, 5}, {2, 0, 5}, {2, 2, 0}, {0, 2, openings.Max + 1}} {
		if _, err := openings.Deferred(1, bad[0], bad[1], bad[2]); !errors.Is(err, openings.ErrInvalid) {
			t.Errorf("Deferred(after %d, plies %d, count %d): %v, want ErrInvalid", bad[0], bad[1], bad[2], err)
		}
	}
}

// TestPlayRandom: the same opening draws the same plies from the same
// position, and the plies are legal.
func TestPlayRandom(t *testing.T) {
	rules, err := games.New("cheversi", "cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	o := openings.Opening{After: 1, Random: 3, Seed: 99}
	var games [2][]string
	for i := range games {
		st := rules.Start()
		if _, err := game.PlayText(st, "K@d4"); err != nil {
			t.Fatal(err)
		}
		rng := o.Player()
		for range 3 {
			text, ok, err := openings.PlayRandom(st, rng)
			if err != nil || !ok {
				t.Fatalf("PlayRandom: %q %v %v", text, ok, err)
			}
			games[i] = append(games[i], text)
		}
	}
	if games[0][0] != games[1][0] || games[0][2] != games[1][2] {
		t.Errorf("one opening drew %v, then %v", games[0], games[1])
	}
	withMoves := openings.Opening{Moves: []string{"K@d4"}, After: 1, Random: 1, Seed: 1}
	if err := openings.Canonicalize(rules, &withMoves); !errors.Is(err, openings.ErrInvalid) {
		t.Errorf("a deferred opening with moves: %v, want ErrInvalid", err)
	}
}
