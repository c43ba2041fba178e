package main

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/tournament"
)

func init() {
	register(command{
		name:    "bench",
		summary: "measure the arena's throughput with two built-in bots",
		run:     runBench,
	})
}

func runBench(ctx context.Context, args []string) error {
	fs := newFlagSet("bench", "[--game cheversi|checkers] [--games N] [--concurrency N] [--bot NAME] [--keep]")
	gameName := fs.String("game", "cheversi", "game: "+strings.Join(games.Names(), " or "))
	n := fs.Int("games", 2000, "games to play (rounded up to an even number)")
	concurrency := fs.Int("concurrency", 2, "games played at a time")
	bot := fs.String("bot", "random", "built-in bot playing both sides")
	keep := fs.Bool("keep", false, "keep the output directory (its path is printed)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *n < 1 || *concurrency < 1 {
		return usagef("--games and --concurrency must be at least 1")
	}
	dir, err := os.MkdirTemp("", "arena-bench-*")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintf(os.Stderr, "output in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}

	seedArgs := func(seed int) string {
		if *bot == "random" {
			return fmt.Sprintf("args = [\"--seed\", \"%d\"]\n", seed)
		}
		return ""
	}
	conf := fmt.Sprintf(`name = "bench"
concurrency = %d
[game]
name = %q
[openings]
limit = 1
[format]
rounds = %d
[time]
move = "10s"
[[bots]]
name = "a"
builtin = %q
%s[[bots]]
name = "b"
builtin = %q
%s`, *concurrency, *gameName, (*n+1)/2, *bot, seedArgs(1), *bot, seedArgs(2))
	cfg, err := tournament.Parse([]byte(conf), "bench", dir)
	if err != nil {
		return err
	}

	// Sample the live heap while the games run.
	var (
		mu         sync.Mutex
		peak, last uint64
	)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // samples until done is closed
		defer wg.Done()
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(s)
				mu.Lock()
				last = s[0].Value.Uint64()
				peak = max(peak, last)
				mu.Unlock()
			}
		}
	}()
	start := time.Now()
	sum, err := tournament.Run(ctx, cfg, tournament.Options{Out: dir})
	elapsed := time.Since(start)
	close(done)
	wg.Wait()
	if err != nil {
		return err
	}
	secs := elapsed.Seconds()
	fmt.Printf("%s, %d x %s at concurrency %d: %d games, %d plies in %v\n",
		*gameName, 2, *bot, *concurrency, sum.Played, sum.Plies, elapsed.Round(time.Millisecond))
	fmt.Printf("%.0f plies/s, %.1f games/s, %.1f µs/ply\n",
		float64(sum.Plies)/secs, float64(sum.Played)/secs, 1e6*secs/float64(max(sum.Plies, 1)))
	fmt.Printf("live heap: peak %.1f MiB, last %.1f MiB\n", float64(peak)/(1<<20), float64(last)/(1<<20))
	return nil
}
