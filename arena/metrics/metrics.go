package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/arena-games/arena/arena/game"
)

// Game is what the metrics need of one finished game.
type Game struct {
	// FirstMover is the colour that moved first.
	FirstMover game.Color
	// Result is the result from White's side; a finished game's, never
	// game.Ongoing.
	Result game.Result
	// Reason says how the game ended: a game.Reason* constant or one the
	// caller adds (a forfeit, an adjudication).
	Reason string
	// Forfeit is set when a forfeit decided the game rather than play.
	Forfeit bool
	// Plies is the number of plies from the start position, the opening's
	// included.
	Plies int
	// Scores are the final board scores indexed by game.Color, for games
	// that keep a score; nil otherwise.
	Scores []int
	// Legal holds the number of legal moves in the position before each
	// ply, from the start (see Legal); nil when unknown. When set it has
	// Plies entries.
	Legal []int
	// Evals are the evaluations the bots sent with their moves, in the
	// order of the plies.
	Evals []Eval
}

// Eval is an evaluation a bot sent with its move.
type Eval struct {
	// Ply is the ply of the move, counted from 1 at the start position.
	Ply int
	// Mover is the colour of the bot that moved.
	Mover game.Color
	// Score is the mover's evaluation from its own side, in its own unit:
	// above 0 it thinks it is ahead, 0 is even.
	Score int
}

// Legal replays moves (the whole game, the opening's moves included) from
// the start position of rules and returns the number of legal moves of
// the position before each of them: what the referee saw. It fails at the
// first move that is not legal.
func Legal(rules game.Rules, moves []string) ([]int, error) {
	return LegalFrom(rules.Start(), moves)
}

// LegalFrom is Legal from the position st (a game that started from an
// opening's position), which it plays the moves on.
func LegalFrom(st game.State, moves []string) ([]int, error) {
	counts := make([]int, len(moves))
	var buf []game.Move
	for i, text := range moves {
		buf = st.LegalMoves(buf[:0])
		counts[i] = len(buf)
		if _, err := game.PlayText(st, text); err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
	}
	return counts, nil
}

