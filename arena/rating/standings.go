package rating

import (
	"cmp"
	"slices"
)

// StandingOptions says what a tournament's format adds to its standings
// by points (Analysis.Standings).
type StandingOptions struct {
	// Buchholz makes the Buchholz score a tiebreak (a Swiss).
	Buchholz bool
	// Byes counts each player's byes, which score ByePoints each: points
	// without a game, in the standings and not in the ratings.
	Byes      map[string]int
	ByePoints float64
	// Places ranks the players of a knockout by the place they reached
	// (1 for the winner, 2 the finalist, 3 the semi-finalists...) before
	// their points.
	Places map[string]int
	// RoundGames is the number of games two players play when they meet
	// in a round: 2 (the default) for a colour-reversed pair. Buchholz
	// counts an opponent once per round met.
	RoundGames int
}

// Standing is a player's line of the standings by points, the order of
// the tournament's table: by place (a knockout), then points, then the
// tiebreaks in the order of the fields below.
type Standing struct {
	Rank  int    `json:"rank"`
	Name  string `json:"name"`
	Place int    `json:"place,omitempty"` // a knockout's place (StandingOptions.Places)
	// Points are the points of the games (a draw counting half) and of
	// the byes.
	Points float64 `json:"points"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Byes   int     `json:"byes,omitempty"`
	// HeadToHead is the points scored against the players level with it
	// (same place and points); nil when none is, or when not every two
	// of them met, and then it breaks no tie.
	HeadToHead *float64 `json:"head_to_head"`
	// Buchholz is the sum of the points of the opponents, each counted
	// once per round met (StandingOptions.RoundGames games), a bye
	// counting the player's own points; nil unless a tiebreak
	// (StandingOptions.Buchholz).
	Buchholz *float64 `json:"buchholz"`
	// SonnebornBerger is the sum, over the opponents, of the points
	// scored against each times that opponent's points.
	SonnebornBerger float64 `json:"sonneborn_berger"`
}

// standings computes the standings by points of the players (names, the
// cells' indexes) from every game's cells.
func standings(names []string, cells []cell, opt StandingOptions) []Standing {
	if opt.RoundGames <= 0 {
		opt.RoundGames = 2
	}
	out := make([]Standing, len(names))
	for i, name := range names {
		out[i] = Standing{Name: name, Place: opt.Places[name], Byes: opt.Byes[name]}
		out[i].Points = float64(out[i].Byes) * opt.ByePoints
	}
	tallyStandings(out, cells)
	tiebreaks(out, cells, opt)
	headToHead(out, cells)
	slices.SortStableFunc(out, compareStandings)
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// meeting is what two players scored against each other: the points of
// the one of lower index, and their games.
type meeting struct{ points, games float64 }

// meetingOf returns the meeting of the players lo and hi (lo < hi) in
// cells (sorted), and whether they met.
func meetingOf(cells []cell, lo, hi int32) (m meeting, met bool) {
	if i, ok := findCell(cells, lo, hi); ok {
		c := &cells[i]
		m.points += c.points()
		m.games += c.total()
		met = true
	}
	if i, ok := findCell(cells, hi, lo); ok {
		c := &cells[i]
		m.points += c.lost()
		m.games += c.total()
		met = true
	}
	return m, met
}

// eachMeeting calls fn once for each two players that met in cells
// (sorted), lo < hi: the cells are the tally, so that no map of the pairs
// is made.
func eachMeeting(cells []cell, fn func(lo, hi int32, m meeting)) {
	for _, c := range cells {
		lo, hi := min(c.f, c.s), max(c.f, c.s)
		if c.f == hi {
			if _, back := findCell(cells, lo, hi); back {
				continue // met with the cell of lo moving first
			}
		}
		m, _ := meetingOf(cells, lo, hi)
		fn(lo, hi, m)
	}
}

// tallyStandings adds the results of cells to out.
func tallyStandings(out []Standing, cells []cell) {
	for _, c := range cells {
		f, s := &out[c.f], &out[c.s]
		f.Wins, f.Draws, f.Losses = f.Wins+int(c.w), f.Draws+int(c.d), f.Losses+int(c.l)
		s.Wins, s.Draws, s.Losses = s.Wins+int(c.l), s.Draws+int(c.d), s.Losses+int(c.w)
		f.Points += c.points()
		s.Points += c.lost()
	}
	for i := range out {
		out[i].Games = out[i].Wins + out[i].Draws + out[i].Losses
	}
}

// tiebreaks sets the Sonneborn-Berger score of each player of out, and
// its Buchholz score when opt asks for it.
func tiebreaks(out []Standing, cells []cell, opt StandingOptions) {
	buchholz := make([]float64, len(out))
	for i := range out {
		buchholz[i] = float64(out[i].Byes) * out[i].Points
	}
	eachMeeting(cells, func(lo, hi int32, m meeting) {
		out[lo].SonnebornBerger += m.points * out[hi].Points
		out[hi].SonnebornBerger += (m.games - m.points) * out[lo].Points
		buchholz[lo] += m.games / float64(opt.RoundGames) * out[hi].Points
		buchholz[hi] += m.games / float64(opt.RoundGames) * out[lo].Points
	})
	if opt.Buchholz {
		for i := range out {
			out[i].Buchholz = &buchholz[i]
		}
	}
}

// headToHead sets the head-to-head score of the players of out within
// each group of players level on place and points that all met each
// other.
func headToHead(out []Standing, cells []cell) {
	type level struct {
		place  int
		points float64
	}
	groups := map[level][]int{}
	for i, s := range out {
		l := level{s.Place, s.Points}
		groups[l] = append(groups[l], i)
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		if h2h, complete := groupHeadToHead(g, cells); complete {
			for a, i := range g {
				out[i].HeadToHead = &h2h[a]
			}
		}
	}
}

// groupHeadToHead returns the points each player of the group g (indices)
// scored against the others, and whether all of them met each other.
func groupHeadToHead(g []int, cells []cell) (h2h []float64, complete bool) {
	h2h = make([]float64, len(g))
	complete = true
	for a := range g {
		for b := a + 1; b < len(g); b++ {
			lo, hi := min(g[a], g[b]), max(g[a], g[b])
			m, met := meetingOf(cells, int32(lo), int32(hi))
			if !met {
				complete = false
				continue
			}
			pa := m.points // of lo
			if g[a] != lo {
				pa = m.games - m.points
			}
			h2h[a] += pa
			h2h[b] += m.games - pa
		}
	}
	return h2h, complete
}

// compareStandings orders two lines of the standings.
func compareStandings(a, b Standing) int {
	if c := cmp.Compare(placeKey(a.Place), placeKey(b.Place)); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Points, a.Points); c != 0 {
		return c
	}
	if a.HeadToHead != nil && b.HeadToHead != nil {
		if c := cmp.Compare(*b.HeadToHead, *a.HeadToHead); c != 0 {
			return c
		}
	}
	if a.Buchholz != nil && b.Buchholz != nil {
		if c := cmp.Compare(*b.Buchholz, *a.Buchholz); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(b.SonnebornBerger, a.SonnebornBerger); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Wins, a.Wins); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// placeKey orders places, no place (0) last.
func placeKey(p int) int {
	if p == 0 {
		return int(^uint(0) >> 1)
	}
	return p
}
