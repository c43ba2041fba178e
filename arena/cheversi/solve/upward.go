package solve

import (
	"github.com/arena-games/arena/arena/cheversi"
)

// upward holds the bounds of positions above the cut that follow from the
// solved positions of a Results, computed from them upward: a position's
// bounds from all its moves' (at least the best the mover is shown to get
// from one, at most the best it could get from any), for each parent of a
// solved position, then for each parent of a position so bounded, and so
// on to the root. Unlike a walk from the root, which looks at a position's
// moves in an order and stops where one is not known yet, it finds every
// bound the values show whatever the order, so any walk that consults it
// (see walker.known) sees what another walk, in another order of moves,
// has settled.
type upward struct {
	res *Results
	top int // the ply of the root: no bounds are computed above it
	b   map[uint64]Bounds
}

// newUpward computes the bounds that follow from every position of res,
// down to ply top (that of the position solved: a position has many
// ancestors, in every order of its moves, and none above the root counts).
// It goes a ply at a time, from the deepest: each position known at a ply
// gives each of its parents a lower bound at once; the parent's upper
// bound needs all its moves known, so its moves are generated only when
// enough of them are (most parents of a solve under way have few).
func newUpward(res *Results, top int) *upward {
	u := &upward{res: res, top: top, b: map[uint64]Bounds{}}
	byPly := make([][]cheversi.Position, cheversi.MaxPlies+1)
	for _, e := range res.Entries() {
		if ply := e.Position.Ply(); ply > top {
			byPly[ply] = append(byPly[ply], e.Position)
		}
	}
	for ply := cheversi.MaxPlies; ply > top; ply-- {
		byPly[ply-1] = append(byPly[ply-1], u.raiseAll(byPly[ply])...)
		byPly[ply] = nil
	}
	return u
}

// parentTally is what the positions of a ply show of one parent.
type parentTally struct {
	pos   cheversi.Position
	lo    Value // the best the parent's mover is shown to get
	known int   // its moves' positions known
}

// raiseAll bounds the parents of ps, positions of one ply whose values or
// bounds are known, and returns those it bounded.
func (u *upward) raiseAll(ps []cheversi.Position) []cheversi.Position {
	tally := map[uint64]*parentTally{}
	var buf []cheversi.Position
	for _, p := range ps {
		cb, ok := u.known(CanonicalKey(&p))
		if !ok {
			continue
		}
		buf = p.Parents(buf[:0])
		for _, q := range buf {
			key := CanonicalKey(&q)
			pt := tally[key]
			if pt == nil {
				pt = &parentTally{pos: q, lo: Loss}
				tally[key] = pt
			}
			pt.lo = max(pt.lo, cb.Hi.Neg())
			pt.known++
		}
	}
	var out []cheversi.Position
	for key, pt := range tally {
		if _, ok := u.res.GetKey(key); ok {
			continue
		}
		b := Bounds{Lo: pt.lo, Hi: Win}
		// Up to eight moves lead to images of one position.
		if pt.known*cheversi.NumSymmetries >= pt.pos.CountMoves() {
			b = u.fromMoves(&pt.pos)
		}
		if b != unbounded {
			u.b[key] = b
			out = append(out, pt.pos)
		}
	}
	return out
}

// raise brings the bounds up to date after p's value was added to the
// results.
func (u *upward) raise(p *cheversi.Position) {
	stack := []cheversi.Position{*p}
	var buf []cheversi.Position
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.Ply() <= u.top {
			continue
		}
		buf = p.Parents(buf[:0])
		for _, q := range buf {
			if u.update(&q, CanonicalKey(&q)) {
				stack = append(stack, q)
			}
		}
	}
}

// update computes q's bounds from its moves' and reports whether they
// tell more than was known of q.
func (u *upward) update(q *cheversi.Position, key uint64) bool {
	if _, ok := u.res.GetKey(key); ok {
		return false // solved: nothing to add
	}
	b := u.fromMoves(q)
	old, ok := u.b[key]
	if !ok {
		old = unbounded
	}
	if b == old {
		return false
	}
	u.b[key] = b
	return true
}

// fromMoves returns q's bounds for the side to move from what is known of
// its moves' positions.
func (u *upward) fromMoves(q *cheversi.Position) Bounds {
	if q.Over() {
		v := terminalValue(q)
		return Bounds{Lo: v, Hi: v}
	}
	b := Bounds{Lo: Loss, Hi: Loss}
	for _, c := range children(q) {
		cb, ok := u.known(c.key)
		if !ok {
			cb = unbounded
			if c.pos.Over() {
				v := terminalValue(&c.pos)
				cb = Bounds{Lo: v, Hi: v}
			}
		}
		b.Lo, b.Hi = max(b.Lo, cb.Hi.Neg()), max(b.Hi, cb.Lo.Neg())
	}
	return b
}

// known returns what is known of the position of canonical hash key: its
// value when solved, its bounds when they follow from solved positions.
func (u *upward) known(key uint64) (Bounds, bool) {
	if e, ok := u.res.GetKey(key); ok {
		return Bounds{Lo: e.Value, Hi: e.Value}, true
	}
	b, ok := u.b[key]
	return b, ok
}
