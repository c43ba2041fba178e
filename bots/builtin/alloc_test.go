package builtin

import (
	"context"
	"testing"
)

// TestSearchDoesNotAllocatePerNode: a search of tens of thousands of nodes
// allocates only its per-search bookkeeping (root moves, principal
// variation), never per node.
func TestSearchDoesNotAllocatePerNode(t *testing.T) {
	for _, name := range []string{"cheversi", "checkers"} {
		t.Run(name, func(t *testing.T) {
			states := benchStates(t, name, 4)
			players := []Player{NewAlphaBeta(1), NewExpert(1, 1)}
			lim := Limits{Nodes: 50_000}
			var nodes int64
			allocs := testing.AllocsPerRun(5, func() {
				for _, p := range players {
					for _, st := range states {
						res, err := p.Choose(context.Background(), st, lim)
						if err != nil {
							t.Fatal(err)
						}
						nodes += res.Nodes
					}
				}
			})
			perSearch := allocs / float64(len(players)*len(states))
			if nodes == 0 {
				t.Fatal("the searches visited no nodes")
			}
			if perSearch > 500 {
				t.Errorf("%.0f allocations per search of about %d nodes, want at most 500", perSearch, nodes/int64(6*len(players)*len(states)))
			}
		})
	}
}
