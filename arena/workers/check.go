package workers

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
)

// Errors of the check of a game a worker returns.
var (
	ErrOtherTournament = errors.New("a game of another tournament")
	ErrOtherSchedule   = errors.New("a game of another schedule")
	ErrNotHandedOut    = errors.New("a game that was not handed out")
	ErrNotScheduled    = errors.New("not the game the schedule has")
)

// check checks a game a worker returns before it is recorded: that it is
// of this tournament and schedule, that the coordinator handed it out
// (the batch's token), that it is the game the schedule has under its ID
// (players, round, opening, rules), and that it replays legally to its
// result, the arena's random plies included.
func (p *coordPool) check(res *result) error {
	rec, m := res.Record, p.t.Manifest
	switch {
	case res.Tournament != p.id:
		return fmt.Errorf("%w (%s)", ErrOtherTournament, res.Tournament)
	case res.Fingerprint != m.Fingerprint:
		return fmt.Errorf("%w (fingerprint %s, not %s)", ErrOtherSchedule, res.Fingerprint, m.Fingerprint)
	case !slices.Contains(res.Batch, rec.ID) || !checkToken(p.key, p.id, res.Batch, res.Token):
		return ErrNotHandedOut
	}
	g, ok := p.t.Game(rec.ID)
	if !ok || g.Opening < 0 || g.Opening >= len(p.t.Openings) {
		return fmt.Errorf("%w: the tournament has no game %d", ErrNotScheduled, rec.ID)
	}
	rules := p.t.Config.Rules
	op := p.t.Openings[g.Opening]
	switch {
	case rec.White != g.White || rec.Black != g.Black || rec.Round != g.Round || rec.PairKey != g.PairKey:
		return fmt.Errorf("%w: %s-%s (round %d, pair %s), not %s-%s (round %d, pair %s)", ErrNotScheduled,
			rec.White, rec.Black, rec.Round, rec.PairKey, g.White, g.Black, g.Round, g.PairKey)
	case rec.Opening.Index != g.Opening+1 || rec.Opening.Name != op.Name || !slices.Equal(rec.Opening.Moves, op.Moves):
		return fmt.Errorf("%w: opening %d %q, not %d %q", ErrNotScheduled, rec.Opening.Index, rec.Opening.Moves, g.Opening+1, op.Moves)
	case rec.Game != rules.Game() || rec.Preset != rules.Preset() || !slices.Equal(rec.Rules, rules.Settings()):
		return fmt.Errorf("%w: %s %s %s, not %s %s %s", ErrNotScheduled, rec.Game, rec.Preset, journal.RulesText(rec.Rules),
			rules.Game(), rules.Preset(), journal.RulesText(rules.Settings()))
	}
	if err := checkRandomPlies(rules, op, rec); err != nil {
		return err
	}
	return journal.VerifyWith(rules, rec)
}

// checkRandomPlies checks that the plies the arena played at random in a
// deferred opening are those its seed gives, and only those.
func checkRandomPlies(rules game.Rules, op openings.Opening, rec *journal.Record) error {
	deferred := op.Deferred()
	if !deferred {
		for i, mv := range rec.Moves {
			if mv.Random {
				return fmt.Errorf("%w: ply %d marked random in a fixed opening", ErrNotScheduled, len(op.Moves)+i+1)
			}
		}
		return nil
	}
	st := rules.Start()
	random := op.Player()
	for i, mv := range rec.Moves {
		ply := i + 1
		if op.RandomPly(ply) != mv.Random {
			return fmt.Errorf("%w: ply %d random %v, the opening says %v", ErrNotScheduled, ply, mv.Random, op.RandomPly(ply))
		}
		if mv.Random {
			want, ok, err := openings.PlayRandom(st, random)
			if err != nil || !ok || want != mv.Move {
				return fmt.Errorf("%w: random ply %d is %q, the opening's seed gives %q", ErrNotScheduled, ply, mv.Move, want)
			}
			continue
		}
		if _, err := game.PlayText(st, mv.Move); err != nil {
			return nil // the replay reports it
		}
	}
	return nil
}

