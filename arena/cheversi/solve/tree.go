package solve

import (
	"github.com/arena-games/arena/arena/cheversi"
)

// child is a move and the position it leads to.
type child struct {
	move cheversi.Move
	pos  cheversi.Position
	key  uint64 // canonical hash of pos
}

// children returns the legal moves of p that lead to positions distinct up
// to symmetry (of two moves whose positions are images of each other only
// the first is kept), the likeliest best first: by how much each changes
// the score margin at once in the mover's favour, then in move order.
func children(p *cheversi.Position) []child {
	var buf [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
	moves := p.GenerateMoves(buf[:0])
	if len(moves) == 0 {
		return nil
	}
	b := newBoard(p)
	var ml moveList
	ml.n = copy(ml.moves[:], moves)
	ml.sort(&b, 0)
	seen := make(map[uint64]bool, len(moves))
	out := make([]child, 0, len(moves))
	for _, m := range ml.moves[:ml.n] {
		q := *p
		q.Play(m)
		k := CanonicalKey(&q)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, child{move: m, pos: q, key: k})
	}
	return out
}

// known is a value that may not be known yet.
type known struct {
	v  Value
	ok bool
}

// walker computes the values of positions above the cut ply from the
// values of the positions at the cut ply, which it takes from a Results,
// and lists the positions at the cut ply it needs and does not have: the
// frontier.
//
// At each position it looks at the moves in order and stops at the first
// that wins. When the value of the first move is not known it waits for it
// before looking at the others (most positions are decided by their first
// move); once the first move is known not to win, all the others are needed
// anyway, and their needs join the frontier together. (This is the "young
// brothers wait" rule of parallel alpha-beta search.)
type walker struct {
	res  *Results
	cut  int
	memo map[uint64]known

	frontier []cheversi.Position
	inFront  map[uint64]bool
}

func newWalker(res *Results, cut int) *walker {
	return &walker{res: res, cut: cut, memo: map[uint64]known{}, inFront: map[uint64]bool{}}
}

// eval returns the value of p for the side to move, if it follows from the
// known values; if not, the positions it needs are on the frontier.
func (w *walker) eval(p *cheversi.Position) known {
	key := CanonicalKey(p)
	if k, ok := w.memo[key]; ok {
		return k
	}
	k := w.evalNew(p, key)
	w.memo[key] = k
	return k
}

func (w *walker) evalNew(p *cheversi.Position, key uint64) known {
	if e, ok := w.res.GetKey(key); ok {
		return known{e.Value, true}
	}
	if p.Over() {
		return known{terminalValue(p), true}
	}
	if p.Ply() >= w.cut {
		if !w.inFront[key] {
			w.inFront[key] = true
			w.frontier = append(w.frontier, *p)
		}
		return known{}
	}
	cs := children(p)
	// A child already known to lose for its mover decides p at once.
	for _, c := range cs {
		if e, ok := w.res.GetKey(c.key); ok && e.Value == Loss {
			return known{Win, true}
		}
	}
	best, all := Loss, true
	for i, c := range cs {
		k := w.eval(&c.pos)
		if !k.ok {
			all = false
			if i == 0 {
				return known{}
			}
			continue
		}
		v := k.v.Neg()
		if v == Win {
			return known{Win, true}
		}
		best = max(best, v)
	}
	if !all {
		return known{}
	}
	return known{best, true}
}

// terminalValue returns the value of a finished game for the side to move
// (White after 16 plies): a loss when it has no legal move before then,
// otherwise what its score minus its opponent's gives with the komi.
func terminalValue(p *cheversi.Position) Value {
	if p.Ply() < cheversi.MaxPlies {
		return Loss
	}
	b := newBoard(p)
	alpha, beta := window(p)
	return valueOf(b.margin, alpha, beta)
}

// PositionsAt returns the positions ply plies into the game below p,
// distinct up to symmetry, in a fixed order (depth first, each position's
// moves in the order of children).
func PositionsAt(p *cheversi.Position, ply int) []cheversi.Position {
	var out []cheversi.Position
	seen := map[uint64]bool{}
	var walk func(q *cheversi.Position)
	walk = func(q *cheversi.Position) {
		if q.Ply() >= ply || q.Over() {
			k := CanonicalKey(q)
			if !seen[k] {
				seen[k] = true
				out = append(out, *q)
			}
			return
		}
		for _, c := range children(q) {
			walk(&c.pos)
		}
	}
	walk(p)
	return out
}

// Status is what the results so far tell of a position solved in units.
type Status struct {
	// Value is the position's value for the side to move, if known.
	Value Value
	Known bool
	// Moves are the position's distinct moves with their values for the
	// mover, where known (Known false where not yet).
	Moves []MoveStatus
	// Frontier is the number of units the solve needs next.
	Frontier int
}

// MoveStatus is a move and, if known, its value for the player making it.
type MoveStatus struct {
	Move  cheversi.Move
	Value Value
	Known bool
}

// StatusOf returns what res tells of p, solved in units at the cut ply.
func StatusOf(res *Results, p *cheversi.Position, cut int) Status {
	w := newWalker(res, cut)
	k := w.eval(p)
	st := Status{Value: k.v, Known: k.ok, Frontier: len(w.frontier)}
	if p.Ply() >= cut {
		return st
	}
	for _, c := range children(p) {
		ck := w.eval(&c.pos)
		st.Moves = append(st.Moves, MoveStatus{Move: c.move, Value: ck.v.Neg(), Known: ck.ok})
	}
	return st
}
