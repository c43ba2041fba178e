package schedule

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/bits"
	"slices"
	"strconv"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/openings"
	pair "github.com/arena-games/arena/arena/pairing"
)

// Formats whose pairings depend on results (Rounds lays them out).
const (
	Swiss    = "swiss"    // rounds paired by score (package pairing)
	Knockout = "knockout" // a seeded bracket of matches
)

// Deciders of a knockout match still tied after its tiebreak games.
const (
	// DeciderArmageddon plays one more game: the higher seed moves first
	// and a draw sends the other player through.
	DeciderArmageddon = "armageddon"
	// DeciderSeed sends the higher seed through without a game.
	DeciderSeed = "seed"
)

// Progressive reports whether a format's pairings depend on results, so
// that its schedule is laid out by Rounds rather than New.
func Progressive(format string) bool { return format == Swiss || format == Knockout }

// Plan is what lays out a Swiss or knockout tournament besides its
// openings. A manifest records it, so that a directory's schedule can be
// laid out again.
type Plan struct {
	Kind string `json:"kind"` // Swiss or Knockout
	// Seeds are the bots in seed order, the top seed first.
	Seeds []string `json:"seeds"`
	// Rounds is the number of Swiss rounds.
	Rounds int `json:"rounds,omitempty"`
	// ByeHalfPoints is what a Swiss bye scores, in half points (a pair
	// of games won is 4).
	ByeHalfPoints int `json:"bye_half_points,omitempty"`
	// Games is the number of games of a knockout match before any
	// tiebreak: colour-reversed pairs, so even.
	Games int `json:"games,omitempty"`
	// TiebreakPairs is the most colour-reversed pairs a tied knockout
	// match adds, one at a time, until a pair is won.
	TiebreakPairs int `json:"tiebreak_pairs,omitempty"`
	// Decider settles a knockout match still tied after its tiebreak
	// pairs: DeciderArmageddon or DeciderSeed.
	Decider string `json:"decider,omitempty"`
	// FirstMover is the colour that moves first under the rules, "white"
	// or "black": the armageddon decider gives it to the higher seed.
	FirstMover string `json:"first_mover"`
	// TiebreakTime is the time control of a knockout's tiebreak games
	// (its tiebreak pairs and decider; see Tiebreak), as the
	// configuration words it; "" when they keep the bots' own.
	TiebreakTime string `json:"tiebreak_time,omitempty"`
}

// Tiebreak reports whether game id of a knockout is one of a match's
// tiebreak games: a tiebreak pair or the decider, not one of its regular
// games. It follows from the ID alone, so that a resumed run plays each
// game under the same time control.
func (p *Plan) Tiebreak(id int) bool {
	if p.Kind != Knockout || id < 1 {
		return false
	}
	return (id-1)%p.block() >= p.Games
}

// validate checks the plan's parameters.
func (p *Plan) validate() error {
	if len(p.Seeds) < 2 {
		return fmt.Errorf("%w: a %s needs at least two bots, got %d", ErrInvalid, p.Kind, len(p.Seeds))
	}
	if _, err := game.ParseColor(p.FirstMover); err != nil {
		return fmt.Errorf("%w: the first mover: %w", ErrInvalid, err)
	}
	seen := map[string]bool{}
	for _, s := range p.Seeds {
		if seen[s] {
			return fmt.Errorf("%w: bot %q is seeded twice", ErrInvalid, s)
		}
		seen[s] = true
	}
	switch p.Kind {
	case Swiss:
		if p.Rounds < 1 {
			return fmt.Errorf("%w: a Swiss needs at least one round, got %d", ErrInvalid, p.Rounds)
		}
		if p.ByeHalfPoints < 0 || p.ByeHalfPoints > 4 {
			return fmt.Errorf("%w: a bye scores from 0 to 2 points (the pair of games it stands for), got %g", ErrInvalid, float64(p.ByeHalfPoints)/2)
		}
		if _, ok := mulCapped(MaxGames, p.Rounds, 2*(len(p.Seeds)/2)); !ok {
			return fmt.Errorf("%w: %d rounds of %d bots is more than %d games", ErrTooManyGames, p.Rounds, len(p.Seeds), MaxGames)
		}
	case Knockout:
		if p.Games < 2 || p.Games%2 != 0 {
			return fmt.Errorf("%w: a knockout match plays colour-reversed pairs of games: games must be even and at least 2, got %d", ErrInvalid, p.Games)
		}
		if p.TiebreakPairs < 0 {
			return fmt.Errorf("%w: tiebreak pairs must not be negative, got %d", ErrInvalid, p.TiebreakPairs)
		}
		if p.Decider != DeciderArmageddon && p.Decider != DeciderSeed {
			return fmt.Errorf("%w: unknown decider %q (want %q or %q)", ErrInvalid, p.Decider, DeciderArmageddon, DeciderSeed)
		}
		if _, ok := mulCapped(MaxGames, 2*len(p.Seeds), p.block()); !ok {
			return fmt.Errorf("%w: %d bots with matches of up to %d games is more than %d games", ErrTooManyGames, len(p.Seeds), p.block(), MaxGames)
		}
	default:
		return fmt.Errorf("%w: %q is not a format laid out round by round", ErrInvalid, p.Kind)
	}
	return nil
}

