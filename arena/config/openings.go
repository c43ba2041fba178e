package config

import (
	"context"
	"fmt"
	"strings"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/openings"
)

// LoadOpenings returns the openings a configuration selects, each checked
// to be legal under cfg.Rules and to leave the game unfinished. An opening
// file is read only as far as needed: up to openings.limit openings, and
// never more than MaxOpenings openings or MaxOpeningsFileSize bytes. It
// stops early with ctx's error when ctx is canceled.
func LoadOpenings(ctx context.Context, cfg *Config) ([]openings.Opening, error) {
	list, err := loadOpenings(ctx, cfg)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return list, err
}

func loadOpenings(ctx context.Context, cfg *Config) ([]openings.Opening, error) {
	o := cfg.Openings
	list, err := readOpenings(ctx, cfg, &o)
	if err != nil {
		return nil, err
	}
	if o.Order == openings.OrderRandom {
		openings.Shuffle(list, uint64(cfg.Seed))
	}
	if o.Start > 1 {
		if o.Start > len(list) {
			return nil, cfg.KeyError([]string{"openings", "start"}, fmt.Errorf("%w: start %d is beyond the %d openings", openings.ErrInvalid, o.Start, len(list)))
		}
		list = list[o.Start-1:]
	}
	if o.Limit > 0 && o.Limit < len(list) {
		list = list[:o.Limit]
	}
	for i := range list {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err := openings.Canonicalize(cfg.Rules, &list[i]); err != nil {
			key := "file"
			if o.File == "" {
				key = "deck"
			}
			return nil, cfg.KeyError([]string{"openings", key}, fmt.Errorf("opening %d (%s): %w", i+1, list[i], err))
		}
	}
	return list, nil
}

// readOpenings returns the openings o names, in their own order: a file's,
// random or deferred ones, the game's ballots or the start position. A
// file read from o.Start on sets o.Start to 0, passed over already.
func readOpenings(ctx context.Context, cfg *Config, o *OpeningsConfig) ([]openings.Opening, error) {
	switch {
	case o.File != "":
		// In the file's order only the openings played are kept: those
		// from the start on, as many as the limit.
		skip, limit := max(o.Start-1, 0), o.Limit
		if o.Order == openings.OrderRandom {
			skip, limit = 0, 0
		}
		list, err := openings.ReadFile(ctx, o.File, o.Deck, skip, limit)
		if err != nil {
			return nil, cfg.KeyError([]string{"openings", "file"}, fmt.Errorf("%s: %w", o.File, err))
		}
		if o.Order != openings.OrderRandom {
			o.Start = 0 // passed over already
		}
		return list, nil
	case o.Plies > 0 && o.After > 0:
		list, err := openings.Deferred(uint64(cfg.Seed), o.After, o.Plies, o.Count)
		if err != nil {
			return nil, cfg.KeyError([]string{"openings", "count"}, err)
		}
		return list, nil
	case o.Plies > 0:
		list, err := openings.Random(ctx, cfg.Rules, uint64(cfg.Seed), o.Plies, o.Count)
		if err != nil {
			return nil, cfg.KeyError([]string{"openings", "count"}, err)
		}
		return list, nil
	case ballots(cfg.Rules) != nil:
		list, err := openings.ParseBallots(ballots(cfg.Rules).Ballots(), o.Deck)
		if err != nil {
			return nil, cfg.KeyError([]string{"openings"}, err)
		}
		return list, nil
	case o.Deck != "":
		return nil, cfg.KeyError([]string{"openings", "deck"}, fmt.Errorf("%w: ballots are %s openings", openings.ErrInvalid, strings.Join(games.With(hasBallots), " or ")))
	}
	return []openings.Opening{{Name: "start position", Moves: []string{}}}, nil
}

// ballots returns the table of standard openings of rules, nil when it
// has none.
func ballots(rules game.Rules) game.Ballots {
	b, _ := rules.(game.Ballots)
	return b
}
