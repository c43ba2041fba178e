package solve

import "github.com/arena-games/arena/arena/cheversi"

// Canonical returns the image of p under the symmetry that gives the
// smallest hash, with that hash and the symmetry. Positions that are images
// of each other under a symmetry of the board have the same value and the
// same canonical hash, so results are kept once for all eight.
func Canonical(p *cheversi.Position) (cheversi.Position, uint64, cheversi.Symmetry) {
	best, key, sym := *p, p.Hash(), cheversi.Identity
	for s := cheversi.Symmetry(1); s < cheversi.NumSymmetries; s++ {
		q := p.Transform(s)
		if h := q.Hash(); h < key {
			best, key, sym = q, h, s
		}
	}
	return best, key, sym
}

// CanonicalKey returns the canonical hash of p (see Canonical).
func CanonicalKey(p *cheversi.Position) uint64 {
	_, k, _ := Canonical(p)
	return k
}
