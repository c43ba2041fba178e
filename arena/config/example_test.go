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

// ExampleParseWith applies keys given on a command line on top of a file:
// the file's values are checked first, even one a flag replaces.
func ExampleParseWith() {
	file := []byte(`concurrency = -5
[game]
name = "cheversi"
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "greedy"
builtin = "greedy"
`)
	_, err := config.ParseWith(file, "t.toml", ".", func(d *config.Document) error {
		return d.Set(config.Override{Key: "concurrency", Value: "2", Source: "--concurrency 2"})
	})
	for _, e := range config.Errors(err) {
		fmt.Println(e)
	}
	// Output:
	// t.toml:1: concurrency: must be at least 1, got -5 (the file's value, which --concurrency 2 replaces: the file must be right too)
}
