package pairing

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Player is a Swiss entrant as the next round is paired: its points and
// its history. Players are identified by their index in the slice given
// to Swiss, which is also their seed: index 0 is the top seed.
type Player struct {
	// Points are the points so far in half points (a drawn game is 1, a
	// won game 2), byes included.
	Points int
	// Met lists the opponents met, one entry per round played against
	// them (indexes of the slice given to Swiss).
	Met []int
	// Byes is the number of byes received.
	Byes int
	// ColourDiff is the number of rounds the player had White in the first
	// game of its pair, minus those it had Black; LastColour is the
	// colour of its first game in the last round it played: +1 White, -1
	// Black, 0 none yet.
	ColourDiff int
	LastColour int
	// Float is +1 when the player met one with fewer points in its last
	// round (it floated down), -1 when it met one with more (it floated
	// up), 0 otherwise.
	Float int
}

// Board is one pairing of a round: White has White in the first game of
// the colour-reversed pair, Black in the second.
type Board struct{ White, Black int }

// Round is a round's pairings, top board first (the highest scores), and
// the player with the bye, -1 when there is none.
type Round struct {
	Boards []Board
	Bye    int
}

// ErrPlayers is wrapped by the errors about a field Swiss cannot pair.
var ErrPlayers = errors.New("cannot pair")

// Swiss pairs the next round of a Swiss tournament (see the package
// documentation for the criteria). It is deterministic: the same players
// with the same history always get the same round.
func Swiss(players []Player) (Round, error) {
	n := len(players)
	if n < 2 {
		return Round{}, fmt.Errorf("%w: a Swiss needs at least two players, got %d", ErrPlayers, n)
	}
	for i, p := range players {
		if p.Points < 0 || p.Byes < 0 {
			return Round{}, fmt.Errorf("%w: player %d has negative points or byes", ErrPlayers, i)
		}
		for _, o := range p.Met {
			if o < 0 || o >= n || o == i {
				return Round{}, fmt.Errorf("%w: player %d met player %d, which is not another player", ErrPlayers, i, o)
			}
		}
	}
	s := newSwissCosts(players)
	edges, err := s.edges()
	if err != nil {
		return Round{}, err
	}
	mate, err := MaxWeightMatching(s.vertices, edges, true)
	if err != nil {
		return Round{}, err
	}
	round := Round{Bye: -1}
	for i := range n {
		switch j := mate[i]; {
		case j == -1:
			return Round{}, fmt.Errorf("%w: player %d left unpaired", ErrPlayers, i) // cannot happen: the graph is complete
		case j == n:
			round.Bye = i
		case i < j:
			round.Boards = append(round.Boards, s.colours(i, j))
		}
	}
	slices.SortFunc(round.Boards, func(a, b Board) int {
		pa := [2]int{players[a.White].Points, players[a.Black].Points}
		pb := [2]int{players[b.White].Points, players[b.Black].Points}
		if c := cmp.Compare(max(pb[0], pb[1]), max(pa[0], pa[1])); c != 0 {
			return c
		}
		if c := cmp.Compare(pb[0]+pb[1], pa[0]+pa[1]); c != 0 {
			return c
		}
		return cmp.Compare(min(s.rank[a.White], s.rank[a.Black]), min(s.rank[b.White], s.rank[b.Black]))
	})
	for k, b := range round.Boards {
		round.Boards[k] = s.firstColour(b, k)
	}
	return round, nil
}

// swissCosts prices every possible pairing of a round. A pairing's cost
// is a sum of terms of four priorities, each term of a higher priority
// outweighing every term of the lower ones taken together over the whole
// round: rematches and second byes, then score differences, then repeated
// floats, then departures from the Dutch order within score groups.
type swissCosts struct {
	players  []Player
	n        int
	vertices int   // n, plus the bye's vertex when n is odd
	rank     []int // position by points, then seed
	group    []int // score group, 0 for the highest points
	inGroup  []int // position within the score group
	size     []int // size of each score group
	minPts   int
	met      []map[int]int
	// the weights of one unit of each priority
	wRepeat, wScore, wFloat int64
}