// consistency is the check of each worker's results against the other
// workers': fishtest's, a chi-square test of homogeneity over the
// outcomes of the colour-reversed pairs each worker played (a pair is
// played by one worker: a batch holds whole pairs). The pairs are counted
// per pairing (the pair's bots), from the side of the bot listed first in
// the configuration, in five outcomes: 0, 1/2, 1, 3/2 or 2 points; the
// statistic of a worker sums, over the pairings, Pearson's chi-square of
// its outcomes against those of the other workers. A worker is
// flagged when its p-value, multiplied by the number of workers tested
// (Bonferroni), is below flagLevel.
type consistency struct {
	order   map[string]int                // bot → its place in the configuration
	open    map[string]openPair           // first game of a pair, by pair key
	counts  map[string]map[string]*[5]int // worker → pairing → outcome counts
	games   map[string]int                // games per worker
	flagged map[string]bool
	pairs   int // pairs counted since the last test
}

type openPair struct {
	worker string
	points float64 // of the pairing's first bot
}

const (
	flagLevel = 0.001
	// minPairs is how many pairs a worker, and the others, must have
	// played for it to be tested.
	minPairs = 20
	// testEvery is how many pairs go by between two tests.
	testEvery = 20
)

func newConsistency(bots []string) *consistency {
	order := map[string]int{}
	for i, b := range bots {
		order[b] = i
	}
	return &consistency{order: order, open: map[string]openPair{}, counts: map[string]map[string]*[5]int{},
		games: map[string]int{}, flagged: map[string]bool{}}
}

// pairing returns a record's pairing and its first bot.
func (c *consistency) pairing(rec *journal.Record) (key, first string) {
	a, b := rec.White, rec.Black
	if c.order[b] < c.order[a] {
		a, b = b, a
	}
	return a + " v " + b, a
}

// add counts a recorded game played by worker, and returns the lines that
// flag workers found standing out since the last test.
func (c *consistency) add(worker string, rec *journal.Record) []string {
	c.games[worker]++
	if rec.PairKey == "" {
		return nil
	}
	key, first := c.pairing(rec)
	pts := rec.Points(first)
	op, ok := c.open[rec.PairKey]
	if !ok {
		c.open[rec.PairKey] = openPair{worker: worker, points: pts}
		return nil
	}
	delete(c.open, rec.PairKey)
	if op.worker != worker {
		return nil // played by two workers (a batch handed to another): not counted
	}
	byPairing := c.counts[worker]
	if byPairing == nil {
		byPairing = map[string]*[5]int{}
		c.counts[worker] = byPairing
	}
	n := byPairing[key]
	if n == nil {
		n = new([5]int)
		byPairing[key] = n
	}
	n[int(math.Round(2*(op.points+pts)))]++
	c.pairs++
	if c.pairs < testEvery {
		return nil
	}
	c.pairs = 0
	var out []string
	for _, t := range c.test() {
		if t.flag && !c.flagged[t.worker] {
			c.flagged[t.worker] = true
			out = append(out, fmt.Sprintf("%s's results stand out from the other workers' (%s): check its machine and its bots", t.worker, t.text()))
		}
	}
	return out
}

// workerTest is the test of one worker.
type workerTest struct {
	worker    string
	pairs     int
	chi2      float64
	df        int
	p, padj   float64
	tested    bool
	flag      bool
	pairsRest int
}

func (t workerTest) text() string {
	return fmt.Sprintf("chi-square %.1f with %d degrees of freedom over %d pairs, p = %.2g, %.2g for the workers tested", t.chi2, t.df, t.pairs, t.p, t.padj)
}

