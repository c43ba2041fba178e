package rating

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
)

var benchGames = flag.Int("bench.games", 1_000_000, "games of BenchmarkAnalyzePlayers")

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

// randomGames plays games between players drawn at random, as a rating
// list's file holds them: n players with true ratings spread over 1,333
// Elo, White 30 Elo stronger, a fifth of the games drawn or so.
func randomGames(n, games int) []Game {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(games)))
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("Engine %04d", i)
	}
	out := make([]Game, games)
	for k := range out {
		w, b := rng.IntN(n), rng.IntN(n-1)
		if b >= w {
			b++
		}
		d := float64(w-b)*1333/float64(n) + 30
		e := 1 / (1 + math.Pow(10, -d/400))
		res := game.Draw
		switch u := rng.Float64(); {
		case u < e-0.15:
			res = game.WhiteWins
		case u > e+0.15:
			res = game.BlackWins
		}
		out[k] = Game{White: names[w], Black: names[b], FirstMover: game.White, Result: res}
	}
	return out
}

// BenchmarkAnalyzePlayers rates 10, 100 and 1,000 players from a million
// games between players drawn at random (-bench.games sets how many): the
// games go into a Tally one at a time, as arena rate takes them from a
// file, and are analysed with both models. Besides the allocations it
// reports the peak of the heap in use while tallying and analysing, above
// what was in use before (the games given to the tally): peak-heap-MiB,
// sampled every 10 ms.
func BenchmarkAnalyzePlayers(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		games := randomGames(n, *benchGames)
		for _, m := range []Model{BayesElo, Ordo} {
			b.Run(fmt.Sprintf("players=%d/%s", n, m), func(b *testing.B) {
				b.ReportAllocs()
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.HeapAlloc
				var peak uint64
				stop := watchHeap(&peak)
				defer func() {
					stop()
					b.ReportMetric(float64(peak-min(base, peak))/(1<<20), "peak-heap-MiB")
				}()
				for b.Loop() {
					var t Tally
					for _, g := range games {
						if err := t.Add(g); err != nil {
							b.Fatal(err)
						}
					}
					if _, err := t.Analyze(Options{Model: m}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// watchHeap samples the heap in use every 10 ms and keeps the largest value
// in *peak until the returned function is called.
func watchHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // exits when done is closed
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapAlloc)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
