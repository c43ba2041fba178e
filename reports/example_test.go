package reports_test

import (
	"fmt"
	"os"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports"
)

func exampleAnalysis() *rating.Analysis {
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
		panic(err) // the games above are valid
	}
	return a
}

func ExampleWriteCSV() {
	if err := reports.WriteCSV(os.Stdout, reports.Meta{}, exampleAnalysis()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// rank,name,group,elo,interval,games,wins,draws,losses,points,score_pct,draw_pct,first_games,first_score_pct,second_games,second_score_pct,los_next_pct,elo_bound,run_played,run_scheduled,run_finished
	// 1,alpha,1,70.5,69.6,16,10,3,3,11.5,71.9,18.8,8,87.5,8,56.2,97.6,,16,,
	// 2,beta,1,-70.5,69.6,16,3,3,10,4.5,28.1,18.8,8,43.8,8,12.5,,,16,,
}

func ExampleWriteTerminal() {
	a := exampleAnalysis()
	if err := reports.WriteTerminal(os.Stdout, reports.Meta{Name: "Example match"}, a); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Example match
	//
	// ┌───┬────────┬─────┬───────┬───────┬────┬───┬────┬───────┬───────┬───────────┬───────────┬──────────┐
	// │ # │ Player │ Elo │ ± 95% │ Games │ W  │ D │ L  │ Score │ Draws │ Score 1st │ Score 2nd │ LOS next │
	// ├───┼────────┼─────┼───────┼───────┼────┼───┼────┼───────┼───────┼───────────┼───────────┼──────────┤
	// │ 1 │ alpha  │ +71 │    70 │    16 │ 10 │ 3 │  3 │ 71.9% │ 18.8% │     87.5% │     56.2% │    97.6% │
	// │ 2 │ beta   │ -71 │    70 │    16 │  3 │ 3 │ 10 │ 28.1% │ 18.8% │     43.8% │     12.5% │        – │
	// └───┴────────┴─────┴───────┴───────┴────┴───┴────┴───────┴───────┴───────────┴───────────┴──────────┘
	// 16 games; model bayeselo; first-mover advantage +98 ± 142 Elo; draw rate between equal players 36.0% (95% interval 7.4% to 59.1%).
	// Probability that alpha, ranked first, is the strongest: 96.1% (beta 3.9%), from 20,000 draws of the ratings (±0.1%).
	//
	// The first mover (white) scores 65.6% (95% CI 44.0–82.3%) over 16 games: no evidence of imbalance at this sample size; about 3,500 more games would detect a 2% edge.
	// ┌─────────────────────────────┬───────────────────────────────────┐
	// │     First mover (white)     │            These games            │
	// ├─────────────────────────────┼───────────────────────────────────┤
	// │ Games                       │                                16 │
	// │ Wins                        │                         9 (56.2%) │
	// │ Draws                       │                         3 (18.8%) │
	// │ Losses                      │                         4 (25.0%) │
	// │ Score (95% interval)        │              65.6% [44.0%, 82.3%] │
	// │ z-test                      │ not shown for 16 games (needs 20) │
	// │ Sign test on decisive games │                         p = 0.267 │
	// │ Fitted advantage            │                     +98 ± 142 Elo │
	// └─────────────────────────────┴───────────────────────────────────┘
}

func ExampleWriteFiles() {
	dir, err := os.MkdirTemp("", "report")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := reports.WriteFiles(dir, reports.Meta{Name: "Example match", Game: "cheversi"}, exampleAnalysis()); err != nil {
		fmt.Println(err)
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// report.html
	// report.json
	// report.md
	// standings.csv
}

func ExampleWriteTerminalWidth() {
	a := exampleAnalysis()
	// A terminal 60 columns wide: the standings keep the columns that fit.
	if err := reports.WriteTerminalWidth(os.Stdout, reports.Meta{Name: "Example match"}, a, 60); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Example match
	//
	// ┌───┬────────┬─────┬───────┬───────┬───────┬───────┐
	// │ # │ Player │ Elo │ ± 95% │ Games │ Score │ Draws │
	// ├───┼────────┼─────┼───────┼───────┼───────┼───────┤
	// │ 1 │ alpha  │ +71 │    70 │    16 │ 71.9% │ 18.8% │
	// │ 2 │ beta   │ -71 │    70 │    16 │ 28.1% │ 18.8% │
	// └───┴────────┴─────┴───────┴───────┴───────┴───────┘
	// 16 games; model bayeselo; first-mover advantage +98 ± 142
	// Elo; draw rate between equal players 36.0% (95% interval
	// 7.4% to 59.1%).
	// Probability that alpha, ranked first, is the strongest:
	// 96.1% (beta 3.9%), from 20,000 draws of the ratings (±0.1%).
	//
	// The first mover (white) scores 65.6% (95% CI 44.0–82.3%)
	// over 16 games: no evidence of imbalance at this sample size;
	// about 3,500 more games would detect a 2% edge.
	// ┌─────────────────────────────┬────────────────────────┐
	// │     First mover (white)     │      These games       │
	// ├─────────────────────────────┼────────────────────────┤
	// │ Games                       │                     16 │
	// │ Wins                        │              9 (56.2%) │
	// │ Draws                       │              3 (18.8%) │
	// │ Losses                      │              4 (25.0%) │
	// │ Score (95% interval)        │   65.6% [44.0%, 82.3%] │
	// │ z-test                      │ not shown for 16 games │
	// │                             │             (needs 20) │
	// │ Sign test on decisive games │              p = 0.267 │
	// │ Fitted advantage            │          +98 ± 142 Elo │
	// └─────────────────────────────┴────────────────────────┘
}
