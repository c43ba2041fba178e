package builtin

// Bounds of a transposition table score.
const (
	boundNone  = 0
	boundLower = 1 // the score is at least the stored one (a beta cutoff)
	boundUpper = 2 // the score is at most the stored one (no move raised alpha)
	boundExact = boundLower | boundUpper
)

// ttEntry is one slot of the transposition table: 16 bytes.
type ttEntry struct {
	key   uint64
	score int32
	move  uint16 // the best move's code (see the searchers); 0 = none
	depth int8
	meta  uint8 // bound in the low 2 bits, search generation above
}

func (e *ttEntry) bound() uint8 { return e.meta & 3 }
func (e *ttEntry) gen() uint8   { return e.meta >> 2 }

// cutoff returns the score e gives a search depth plies deep, ply plies
// from the root, with the window (alpha, beta), and whether that score
// settles the search without searching. Only null-window searches take
// it: e must be as deep and its bound must decide the window.
func (e *ttEntry) cutoff(depth, alpha, beta, ply int) (int, bool) {
	if int(e.depth) < depth || beta-alpha != 1 {
		return 0, false
	}
	sc := scoreFromTT(int(e.score), ply)
	switch b := e.bound(); {
	case b == boundExact,
		b == boundLower && sc >= beta,
		b == boundUpper && sc <= alpha:
		return sc, true
	}
	return 0, false
}

// boundOf returns the bound of a search result best found with the window
// (alpha, beta): an upper bound when no move raised alpha, a lower bound
// at a cutoff, else exact.
func boundOf(best, alpha, beta int) uint8 {
	switch {
	case best <= alpha:
		return boundUpper
	case best >= beta:
		return boundLower
	}
	return boundExact
}

// table is a transposition table: a power-of-two array of entries indexed
// by the low bits of the key, with the full key stored to reject
// collisions of index. An entry is replaced by a search of the same
// position, by a deeper search, or when it was stored by an earlier call
// of Choose.
type table struct {
	entries []ttEntry
	mask    uint64
	gen     uint8 // 6 bits, bumped by each Choose
}

// newTable returns a table of about mb MiB (at least one entry).
func newTable(mb int) *table {
	n := uint64(1)
	for n*2*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &table{entries: make([]ttEntry, n), mask: n - 1}
}

// newSearch starts a new generation, so that entries of earlier searches
// give way to new ones.
func (t *table) newSearch() { t.gen = (t.gen + 1) & 63 }

// probe returns the entry for key, or nil.
func (t *table) probe(key uint64) *ttEntry {
	e := &t.entries[key&t.mask]
	if e.key != key || e.bound() == boundNone {
		return nil
	}
	return e
}

// store records a search result for key.
func (t *table) store(key uint64, depth int, score int, bound uint8, move uint16) {
	e := &t.entries[key&t.mask]
	if e.key == key || e.gen() != t.gen || depth >= int(e.depth) {
		if move == 0 && e.key == key {
			move = e.move // keep the best move of a shallower search
		}
		*e = ttEntry{key: key, score: int32(score), move: move, depth: int8(min(depth, 127)), meta: bound | t.gen<<2}
	}
}

// clear empties the table.
func (t *table) clear() {
	clear(t.entries)
	t.gen = 0
}

// Win scores are stored relative to the node (distance to the win from
// there) and read back relative to the root, so that a win found through a
// transposition at another ply keeps its meaning.
func scoreToTT(score, ply int) int {
	switch {
	case score > WinScore/2:
		return score + ply
	case score < -WinScore/2:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score > WinScore/2:
		return score - ply
	case score < -WinScore/2:
		return score + ply
	}
	return score
}
