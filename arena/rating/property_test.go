package rating

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func simGames(seed uint64) []Game {
	rng := rand.New(rand.NewPCG(seed, 7))
	return simulate(rng, BayesElo, []float64{150, 60, 0, -40, -170}, 12, 50, 150)
}

func TestOrderInvariance(t *testing.T) {
	for _, m := range []Model{BayesElo, Ordo} {
		games := append(fixtureGames(), simGames(1)...)
		base, err := Fit(games, Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(9, 9))
		for range 5 {
			shuffled := slices.Clone(games)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			f, err := Fit(shuffled, Options{Model: m})
			if err != nil {
				t.Fatal(err)
			}
			for i, name := range base.Players {
				j := f.Index(name)
				if !near(f.Ratings[j], base.Ratings[i], 1e-9) || !near(f.StdErr(j), base.StdErr(i), 1e-9) {
					t.Errorf("%v: %s rated %v ± %v after shuffling, %v ± %v before", m, name, f.Ratings[j], f.StdErr(j), base.Ratings[i], base.StdErr(i))
				}
			}
			if !near(f.Advantage, base.Advantage, 1e-9) {
				t.Errorf("%v: advantage %v after shuffling, %v before", m, f.Advantage, base.Advantage)
			}
		}
	}
}

// Swapping colours and results keeps every player's results but hands the
// first move to the other player, so the advantage changes sign; so does
// declaring the other colour the first mover.
func TestSwapFlipsAdvantage(t *testing.T) {
	games := append(fixtureGames(), simGames(2)...)
	swapped := make([]Game, len(games))
	otherFirst := make([]Game, len(games))
	for i, g := range games {
		s := g
		s.White, s.Black = g.Black, g.White
		switch g.Result {
		case game.WhiteWins:
			s.Result = game.BlackWins
		case game.BlackWins:
			s.Result = game.WhiteWins
		}
		swapped[i] = s
		o := g
		o.FirstMover = game.Black
		otherFirst[i] = o
	}
	for _, m := range []Model{BayesElo, Ordo} {
		base, err := Fit(games, Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		if !(base.Advantage > 10) {
			t.Fatalf("%v: base advantage %v, want clearly positive", m, base.Advantage)
		}
		for name, variant := range map[string][]Game{"swapped": swapped, "black first": otherFirst} {
			f, err := Fit(variant, Options{Model: m})
			if err != nil {
				t.Fatal(err)
			}
			if !near(f.Advantage, -base.Advantage, 1e-6) || !near(f.AdvantageSE, base.AdvantageSE, 1e-6) {
				t.Errorf("%v %s: advantage %v ± %v, want %v ± %v", m, name, f.Advantage, f.AdvantageSE, -base.Advantage, base.AdvantageSE)
			}
			for i, p := range base.Players {
				if !near(f.Ratings[f.Index(p)], base.Ratings[i], 1e-6) {
					t.Errorf("%v %s: %s rated %v, want %v", m, name, p, f.Ratings[f.Index(p)], base.Ratings[i])
				}
			}
		}
	}
}

// A simulated tournament from known ratings must recover them within the
// reported intervals at about the stated rate.
func TestCoverage(t *testing.T) {
	replicates, lo, hi := 20, 0.85, 0.99
	if !testing.Short() {
		replicates, lo, hi = 200, 0.92, 0.975
	}
	truth := []float64{240, 130, 70, 0, -20, -90, -150, -180}
	var mean float64
	for _, r := range truth {
		mean += r
	}
	mean /= float64(len(truth))
	models := []struct {
		m         Model
		adv, draw float64
	}{{BayesElo, 40, 180}, {Ordo, 40, 0.35}}
	for _, mc := range models {
		rng := rand.New(rand.NewPCG(42, uint64(mc.m)))
		var covered, total, advCovered int
		for range replicates {
			games := simulate(rng, mc.m, truth, 80, mc.adv, mc.draw) // 2240 games
			a, err := Analyze(games, Options{Model: mc.m})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range a.Players {
				var i int
				for i = range truth {
					if playerName(i) == p.Name {
						break
					}
				}
				want := (truth[i] - mean) * a.Fit.Scale
				if math.Abs(p.Elo-want) <= p.Interval {
					covered++
				}
				total++
			}
			if a.Fit.Advantage == nil || a.Fit.AdvantageInterval == nil {
				t.Fatalf("%v: advantage not determined", mc.m)
			}
			if math.Abs(*a.Fit.AdvantageElo-mc.adv*a.Fit.Scale) <= *a.Fit.AdvantageInterval {
				advCovered++
			}
		}
		rate := float64(covered) / float64(total)
		advRate := float64(advCovered) / float64(replicates)
		t.Logf("%v: ratings covered %d/%d = %.3f, advantage %d/%d", mc.m, covered, total, rate, advCovered, replicates)
		if rate < lo || rate > hi {
			t.Errorf("%v: coverage of 95 %% intervals %.3f, want in [%v, %v]", mc.m, rate, lo, hi)
		}
		if advRate < 0.8 {
			t.Errorf("%v: advantage coverage %.2f, want about 0.95", mc.m, advRate)
		}
	}
}
