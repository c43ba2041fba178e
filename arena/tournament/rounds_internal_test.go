package tournament

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"
)

// resultOf is a game's result as a function of the game alone.
func resultOf(g schedule.Scheduled) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%d %s %s", g.ID, g.White, g.Black)
	return [3]string{"1-0", "0-1", "1/2-1/2"}[h.Sum32()%3]
}

// poolPlay plays the games a source hands out the way a pool of workers
// would: workers goroutines each take a game, hold it for a random while,
// and record it, so that the games come back in an order of their own. It
// returns every game played, by ID.
func poolPlay(t *testing.T, src *roundsSource, workers int, seed uint64) map[int]schedule.Scheduled {
	t.Helper()
	var mu sync.Mutex
	played := map[int]schedule.Scheduled{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() { // exits when the source has no game left
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			for {
				g, ok := src.Next(context.Background())
				if !ok {
					return
				}
				time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
				mu.Lock()
				played[g.ID] = g
				mu.Unlock()
				src.Recorded(&journal.Record{ID: g.ID, White: g.White, Black: g.Black, Result: resultOf(g)})
			}
		}()
	}
	wg.Wait()
	if err := src.Err(); err != nil {
		t.Fatal(err)
	}
	return played
}

// TestRoundsSourceAnyOrder plays Swiss and knockout schedules through a
// source with one worker and with many that record their games in random
// orders, as the local pool and a pool of remote workers do, and checks
// that every run plays the same games.
func TestRoundsSourceAnyOrder(t *testing.T) {
	bots := make([]string, 11)
	for i := range bots {
		bots[i] = fmt.Sprintf("b%d", i)
	}
	ops := []openings.Opening{{Name: "a", Moves: []string{"x"}}, {Name: "b", Moves: []string{"y"}}}
	for _, p := range []schedule.Plan{
		{Kind: schedule.Swiss, Seeds: bots, Rounds: 5, ByeHalfPoints: 2, FirstMover: "white"},
		{Kind: schedule.Knockout, Seeds: bots, Games: 2, TiebreakPairs: 2, Decider: schedule.DeciderArmageddon, FirstMover: "black"},
	} {
		var want map[int]schedule.Scheduled
		for run, workers := range []int{1, 4, 8, 8} {
			r, err := schedule.NewRounds(p, ops)
			if err != nil {
				t.Fatal(err)
			}
			got := poolPlay(t, newRoundsSource(r), workers, uint64(run))
			if !r.Finished() {
				t.Fatalf("%s: the source ran dry before the end", p.Kind)
			}
			if want == nil {
				want = got
				continue
			}
			ids := slices.Sorted(func(yield func(int) bool) {
				for id := range want {
					if !yield(id) {
						return
					}
				}
			})
			if len(got) != len(want) {
				t.Fatalf("%s with %d workers: %d games, want %d", p.Kind, workers, len(got), len(want))
			}
			for _, id := range ids {
				if got[id] != want[id] {
					t.Fatalf("%s with %d workers: game %d is %+v, want %+v", p.Kind, workers, id, got[id], want[id])
				}
			}
		}
	}
}

// TestRoundsSourceStops checks that a source waiting for a round gives up
// when its context is done.
func TestRoundsSourceStops(t *testing.T) {
	r, err := schedule.NewRounds(schedule.Plan{Kind: schedule.Swiss, Seeds: []string{"a", "b"}, Rounds: 2, FirstMover: "white"}, []openings.Opening{{Moves: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	src := newRoundsSource(r)
	for range 2 {
		if _, ok := src.Next(context.Background()); !ok {
			t.Fatal("no game of round 1")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if g, ok := src.Next(ctx); ok {
		t.Fatalf("a game of round 2 before round 1 is recorded: %+v", g)
	}
}
