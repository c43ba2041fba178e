package rating

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Elo returns the Elo difference that corresponds to an expected score s in
// [0, 1]: -400·log10(1/s - 1). It is +Inf for s = 1, -Inf for s = 0 and NaN
// outside [0, 1].
func Elo(s float64) float64 {
	switch {
	case s == 1:
		return math.Inf(1)
	case s == 0:
		return math.Inf(-1)
	case !(s > 0 && s < 1):
		return math.NaN()
	}
	return -400 * math.Log10(1/s-1)
}

// ExpectedScore returns the expected score for an Elo difference,
// 1/(1+10^(-elo/400)); it is the inverse of Elo.
func ExpectedScore(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// Quantile returns z such that a standard normal variable lies in [-z, z]
// with the given probability (1.959964 for 0.95).
func Quantile(confidence float64) float64 {
	return distuv.UnitNormal.Quantile(1 - (1-confidence)/2)
}

// WDL counts wins, draws and losses from one side.
type WDL struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games returns the number of games.
func (c WDL) Games() int { return c.Wins + c.Draws + c.Losses }

// Score returns (W + D/2)/N, or NaN when there are no games.
func (c WDL) Score() float64 {
	n := c.Games()
	if n == 0 {
		return math.NaN()
	}
	return (float64(c.Wins) + float64(c.Draws)/2) / float64(n)
}

// DrawRatio returns D/N, or NaN when there are no games.
func (c WDL) DrawRatio() float64 {
	n := c.Games()
	if n == 0 {
		return math.NaN()
	}
	return float64(c.Draws) / float64(n)
}

// add counts one game worth points (0, 0.5 or 1).
func (c *WDL) add(points float64) {
	switch points {
	case 1:
		c.Wins++
	case 0:
		c.Losses++
	default:
		c.Draws++
	}
}

// StdErr returns the standard error of the score, sqrt(var/N) with the
// per-game variance var = [W(1-s)² + D(1/2-s)² + L·s²]/N. It is NaN when
// there are no games.
func (c WDL) StdErr() float64 {
	n := float64(c.Games())
	if n == 0 {
		return math.NaN()
	}
	return math.Sqrt(c.variance() / n)
}

func (c WDL) variance() float64 {
	s := c.Score()
	n := float64(c.Games())
	return (float64(c.Wins)*(1-s)*(1-s) + float64(c.Draws)*(0.5-s)*(0.5-s) + float64(c.Losses)*s*s) / n
}

// EloMargin returns the Elo difference of the score and the half-width of
// its interval at the given confidence: margin = (Elo(s+z·SE) - Elo(s-z·SE))/2
// (as cutechess and fastchess compute it). The difference is ±Inf for a
// perfect score and the margin is NaN when the interval leaves (0, 1).
func (c WDL) EloMargin(confidence float64) (elo, margin float64) {
	return eloMargin(c.Score(), c.StdErr(), confidence)
}

// LOS returns the likelihood of superiority Φ((s - 1/2)/SE) (as fastchess
// and fishtest compute it): 1/2 without games, 0 or 1 when every game had
// the same result.
func (c WDL) LOS() float64 {
	if c.Games() == 0 {
		return 0.5
	}
	return normalLOS(c.Score(), c.StdErr())
}

// SignLOS returns cutechess's likelihood of superiority, a normal
// approximation of the sign test that ignores draws:
// 1/2 + 1/2·erf((W - L)/sqrt(2(W + L))).
func (c WDL) SignLOS() float64 {
	if c.Wins+c.Losses == 0 {
		return 0.5
	}
	w, l := float64(c.Wins), float64(c.Losses)
	return 0.5 + 0.5*math.Erf((w-l)/math.Sqrt(2*(w+l)))
}

// ZTest returns the trinomial z statistic (s - 1/2)/SE and its two-sided
// p-value. Without games, or when every game was a draw, z is 0 and p is 1;
// when SE is 0 otherwise, z is ±Inf and p is 0.
func (c WDL) ZTest() (z, p float64) {
	if c.Games() == 0 {
		return 0, 1
	}
	return zTest(c.Score(), c.StdErr())
}

// Pentanomial counts colour-reversed game pairs by the points one side took
// from the pair: [LL, LD, WL+DD, WD, WW], that is 0, 1/2, 1, 3/2 and 2
// points.
type Pentanomial [5]int

// pairScores are the pair scores of the pentanomial classes.
var pairScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// Pairs returns the number of pairs.
func (p Pentanomial) Pairs() int {
	return p[0] + p[1] + p[2] + p[3] + p[4]
}

// addPair counts a pair in which the side took points (0 to 2 in halves).
func (p *Pentanomial) addPair(points float64) {
	i := int(math.Round(points * 2))
	if i >= 0 && i < len(p) {
		p[i]++
	}
}

// Score returns the mean pair score Σ p_i·a_i with a = {0, 1/4, 1/2, 3/4, 1},
// or NaN when there are no pairs.
func (p Pentanomial) Score() float64 {
	n := p.Pairs()
	if n == 0 {
		return math.NaN()
	}
	var s float64
	for i, k := range p {
		s += float64(k) * pairScores[i]
	}
	return s / float64(n)
}

// Variance returns the per-pair variance Σ p_i(a_i - s)², or NaN when there
// are no pairs.
func (p Pentanomial) Variance() float64 {
	n := p.Pairs()
	if n == 0 {
		return math.NaN()
	}
	s := p.Score()
	var v float64
	for i, k := range p {
		d := pairScores[i] - s
		v += float64(k) * d * d
	}
	return v / float64(n)
}

// StdErr returns sqrt(var_pair/N_pairs), or NaN when there are no pairs.
func (p Pentanomial) StdErr() float64 {
	return math.Sqrt(p.Variance() / float64(p.Pairs()))
}

// EloMargin returns the Elo difference of the pair score and the half-width
// of its interval, as WDL.EloMargin but with the pair-wise standard error.
func (p Pentanomial) EloMargin(confidence float64) (elo, margin float64) {
	return eloMargin(p.Score(), p.StdErr(), confidence)
}

// LOS returns Φ((s - 1/2)/SE) with the pair-wise standard error.
func (p Pentanomial) LOS() float64 {
	if p.Pairs() == 0 {
		return 0.5
	}
	return normalLOS(p.Score(), p.StdErr())
}

// ZTest returns (s - 1/2)/SE with the pair-wise standard error and its
// two-sided p-value, with the same conventions as WDL.ZTest.
func (p Pentanomial) ZTest() (z, pValue float64) {
	if p.Pairs() == 0 {
		return 0, 1
	}
	return zTest(p.Score(), p.StdErr())
}

func eloMargin(s, se, confidence float64) (elo, margin float64) {
	elo = Elo(s)
	z := Quantile(confidence)
	margin = (Elo(s+z*se) - Elo(s-z*se)) / 2
	return elo, margin
}

func normalLOS(s, se float64) float64 {
	switch {
	case math.IsNaN(s):
		return 0.5
	case se > 0:
		return distuv.UnitNormal.CDF((s - 0.5) / se)
	case s > 0.5:
		return 1
	case s < 0.5:
		return 0
	}
	return 0.5
}

func zTest(s, se float64) (z, p float64) {
	switch {
	case math.IsNaN(s) || s == 0.5:
		return 0, 1
	case se > 0:
		z = (s - 0.5) / se
		return z, 2 * distuv.UnitNormal.CDF(-math.Abs(z))
	}
	return math.Copysign(math.Inf(1), s-0.5), 0
}

// Wilson returns the Wilson score interval for a proportion p observed in n
// trials at the given confidence: centre (p + z²/2n)/(1 + z²/n) and
// half-width z·sqrt(p(1-p)/n + z²/4n²)/(1 + z²/n). n need not be an integer
// (an effective sample size is fine). Without trials the interval is [0, 1].
func Wilson(p, n, confidence float64) (lo, hi float64) {
	if !(n > 0) || math.IsNaN(p) {
		return 0, 1
	}
	z := Quantile(confidence)
	z2 := z * z
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := z * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / den
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// ScoreInterval returns the Wilson interval of the score of c, applied with
// the effective sample size n = s(1-s)/SE², which accounts for draws. When
// that size is undefined (all games won, lost or drawn) the number of games
// is used instead.
func (c WDL) ScoreInterval(confidence float64) (lo, hi float64) {
	s, se := c.Score(), c.StdErr()
	n := float64(c.Games())
	if se > 0 && s > 0 && s < 1 {
		n = s * (1 - s) / (se * se)
	}
	return Wilson(s, n, confidence)
}

// SignTest returns the two-sided p-value of the exact sign test of wins
// against losses (draws ignored): with X ~ Binomial(W+L, 1/2),
// p = min(1, 2·min(P(X ≤ W), P(X ≥ W))). It is 1 without decisive games.
func SignTest(wins, losses int) float64 {
	n := wins + losses
	if n <= 0 || wins < 0 || losses < 0 {
		return 1
	}
	b := distuv.Binomial{N: float64(n), P: 0.5}
	lower := b.CDF(float64(wins))     // P(X ≤ W)
	upper := b.CDF(float64(n - wins)) // P(X ≥ W) = P(X ≤ n-W) by symmetry
	return math.Min(1, 2*math.Min(lower, upper))
}
