package rating

import (
	"math/rand/v2"
	"testing"
)

// bench100 is a full round robin of 100 players with 10 games per pair
// (49,500 games).
func bench100() []Game {
	rng := rand.New(rand.NewPCG(1, 2))
	ratings := make([]float64, 100)
	for i := range ratings {
		ratings[i] = rng.NormFloat64() * 200
	}
	return simulate(rng, BayesElo, ratings, 10, 40, 120)
}

// BenchmarkFit100 fits 100 players after a full round robin of 10 games per
// pair (49,500 games).
func BenchmarkFit100(b *testing.B) {
	games := bench100()
	for _, m := range []Model{BayesElo, Ordo} {
		b.Run(m.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Fit(games, Options{Model: m}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAnalyze100 computes every statistic of the reports for the same
// games.
func BenchmarkAnalyze100(b *testing.B) {
	games := bench100()
	for b.Loop() {
		if _, err := Analyze(games, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