func newSwissCosts(players []Player) *swissCosts {
	n := len(players)
	s := &swissCosts{players: players, n: n, vertices: n + n%2}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(players[b].Points, players[a].Points) })
	s.rank, s.group, s.inGroup = make([]int, n), make([]int, n), make([]int, n)
	s.minPts = math.MaxInt
	for r, i := range order {
		s.rank[i] = r
		if r == 0 || players[i].Points != players[order[r-1]].Points {
			s.size = append(s.size, 0)
		}
		g := len(s.size) - 1
		s.group[i], s.inGroup[i] = g, s.size[g]
		s.size[g]++
		s.minPts = min(s.minPts, players[i].Points)
	}
	s.met = make([]map[int]int, n)
	maxRepeat := 0
	for i, p := range players {
		s.met[i] = map[int]int{}
		for _, o := range p.Met {
			s.met[i][o]++
		}
		maxRepeat = max(maxRepeat, len(p.Met), p.Byes)
	}
	maxDiff := int64(players[order[0]].Points - s.minPts)
	pairs := int64(s.vertices / 2)
	// One unit of each priority outweighs the most the lower ones can
	// add up to over the round's pairs.
	dutchMax := int64(n)
	s.wFloat = pairs*dutchMax + 1
	s.wScore = pairs*(dutchMax+2*s.wFloat) + 1
	s.wRepeat = pairs*(maxDiff*maxDiff*s.wScore+dutchMax+2*s.wFloat) + 1
	return s
}

// edges returns every possible pairing (and bye) as an edge weighing the
// largest cost less its own, so that the heaviest perfect matching is the
// cheapest round.
func (s *swissCosts) edges() ([]Edge, error) {
	type priced struct {
		i, j int
		cost float64 // to check the range before computing in integers
		c    int64
	}
	var all []priced
	var top float64
	add := func(i, j int, units [4]int64) {
		f := float64(units[0])*float64(s.wRepeat) + float64(units[1])*float64(s.wScore) + float64(units[2])*float64(s.wFloat) + float64(units[3])
		c := units[0]*s.wRepeat + units[1]*s.wScore + units[2]*s.wFloat + units[3]
		all = append(all, priced{i, j, f, c})
		top = max(top, f)
	}
	for i := range s.n {
		for j := i + 1; j < s.n; j++ {
			add(i, j, s.pairCost(i, j))
		}
		if s.vertices > s.n {
			add(i, s.n, s.byeCost(i))
		}
	}
	if top+1 >= maxMatchingWeight/4 {
		return nil, fmt.Errorf("%w: %d players with scores %d half points apart are too many to pair", ErrWeights, s.n, s.players[s.order0()].Points-s.minPts)
	}
	var ctop int64
	for _, p := range all {
		ctop = max(ctop, p.c)
	}
	edges := make([]Edge, len(all))
	for k, p := range all {
		edges[k] = Edge{p.i, p.j, ctop + 1 - p.c}
	}
	return edges, nil
}

// order0 returns the player ranked first.
func (s *swissCosts) order0() int { return slices.Index(s.rank, 0) }

// pairCost returns the units of each priority that pairing i with j
// costs.
func (s *swissCosts) pairCost(i, j int) [4]int64 {
	if s.rank[j] < s.rank[i] {
		i, j = j, i // i ranks higher
	}
	pi, pj := s.players[i], s.players[j]
	d := int64(pi.Points - pj.Points)
	var floats, dutch int64
	if s.group[i] == s.group[j] {
		// Dutch: the k-th of the group's top half meets the k-th of its
		// bottom half.
		half := s.size[s.group[i]] / 2
		dutch = int64(abs(s.inGroup[j] - s.inGroup[i] - half))
	} else {
		// The lowest of the higher group floats down to the highest of
		// the lower group; and no one floats the same way twice running.
		dutch = int64(s.size[s.group[i]]-1-s.inGroup[i]) + int64(s.inGroup[j])
		if pi.Float > 0 {
			floats++
		}
		if pj.Float < 0 {
			floats++
		}
	}
	return [4]int64{int64(s.met[i][j]), d * d, floats, dutch}
}

// byeCost returns the units of each priority that giving i the bye costs:
// the bye goes to a player without one, with the fewest points, ranked
// lowest.
func (s *swissCosts) byeCost(i int) [4]int64 {
	d := int64(s.players[i].Points - s.minPts)
	return [4]int64{int64(s.players[i].Byes), d * d, 0, int64(s.n - 1 - s.rank[i])}
}

// colours orders a pairing by rank, the colours to be settled later.
func (s *swissCosts) colours(i, j int) Board {
	if s.rank[j] < s.rank[i] {
		i, j = j, i
	}
	return Board{White: i, Black: j}
}

// firstColour gives White in the first game of board k's pair (White
// ranks higher on entry): to the player who had it less often, then to
// the one who had Black first last time, then on the top board and every
// second board below it to the higher-ranked player.
func (s *swissCosts) firstColour(b Board, k int) Board {
	hi, lo := s.players[b.White], s.players[b.Black]
	swap := false
	switch {
	case hi.ColourDiff != lo.ColourDiff:
		swap = lo.ColourDiff < hi.ColourDiff
	case hi.LastColour != lo.LastColour:
		swap = lo.LastColour < hi.LastColour
	default:
		swap = k%2 == 1
	}
	if swap {
		b.White, b.Black = b.Black, b.White
	}
	return b
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
