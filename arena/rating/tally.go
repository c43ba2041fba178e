package rating

import (
	"slices"

	"github.com/arena-games/arena/arena/game"
)

// Tally accumulates games for an analysis without keeping them: it holds
// counts per pair of players, per opening and per player pair's
// colour-reversed pairs, and only the first game of each pair not yet
// complete. Its memory grows with the players and the openings, not with
// the games, so that a file of any length can be rated game by game.
//
// Two games with the same non-empty PairKey make a colour-reversed pair
// when the second has the first's players with the colours swapped; the
// key is then free again. A key whose second game is not colour-reversed,
// and a key left with one game at the end, make no pair: those games count
// only in the per-game figures, and a note says how many there were.
//
// The zero Tally is empty and ready to use.
type Tally struct {
	// player name -> id, in order of appearance until Analyze numbers
	// them in the order of the names (see order)
	index map[string]int
	names []string

	// The first mover's record by (first mover, second mover), of every
	// game; forfeited holds, by pairKey(first, second), those of the games
	// decided by a forfeit, so that the side balance's are the difference.
	// cells finds a pair of players' place in counts: an index that
	// Analyze lets go, for the fit not to hold it, and the next Add
	// rebuilds. counts hold no pointers, so that the collector has
	// nothing to scan in them; once ordered they are the cells of the fit.
	cells     cellIndex
	counts    []cell
	forfeited map[uint64]wdl32
	games     int
	draws     int
	forfeits  int
	whites    int // side games in which White moved first
	blacks    int

	openings map[string]*openingTally // side games by opening
	pairs    map[uint64]int32         // colour-reversed pairs by (lower id, higher id): index into pents
	pents    []Pentanomial            // from the lower id's side
	sidePair Pentanomial              // the first mover's points per pair decided by play
	open     map[string]openGame      // first games of incomplete pairs, by key
	bad      int                      // games whose key made no pair
}

// openingTally is the first mover's record on one opening.
type openingTally struct {
	moves string
	c     WDL
}

// openGame is what the tally keeps of the first game of a pair until the
// second comes.
type openGame struct {
	white, black int     // player ids
	whitePoints  float64 // White's points
	firstPoints  float64 // the first mover's points
	byPlay       bool    // decided by play (Game.decidedByPlay)
}

// Games returns the number of games added.
func (t *Tally) Games() int { return t.games }

// Add counts one finished game. A game that is not (missing or equal
// names, an unfinished result, an unknown colour) is refused with an error
// wrapping ErrBadGame and not counted.
func (t *Tally) Add(g Game) error {
	if err := g.validate(); err != nil {
		return err
	}
	if t.index == nil {
		t.index = make(map[string]int)
		t.openings = make(map[string]*openingTally)
		t.pairs = make(map[uint64]int32)
		t.open = make(map[string]openGame)
	}
	white, black := t.id(g.White), t.id(g.Black)
	first, second, firstPoints := white, black, 1.0
	if g.FirstMover == game.Black {
		first, second = black, white
	}
	switch g.Result {
	case game.Draw:
		firstPoints = 0.5
		t.draws++
	case game.Win(g.FirstMover):
	default:
		firstPoints = 0
	}
	t.games++
	k := t.cell(first, second)
	t.counts[k].add(firstPoints)
	if !g.decidedByPlay() {
		t.forfeits++
		if t.forfeited == nil {
			t.forfeited = make(map[uint64]wdl32)
		}
		f := t.forfeited[pairKey(first, second)]
		f.add(firstPoints)
		t.forfeited[pairKey(first, second)] = f
	} else {
		if g.FirstMover == game.White {
			t.whites++
		} else {
			t.blacks++
		}
		if g.Opening != "" {
			o := t.openings[g.Opening]
			if o == nil {
				o = &openingTally{moves: g.OpeningMoves}
				t.openings[g.Opening] = o
			}
			o.c.add(firstPoints)
		}
	}
	if g.PairKey != "" {
		t.addPaired(g.PairKey, openGame{white: white, black: black, whitePoints: g.pointsFor(g.White), firstPoints: firstPoints, byPlay: g.decidedByPlay()})
	}
	return nil
}

// addPaired counts a game of a colour-reversed pair: the first of the two
// waits for the second, and the pair is counted once both are in.
func (t *Tally) addPaired(key string, this openGame) {
	prev, ok := t.open[key]
	if !ok {
		t.open[key] = this
		return
	}
	delete(t.open, key)
	if prev.white != this.black || prev.black != this.white {
		t.bad += 2
		return
	}
	white, black := this.white, this.black
	// The lower id's points: White's in one game, Black's in the other.
	lo, hi := min(white, black), max(white, black)
	points := prev.whitePoints + (1 - this.whitePoints)
	if prev.white != lo {
		points = 2 - points
	}
	pk, ok := t.pairs[pairKey(lo, hi)]
	if !ok {
		pk = int32(len(t.pents))
		t.pairs[pairKey(lo, hi)] = pk
		t.pents = append(t.pents, Pentanomial{})
	}
	t.pents[pk].addPair(points)
	if prev.byPlay && this.byPlay {
		t.sidePair.addPair(prev.firstPoints + this.firstPoints)
	}
}

// id returns the id of a player, adding it when new.
func (t *Tally) id(name string) int {
	if i, ok := t.index[name]; ok {
		return i
	}
	i := len(t.names)
	t.index[name] = i
	t.names = append(t.names, name)
	return i
}

// wdl32 counts wins, draws and losses compactly.
type wdl32 struct{ w, d, l int32 }

// add counts a game in which the first mover scored points.
func (c *wdl32) add(points float64) {
	switch points {
	case 1:
		c.w++
	case 0:
		c.l++
	default:
		c.d++
	}
}