// Distribution describes the values of an integer quantity over games.
type Distribution struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	// SD is the standard deviation of the values (n − 1 in the
	// denominator; 0 for fewer than two).
	SD     float64 `json:"sd"`
	Min    int     `json:"min"`
	Max    int     `json:"max"`
	P10    float64 `json:"p10"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	// Counts holds how many games had each value, in increasing order of
	// value.
	Counts []ValueCount `json:"counts"`
}

// ValueCount is how many times a value occurred.
type ValueCount struct {
	Value int `json:"value"`
	Count int `json:"count"`
}

// histogram counts integer values.
type histogram map[int]int

func (h *histogram) add(v int) {
	if *h == nil {
		*h = histogram{}
	}
	(*h)[v]++
}

// distribution summarises h.
func (h histogram) distribution() Distribution {
	var d Distribution
	for v, c := range h {
		d.Counts = append(d.Counts, ValueCount{v, c})
		d.N += c
	}
	if d.N == 0 {
		return Distribution{}
	}
	slices.SortFunc(d.Counts, func(a, b ValueCount) int { return cmp.Compare(a.Value, b.Value) })
	d.Min, d.Max = d.Counts[0].Value, d.Counts[len(d.Counts)-1].Value
	var sum float64
	for _, vc := range d.Counts {
		sum += float64(vc.Value) * float64(vc.Count)
	}
	d.Mean = sum / float64(d.N)
	if d.N > 1 {
		var ss float64
		for _, vc := range d.Counts {
			x := float64(vc.Value) - d.Mean
			ss += x * x * float64(vc.Count)
		}
		d.SD = math.Sqrt(ss / float64(d.N-1))
	}
	d.P10, d.Median, d.P90 = d.quantile(0.1), d.quantile(0.5), d.quantile(0.9)
	return d
}

// quantile returns the q-quantile of the values by linear interpolation
// between the order statistics (the definition R calls type 7).
func (d Distribution) quantile(q float64) float64 {
	h := q * float64(d.N-1)
	lo := int(math.Floor(h))
	return d.nth(lo) + (h-float64(lo))*(d.nth(min(lo+1, d.N-1))-d.nth(lo))
}

// nth returns the i-th smallest value (from 0).
func (d Distribution) nth(i int) float64 {
	for _, vc := range d.Counts {
		if i < vc.Count {
			return float64(vc.Value)
		}
		i -= vc.Count
	}
	return float64(d.Max)
}

// PlyStat is the branching at one ply: over every position seen before that
// ply in the games.
type PlyStat struct {
	Ply       int     `json:"ply"`       // from 1
	Positions int     `json:"positions"` // games that reached it
	Legal     float64 `json:"legal"`     // mean legal moves
	Forced    float64 `json:"forced"`    // share with exactly one legal move
}

// ReasonCount is how many games ended one way.
type ReasonCount struct {
	Reason string `json:"reason"`
	Games  int    `json:"games"`
}

// Summary is the design metrics of a set of games (see the package
// documentation for the definitions). Rates are fractions from 0 to 1;
// fields over no games are 0, with the count that says so.
type Summary struct {
	Games  int           `json:"games"`  // every game added
	Played int           `json:"played"` // decided by play: the games of every figure below
	Ended  []ReasonCount `json:"ended"`  // every game, by how it ended; most frequent first

	FirstWins  int     `json:"first_wins"`
	Draws      int     `json:"draws"`
	SecondWins int     `json:"second_wins"`
	DrawRate   float64 `json:"draw_rate"`
	Decisive   float64 `json:"decisive"`
	Balance    float64 `json:"balance"`

	Length Distribution `json:"length"`
	// Margin is the first mover's board score minus the second mover's,
	// over the games that keep a score (N is 0 when none does).
	Margin Distribution `json:"margin"`

	// Branched is the number of games whose legal moves were known, over
	// which Branching, Forced and ByPly are computed.
	Branched  int       `json:"branched"`
	Branching float64   `json:"branching"`
	Forced    float64   `json:"forced"`
	ByPly     []PlyStat `json:"by_ply,omitempty"`

	// LeadChanges is over the games with at least two evaluations.
	LeadChanges Distribution `json:"lead_changes"`
	// DecidedAt is over the won games with at least one evaluation.
	DecidedAt Distribution `json:"decided_at"`
	// Drama is over the same games as DecidedAt.
	Drama float64 `json:"drama"`
}

// Tally sums games up for a Summary without keeping them: its memory grows
// with the distinct values seen (lengths, margins, plies), not with the
// games. The zero Tally is empty and ready to use.
type Tally struct {
	games, played                int
	ended                        map[string]int
	firstWins, draws, secondWins int
	length, margin               histogram
	branched                     int
	branching, forced            float64 // sums of the per-game means
	plyPositions, plyForced      []int
	plyLegal                     []float64
	leadChanges, decidedAt       histogram
	drama                        float64 // sum over the games of DecidedAt
}

// Add counts one finished game. A game whose Legal does not have Plies
// entries is counted without its branching.
func (t *Tally) Add(g Game) {
	t.games++
	if t.ended == nil {
		t.ended = map[string]int{}
	}
	t.ended[g.Reason]++
	if g.Forfeit || g.Result == game.Ongoing {
		return
	}
	t.played++
	first := g.FirstMover
	switch w, ok := g.Result.Winner(); {
	case !ok:
		t.draws++
	case w == first:
		t.firstWins++
	default:
		t.secondWins++
	}
	t.length.add(g.Plies)
	if len(g.Scores) == 2 {
		t.margin.add(g.Scores[first] - g.Scores[first.Other()])
	}
	if len(g.Legal) == g.Plies && g.Plies > 0 {
		t.addLegal(g.Legal)
	}
	t.addEvals(g)
}

// addLegal counts a game's legal moves per ply.
func (t *Tally) addLegal(legal []int) {
	t.branched++
	var sum, forced int
	for i, n := range legal {
		if i >= len(t.plyPositions) {
			t.plyPositions = append(t.plyPositions, 0)
			t.plyForced = append(t.plyForced, 0)
			t.plyLegal = append(t.plyLegal, 0)
		}
		t.plyPositions[i]++
		t.plyLegal[i] += float64(n)
		sum += n
		if n == 1 {
			t.plyForced[i]++
			forced++
		}
	}
	t.branching += float64(sum) / float64(len(legal))
	t.forced += float64(forced) / float64(len(legal))
}

// addEvals counts a game's lead changes and, if it was won, when it was
// decided and its drama.
func (t *Tally) addEvals(g Game) {
	if len(g.Evals) >= 2 {
		t.leadChanges.add(LeadChanges(g.FirstMover, g.Evals))
	}
	winner, won := g.Result.Winner()
	if !won || len(g.Evals) == 0 {
		return
	}
	t.decidedAt.add(DecidedAt(winner, g.Plies, g.Evals))
	t.drama += Drama(winner, g.Evals)
}

// Summary returns the metrics of the games added so far.
func (t *Tally) Summary() Summary {
	s := Summary{Games: t.games, Played: t.played, FirstWins: t.firstWins, Draws: t.draws, SecondWins: t.secondWins,
		Branched: t.branched}
	for r, n := range t.ended {
		s.Ended = append(s.Ended, ReasonCount{r, n})
	}
	slices.SortFunc(s.Ended, func(a, b ReasonCount) int {
		return cmp.Or(cmp.Compare(b.Games, a.Games), cmp.Compare(a.Reason, b.Reason))
	})
	if n := float64(t.played); n > 0 {
		s.DrawRate = float64(t.draws) / n
		s.Decisive = float64(t.firstWins+t.secondWins) / n
		s.Balance = 1 - math.Abs(float64(t.firstWins-t.secondWins))/n
	}
	s.Length, s.Margin = t.length.distribution(), t.margin.distribution()
	if t.branched > 0 {
		s.Branching = t.branching / float64(t.branched)
		s.Forced = t.forced / float64(t.branched)
	}
	for i, n := range t.plyPositions {
		s.ByPly = append(s.ByPly, PlyStat{Ply: i + 1, Positions: n,
			Legal: t.plyLegal[i] / float64(n), Forced: float64(t.plyForced[i]) / float64(n)})
	}
	s.LeadChanges, s.DecidedAt = t.leadChanges.distribution(), t.decidedAt.distribution()
	if s.DecidedAt.N > 0 {
		s.Drama = t.drama / float64(s.DecidedAt.N)
	}
	return s
}

// Summarize returns the metrics of games.
func Summarize(games []Game) Summary {
	var t Tally
	for _, g := range games {
		t.Add(g)
	}
	return t.Summary()
}

// sideOf returns e's evaluation from side c's point of view.
func sideOf(c game.Color, e Eval) int {
	if e.Mover == c {
		return e.Score
	}
	return -e.Score
}

// LeadChanges returns how many times the sign of the evaluations, seen
// from side c (either side gives the same count), changed between
// consecutive evaluations that were not 0.
func LeadChanges(c game.Color, evals []Eval) int {
	n, last := 0, 0
	for _, e := range evals {
		v := sideOf(c, e)
		switch {
		case v == 0:
			continue
		case last != 0 && (v > 0) != (last > 0):
			n++
		}
		last = v
	}
	return n
}

// DecidedAt returns the ply of the first move from which the winner's
// evaluations (evals seen from the winner's side) never dropped below
// even again; plies when the last of them was below even. evals must not
// be empty.
func DecidedAt(winner game.Color, plies int, evals []Eval) int {
	at := evals[0].Ply
	for i, e := range evals {
		if sideOf(winner, e) < 0 {
			if i+1 < len(evals) {
				at = evals[i+1].Ply
			} else {
				at = plies
			}
		}
	}
	return at
}

// Drama returns the share of evals in which the winner was behind: below
// even from its side. It is 0 for no evaluations.
func Drama(winner game.Color, evals []Eval) float64 {
	if len(evals) == 0 {
		return 0
	}
	behind := 0
	for _, e := range evals {
		if sideOf(winner, e) < 0 {
			behind++
		}
	}
	return float64(behind) / float64(len(evals))
}
