package config_test

import (
	"context"
	"fmt"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/schedule"
)

func ExampleParse() {
	cfg, err := config.Parse([]byte(`
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
	openings, err := config.LoadOpenings(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedule.New(cfg.Format.Kind, cfg.Format.Rounds, cfg.BotNames(), cfg.Format.Players, openings)
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
