package solve

import (
	"slices"

	"github.com/arena-games/arena/arena/cheversi"
)

// Canonical returns the image of p under the symmetry that gives the
// smallest hash, with that hash and the symmetry. Positions that are images
// of each other under a symmetry of the board have the same value and the
// same canonical hash, so results are kept once for all eight.
func Canonical(p *cheversi.Position) (cheversi.Position, uint64, cheversi.Symmetry) {
	hs := p.ImageHashes()
	sym := cheversi.Identity
	for s := cheversi.Symmetry(1); s < cheversi.NumSymmetries; s++ {
		if hs[s] < hs[sym] {
			sym = s
		}
	}
	if sym == cheversi.Identity {
		return *p, hs[sym], sym
	}
	return p.Transform(sym), hs[sym], sym
}

// CanonicalKey returns the canonical hash of p (see Canonical).
func CanonicalKey(p *cheversi.Position) uint64 {
	hs := p.ImageHashes()
	return slices.Min(hs[:])
}
