package cheversi

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// TestSymmetries plays random games under every preset and checks, after
// each move, that every symmetry maps the legal moves of a position onto
// those of its image, keeps both scores, is undone by its inverse, and
// gives the image the hash ImageHashes foretells.
func TestSymmetries(t *testing.T) {
	seen := map[[3]Square]bool{}
	for s := range Symmetry(NumSymmetries) {
		img := [3]Square{s.Square(0), s.Square(1), s.Square(8)}
		if seen[img] {
			t.Fatalf("symmetry %d repeats another", s)
		}
		seen[img] = true
	}
	for _, preset := range Presets() {
		rules := mustRules(t, preset)
		r := rand.New(rand.NewPCG(1, 2))
		for range 40 {
			p := rules.StartPosition()
			for !p.Over() {
				for s := range Symmetry(NumSymmetries) {
					q := p.Transform(s)
					if back := q.Transform(s.Inverse()); back != p {
						t.Fatalf("%s: symmetry %d then its inverse gives %s", p.Text(), s, back.Text())
					}
					for c := range game.Color(2) {
						if p.Score(c) != q.Score(c) {
							t.Fatalf("%s: symmetry %d changes %s's score", p.Text(), s, c)
						}
					}
					var want, got []Move
					for _, m := range p.GenerateMoves(nil) {
						want = append(want, s.Move(m))
					}
					got = q.GenerateMoves(nil)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Fatalf("%s under symmetry %d: moves %v, want %v", p.Text(), s, got, want)
					}
					again := p.Transform(s)
					if q.Hash() != again.Hash() || (s == Identity && q.Hash() != p.Hash()) {
						t.Fatalf("%s: hash of the image is not stable", p.Text())
					}
					if h := p.ImageHashes()[s]; h != q.Hash() {
						t.Fatalf("%s: ImageHashes gives %#x under symmetry %d, the image's hash is %#x", p.Text(), h, s, q.Hash())
					}
				}
				moves := p.GenerateMoves(nil)
				p.Play(moves[r.IntN(len(moves))])
			}
		}
	}
}
