package games

import (
	"fmt"
	"strings"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// Names returns the names of the supported games.
func Names() []string { return []string{"cheversi", "checkers"} }

// Presets returns the rule presets of a game, the default first.
func Presets(name string) ([]string, error) {
	switch name {
	case "cheversi":
		return cheversi.Presets(), nil
	case "checkers":
		return checkers.Presets(), nil
	}
	return nil, unknown(name)
}

// New builds the rules of the named game from a preset ("" for the game's
// default) and switch overrides applied in order.
func New(name, preset string, overrides []game.Setting) (game.Rules, error) {
	switch name {
	case "cheversi":
		r, err := cheversi.New(preset, overrides)
		if err != nil {
			return nil, err
		}
		return r, nil
	case "checkers":
		r, err := checkers.New(preset, overrides)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, unknown(name)
}

func unknown(name string) error {
	return fmt.Errorf("%w: unknown game %q (want %s)", game.ErrBadRules, name, strings.Join(Names(), " or "))
}

// ParseSetting decodes a "key=value" switch override.
func ParseSetting(s string) (game.Setting, error) {
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" {
		return game.Setting{}, fmt.Errorf("%w: switch %q is not of the form key=value", game.ErrBadRules, s)
	}
	return game.Setting{Key: k, Value: v}, nil
}

// Perfter is implemented by the States of the rules packages: a fast count
// of the leaf move sequences of the given depth.
type Perfter interface {
	Perft(depth int) uint64
}
