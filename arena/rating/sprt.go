package rating

import (
	"fmt"
	"math"
)

// SPRTParams are the hypotheses and error rates of a sequential
// probability ratio test: H0 says the Elo difference is Elo0, H1 says it is
// Elo1 (Elo0 < Elo1, in the units of Model); Alpha is the probability of
// accepting H1 when H0 holds and Beta that of accepting H0 when H1 holds.
type SPRTParams struct {
	Elo0  float64 `json:"elo0" toml:"elo0"`
	Elo1  float64 `json:"elo1" toml:"elo1"`
	Alpha float64 `json:"alpha" toml:"alpha"`
	Beta  float64 `json:"beta" toml:"beta"`
	// Model is the Elo model of the hypotheses (the zero value is
	// logistic).
	Model SPRTModel `json:"model,omitempty" toml:"model"`
}

// SPRTModel is the Elo model in which an SPRT states its hypotheses.
type SPRTModel string

const (
	// LogisticElo is the classic Elo: elo = -400·log10(1/s - 1) for an
	// expected score s (fishtest's LLR_logistic). It is the default.
	LogisticElo SPRTModel = "logistic"
	// NormalizedElo measures the expected score in standard deviations of
	// the score per game (per game pair with pentanomial counts): nElo =
	// (s - 1/2)/σ · 800/ln 10, which does not depend on the draw rate.
	// It is fastchess's default.
	NormalizedElo SPRTModel = "normalized"
)

// String returns the model's name; the zero value is logistic.
func (m SPRTModel) String() string {
	if m == "" {
		return string(LogisticElo)
	}
	return string(m)
}

// Validate reports whether the parameters make a test.
func (p SPRTParams) Validate() error {
	switch {
	case !(p.Alpha > 0 && p.Alpha < 1) || !(p.Beta > 0 && p.Beta < 1):
		return fmt.Errorf("%w: SPRT alpha %v and beta %v must be in (0, 1)", ErrBadOptions, p.Alpha, p.Beta)
	case !(p.Alpha+p.Beta < 1):
		// The bounds ln(β/(1-α)) and ln((1-β)/α) would meet or cross, and
		// the test would decide before any game.
		return fmt.Errorf("%w: SPRT alpha + beta must be below 1 (got %v + %v): otherwise the bounds cross and the test decides before any game",
			ErrBadOptions, p.Alpha, p.Beta)
	case !(p.Elo0 < p.Elo1) || !(math.Abs(p.Elo0) <= maxSPRTElo) || !(math.Abs(p.Elo1) <= maxSPRTElo):
		return fmt.Errorf("%w: SPRT needs elo0 < elo1 within ±%g, got %v and %v", ErrBadOptions, maxSPRTElo, p.Elo0, p.Elo1)
	case p.Model != "" && p.Model != LogisticElo && p.Model != NormalizedElo:
		return fmt.Errorf("%w: SPRT model %q: want %q or %q", ErrBadOptions, string(p.Model), LogisticElo, NormalizedElo)
	}
	return nil
}

// maxSPRTElo bounds the hypotheses so that their expected scores stay
// strictly between 0 and 1.
const maxSPRTElo = 2000.0

// Bounds returns the log-likelihood-ratio bounds ln(β/(1-α)) and
// ln((1-β)/α).
func (p SPRTParams) Bounds() (lower, upper float64) {
	return math.Log(p.Beta / (1 - p.Alpha)), math.Log((1 - p.Beta) / p.Alpha)
}

// Decision is the state of a sequential test.
type Decision int

const (
	// Continue means neither bound has been reached.
	Continue Decision = iota
	// AcceptH0 means the LLR fell to the lower bound.
	AcceptH0
	// AcceptH1 means the LLR rose to the upper bound.
	AcceptH1
)

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// MarshalText encodes the decision as its String.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// SPRTResult is the state of a sequential test after some games.
type SPRTResult struct {
	Model    SPRTModel `json:"model"`
	LLR      float64   `json:"llr"`
	Lower    float64   `json:"lower"`
	Upper    float64   `json:"upper"`
	Decision Decision  `json:"decision"`
	// Pentanomial reports whether the pairs were used (otherwise the
	// games); N is the number of pairs or games.
	Pentanomial bool `json:"pentanomial"`
	N           int  `json:"n"`
}

