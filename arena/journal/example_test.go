package journal_test

import (
	"fmt"

	"github.com/arena-games/arena/arena/journal"
)

func ExampleStandings() {
	recs := []journal.Record{
		{White: "alpha", Black: "beta", Result: "1-0", Winner: "alpha"},
		{White: "beta", Black: "alpha", Result: "1/2-1/2"},
	}
	for _, s := range journal.Standings(recs, []string{"alpha", "beta"}) {
		fmt.Printf("%s: %d games, +%d =%d -%d, %.1f%%\n", s.Bot, s.Games, s.Wins, s.Draws, s.Losses, 100*s.Score())
	}
	// Output:
	// alpha: 2 games, +1 =1 -0, 75.0%
	// beta: 2 games, +0 =1 -1, 25.0%
}