// pairKey packs two player ids into a map key.
func pairKey(a, b int) uint64 { return uint64(a)<<32 | uint64(uint32(b)) }

// cell returns the place in counts of the games first moved first against
// second, making the index of counts again if Analyze let it go.
func (t *Tally) cell(first, second int) int32 {
	f, s := int32(first), int32(second)
	if t.cells.slots == nil {
		t.cells.rebuild(t.counts)
	}
	k, ok := t.cells.find(t.counts, f, s)
	if !ok {
		k = int32(len(t.counts))
		t.counts = append(t.counts, cell{f: f, s: s})
		t.cells.add(t.counts)
	}
	return k
}

// cellIndex finds the place in counts of the cell of two players: an
// open-addressing hash table of places (plus one, 0 marking a free slot)
// at most three quarters full, 4 bytes a slot, where a map takes several
// times that for each cell. The players are read from the counts themselves.
type cellIndex struct {
	slots []int32
}

// slot returns the slot of the cell of first and second in counts, or the
// free slot where it would go.
func (x *cellIndex) slot(counts []cell, first, second int32) int {
	mask := uint64(len(x.slots) - 1)
	h := (uint64(uint32(first))<<32 | uint64(uint32(second))) * 0x9e3779b97f4a7c15
	for i := (h ^ h>>32) & mask; ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 {
			return int(i)
		}
		if c := &counts[v-1]; c.f == first && c.s == second {
			return int(i)
		}
	}
}

// find returns the place in counts of the cell of first and second, and
// whether there is one.
func (x *cellIndex) find(counts []cell, first, second int32) (int32, bool) {
	v := x.slots[x.slot(counts, first, second)]
	return v - 1, v != 0
}

// add indexes the last cell of counts, growing the table to keep it at
// most three quarters full.
func (x *cellIndex) add(counts []cell) {
	if 4*len(counts) > 3*len(x.slots) {
		x.rebuild(counts)
		return
	}
	c := &counts[len(counts)-1]
	x.slots[x.slot(counts, c.f, c.s)] = int32(len(counts))
}

// rebuild indexes every cell of counts afresh, in a table at most half
// full.
func (x *cellIndex) rebuild(counts []cell) {
	size := 64
	for size < 2*len(counts)+2 {
		size *= 2
	}
	x.slots = make([]int32, size)
	for i := range counts {
		c := &counts[i]
		x.slots[x.slot(counts, c.f, c.s)] = int32(i + 1)
	}
}

// order numbers the players in the order of their names and sorts the
// counts by first mover, then second mover, so that they are the cells of
// an analysis as they are (no copy of them is made); it returns the names.
// The ids change, the places in counts too: the index of the counts is let
// go, for the next Add to make again.
func (t *Tally) order() []string {
	names := slices.Clone(t.names)
	slices.Sort(names)
	pos := make([]int32, len(t.names))
	moved := false
	for i, name := range names {
		pos[t.index[name]] = int32(i)
		moved = moved || t.index[name] != i
	}
	if moved {
		t.renumber(names, pos)
	}
	if !slices.IsSortedFunc(t.counts, compareCells) {
		sortCells(t.counts)
	}
	t.cells = cellIndex{}
	return names
}

// renumber gives each player the id pos[id]; names are the players by
// their new ids.
func (t *Tally) renumber(names []string, pos []int32) {
	for name, i := range t.index {
		t.index[name] = int(pos[i])
	}
	t.names = names
	for i := range t.counts {
		c := &t.counts[i]
		c.f, c.s = pos[c.f], pos[c.s]
	}
	if len(t.forfeited) > 0 {
		forfeited := make(map[uint64]wdl32, len(t.forfeited))
		for k, f := range t.forfeited {
			forfeited[pairKey(int(pos[k>>32]), int(pos[uint32(k)]))] = f
		}
		t.forfeited = forfeited
	}
	// The pairs' pentanomials are from the lower id's side.
	pairs := make(map[uint64]int32, len(t.pairs))
	for k, i := range t.pairs {
		lo, hi := pos[k>>32], pos[uint32(k)]
		if lo > hi {
			lo, hi = hi, lo
			t.pents[i] = t.pents[i].reversed()
		}
		pairs[pairKey(int(lo), int(hi))] = i
	}
	t.pairs = pairs
	for key, g := range t.open {
		g.white, g.black = int(pos[g.white]), int(pos[g.black])
		t.open[key] = g
	}
}

// sideCells returns the cells of the side balance's games: the counts
// less the games decided by a forfeit (see order). Cells without games
// are left out.
func (t *Tally) sideCells() []cell {
	cells := make([]cell, 0, len(t.counts))
	for _, c := range t.counts {
		if f, ok := t.forfeited[pairKey(int(c.f), int(c.s))]; ok {
			c.w, c.d, c.l = c.w-f.w, c.d-f.d, c.l-f.l
		}
		if c.w+c.d+c.l == 0 {
			continue
		}
		cells = append(cells, c)
	}
	return cells
}

// compact keeps the players who appear in cells, in order, and renumbers
// the cells accordingly.
func compact(names []string, cells []cell) ([]string, []cell) {
	keep := make([]int, len(names))
	for i := range keep {
		keep[i] = -1
	}
	for _, c := range cells {
		keep[c.f], keep[c.s] = 0, 0
	}
	var out []string
	for i, name := range names {
		if keep[i] == 0 {
			keep[i] = len(out)
			out = append(out, name)
		}
	}
	renum := make([]cell, len(cells))
	for i, c := range cells {
		c.f, c.s = int32(keep[c.f]), int32(keep[c.s])
		renum[i] = c
	}
	return out, renum
}
