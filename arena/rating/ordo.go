package rating

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// fitOrdoBounds fits the Ordo model the way ordo does when some players won
// or lost every game: those players are left out, the others are fitted on
// the games among themselves (and centred, or anchored, on their own), and
// each one left out is then rated where its record has even odds against
// its fitted opponents, with the fitted advantage and draw rate: the
// rating x with Π P(win)^n = 1/2 over its games for a player that won them
// all, Π P(loss)^n = 1/2 for one that lost them all. That rating is a
// bound (FitResult.Bound): the games say only that the player is at least
// (at most) about that strong.
//
// It returns nil and no error when no player won or lost every game, or
// when ordo's way does not give finite ratings (nothing is left, what is
// left is not linked in both directions, or a player left out met only
// other such players); Fit then adds virtual draws instead.
func fitOrdoBounds(names []string, cells []cell, opt Options) (*FitResult, error) {
	n := len(names)
	bound, winners, losers := perfectRecords(names, cells)
	if len(winners)+len(losers) == 0 {
		return nil, nil
	}
	index := make(map[string]int, n)
	for i, name := range names {
		index[name] = i
	}
	for _, a := range append(slices.Sorted(maps.Keys(opt.Anchors)), opt.Anchor) {
		if i, ok := index[a]; ok && bound[i] != 0 {
			return nil, fmt.Errorf("%w: anchor %q won or lost every game, so the ordo model gives it only a bound; anchor another player",
				ErrBadOptions, a)
		}
	}
	var rest []cell
	for _, c := range cells {
		if bound[c.f] == 0 && bound[c.s] == 0 {
			rest = append(rest, c)
		}
	}
	restNames, restCells := compact(names, rest)
	if len(restNames) != n-len(winners)-len(losers) {
		return nil, nil // a player met only players who won or lost every game
	}
	restGroup, _ := groups(len(restNames), restCells)
	if len(restCells) == 0 || !stronglyConnected(len(restNames), restCells, restGroup) {
		return nil, nil
	}
	sub, err := fitCells(restNames, restCells, opt)
	if err != nil {
		return nil, err
	}
	res := boundedResult(names, index, bound, sub)
	if !res.rateBounded(cells) {
		return nil, nil // met only players who also won or lost every game
	}
	var parts []string
	if len(winners) > 0 {
		parts = append(parts, strings.Join(winners, ", ")+" won every game")
	}
	if len(losers) > 0 {
		parts = append(parts, strings.Join(losers, ", ")+" lost every game")
	}
	res.Notes = append(res.Notes, fmt.Sprintf(
		"%s; as ordo does, the fit leaves them out and shows the rating at which that record has even odds, a bound (> at least, < at most) without an interval",
		strings.Join(parts, " and ")))
	return res, nil
}

// perfectRecords finds the players who won every game (bound 1) and those
// who lost every game (bound -1).
func perfectRecords(names []string, cells []cell) (bound []int, winners, losers []string) {
	n := len(names)
	points, played := make([]float64, n), make([]float64, n)
	for _, c := range cells {
		points[c.f] += c.points()
		points[c.s] += c.lost()
		played[c.f] += c.total()
		played[c.s] += c.total()
	}
	bound = make([]int, n)
	for i := range n {
		switch {
		case points[i] < 0.001:
			bound[i] = -1
			losers = append(losers, names[i])
		case played[i]-points[i] < 0.001:
			bound[i] = 1
			winners = append(winners, names[i])
		}
	}
	return bound, winners, losers
}

// boundedResult is the fit of every player from sub, the fit of those
// without a bound: their ratings and covariance as sub has them.
func boundedResult(names []string, index map[string]int, bound []int, sub *FitResult) *FitResult {
	n := len(names)
	res := &FitResult{
		Model:          Ordo,
		Players:        names,
		Ratings:        make([]float64, n),
		Group:          make([]int, n),
		Groups:         sub.Groups,
		Bound:          bound,
		Advantage:      sub.Advantage,
		AdvantageSE:    sub.AdvantageSE,
		AdvantageFixed: sub.AdvantageFixed,
		DrawRate:       sub.DrawRate,
		DrawRateLow:    sub.DrawRateLow,
		DrawRateHigh:   sub.DrawRateHigh,
		Scale:          1,
		LogLikelihood:  sub.LogLikelihood,
		Iterations:     sub.Iterations,
		Notes:          sub.Notes,
		index:          index,
	}
	cov := mat.NewSymDense(n, nil)
	for i, name := range names {
		j := sub.Index(name)
		if j < 0 {
			continue
		}
		res.Ratings[i], res.Group[i] = sub.Ratings[j], sub.Group[j]
		for k, other := range names {
			if l := sub.Index(other); l >= 0 && k >= i {
				cov.SetSym(i, k, sub.cov.At(j, l))
			}
		}
	}
	res.cov = cov
	return res
}

// rateBounded rates the players left out, against their fitted
// opponents: the rating at which their record has even odds. It reports
// false when one of them met only players who were left out too.
func (res *FitResult) rateBounded(cells []cell) bool {
	n, bound := len(res.Players), res.Bound
	type opponent struct{ rating, games float64 }
	against := make([][]opponent, n)
	for _, c := range cells {
		switch {
		case bound[c.f] != 0 && bound[c.s] == 0:
			against[c.f] = append(against[c.f], opponent{res.Ratings[c.s] - res.Advantage, c.total()})
			res.Group[c.f] = res.Group[c.s]
		case bound[c.s] != 0 && bound[c.f] == 0:
			against[c.s] = append(against[c.s], opponent{res.Ratings[c.f] + res.Advantage, c.total()})
			res.Group[c.s] = res.Group[c.f]
		}
	}
	for i := range n {
		if bound[i] == 0 {
			continue
		}
		if len(against[i]) == 0 {
			return false
		}
		ops := against[i]
		res.Ratings[i] = ordoEvenOdds(bound[i] > 0, func(x float64) float64 {
			var lp float64
			for _, o := range ops {
				e := sigmoid(ordoBeta * (x - o.rating))
				d := ordoDrawProb(e, res.DrawRate)
				p := e - d/2 // win
				if bound[i] < 0 {
					p = 1 - e - d/2 // loss
				}
				lp += o.games * math.Log(math.Max(p, 1e-300))
			}
			return lp
		}, ops[0].rating)
	}
	return true
}

// ordoEvenOdds returns the rating x at which logP(x), the log-probability
// of a player's record, is ln(1/2). logP increases with x when winner is
// true and decreases otherwise; start is a rating to search from.
func ordoEvenOdds(winner bool, logP func(x float64) float64, start float64) float64 {
	g := func(x float64) float64 { // increases with x; zero at the root
		v := logP(x) + math.Ln2
		if !winner {
			v = -v
		}
		return v
	}
	lo, hi := start, start
	for step := 100.0; g(lo) > 0 && step < 1e8; step *= 2 {
		lo -= step
	}
	for step := 100.0; g(hi) < 0 && step < 1e8; step *= 2 {
		hi += step
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if g(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}
