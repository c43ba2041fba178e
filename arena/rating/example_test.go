package rating_test

import (
	"fmt"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
)

func ExampleAnalyze() {
	var games []rating.Game
	add := func(white, black string, r game.Result, n int) {
		for range n {
			games = append(games, rating.Game{White: white, Black: black, FirstMover: game.White, Result: r})
		}
	}
	add("alpha", "beta", game.WhiteWins, 6)
	add("alpha", "beta", game.Draw, 2)
	add("beta", "alpha", game.WhiteWins, 3)
	add("beta", "alpha", game.BlackWins, 4)
	add("beta", "alpha", game.Draw, 1)

	a, err := rating.Analyze(games, rating.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range a.Players {
		fmt.Printf("%d %s %+.0f ± %.0f, score %.1f %%\n", p.Rank, p.Name, p.Elo, p.Interval, 100*p.Score)
	}
	sb := a.SideBalance
	fmt.Printf("first mover (%s): %d/%d/%d, sign test p = %.3f\n", sb.FirstMover, sb.Wins, sb.Draws, sb.Losses, sb.SignTestP)
	// Output:
	// 1 alpha +71 ± 70, score 71.9 %
	// 2 beta -71 ± 70, score 28.1 %
	// first mover (white): 9/3/4, sign test p = 0.267
}

func ExampleSPRT() {
	p := rating.SPRTParams{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	res, err := rating.SPRT(p, rating.WDL{}, rating.Pentanomial{5, 40, 100, 45, 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("LLR %.3f in (%.3f, %.3f): %v\n", res.LLR, res.Lower, res.Upper, res.Decision)
	// Output:
	// LLR 0.486 in (-2.944, 2.944): continue
}

func ExampleWDL_EloMargin() {
	c := rating.WDL{Wins: 15, Draws: 8, Losses: 7}
	elo, margin := c.EloMargin(0.95)
	fmt.Printf("%.1f +/- %.1f, LOS %.1f %%, draw ratio %.1f %%\n", elo, margin, 100*c.LOS(), 100*c.DrawRatio())
	// Output:
	// 94.9 +/- 113.7, LOS 96.4 %, draw ratio 26.7 %
}

func ExampleFit() {
	games := []rating.Game{
		{White: "A", Black: "B", FirstMover: game.White, Result: game.WhiteWins},
		{White: "B", Black: "A", FirstMover: game.White, Result: game.Draw},
		{White: "A", Black: "B", FirstMover: game.White, Result: game.Draw},
		{White: "B", Black: "A", FirstMover: game.White, Result: game.BlackWins},
	}
	f, err := rating.Fit(games, rating.Options{Model: rating.Ordo, Anchor: "B", Offset: 2000})
	if err != nil {
		fmt.Println(err)
		return
	}
	a, b := f.Index("A"), f.Index("B")
	fmt.Printf("A %.0f, B %.0f, LOS A>B %.2f\n", f.Ratings[a], f.Ratings[b], f.LOS(a, b))
	// Output:
	// A 2193, B 2000, LOS A>B 0.83
}

func ExampleSignTest() {
	fmt.Printf("%.3f\n", rating.SignTest(15, 7))
	// Output:
	// 0.134
}

func ExampleMatchCounts() {
	games := []rating.Game{
		{White: "new", Black: "old", FirstMover: game.White, Result: game.WhiteWins, PairKey: "opening-1"},
		{White: "old", Black: "new", FirstMover: game.White, Result: game.Draw, PairKey: "opening-1"},
		{White: "new", Black: "old", FirstMover: game.White, Result: game.BlackWins, PairKey: "opening-2"},
		{White: "old", Black: "new", FirstMover: game.White, Result: game.BlackWins, PairKey: "opening-2"},
	}
	wdl, pairs := rating.MatchCounts(games, "new", "old")
	fmt.Printf("games %+v, pairs [LL LD WL+DD WD WW] = %v\n", wdl, pairs)
	// Output:
	// games {Wins:2 Draws:1 Losses:1}, pairs [LL LD WL+DD WD WW] = [0 0 1 1 0]
}

func ExampleWilson() {
	lo, hi := rating.Wilson(0.3, 50, 0.95)
	fmt.Printf("[%.3f, %.3f]\n", lo, hi)
	// Output:
	// [0.191, 0.438]
}
