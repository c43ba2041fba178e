package metrics_test

import (
	"fmt"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/metrics"
)

func ExampleTally() {
	rules, _ := games.New("cheversi", "cheversi", nil)
	var t metrics.Tally
	for _, g := range []struct {
		moves  []string
		result game.Result
		evals  []metrics.Eval
	}{
		// A game the first mover won after trailing in the evaluation of
		// ply 2, and one it lost without ever leading.
		{[]string{"K@e4", "N@e5", "Q@d5"}, game.WhiteWins,
			[]metrics.Eval{{Ply: 2, Mover: game.Black, Score: 30}, {Ply: 3, Mover: game.White, Score: 12}}},
		{[]string{"K@a1", "N@b2", "Q@c2"}, game.BlackWins,
			[]metrics.Eval{{Ply: 2, Mover: game.Black, Score: 5}, {Ply: 3, Mover: game.White, Score: -20}}},
	} {
		legal, err := metrics.Legal(rules, g.moves)
		if err != nil {
			fmt.Println(err)
			return
		}
		t.Add(metrics.Game{FirstMover: game.White, Result: g.result, Reason: game.ReasonScore,
			Plies: len(g.moves), Legal: legal, Evals: g.evals})
	}
	s := t.Summary()
	fmt.Printf("balance %.2f, draws %.2f\n", s.Balance, s.DrawRate)
	for _, p := range s.ByPly {
		fmt.Printf("ply %d: %.1f legal moves\n", p.Ply, p.Legal)
	}
	fmt.Printf("lead changes %.1f, decided at ply %.1f, drama %.2f\n", s.LeadChanges.Mean, s.DecidedAt.Mean, s.Drama)
	// Output:
	// balance 1.00, draws 0.00
	// ply 1: 64.0 legal moves
	// ply 2: 22.0 legal moves
	// ply 3: 28.0 legal moves
	// lead changes 0.5, decided at ply 2.5, drama 0.25
}