// block is the number of game IDs a knockout match holds: its games, its
// tiebreak pairs and the decider, rounded up to whole pairs.
func (p *Plan) block() int { return p.Games + 2*p.TiebreakPairs + 2 }

// Rounds is the schedule of a Swiss or knockout tournament, whose games
// depend on the results of earlier ones. It lays the games out as far as
// the results recorded so far determine them: the first round (or the
// first matches) at once, each later one when the games before it are
// recorded.
//
// Everything it lays out is a function of the plan, the openings and the
// results: game IDs are fixed by the structure (round and board in a
// Swiss, match and stage in a knockout), never by when a game was played,
// so feeding the same results in any order the rounds allow gives the same
// games. A run resumed from its journal, a run killed and resumed, and a
// run whose games are played elsewhere and come back in any order all
// pair the same rounds from the same results.
//
// A Rounds is not safe for concurrent use.
type Rounds struct {
	Openings []openings.Opening

	plan    Plan
	first   game.Color // the colour that moves first
	index   map[string]int
	laid    map[int]Scheduled
	order   []int // IDs in the order laid out
	results map[int]game.Result
	open    int // laid out, not recorded
	done    bool
	swiss   *swissState
	ko      *knockoutState
}

// NewRounds lays out what the plan gives before any result: the first
// Swiss round, or the first knockout matches.
func NewRounds(p Plan, ops []openings.Opening) (*Rounds, error) {
	p.Seeds = slices.Clone(p.Seeds)
	if err := p.validate(); err != nil {
		return nil, err
	}
	first, _ := game.ParseColor(p.FirstMover)
	if len(ops) == 0 {
		return nil, fmt.Errorf("%w: no openings", ErrInvalid)
	}
	r := &Rounds{Openings: ops, plan: p, first: first, index: map[string]int{}, laid: map[int]Scheduled{}, results: map[int]game.Result{}}
	for i, s := range p.Seeds {
		r.index[s] = i
	}
	var err error
	switch p.Kind {
	case Swiss:
		r.swiss = &swissState{players: make([]pair.Player, len(p.Seeds))}
		err = r.pairSwiss()
	case Knockout:
		r.ko = newKnockout(r)
		err = r.advanceKnockout()
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Plan returns the plan the schedule follows.
func (r *Rounds) Plan() Plan {
	p := r.plan
	p.Seeds = slices.Clone(p.Seeds)
	return p
}

// Games returns the games laid out so far, in the order they were laid
// out (by round, then by ID).
func (r *Rounds) Games() []Scheduled {
	out := make([]Scheduled, len(r.order))
	for i, id := range r.order {
		out[i] = r.laid[id]
	}
	return out
}

// Game returns the game with the given ID, and false when it is not laid
// out (yet).
func (r *Rounds) Game(id int) (Scheduled, bool) {
	g, ok := r.laid[id]
	return g, ok
}

// Result returns the recorded result of game id, from White's side.
func (r *Rounds) Result(id int) (game.Result, bool) {
	res, ok := r.results[id]
	return res, ok
}

// Finished reports whether every game the tournament will have is laid
// out and recorded.
func (r *Rounds) Finished() bool { return r.done }

// Recorded returns the number of games recorded.
func (r *Rounds) Recorded() int { return len(r.results) }

// Expected returns the number of games the tournament has: exactly for a
// Swiss; for a knockout, those of its matches without tiebreaks, or those
// laid out so far when more.
func (r *Rounds) Expected() int {
	if r.swiss != nil {
		return r.plan.Rounds * 2 * (len(r.plan.Seeds) / 2)
	}
	return max((len(r.plan.Seeds)-1)*r.plan.Games, len(r.laid))
}

// Record adds the result of game id (from White's side: game.WhiteWins,
// game.BlackWins or game.Draw) and returns the games it lays out, if any.
// A game that is not laid out, or already recorded, is an error wrapping
// ErrInvalid, and changes nothing.
func (r *Rounds) Record(id int, res game.Result) ([]Scheduled, error) {
	if _, ok := r.laid[id]; !ok {
		return nil, fmt.Errorf("%w: game %d is not laid out by the results before it", ErrInvalid, id)
	}
	if _, ok := r.results[id]; ok {
		return nil, fmt.Errorf("%w: game %d is recorded twice", ErrInvalid, id)
	}
	if res != game.WhiteWins && res != game.BlackWins && res != game.Draw {
		return nil, fmt.Errorf("%w: game %d: %q is not a result", ErrInvalid, id, res)
	}
	r.results[id] = res
	r.open--
	before := len(r.order)
	var err error
	if r.swiss != nil {
		if r.open == 0 {
			err = r.pairSwiss()
		}
	} else {
		err = r.advanceKnockout()
	}
	if err != nil {
		return nil, err
	}
	return r.Games()[before:], nil
}

// lay adds a game.
func (r *Rounds) lay(g Scheduled) {
	r.laid[g.ID] = g
	r.order = append(r.order, g.ID)
	r.open++
}

// points returns the points of White and Black in a result.
func points(res game.Result) (white, black int) {
	switch res {
	case game.WhiteWins:
		return 2, 0
	case game.BlackWins:
		return 0, 2
	}
	return 1, 1
}

// Fingerprint identifies the schedule together with the rules: the plan
// (seeds in order included) and the openings.
func (r *Rounds) Fingerprint(rules game.Rules) string {
	return r.FingerprintV2(rules.Game(), rules.Preset(), rules.Settings())
}

// FingerprintV2 is Fingerprint for the rules given by the game's name, the
// preset and every setting.
func (r *Rounds) FingerprintV2(gameName, preset string, settings []game.Setting) string {
	h := sha256.New()
	b := fingerprintHead(nil, "v2", gameName, preset, settings)
	p := r.plan
	b = fmt.Appendf(b, "format %q rounds %d bye %d games %d tiebreak %d decider %q first %q\n",
		p.Kind, p.Rounds, p.ByeHalfPoints, p.Games, p.TiebreakPairs, p.Decider, r.first.String())
	if p.TiebreakTime != "" { // absent from the fingerprints of plans without one
		b = fmt.Appendf(b, "tiebreak time %q\n", p.TiebreakTime)
	}
	for _, s := range p.Seeds {
		b = append(b, "seed "...)
		b = strconv.AppendQuote(b, s)
		b = append(b, '\n')
	}
	for _, o := range r.Openings {
		b = appendOpening(append(b, "opening "...), o)
		b = append(b, '\n')
	}
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// swissState is a Swiss tournament's standing between rounds.
type swissState struct {
	players []pair.Player // by seed
	round   int           // rounds laid out
	boards  []pair.Board  // of the last round laid out
	bye     int           // of the last round laid out, -1 for none
	byes    []int         // the bye of every round laid out, -1 for none
}

// boards returns the number of boards a Swiss round has.
func (r *Rounds) boards() int { return len(r.plan.Seeds) / 2 }

// pairSwiss scores the round just recorded, if any, and pairs the next
// one, or marks the tournament finished.
func (r *Rounds) pairSwiss() error {
	s := r.swiss
	if s.round > 0 {
		r.scoreSwiss()
	}
	if s.round == r.plan.Rounds {
		r.done = true
		return nil
	}
	round, err := pair.Swiss(s.players)
	if err != nil {
		return fmt.Errorf("%w: round %d: %w", ErrInvalid, s.round+1, err)
	}
	s.round++
	s.boards, s.bye = round.Boards, round.Bye
	s.byes = append(s.byes, round.Bye)
	opening := (s.round - 1) % len(r.Openings)
	for b, board := range round.Boards {
		white, black := r.plan.Seeds[board.White], r.plan.Seeds[board.Black]
		id := (s.round-1)*2*r.boards() + 2*b + 1
		key := pairKey(s.round, opening, pairing{white, black})
		r.lay(Scheduled{ID: id, Round: s.round, Opening: opening, White: white, Black: black, PairKey: key})
		r.lay(Scheduled{ID: id + 1, Round: s.round, Opening: opening, White: black, Black: white, PairKey: key})
	}
	return nil
}

// scoreSwiss adds the round just recorded to the players' history.
func (r *Rounds) scoreSwiss() {
	s := r.swiss
	before := make([]int, len(s.players))
	for i, p := range s.players {
		before[i] = p.Points
		s.players[i].Float = 0
	}
	for b, board := range s.boards {
		id := (s.round-1)*2*r.boards() + 2*b + 1
		w1, b1 := points(r.results[id])
		w2, b2 := points(r.results[id+1])
		wp, bp := &s.players[board.White], &s.players[board.Black]
		wp.Points += w1 + b2
		bp.Points += b1 + w2
		wp.Met = append(wp.Met, board.Black)
		bp.Met = append(bp.Met, board.White)
		wp.ColourDiff++
		bp.ColourDiff--
		wp.LastColour, bp.LastColour = 1, -1
		switch d := before[board.White] - before[board.Black]; {
		case d > 0:
			wp.Float, bp.Float = 1, -1
		case d < 0:
			wp.Float, bp.Float = -1, 1
		}
	}
	if s.bye >= 0 {
		s.players[s.bye].Points += r.plan.ByeHalfPoints
		s.players[s.bye].Byes++
	}
}

// RoundsScored returns the number of Swiss rounds whose games are all
// recorded (0 for a knockout).
func (r *Rounds) RoundsScored() int {
	if r.swiss == nil {
		return 0
	}
	if r.open == 0 {
		return r.swiss.round
	}
	return r.swiss.round - 1
}

// Byes returns, for each bot that had a bye, the rounds (from 1) in which
// it had one. A bye is no game: the points it scores (Plan.ByeHalfPoints)
// count in the Swiss standings, not in the ratings.
func (r *Rounds) Byes() map[string][]int {
	out := map[string][]int{}
	if r.swiss == nil {
		return out
	}
	for k, b := range r.swiss.byes {
		if b >= 0 {
			name := r.plan.Seeds[b]
			out[name] = append(out[name], k+1)
		}
	}
	return out
}

// knockoutState is the bracket of a knockout tournament.
type knockoutState struct {
	size    int     // slots of the first round, a power of two
	matches []match // every match of every round, the first round's first
}

// match is one knockout match: the entrants a and b (seed indexes, a the
// higher seed; -1 when not known yet, or a bye) and how far it got.
type match struct {
	round   int // of the bracket, from 1
	a, b    int
	known   bool // both entrants are known (a bye counts as known)
	stage   int  // 0: nothing laid out; 1: the regular games; 1+t: tiebreak pair t; last: the decider
	winner  int  // seed index; -1 while undecided
	decided bool
}

func newKnockout(r *Rounds) *knockoutState {
	slots := pair.Bracket(len(r.plan.Seeds))
	k := &knockoutState{size: len(slots)}
	rounds := bits.Len(uint(len(slots))) - 1
	for round, n := 1, len(slots)/2; round <= rounds; round, n = round+1, n/2 {
		for range n {
			k.matches = append(k.matches, match{round: round, a: -1, b: -1, winner: -1})
		}
	}
	for i := 0; i < len(slots); i += 2 {
		m := &k.matches[i/2]
		m.a, m.b = slots[i], slots[i+1]
		if m.b >= 0 && m.a > m.b {
			m.a, m.b = m.b, m.a
		}
		if m.a < 0 {
			m.a, m.b = m.b, -1
		}
		m.known = true
	}
	return k
}

// next returns the index of the match the winner of match m plays next,
// and which entrant slot it fills (0 or 1); -1 for the final.
func (k *knockoutState) next(m int) (int, int) {
	first, n := 0, k.size/2 // first match of m's round, and the round's matches
	for m >= first+n {
		first += n
		n /= 2
	}
	if n == 1 {
		return -1, 0
	}
	pos := m - first
	return first + n + pos/2, pos % 2
}

// advanceKnockout decides what the results allow and lays out the games
// that follow, until nothing more moves.
func (r *Rounds) advanceKnockout() error {
	k := r.ko
	for moved := true; moved; {
		moved = false
		for i := range k.matches {
			m := &k.matches[i]
			if !m.known || m.decided {
				continue
			}
			if r.stepMatch(i) {
				moved = true
			}
			if m.decided {
				if j, slot := k.next(i); j >= 0 {
					n := &k.matches[j]
					if slot == 0 {
						n.a = m.winner
					} else {
						n.b = m.winner
					}
					if k.filled(i) {
						if n.b >= 0 && (n.a < 0 || n.a > n.b) {
							n.a, n.b = n.b, n.a
						}
						n.known = true
					}
				} else {
					r.done = true
				}
				moved = true
			}
		}
	}
	return nil
}

// filled reports whether both matches feeding the match after m are
// decided.
func (k *knockoutState) filled(m int) bool {
	j, slot := k.next(m)
	for i := range k.matches {
		if i == m {
			continue
		}
		if jj, s := k.next(i); jj == j && s != slot {
			return k.matches[i].decided
		}
	}
	return false
}

// stepMatch moves match i on as far as its results allow: it lays out its
// next stage's games, or decides it. It reports whether anything changed.
func (r *Rounds) stepMatch(i int) bool {
	m := &r.ko.matches[i]
	if m.b < 0 { // a bye (or both entrants byes, which the bracket never has)
		m.winner, m.decided = m.a, true
		return true
	}
	p := r.plan
	if m.stage == 0 {
		for pair := range p.Games / 2 {
			r.layPair(i, pair)
		}
		m.stage = 1
		return true
	}
	base := i*p.block() + 1
	// Every game of the current stage must be recorded.
	first, last := r.stageIDs(i, m.stage)
	for id := first; id <= last; id++ {
		if _, ok := r.results[id]; !ok {
			return false
		}
	}
	if m.stage == 2+p.TiebreakPairs {
		// The armageddon decider: a draw goes to the second mover.
		g := r.laid[base+p.Games+2*p.TiebreakPairs]
		res := r.results[g.ID]
		winner := g.White
		if res == game.BlackWins || res == game.Draw && r.first == game.White {
			winner = g.Black
		}
		m.winner, m.decided = r.index[winner], true
		return true
	}
	a, b := r.matchPoints(i, first, last)
	switch {
	case a != b:
		m.winner, m.decided = m.a, true
		if b > a {
			m.winner = m.b
		}
	case m.stage <= p.TiebreakPairs:
		r.layPair(i, p.Games/2+m.stage-1)
		m.stage++
	case p.Decider == DeciderSeed:
		m.winner, m.decided = m.a, true
	default:
		m.stage = 2 + p.TiebreakPairs
		id := base + p.Games + 2*p.TiebreakPairs
		white, black := p.Seeds[m.a], p.Seeds[m.b]
		if r.first == game.Black {
			white, black = black, white // the higher seed moves first
		}
		r.lay(Scheduled{ID: id, Round: m.round, Opening: r.knockoutOpening(m.round, p.Games/2+p.TiebreakPairs), White: white, Black: black})
	}
	return true
}

// stageIDs returns the first and last IDs of the games of stage s of match
// i (1: the regular games; 1+t: tiebreak pair t; 2+TiebreakPairs: the
// decider).
func (r *Rounds) stageIDs(i, s int) (int, int) {
	p := r.plan
	base := i*p.block() + 1
	switch {
	case s == 1:
		return base, base + p.Games - 1
	case s <= 1+p.TiebreakPairs:
		first := base + p.Games + 2*(s-2)
		return first, first + 1
	}
	id := base + p.Games + 2*p.TiebreakPairs
	return id, id
}

// matchPoints returns the half points of match i's entrants over the
// games first to last.
func (r *Rounds) matchPoints(i, first, last int) (a, b int) {
	m := &r.ko.matches[i]
	for id := first; id <= last; id++ {
		g := r.laid[id]
		w, bl := points(r.results[id])
		if r.index[g.White] == m.a {
			a, b = a+w, b+bl
		} else {
			a, b = a+bl, b+w
		}
	}
	return a, b
}

// layPair lays out colour-reversed pair k of match i (its regular pairs
// first, then its tiebreak pairs), the higher seed White first.
func (r *Rounds) layPair(i, k int) {
	m := &r.ko.matches[i]
	p := r.plan
	id := i*p.block() + 1 + 2*k
	opening := r.knockoutOpening(m.round, k)
	a, b := p.Seeds[m.a], p.Seeds[m.b]
	key := fmt.Sprintf("k%d/m%d/p%d/%s/%s", m.round, i+1, k+1, a, b)
	r.lay(Scheduled{ID: id, Round: m.round, Opening: opening, White: a, Black: b, PairKey: key})
	r.lay(Scheduled{ID: id + 1, Round: m.round, Opening: opening, White: b, Black: a, PairKey: key})
}

// knockoutOpening returns the opening of pair k of a match in the given
// bracket round: every match of a round plays the same openings, and each
// round goes on along the list where the last one could have stopped.
func (r *Rounds) knockoutOpening(round, k int) int {
	p := r.plan
	perMatch := p.Games/2 + p.TiebreakPairs + 1
	return ((round-1)*perMatch + k) % len(r.Openings)
}

// Placing is where a knockout's bot finished: Place 1 for the winner, 2
// for the loser of the final, 3 for the losers of the semi-finals, 5 for
// those of the quarter-finals and so on; Round is the last bracket round
// it played (or had a bye in).
type Placing struct {
	Bot   string
	Place int
	Round int
}

// Placings returns the knockout's bots by their place so far (the winner
// first once decided; bots still in play share the place they are sure
// of), then by seed; nil for a Swiss.
func (r *Rounds) Placings() []Placing {
	if r.ko == nil {
		return nil
	}
	k := r.ko
	rounds := bits.Len(uint(k.size)) - 1
	loser := func(round int) int { // the place of a round's losers
		if round == rounds {
			return 2
		}
		return 1<<(rounds-round) + 1
	}
	out := make([]Placing, len(r.plan.Seeds))
	for i, s := range r.plan.Seeds {
		m := k.lastMatch(i)
		out[i] = Placing{Bot: s, Place: loser(m.round), Round: m.round}
		switch {
		case m.decided && m.winner == i && m.round == rounds:
			out[i].Place = 1
		case m.decided && m.winner == i:
			out[i].Place = loser(m.round + 1)
		}
	}
	slices.SortStableFunc(out, func(x, y Placing) int {
		if x.Place != y.Place {
			return x.Place - y.Place
		}
		return r.index[x.Bot] - r.index[y.Bot]
	})
	return out
}

// lastMatch returns the last match seed i is an entrant of, nil if none.
func (k *knockoutState) lastMatch(i int) *match {
	var last *match
	for j := range k.matches {
		m := &k.matches[j]
		if m.known && (m.a == i || m.b == i) {
			last = m
		}
	}
	return last
}

// Winner returns the knockout's winner once decided; "" otherwise.
func (r *Rounds) Winner() string {
	if r.ko == nil || !r.done {
		return ""
	}
	return r.plan.Seeds[r.ko.matches[len(r.ko.matches)-1].winner]
}
