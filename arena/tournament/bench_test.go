package tournament_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"

	"github.com/arena-games/arena/arena/tournament"
)

// instantConfig is a round-robin of two instant bots at concurrency 2 with
// one opening (the start position) and the given number of rounds (two
// games each).
func instantConfig(tb testing.TB, gameName string, rounds int) *config.Config {
	body := fmt.Sprintf(`
name = "bench"
concurrency = 2
[game]
name = %q
[openings]
limit = 1
[format]
rounds = %d
[time]
move = "5s"
`, gameName, rounds)
	return loadConfig(tb, writeConfig(tb, body, "bench", testBot{"a", "random:1"}, testBot{"b", "random:2"}))
}

// BenchmarkTournament measures the arena's throughput with two instant
// bots at concurrency 2: every ply is one round trip to a bot process, one
// move decoded and refereed, and every game one journal line (fsynced) and
// one PGN/PDN game.
func BenchmarkTournament(b *testing.B) {
	for _, gameName := range []string{"cheversi", "checkers"} {
		b.Run(gameName, func(b *testing.B) {
			rounds := max(1, b.N/2)
			cfg := instantConfig(b, gameName, rounds)
			out := filepath.Join(b.TempDir(), "out")
			b.ResetTimer()
			start := time.Now()
			sum, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out})
			if err != nil {
				b.Fatal(err)
			}
			secs := time.Since(start).Seconds()
			b.ReportMetric(float64(sum.Plies)/secs, "plies/s")
			b.ReportMetric(float64(sum.Played)/secs, "games/s")
			b.ReportMetric(float64(sum.Plies)/float64(sum.Played), "plies/game")
		})
	}
}

// TestMemoryFlat plays a few thousand games and checks that the live heap
// does not grow with the number of games played.
func TestMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 3000 games")
	}
	const rounds = 1500
	cfg := instantConfig(t, "cheversi", rounds)
	out := filepath.Join(t.TempDir(), "out")

	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var (
		mu      sync.Mutex
		samples []uint64
	)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // samples until done is closed
		defer wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(sample)
				mu.Lock()
				samples = append(samples, sample[0].Value.Uint64())
				mu.Unlock()
			}
		}
	}()
	start := time.Now()
	sum, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out})
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	t.Logf("%d games, %d plies in %v: %.0f plies/s", sum.Played, sum.Plies, elapsed.Round(time.Millisecond), float64(sum.Plies)/elapsed.Seconds())
	if len(samples) < 9 {
		t.Skipf("only %d heap samples", len(samples))
	}
	third := len(samples) / 3
	peak := func(s []uint64) uint64 {
		m := uint64(0)
		for _, v := range s {
			m = max(m, v)
		}
		return m
	}
	early, late := peak(samples[:third]), peak(samples[2*third:])
	t.Logf("live heap: peak %d KiB in the first third, %d KiB in the last", early>>10, late>>10)
	if late > early+4<<20 {
		t.Errorf("live heap grew from %d KiB to %d KiB while playing", early>>10, late>>10)
	}
}