// SPRT runs the generalised sequential probability ratio test of fishtest
// and fastchess on a two-player match, from the side of the player under
// test, and gives the log-likelihood ratio as fastchess computes it. When
// pentanomial counts are given (colour-reversed pairs) it uses them, with
// the per-pair scores {0, 1/4, 1/2, 3/4, 1}; otherwise the trinomial games
// {0, 1/2, 1}. Empty counts are replaced by 1e-3 as fishtest does.
//
// Logistic model: for each hypothesis k with expected score
// s_k = 1/(1+10^(-elo_k/400)) the distribution closest to the observed one
// with mean s_k is p_k,i = p̂_i/(1 + θ(a_i - s_k)), θ the root of
// Σ p̂_i(a_i - s_k)/(1 + θ(a_i - s_k)) = 0, and LLR = N·Σ p̂_i·ln(p_1,i/p_0,i).
//
// Normalized model: the hypotheses are t_k = nelo_k·ln 10/800 (times √2
// for pairs) and the closest distribution with (μ - 1/2)/σ = t_k is found by
// the fixed-point iteration of Van den Bergh's "Comments on normalized
// Elo" (section 4.1), as fastchess does it: from the uniform distribution,
// at most ten steps, until no probability moves by 1e-4.
//
// Roots are found by the ITP method with fastchess's tolerances (1e-3 for
// θ in the logistic model, 1e-7 in the normalized one), so that the ratio
// agrees with fastchess's to rounding.
func SPRT(p SPRTParams, games WDL, pairs Pentanomial) (SPRTResult, error) {
	if err := p.Validate(); err != nil {
		return SPRTResult{}, err
	}
	if games.Wins < 0 || games.Draws < 0 || games.Losses < 0 ||
		pairs[0] < 0 || pairs[1] < 0 || pairs[2] < 0 || pairs[3] < 0 || pairs[4] < 0 {
		return SPRTResult{}, fmt.Errorf("%w: negative counts", ErrBadOptions)
	}
	res := SPRTResult{Model: LogisticElo}
	if p.Model != "" {
		res.Model = p.Model
	}
	res.Lower, res.Upper = p.Bounds()
	var counts []float64
	var scores []float64
	if pairs.Pairs() > 0 {
		res.Pentanomial = true
		res.N = pairs.Pairs()
		for _, k := range pairs {
			counts = append(counts, float64(k))
		}
		scores = pairScores[:]
	} else {
		res.N = games.Games()
		counts = []float64{float64(games.Losses), float64(games.Draws), float64(games.Wins)}
		scores = []float64{0, 0.5, 1}
	}
	if res.N > 0 {
		if res.Model == NormalizedElo {
			// t = nElo·ln 10/800; a pair's spread is √2 times a game's.
			t0, t1 := p.Elo0*math.Ln10/800, p.Elo1*math.Ln10/800
			if res.Pentanomial {
				t0, t1 = t0*math.Sqrt2, t1*math.Sqrt2
			}
			res.LLR = normalizedLLR(t0, t1, counts, scores)
		} else {
			res.LLR = logisticLLR(p.Elo0, p.Elo1, counts, scores)
		}
	}
	switch {
	case res.LLR >= res.Upper:
		res.Decision = AcceptH1
	case res.LLR <= res.Lower:
		res.Decision = AcceptH0
	}
	return res, nil
}

// empirical returns the observed distribution with empty classes counted
// as 1e-3 games, and its total.
func empirical(counts []float64) (pdf []float64, n float64) {
	const epsilon = 1e-3
	pdf = make([]float64, len(counts))
	for i, c := range counts {
		pdf[i] = c
		if c == 0 {
			pdf[i] = epsilon
		}
		n += pdf[i]
	}
	for i := range pdf {
		pdf[i] /= n
	}
	return pdf, n
}

