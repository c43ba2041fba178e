package solve

import "github.com/arena-games/arena/arena/cheversi"

// Canonical returns the image of p under the symmetry that gives the
// smallest hash, with that hash and the symmetry. Positions that are images
// of each other under a symmetry of the board have the same value and the
// same canonical hash, so results are kept once for all eight.
func Canonical(p *cheversi.Position) (cheversi.Position, uint64, cheversi.Symmetry) {
	sym, key := leastImage(p)
	if sym == cheversi.Identity {
		return *p, key, sym
	}
	return p.Transform(sym), key, sym
}

// CanonicalKey returns the canonical hash of p (see Canonical).
func CanonicalKey(p *cheversi.Position) uint64 {
	_, key := leastImage(p)
	return key
}

// leastImage returns the symmetry under which p's image hashes least (the
// first such at a tie), with that hash.
func leastImage(p *cheversi.Position) (cheversi.Symmetry, uint64) {
	hs := p.ImageHashes()
	sym := cheversi.Identity
	for s := cheversi.Symmetry(1); s < cheversi.NumSymmetries; s++ {
		if hs[s] < hs[sym] {
			sym = s
		}
	}
	return sym, hs[sym]
}
