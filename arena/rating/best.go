package rating

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Best is how sure the ranking is of its first player: the probability,
// under the fitted model, that the top-ranked player of the largest group
// is the strongest of it, and the same for the players with a chance of
// being so.
//
// The probabilities come from simulation: ratings are drawn many times
// and each player's share of the draws in which it comes out on top is its
// probability. The draws are from the fit's ratings with their covariance
// (the one the intervals and the likelihoods of superiority come from),
// combined with the spread of the field (empirical Bayes): the true
// ratings are taken to be spread as the fitted ones are, less what the
// fit's own errors add, τ² = var(ratings) - mean(SE²), so that each
// rating is drawn from N(R̂, Σ) and N(mean, τ²) together. Without that,
// the player ranked first would be taken to be as strong as it looks,
// where in a field of similar players it ranks first partly by luck, and
// the probability would be overstated (by 6 points in the simulations of
// the tests, 8 players of 28 games each). With few games per player the
// intervals are wide and the probability small, however clear the ranking
// looks.
type Best struct {
	// Player is the top-ranked player and Probability the probability
	// that it is the strongest of its group.
	Player      string  `json:"player"`
	Probability float64 `json:"probability"`
	// StdErr is the simulation's standard error of Probability.
	StdErr float64 `json:"std_err"`
	// Samples is the number of rating draws.
	Samples int `json:"samples"`
	// Contenders are the players with at least a 1-in-1000 chance of being
	// the strongest, by decreasing probability (the top-ranked among
	// them).
	Contenders []Chance `json:"contenders"`
}

// Chance is a player's probability of being the strongest.
type Chance struct {
	Name        string  `json:"name"`
	Probability float64 `json:"probability"`
}

// Thresholds of Best.
const (
	// BestSamples is the number of rating draws.
	BestSamples = 20000
	// maxContenders bounds the players drawn: those with the largest
	// chance of being above the top-ranked.
	maxContenders = 100
	// negligible is the chance of being above the top-ranked player (one
	// minus the likelihood of superiority) below which a player is left
	// out of the draws: it cannot change a probability shown by more.
	negligible = 1e-6
)

// bestOf computes Best for the fit's largest group; ranked lists the
// fit's indexes by rank. It returns nil with a reason when there is no
// such figure.
func bestOf(fit *FitResult, ranked []int) (*Best, string) {
	var group []int
	for _, i := range ranked {
		if fit.Group[i] == 0 {
			group = append(group, i)
		}
	}
	if len(group) < 2 {
		return nil, ""
	}
	top := group[0]
	if fit.Bound[top] != 0 {
		return nil, "no probability that the top-ranked player is the strongest: it won every game, so the ordo model gives it only a bound"
	}
	// The contenders: the top-ranked and those with a chance of being
	// above it.
	type cand struct {
		i     int
		above float64
	}
	var cands []cand
	for _, i := range group[1:] {
		if fit.Bound[i] < 0 {
			continue // lost every game
		}
		if fit.Bound[i] > 0 {
			return nil, "no probability that the top-ranked player is the strongest: a player who won every game has only a bound"
		}
		if above := 1 - fit.LOS(top, i); above >= negligible {
			cands = append(cands, cand{i, above})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.above, a.above) })
	if len(cands) > maxContenders-1 {
		cands = cands[:maxContenders-1]
	}
	idx := []int{top}
	for _, c := range cands {
		idx = append(idx, c.i)
	}
	mean, tau2 := fieldSpread(fit, group)
	wins := drawBest(fit, idx, mean, tau2, BestSamples)
	b := &Best{Player: fit.Players[top], Samples: BestSamples}
	for k, i := range idx {
		p := float64(wins[k]) / BestSamples
		if k == 0 {
			b.Probability = p
			b.StdErr = math.Sqrt(p * (1 - p) / BestSamples)
		}
		if p >= 0.001 {
			b.Contenders = append(b.Contenders, Chance{Name: fit.Players[i], Probability: p})
		}
	}
	slices.SortStableFunc(b.Contenders, func(x, y Chance) int { return cmp.Compare(y.Probability, x.Probability) })
	return b, ""
}

// fieldSpread estimates the spread of the true ratings of a group: the
// mean and the variance τ² of its fitted ratings, less the mean squared
// standard error (at least a hundredth of it, so that the players keep
// apart by what the games show).
func fieldSpread(fit *FitResult, group []int) (mean, tau2 float64) {
	var n, sum, sumSq, se2 float64
	for _, i := range group {
		if fit.Bound[i] != 0 {
			continue
		}
		r := fit.Ratings[i]
		n++
		sum += r
		sumSq += r * r
		se2 += fit.cov.At(i, i)
	}
	if n < 2 {
		return 0, math.Inf(1)
	}
	mean = sum / n
	variance := (sumSq - n*mean*mean) / (n - 1)
	return mean, math.Max(variance-se2/n, 0.01*se2/n)
}

// drawBest draws the ratings of the players idx samples times and counts,
// for each, the draws in which it comes out highest: from the normal
// distribution of the fit, N(R̂, Σ), combined with a prior N(mean, τ²)
// (see Best). The draws are seeded: the same fit gives the same counts.
func drawBest(fit *FitResult, idx []int, mean float64, tau2 float64, samples int) []int {
	k := len(idx)
	cov := mat.NewSymDense(k, nil)
	for a, i := range idx {
		for b := a; b < k; b++ {
			cov.SetSym(a, b, fit.Covariance(i, idx[b]))
		}
	}
	// In the covariance's eigenvectors (the covariance of centred
	// ratings is singular, which a Cholesky factorisation refuses), the
	// posterior of each component y with eigenvalue λ under the prior of
	// variance τ² is normal with mean (τ²·y + λ·m)/(λ + τ²) and variance
	// λ·τ²/(λ + τ²).
	var eig mat.EigenSym
	root := mat.NewDense(k, k, nil)
	post := make([]float64, k) // the posterior mean, in the eigenvectors
	if eig.Factorize(cov, true) {
		var vecs mat.Dense
		eig.VectorsTo(&vecs)
		vals := eig.Values(nil)
		for b := range k {
			lambda := math.Max(vals[b], 0)
			var y, m float64
			for a, i := range idx {
				y += vecs.At(a, b) * fit.Ratings[i]
				m += vecs.At(a, b) * mean
			}
			variance := lambda
			post[b] = y
			if !math.IsInf(tau2, 1) {
				variance = lambda * tau2 / (lambda + tau2)
				post[b] = (tau2*y + lambda*m) / (lambda + tau2)
			}
			for a := range k {
				root.Set(a, b, vecs.At(a, b)*math.Sqrt(variance))
			}
		}
		// Back from the eigenvectors: the posterior mean of each player.
		mu := make([]float64, k)
		for a := range k {
			for b := range k {
				mu[a] += vecs.At(a, b) * post[b]
			}
		}
		post = mu
	} else {
		for a, i := range idx {
			post[a] = fit.Ratings[i]
		}
	}
	means := post
	rng := rand.New(rand.NewPCG(0x5eed, uint64(k)))
	wins := make([]int, k)
	z := make([]float64, k)
	for range samples {
		for a := range z {
			z[a] = rng.NormFloat64()
		}
		best, bestR := 0, math.Inf(-1)
		for a := range k {
			r := means[a]
			row := root.RawRowView(a)
			for b, x := range row {
				r += x * z[b]
			}
			if r > bestR {
				best, bestR = a, r
			}
		}
		wins[best]++
	}
	return wins
}
