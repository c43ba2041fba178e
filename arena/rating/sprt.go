package rating

import (
	"fmt"
	"math"
)

// SPRTParams are the hypotheses and error rates of a sequential
// probability ratio test: H0 says the Elo difference is Elo0, H1 says it is
// Elo1 (logistic Elo, Elo0 < Elo1); Alpha is the probability of accepting H1
// when H0 holds and Beta that of accepting H0 when H1 holds.
type SPRTParams struct {
	Elo0  float64 `json:"elo0" toml:"elo0"`
	Elo1  float64 `json:"elo1" toml:"elo1"`
	Alpha float64 `json:"alpha" toml:"alpha"`
	Beta  float64 `json:"beta" toml:"beta"`
}

// Validate reports whether the parameters make a test.
func (p SPRTParams) Validate() error {
	switch {
	case !(p.Alpha > 0 && p.Alpha < 1) || !(p.Beta > 0 && p.Beta < 1):
		return fmt.Errorf("%w: SPRT alpha %v and beta %v must be in (0, 1)", ErrBadOptions, p.Alpha, p.Beta)
	case !(p.Elo0 < p.Elo1) || !(math.Abs(p.Elo0) <= maxSPRTElo) || !(math.Abs(p.Elo1) <= maxSPRTElo):
		return fmt.Errorf("%w: SPRT needs elo0 < elo1 within ±%g, got %v and %v", ErrBadOptions, maxSPRTElo, p.Elo0, p.Elo1)
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
	LLR      float64  `json:"llr"`
	Lower    float64  `json:"lower"`
	Upper    float64  `json:"upper"`
	Decision Decision `json:"decision"`
	// Pentanomial reports whether the pairs were used (otherwise the
	// games); N is the number of pairs or games.
	Pentanomial bool `json:"pentanomial"`
	N           int  `json:"n"`
}

// SPRT runs the generalised sequential probability ratio test of fishtest
// and fastchess with the logistic Elo model on a two-player match, from
// the side of the player under test. When pentanomial counts are given
// (colour-reversed pairs) it uses them, the per-pair scores {0, 1/4, 1/2,
// 3/4, 1}; otherwise the trinomial games {0, 1/2, 1}. Empty counts are
// replaced by 1e-3 as fishtest does. For each hypothesis k with expected
// score s_k = 1/(1+10^(-elo_k/400)) the distribution closest to the
// observed one with mean s_k is p_k,i = p̂_i/(1 + θ(a_i - s_k)), with θ
// the root of Σ p̂_i(a_i - s_k)/(1 + θ(a_i - s_k)) = 0, and
// LLR = N·Σ p̂_i·ln(p_1,i/p_0,i).
func SPRT(p SPRTParams, games WDL, pairs Pentanomial) (SPRTResult, error) {
	if err := p.Validate(); err != nil {
		return SPRTResult{}, err
	}
	if games.Wins < 0 || games.Draws < 0 || games.Losses < 0 ||
		pairs[0] < 0 || pairs[1] < 0 || pairs[2] < 0 || pairs[3] < 0 || pairs[4] < 0 {
		return SPRTResult{}, fmt.Errorf("%w: negative counts", ErrBadOptions)
	}
	res := SPRTResult{}
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
		res.LLR = logisticLLR(p.Elo0, p.Elo1, counts, scores)
	}
	switch {
	case res.LLR >= res.Upper:
		res.Decision = AcceptH1
	case res.LLR <= res.Lower:
		res.Decision = AcceptH0
	}
	return res, nil
}

// logisticLLR is fishtest's LLR_logistic on counts of outcomes with the
// given scores.
func logisticLLR(elo0, elo1 float64, counts, scores []float64) float64 {
	const epsilon = 1e-3
	var n float64
	pdf := make([]float64, len(counts))
	for i, c := range counts {
		pdf[i] = math.Max(c, epsilon)
		n += pdf[i]
	}
	for i := range pdf {
		pdf[i] /= n
	}
	s0, s1 := ExpectedScore(elo0), ExpectedScore(elo1)
	p0 := closestWithMean(pdf, scores, s0)
	p1 := closestWithMean(pdf, scores, s1)
	var llr float64
	for i := range pdf {
		llr += pdf[i] * math.Log(p1[i]/p0[i])
	}
	return n * llr
}

// closestWithMean returns the distribution on the scores with mean s that
// maximises Σ pdf_i·ln(q_i): q_i = pdf_i/(1 + θ(a_i - s)).
func closestWithMean(pdf, scores []float64, s float64) []float64 {
	// g(θ) = Σ pdf_i(a_i - s)/(1 + θ(a_i - s)) decreases on the θ for which
	// every denominator is positive: (-1/max(a-s), -1/min(a-s)).
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, a := range scores {
		d := a - s
		switch {
		case d > 0:
			lo = math.Max(lo, -1/d)
		case d < 0:
			hi = math.Min(hi, -1/d)
		}
	}
	g := func(theta float64) float64 {
		var sum float64
		for i, a := range scores {
			d := a - s
			sum += pdf[i] * d / (1 + theta*d)
		}
		return sum
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if g(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	theta := lo + (hi-lo)/2
	q := make([]float64, len(pdf))
	for i, a := range scores {
		q[i] = pdf[i] / (1 + theta*(a-s))
	}
	return q
}
