package solve

import (
	"slices"

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
	ml.sort(&b, 0, nil)
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

// answer is the answer to "is the value at least t?": yes, no, or not
// known yet.
type answer int8

const (
	unknown answer = iota
	yes
	no
)

// Bounds are what is known of a value: Lo <= value <= Hi.
type Bounds struct {
	Lo, Hi Value
}

// Neg returns the bounds of the opponent's value.
func (b Bounds) Neg() Bounds { return Bounds{Lo: b.Hi.Neg(), Hi: b.Lo.Neg()} }

// Exact reports whether the bounds meet, at the value Lo.
func (b Bounds) Exact() bool { return b.Lo == b.Hi }

// String returns "a win", "at least a draw", "unknown" and so on.
func (b Bounds) String() string {
	switch {
	case b.Lo == b.Hi:
		return "a " + b.Lo.String()
	case b.Lo > Loss:
		return claim{b.Lo, true}.String()
	case b.Hi < Win:
		return claim{b.Hi, false}.String()
	}
	return "unknown"
}

// memoEntry is what a walk has found of a position.
type memoEntry struct {
	Bounds
	// pending marks the thresholds (index t) whose test was found not to
	// follow from what the walk knew then: asked again, it is taken as
	// still not known (the upward bounds are what a walk in another order
	// would have found).
	pending [2]bool
}

// walker computes the values of positions above the cut ply from the
// values of the positions at the cut ply, which it takes from a Results,
// and lists the positions at the cut ply it needs and does not have: the
// frontier.
//
// It never asks more than it needs: a position's value is found by two
// tests, "is it at least a draw?" and then, if so, "is it a win?", and a
// test at a position needs one move whose position fails the opposite test
// for the opponent, or all of them to pass it. So a move that holds a draw
// refutes a win at once, whatever the other moves are (alpha-beta on the
// three values, as the null-window searches of Schaeffer's checkers
// solver).
//
// At each position it looks at the moves in order and stops at the first
// that settles the test. When the answer for the first move is not known
// it waits for it before looking at the others (most positions are decided
// by their first move); once the first move is known not to settle it, all
// the others are needed anyway, and their needs join the frontier together.
// (This is the "young brothers wait" rule of parallel alpha-beta search.)
type walker struct {
	res  *Results
	cut  int
	memo map[uint64]memoEntry

	frontier []cheversi.Position
	inFront  map[uint64]bool

	// moves, when not nil, keeps each position's distinct moves across
	// walks (a Driver walks after every unit; generating the moves and
	// their positions' canonical hashes is most of a walk's time).
	moves *moveCache

	// up, when not nil, holds the bounds that follow from the results
	// whatever the order of the moves (see upward).
	up *upward

	// hist, when not nil, orders the moves of each position the walk
	// expands for the first time (see history).
	hist *history
}

// history counts, for each ply and move, the tests above the cut the move
// settled where one move was enough (the history heuristic of alpha-beta
// search): a move that refuted one position's test at a ply is likely to
// refute its siblings'. A Driver's walks order the moves of a position they
// meet for the first time by these counts, the most successful first, ties
// in the solver's order; the order changes what the driver solves first,
// never a value, and with upward any walk sees what another order settled.
type history struct {
	count   map[plyMove]int
	settled map[testKey]bool // tests already counted
}

type plyMove struct {
	ply  int
	move cheversi.Move
}

type testKey struct {
	key uint64
	t   Value
}

func newHistory() *history {
	return &history{count: map[plyMove]int{}, settled: map[testKey]bool{}}
}

// good counts move m, which settled the test t of the position of
// canonical hash key at ply, once for that position and test.
func (h *history) good(ply int, m cheversi.Move, key uint64, t Value) {
	if h == nil || h.settled[testKey{key, t}] {
		return
	}
	h.settled[testKey{key, t}] = true
	h.count[plyMove{ply, m}]++
}

// order sorts the moves of a position at ply by their counts, stably.
func (h *history) order(ply int, kms []keyedMove) {
	if h == nil {
		return
	}
	slices.SortStableFunc(kms, func(a, b keyedMove) int {
		return h.count[plyMove{ply, b.move}] - h.count[plyMove{ply, a.move}]
	})
}

func newWalker(res *Results, cut int) *walker {
	return &walker{res: res, cut: cut, memo: map[uint64]memoEntry{}, inFront: map[uint64]bool{}}
}

// keyedMove is a move and the canonical hash of the position it leads to.
type keyedMove struct {
	move cheversi.Move
	key  uint64
}

// moveCache holds the distinct moves of positions, in the order children
// gives them, by the position's own hash (not the canonical one: the moves
// are those of the position as it stands, not of an image of it).
type moveCache struct {
	m map[uint64][]keyedMove
}

// maxCachedPositions bounds a moveCache (about 250 bytes a position); past
// it the cache starts again empty.
const maxCachedPositions = 1 << 20

// movesOf returns p's distinct moves with their positions' canonical
// hashes, from the cache when there is one.
func (w *walker) movesOf(p *cheversi.Position) []keyedMove {
	var h uint64
	if w.moves != nil {
		h = p.Hash()
		if km, ok := w.moves.m[h]; ok {
			return km
		}
	}
	cs := children(p)
	km := make([]keyedMove, len(cs))
	for i, c := range cs {
		km[i] = keyedMove{c.move, c.key}
	}
	w.hist.order(p.Ply(), km)
	if w.moves != nil {
		if len(w.moves.m) >= maxCachedPositions {
			w.moves.m = map[uint64][]keyedMove{}
		}
		w.moves.m[h] = km
	}
	return km
}

// eval returns the value of p for the side to move, if it follows from the
// known values; if not, the positions it needs are on the frontier.
func (w *walker) eval(p *cheversi.Position) known {
	switch w.atLeast(p, Draw) {
	case unknown:
		return known{}
	case no:
		return known{Loss, true}
	}
	switch w.atLeast(p, Win) {
	case yes:
		return known{Win, true}
	case no:
		return known{Draw, true}
	}
	return known{}
}

// bounds returns what the known values show of p's value for the side to
// move: both tests asked, whatever the first one's answer (eval stops at
// an unknown first test).
func (w *walker) bounds(p *cheversi.Position) Bounds {
	w.atLeast(p, Draw)
	w.atLeast(p, Win)
	return w.peek(p, CanonicalKey(p))
}

// peek returns what is known of p's value without searching: from a solved
// unit, a finished game or an earlier test of this walk.
func (w *walker) peek(p *cheversi.Position, key uint64) Bounds {
	if b, ok := w.known(key); ok {
		return b
	}
	if p.Over() {
		v := terminalValue(p)
		return Bounds{Lo: v, Hi: v}
	}
	return Bounds{Lo: Loss, Hi: Win}
}

// atLeast answers whether p's value for the side to move is at least t
// (Draw or Win), if that follows from the known values; if not, the
// positions it needs are on the frontier.
func (w *walker) atLeast(p *cheversi.Position, t Value) answer {
	return w.test(p, CanonicalKey(p), t)
}

// test is atLeast for p of canonical hash key.
func (w *walker) test(p *cheversi.Position, key uint64, t Value) answer {
	m, ok := w.memo[key]
	if !ok {
		m.Bounds = w.peek(p, key)
	}
	switch {
	case m.Lo >= t:
		w.countSettler(p, key, t)
		return yes
	case m.Hi < t:
		return no
	case m.pending[t]:
		return unknown
	}
	var a answer
	if p.Ply() >= w.cut {
		if !w.inFront[key] {
			w.inFront[key] = true
			w.frontier = append(w.frontier, *p)
		}
	} else {
		a = w.testMoves(p, key, t)
	}
	switch a {
	case yes:
		m.Lo = t
	case no:
		m.Hi = t - 1
	default:
		m.pending[t] = true
	}
	w.memo[key] = m
	return a
}

// countSettler counts in the history the move that settles the test t of
// p, of canonical hash key, when p is known to pass it (from a move known
// to, for the bounds computed upward answer it before the walk looks at
// its moves): once for each position and test.
func (w *walker) countSettler(p *cheversi.Position, key uint64, t Value) {
	if w.hist == nil || p.Ply() >= w.cut || w.hist.settled[testKey{key, t}] {
		return
	}
	for _, km := range w.movesOf(p) {
		if b, ok := w.known(km.key); ok && b.Hi < 1-t {
			w.hist.good(p.Ply(), km.move, key, t)
			return
		}
	}
	w.hist.settled[testKey{key, t}] = true
}

// testMoves answers atLeast for a position above the cut ply from its
// moves: p is at least t when one move leads to a position below 1-t for
// the opponent (at most -t), and below t when every move leads to one at
// least 1-t.
func (w *walker) testMoves(p *cheversi.Position, key uint64, t Value) answer {
	kms := w.movesOf(p)
	// A move already known to settle the test settles it at once.
	for _, km := range kms {
		if b, ok := w.known(km.key); ok && b.Hi < 1-t {
			w.hist.good(p.Ply(), km.move, key, t)
			return yes
		}
	}
	all := true
	for i, km := range kms {
		q := *p
		q.Play(km.move)
		switch w.test(&q, km.key, 1-t) {
		case no:
			w.hist.good(p.Ply(), km.move, key, t)
			return yes
		case unknown:
			all = false
			if i == 0 {
				return unknown
			}
		}
	}
	if all {
		return no
	}
	return unknown
}

// known returns what the walk or the results know of the position of
// canonical hash key, without the position (so not whether it is a
// finished game).
func (w *walker) known(key uint64) (Bounds, bool) {
	if m, ok := w.memo[key]; ok {
		return m.Bounds, true
	}
	if w.up != nil {
		return w.up.known(key)
	}
	if e, ok := w.res.GetKey(key); ok {
		return Bounds{Lo: e.Value, Hi: e.Value}, true
	}
	return Bounds{}, false
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
	// Lo and Hi bound the value where it is not known: Lo <= value <= Hi.
	Lo, Hi Value
	// Moves are the position's distinct moves with their values for the
	// mover, where known (Known false where not yet).
	Moves []MoveStatus
	// Frontier is the number of units the solve needs next.
	Frontier int
}

// MoveStatus is a move and what is known of its value for the player
// making it: Lo <= value <= Hi, the value itself when Known.
type MoveStatus struct {
	Move   cheversi.Move
	Value  Value
	Known  bool
	Lo, Hi Value
}

// StatusOf returns what res tells of p, solved in units at the cut ply.
func StatusOf(res *Results, p *cheversi.Position, cut int) Status {
	w := newWalker(res, cut)
	w.up = newUpward(res, p.Ply())
	w.eval(p)
	frontier := len(w.frontier)
	var st Status
	if p.Ply() < cut {
		for _, c := range children(p) {
			b := w.bounds(&c.pos)
			st.Moves = append(st.Moves, MoveStatus{Move: c.move, Value: b.Lo.Neg(), Known: b.Exact(), Lo: b.Hi.Neg(), Hi: b.Lo.Neg()})
		}
	}
	// The position's own bounds last, when the walk knows its moves'.
	b := w.bounds(p)
	st.Value, st.Known, st.Lo, st.Hi, st.Frontier = b.Lo, b.Exact(), b.Lo, b.Hi, frontier
	return st
}
