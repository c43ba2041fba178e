package solve

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
)

// TestCanonical plays random games under every preset and checks, after
// each move, that Canonical and CanonicalKey agree, that the key is the
// smallest hash of the position's eight images, and that every image has
// the same key.
func TestCanonical(t *testing.T) {
	for _, preset := range cheversi.Presets() {
		rules, err := cheversi.New(preset, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(5, 6))
		for range 20 {
			p := rules.StartPosition()
			for !p.Over() {
				checkCanonical(t, &p)
				moves := p.GenerateMoves(nil)
				p.Play(moves[r.IntN(len(moves))])
			}
		}
	}
}

func checkCanonical(t *testing.T, p *cheversi.Position) {
	t.Helper()
	c, key, sym := Canonical(p)
	if img := p.Transform(sym); img != c || c.Hash() != key {
		t.Fatalf("%s: Canonical gives %s and %#x under symmetry %d, the image is %s with hash %#x", p.Text(), c.Text(), key, sym, img.Text(), img.Hash())
	}
	if k := CanonicalKey(p); k != key {
		t.Fatalf("%s: CanonicalKey %#x, Canonical %#x", p.Text(), k, key)
	}
	for s := range cheversi.Symmetry(cheversi.NumSymmetries) {
		q := p.Transform(s)
		if q.Hash() < key {
			t.Fatalf("%s: the image under symmetry %d hashes below the key", p.Text(), s)
		}
		if k := CanonicalKey(&q); k != key {
			t.Fatalf("%s: its image under symmetry %d has key %#x, it has %#x", p.Text(), s, k, key)
		}
	}
}
