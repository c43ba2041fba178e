package builtin

import (
	"math"
	"testing"
)

// binomialTail returns P(X >= k) for X ~ Binomial(n, 1/2).
func binomialTail(n, k int) float64 {
	p := 0.0
	for i := k; i <= n; i++ {
		lg, _ := math.Lgamma(float64(n + 1))
		li, _ := math.Lgamma(float64(i + 1))
		lr, _ := math.Lgamma(float64(n - i + 1))
		p += math.Exp(lg - li - lr - float64(n)*math.Ln2)
	}
	return p
}

func TestBinomialTail(t *testing.T) {
	tests := []struct {
		n, k int
		want float64
	}{
		{1, 1, 0.5},
		{2, 1, 0.75},
		{4, 4, 1.0 / 16},
		{10, 0, 1},
		{10, 8, 56.0 / 1024},
	}
	for _, tt := range tests {
		if got := binomialTail(tt.n, tt.k); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("binomialTail(%d, %d) = %g, want %g", tt.n, tt.k, got, tt.want)
		}
	}
}

// TestStrength plays matches in both games: greedy must beat random, and
// alphabeta greedy, by at least 80% of the points; expert must beat
// alphabeta at the same node limit by at least 58%. Each pair of games is
// a random opening played with both colour assignments. Under the null
// hypothesis that the two bots are equally strong, every game is a coin
// toss; the test also requires that the points scored (draws rounded
// down) would come up by chance with probability below 1e-4 (1e-3 for
// expert). Searches are bounded by nodes, not time, so the result does not
// depend on the machine. The short version plays 40 games per match and
// leaves expert's out, the full one 100 (200 for expert, whose edge is
// smaller).
func TestStrength(t *testing.T) {
	pairs := 50
	if testing.Short() {
		pairs = 20
	}
	if raceEnabled {
		// The race detector makes the search ten times slower; a few
		// games still exercise the players concurrently.
		pairs = 2
	}
	random := func(seed uint64) Player { return NewRandom(seed) }
	greedy := func(seed uint64) Player { return NewGreedy(seed) }
	alphabeta := func(uint64) Player { return NewAlphaBeta(1) }
	expert := func(seed uint64) Player { return NewExpert(seed, 1) }
	const nodes = 20000
	matches := []struct {
		name           string
		game           string
		a, b           func(uint64) Player
		la, lb         Limits
		openingPlies   int
		pairs          int
		minScore, maxP float64
	}{
		{"cheversi/greedy-random", "cheversi", greedy, random, Limits{}, Limits{}, 2, pairs, 0.8, 1e-4},
		{"checkers/greedy-random", "checkers", greedy, random, Limits{}, Limits{}, 3, pairs, 0.8, 1e-4},
		{"cheversi/alphabeta-greedy", "cheversi", alphabeta, greedy, Limits{Nodes: nodes}, Limits{}, 2, pairs, 0.8, 1e-4},
		{"checkers/alphabeta-greedy", "checkers", alphabeta, greedy, Limits{Nodes: nodes}, Limits{}, 3, pairs, 0.8, 1e-4},
		{"cheversi/expert-alphabeta", "cheversi", expert, alphabeta, Limits{Nodes: 5000}, Limits{Nodes: 5000}, 4, 2 * pairs, 0.58, 1e-3},
	}
	for i, m := range matches {
		t.Run(m.name, func(t *testing.T) {
			if m.minScore < 0.8 && testing.Short() {
				t.Skip("a close match needs the full number of games")
			}
			r := playMatch(t, m.game, "", m.a, m.b, m.la, m.lb, m.pairs, m.openingPlies, uint64(100+i))
			n := r.games()
			k := r.wins + r.draws/2
			p := binomialTail(n, k)
			t.Logf("%s: %v; P(at least %d of %d points by chance) = %.2g", m.name, r, k, n, p)
			if raceEnabled {
				return
			}
			if r.points() < m.minScore*float64(n) || p >= m.maxP {
				t.Errorf("%s: %v, want at least %.0f%% and a chance probability below %g (got %.2g)", m.name, r, 100*m.minScore, m.maxP, p)
			}
		})
	}
}
