package tournament_test

import (
	"context"
	"fmt"

	"github.com/arena-games/arena/arena/tournament"
)

func ExampleParse() {
	cfg, err := tournament.Parse([]byte(`
name = "demo"
[game]
name = "checkers"
[adjudication]
max_plies = 200
[format]
rounds = 2
[openings]
deck = "ctd"
[time]
base = "1m"
increment = "1s"
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "greedy"
builtin = "greedy"
`), "demo.toml", ".")
	if err != nil {
		fmt.Println(err)
		return
	}
	openings, err := tournament.LoadOpenings(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := tournament.NewSchedule(cfg.Format.Kind, cfg.Format.Rounds, cfg.BotNames(), cfg.Format.Players, openings)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Name, cfg.Rules.Game(), cfg.Rules.Settings(), cfg.Time)
	fmt.Println(len(openings), "openings,", s.Len(), "games, output in", cfg.Output)
	// Output:
	// demo checkers [{repetition 3} {quiet_moves 40} {max_plies 200}] 1m0s+1s
	// 50 openings, 200 games, output in results/demo
}

func ExampleNewSchedule() {
	s, err := tournament.NewSchedule(tournament.Gauntlet, 1, []string{"new", "old", "older"}, []string{"new"},
		[]tournament.Opening{{Name: "start position"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for g := range s.Games() {
		fmt.Println(g.ID, g.White, "vs", g.Black, g.PairKey)
	}
	// Output:
	// 1 new vs old r1/o1/new/old
	// 2 old vs new r1/o1/new/old
	// 3 new vs older r1/o1/new/older
	// 4 older vs new r1/o1/new/older
}

func ExampleStandings() {
	recs := []tournament.Record{
		{White: "alpha", Black: "beta", Result: "1-0", Winner: "alpha"},
		{White: "beta", Black: "alpha", Result: "1/2-1/2"},
	}
	for _, s := range tournament.Standings(recs, []string{"alpha", "beta"}) {
		fmt.Printf("%s: %d games, +%d =%d -%d, %.1f%%\n", s.Bot, s.Games, s.Wins, s.Draws, s.Losses, 100*s.Score())
	}
	// Output:
	// alpha: 2 games, +1 =1 -0, 75.0%
	// beta: 2 games, +0 =1 -1, 25.0%
}

func ExampleSchedule_Slice() {
	s, err := tournament.NewSchedule(tournament.RoundRobin, 1, []string{"a", "b", "c"}, nil,
		[]tournament.Opening{{Name: "start position"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Slice 1 of 2 holds every second colour-reversed pair, with the IDs
	// the games have in the whole schedule.
	sh, _ := tournament.ParseShard("1/2")
	fmt.Println(s.Len(), "games;", s.SliceLen(&sh), "in slice", sh)
	for g := range s.Slice(&sh) {
		fmt.Println(g.ID, g.White, "vs", g.Black)
	}
	g, _ := s.Game(5)
	fmt.Println("game 5:", g.White, "vs", g.Black, g.PairKey)
	// Output:
	// 6 games; 2 in slice 1/2
	// 3 a vs c
	// 4 c vs a
	// game 5: b vs c r1/o1/b/c
}
