package journal_test

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/game"
)

// TestIDs checks the ID bitmap and the results kept by ID against a map.
func TestIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ids journal.IDs
	var results journal.Results
	want := map[int]game.Result{}
	for range 5000 {
		id := 1 + rng.IntN(50_000)
		if rng.IntN(10) == 0 {
			id = schedule.MaxGames - rng.IntN(100)
		}
		res := game.Result(1 + rng.IntN(3))
		_, had := want[id]
		if added := ids.Add(id); added == had {
			t.Fatalf("Add(%d) = %v with the id there %v", id, added, had)
		}
		want[id] = res
		results.Set(id, res)
	}
	if ids.Add(0) || ids.Add(-3) || ids.Has(0) {
		t.Errorf("ids below 1 are taken")
	}
	results.Set(7, game.Ongoing) // not a result: left out
	if ids.Len() != len(want) || results.Len() != len(want) {
		t.Errorf("Len = %d and %d, want %d", ids.Len(), results.Len(), len(want))
	}
	order := slices.Sorted(maps.Keys(want))
	if got := slices.Collect(ids.All()); !slices.Equal(got, order) {
		t.Errorf("All yields %d ids, not the %d in increasing order", len(got), len(order))
	}
	i := 0
	for id, res := range results.All() {
		if i >= len(order) || id != order[i] || res != want[id] {
			t.Fatalf("result %d: game %d %v, want game %d %v", i, id, res, order[i], want[order[i]])
		}
		i++
	}
	for id := range 60_000 {
		if _, ok := want[id]; ids.Has(id) != ok {
			t.Errorf("Has(%d) = %v, want %v", id, !ok, ok)
		}
	}
}