// llrOf returns N·Σ p̂_i·ln(p1_i/p0_i).
func llrOf(n float64, pdf, p0, p1 []float64) float64 {
	var llr float64
	for i := range pdf {
		llr += pdf[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * llr
}

// logisticLLR is fishtest's LLR_logistic on counts of outcomes with the
// given scores.
func logisticLLR(elo0, elo1 float64, counts, scores []float64) float64 {
	pdf, n := empirical(counts)
	mle := func(s float64) []float64 {
		last := len(scores) - 1
		theta := itp(func(x float64) float64 {
			var sum float64
			for i, a := range scores {
				sum += pdf[i] * (a - s) / (1 + x*(a-s))
			}
			return sum
		}, -1/(scores[last]-s), -1/(scores[0]-s), math.Inf(1), math.Inf(-1), 1e-3)
		q := make([]float64, len(pdf))
		for i, a := range scores {
			q[i] = pdf[i] / (1 + theta*(a-s))
		}
		return q
	}
	return llrOf(n, pdf, mle(ExpectedScore(elo0)), mle(ExpectedScore(elo1)))
}

// normalizedLLR is the normalized-Elo log-likelihood ratio for the
// hypotheses t0 and t1 ((μ - 1/2)/σ of one game or one pair).
func normalizedLLR(t0, t1 float64, counts, scores []float64) float64 {
	pdf, n := empirical(counts)
	mle := func(t float64) []float64 {
		const muRef = 0.5
		p := make([]float64, len(pdf))
		for i := range p {
			p[i] = 1 / float64(len(p))
		}
		phi := make([]float64, len(pdf))
		for range 10 {
			var mu, v float64
			for i, a := range scores {
				mu += a * p[i]
			}
			for i, a := range scores {
				v += p[i] * (a - mu) * (a - mu)
			}
			sigma := math.Sqrt(v)
			u, w := math.Inf(1), math.Inf(-1)
			for i, a := range scores {
				d := (a - mu) / sigma
				phi[i] = a - muRef - 0.5*t*sigma*(1+d*d)
				u, w = math.Min(u, phi[i]), math.Max(w, phi[i])
			}
			theta := itp(func(x float64) float64 {
				var sum float64
				for i := range phi {
					sum += pdf[i] * phi[i] / (1 + x*phi[i])
				}
				return sum
			}, -1/w, -1/u, math.Inf(1), math.Inf(-1), 1e-7)
			var moved float64
			for i := range p {
				q := pdf[i] / (1 + theta*phi[i])
				moved = math.Max(moved, math.Abs(q-p[i]))
				p[i] = q
			}
			if moved < 1e-4 {
				break
			}
		}
		return p
	}
	return llrOf(n, pdf, mle(t0), mle(t1))
}

// itp finds a root of f between a and b, where f has the values fa and fb
// of opposite signs (infinite values are allowed), by the ITP method of
// Oliveira and Takahashi (ACM TOMS 47, 2021) with k1 = 0.1, k2 = 2 and
// n0 = 0.99, as fastchess uses it, to within epsilon.
func itp(f func(float64) float64, a, b, fa, fb, epsilon float64) float64 {
	const k1, k2, n0 = 0.1, 2.0, 0.99
	if fa > 0 {
		a, b = b, a
		fa, fb = fb, fa
	}
	nHalf := math.Ceil(math.Log2(math.Abs(b-a) / (2 * epsilon)))
	nMax := nHalf + n0
	for i := 0; math.Abs(b-a) > 2*epsilon && i < 10000; i++ {
		xHalf := (a + b) / 2
		r := epsilon*math.Pow(2, nMax-float64(i)) - (b-a)/2
		delta := k1 * math.Pow(b-a, k2)
		xf := (fb*a - fa*b) / (fb - fa)
		sigma := (xHalf - xf) / math.Abs(xHalf-xf)
		xt := xHalf
		if delta <= math.Abs(xHalf-xf) {
			xt = xf + sigma*delta
		}
		x := xHalf - sigma*r
		if math.Abs(xt-xHalf) <= r {
			x = xt
		}
		fx := f(x)
		switch {
		case fx == 0:
			a, b = x, x
		case math.Signbit(fx):
			a, fa = x, fx
		default:
			b, fb = x, fx
		}
	}
	return (a + b) / 2
}
