package journal

import (
	"maps"
	"slices"
	"sort"
)

// Standing is one bot's line of the standings table.
type Standing struct {
	Bot      string
	Games    int
	Wins     int
	Draws    int
	Losses   int
	Points   float64 // wins + draws/2
	Forfeits int     // games lost by forfeit
}

// Score returns the points per game (0 without games).
func (s Standing) Score() float64 {
	if s.Games == 0 {
		return 0
	}
	return s.Points / float64(s.Games)
}

// Standings tallies records per bot. Every bot in bots gets a line, in the
// order of points (then wins, then name); bots that only appear in records
// are added.
func Standings(recs []Record, bots []string) []Standing {
	t := NewTally(bots)
	for i := range recs {
		t.Add(&recs[i])
	}
	return t.Standings()
}

// Tally accumulates standings game by game, so that a long tournament does
// not need its records in memory.
type Tally struct {
	idx  map[string]int
	rows []Standing
}

// NewTally returns a tally with a line for each of bots.
func NewTally(bots []string) *Tally {
	t := &Tally{idx: map[string]int{}}
	for _, b := range bots {
		t.row(b)
	}
	return t
}

func (t *Tally) row(name string) *Standing {
	i, ok := t.idx[name]
	if !ok {
		i = len(t.rows)
		t.idx[name] = i
		t.rows = append(t.rows, Standing{Bot: name})
	}
	return &t.rows[i]
}

// Clone returns a copy of t, which counts its games apart from t.
func (t *Tally) Clone() *Tally {
	c := &Tally{idx: maps.Clone(t.idx), rows: slices.Clone(t.rows)}
	return c
}

// Add counts a game.
func (t *Tally) Add(r *Record) {
	for _, name := range [2]string{r.White, r.Black} {
		s := t.row(name)
		s.Games++
		p := r.Points(name)
		switch p {
		case 1:
			s.Wins++
		case 0.5:
			s.Draws++
		default:
			s.Losses++
			if r.Forfeit != nil && r.Forfeit.Bot == name {
				s.Forfeits++
			}
		}
		s.Points += p
	}
}

// Standings returns the lines, sorted as Standings sorts them.
func (t *Tally) Standings() []Standing {
	out := append([]Standing(nil), t.rows...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		if a.Wins != b.Wins {
			return a.Wins > b.Wins
		}
		return a.Bot < b.Bot
	})
	return out
}
