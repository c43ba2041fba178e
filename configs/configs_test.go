package configs_test

import (
	"context"
	"io"
	"io/fs"
	"os"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/bots/builtinbots"
	"github.com/arena-games/arena/configs"
)

// The configurations name the arena's built-in bots.
func init() { builtinbots.Register() }

// TestShippedConfigs loads every configuration in configs/ and lays out
// its schedule.
func TestShippedConfigs(t *testing.T) {
	names, err := fs.Glob(configs.Files, "*.toml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no configurations: %v", err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			path := name
			cfg, err := config.Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			openings, err := config.LoadOpenings(context.Background(), cfg)
			if err != nil {
				t.Fatalf("LoadOpenings: %v", err)
			}
			s, err := schedule.New(cfg.Format.Kind, cfg.Format.Rounds, cfg.BotNames(), cfg.Format.Players, openings)
			if err != nil {
				t.Fatalf("NewSchedule: %v", err)
			}
			if s.Len() == 0 {
				t.Errorf("no games")
			}
		})
	}
}

// TestBallotTable checks that the ballot table shipped here is the one
// checkers tournaments open from by default.
func TestBallotTable(t *testing.T) {
	data, err := os.ReadFile("checkers-3move-ballots.tsv")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := checkers.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(rules.Ballots())
	if err != nil || string(data) != string(want) {
		t.Errorf("checkers-3move-ballots.tsv differs from the ballots of package checkers (%v)", err)
	}
}
