package solve

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sync"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// provenFS holds the proofs shipped with the package: proofs/NAME.proof,
// each the proof of one position's value (see docs/solved.md for how each
// was made).
//
//go:embed proofs/*.proof
var provenFS embed.FS

// ShippedProofs returns the names of the proofs shipped with the package.
func ShippedProofs() []string {
	names, _ := fs.Glob(provenFS, "proofs/*.proof")
	for i, n := range names {
		names[i] = path.Base(n)
	}
	return names
}

// ReadShippedProof reads and checks (all but its leaves' values, see
// ReadProof) the shipped proof of that name.
func ReadShippedProof(name string) (*Proof, error) {
	data, err := provenFS.ReadFile("proofs/" + name)
	if err != nil {
		return nil, err
	}
	pr, err := ReadProof(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return pr, nil
}

// Book answers from the shipped proofs: the value of the positions they
// hold and a move that achieves it. The proofs of the same rules under
// other komi answer too: a proof that White wins under one komi shows it
// wins under any that gives White more, and so on (see Bounds), so the
// proofs of two neighbouring komi can make a value exact that neither
// proves alone.
//
// So do the proofs of rule sets that differ only in the opening switch,
// for the positions from ply 2 on (see SharedFrom).
type Book struct {
	proofs []bookProof
	komi   int16 // of the rule set asked for, in half-points
}

// bookProof is a proof of a book and the ply from which it answers.
type bookProof struct {
	*Proof
	from int
}

// bounds is Proof.bounds for the positions the proof answers.
func (pr bookProof) bounds(p *cheversi.Position) (Bounds, cheversi.Move, bool) {
	if p.Ply() < pr.from {
		return unbounded, 0, false
	}
	return pr.Proof.bounds(p)
}

var (
	bookOnce   sync.Once
	bookProofs []*Proof
	bookErr    error
)

// ShippedBook returns the book of the shipped proofs of the rule set opts,
// read once for the process.
func ShippedBook(opts cheversi.Options) (*Book, error) {
	bookOnce.Do(func() {
		for _, name := range ShippedProofs() {
			pr, err := ReadShippedProof(name)
			if err != nil {
				bookErr = err
				return
			}
			bookProofs = append(bookProofs, pr)
		}
	})
	if bookErr != nil {
		return nil, bookErr
	}
	b := &Book{komi: opts.Komi}
	for _, pr := range bookProofs {
		o := pr.Rules.Options()
		o.Komi = opts.Komi
		if from, ok := sharedFrom(o, opts); ok {
			b.proofs = append(b.proofs, bookProof{pr, from})
		}
	}
	// A rule set's own proofs first: where two give the same move, the
	// book names the own proof's.
	slices.SortStableFunc(b.proofs, func(x, y bookProof) int { return x.from - y.from })
	return b, nil
}

// Lookup returns the value of p for the side to move when the book's proofs
// make it exact, and a move that achieves it where they give one (always
// for a win); ok is false otherwise.
func (b *Book) Lookup(p *cheversi.Position) (v Value, m cheversi.Move, ok bool) {
	bd, m := b.Bounds(p)
	if !bd.Exact() {
		return 0, 0, false
	}
	return bd.Lo, m, true
}

// Bounds returns what the book's proofs show of p's value for the side to
// move under the book's komi, and a move that holds the lower bound where
// that is at least a draw.
//
// A game's result under a komi of K half-points is the sign of 2d - K,
// d being White's score minus Black's, and the value of a position under
// best play the sign of 2d - K with d under best play (the sign keeps the
// order of the margins, so the best play for the result is the best play
// for the margin). A proof under a komi K' bounds d (White wins: 2d > K';
// draws at least: 2d >= K'; and so on), every proof of the book narrows
// the bounds, and the bounds give the value under K.
func (b *Book) Bounds(p *cheversi.Position) (Bounds, cheversi.Move) {
	white := func(bd Bounds) Bounds { // White's bounds from the mover's, and back
		if p.Turn() == game.Black {
			return bd.Neg()
		}
		return bd
	}
	gets := func(d MarginBounds) int { // the least margin d leaves the mover
		if p.Turn() == game.Black {
			return -d.Hi
		}
		return d.Lo
	}
	all := b.Margin(p)
	by := AnyMargin() // what the proof of the move m shows alone
	var m cheversi.Move
	for _, pr := range b.proofs {
		bd, move, ok := pr.bounds(p)
		if !ok || move == 0 {
			continue
		}
		// The move holds the mover's bound under this proof's komi: keep
		// the move of the proof that gives the mover the most.
		own := AnyMargin().Narrow(white(bd), pr.Rules.Options().Komi)
		if m == 0 || gets(own) > gets(by) {
			m, by = move, own
		}
	}
	v, vm := white(all.Value(b.komi)), white(by.Value(b.komi))
	if v.Lo < Draw || vm.Lo < v.Lo {
		m = 0 // no move, or none that holds all the mover is shown to get
	}
	return v, m
}

// Margin returns what the book's proofs show of White's score minus
// Black's under best play from p, before komi: each proof's value under
// its komi bounds it (see Bounds), and the bounds of all intersect.
func (b *Book) Margin(p *cheversi.Position) MarginBounds {
	d := AnyMargin()
	for _, pr := range b.proofs {
		bd, _, ok := pr.bounds(p)
		if !ok {
			continue
		}
		if p.Turn() == game.Black {
			bd = bd.Neg()
		}
		d = d.Narrow(bd, pr.Rules.Options().Komi)
	}
	return d
}

// MarginBounds bounds White's score minus Black's under best play, in
// points: Lo <= d <= Hi. The value of a position under a komi of K
// half-points is the sign of 2d - K, so its value under one komi bounds d
// (Narrow), and bounds on d give its value under another (Value).
type MarginBounds struct{ Lo, Hi int }

// marginLimit is beyond any score margin.
const marginLimit = 1 << 20

// AnyMargin returns the bounds that say nothing.
func AnyMargin() MarginBounds { return MarginBounds{Lo: -marginLimit, Hi: marginLimit} }

// Unbounded reports whether d has no lower bound (lo) and no upper bound
// (hi).
func (d MarginBounds) Unbounded() (lo, hi bool) { return d.Lo <= -marginLimit, d.Hi >= marginLimit }

// Narrow narrows d by White's value bd under a komi of k half-points.
func (d MarginBounds) Narrow(bd Bounds, komi int16) MarginBounds {
	k := int(komi)
	switch bd.Lo {
	case Win: // 2d > k
		d.Lo = max(d.Lo, floorHalf(k)+1)
	case Draw: // 2d >= k
		d.Lo = max(d.Lo, ceilHalf(k))
	}
	switch bd.Hi {
	case Loss: // 2d < k
		d.Hi = min(d.Hi, ceilHalf(k)-1)
	case Draw: // 2d <= k
		d.Hi = min(d.Hi, floorHalf(k))
	}
	return d
}

// Value returns White's value under a komi of k half-points that d gives.
func (d MarginBounds) Value(komi int16) Bounds {
	k := int(komi)
	v := unbounded
	switch {
	case 2*d.Lo > k:
		v.Lo = Win
	case 2*d.Lo >= k:
		v.Lo = Draw
	}
	switch {
	case 2*d.Hi < k:
		v.Hi = Loss
	case 2*d.Hi <= k:
		v.Hi = Draw
	}
	return v
}