// test tests every worker against the others. It goes in steps, as an
// outlier test must: a worker that stands out would make every other one
// look odd against a rest that holds it, so the worker that stands out
// most is set aside and the rest are tested again without it, until none
// stands out. A worker set aside keeps the test that set it aside.
func (c *consistency) test() []workerTest {
	workers := make([]string, 0, len(c.games))
	for w := range c.games {
		workers = append(workers, w)
	}
	sort.Strings(workers)
	aside := map[string]workerTest{}
	for {
		out := c.testAgainst(workers, aside)
		worst := -1
		for i, t := range out {
			if _, ok := aside[t.worker]; !ok && t.flag && (worst < 0 || t.padj < out[worst].padj) {
				worst = i
			}
		}
		if worst < 0 {
			for i, t := range out {
				if a, ok := aside[t.worker]; ok {
					out[i] = a
				}
			}
			return out
		}
		aside[out[worst].worker] = out[worst]
	}
}

// testAgainst tests each worker not set aside against the others not set
// aside, with Bonferroni's correction over the workers tested.
func (c *consistency) testAgainst(workers []string, aside map[string]workerTest) []workerTest {
	total := map[string]*[5]int{}
	for w, byPairing := range c.counts {
		if _, ok := aside[w]; ok {
			continue
		}
		for k, n := range byPairing {
			if total[k] == nil {
				total[k] = new([5]int)
			}
			for i := range n {
				total[k][i] += n[i]
			}
		}
	}
	var out []workerTest
	tested := 0
	for _, w := range workers {
		t := workerTest{worker: w}
		if _, ok := aside[w]; ok {
			out = append(out, t)
			continue
		}
		for k, all := range total {
			var mine [5]int
			if n := c.counts[w][k]; n != nil {
				mine = *n
			}
			chi2, df, pw, pr := chiSquare2xK(mine, *all)
			t.chi2 += chi2
			t.df += df
			t.pairs += pw
			t.pairsRest += pr
		}
		if t.pairs >= minPairs && t.pairsRest >= minPairs && t.df > 0 {
			t.tested = true
			t.p = distuv.ChiSquared{K: float64(t.df)}.Survival(t.chi2)
			tested++
		}
		out = append(out, t)
	}
	for i := range out {
		if out[i].tested {
			out[i].padj = math.Min(1, out[i].p*float64(tested))
			out[i].flag = tested >= 2 && out[i].padj < flagLevel
		}
	}
	return out
}

// chiSquare2xK returns Pearson's chi-square of the 2×K table of a
// worker's outcome counts against the others' (all less mine), its
// degrees of freedom (the outcomes seen, less one) and the two rows'
// totals.
func chiSquare2xK(mine, all [5]int) (chi2 float64, df, nMine, nRest int) {
	var rest [5]int
	for i := range all {
		rest[i] = all[i] - mine[i]
		nMine += mine[i]
		nRest += rest[i]
	}
	if nMine == 0 || nRest == 0 {
		return 0, 0, nMine, nRest
	}
	n := float64(nMine + nRest)
	cols := 0
	for i := range all {
		col := float64(all[i])
		if col == 0 {
			continue
		}
		cols++
		for _, row := range [2]struct{ o, total int }{{mine[i], nMine}, {rest[i], nRest}} {
			e := float64(row.total) * col / n
			d := float64(row.o) - e
			chi2 += d * d / e
		}
	}
	if cols < 2 {
		return 0, 0, nMine, nRest
	}
	return chi2, cols - 1, nMine, nRest
}

// rows describes each worker's share and test, for the log.
func (c *consistency) rows() []string {
	var out []string
	for _, t := range c.test() {
		line := fmt.Sprintf("%s played %d games, %d pairs", t.worker, c.games[t.worker], t.pairs)
		switch {
		case t.flag:
			line += "; its results stand out from the other workers' (" + t.text() + ")"
		case t.tested:
			line += "; consistent with the other workers' (" + t.text() + ")"
		default:
			line += fmt.Sprintf("; not tested against the others (fewer than %d pairs, or fewer than two workers)", minPairs)
		}
		out = append(out, line)
	}
	return out
}
