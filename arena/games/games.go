package games

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/arena/game"
)

// Game is a game the arena can referee: its name, its rule presets and
// how to build its rules.
type Game struct {
	Name string
	// Presets are the names of the game's rule presets, the default
	// first.
	Presets []string
	// New builds the rules from a preset ("" for the default) and switch
	// overrides applied in order.
	New func(preset string, overrides []game.Setting) (game.Rules, error)
	// Solved, when not nil, says what is proved of the game from its start
	// position under rules it built (see Solved); nil for a game no solver
	// knows.
	Solved func(game.Rules) (game.Solution, bool)
}

// registry holds the registered games, in the order registered, and the
// rules of their default presets once built.
var registry = struct {
	mu       sync.RWMutex
	list     []Game
	defaults map[string]game.Rules
}{defaults: map[string]game.Rules{}}

func init() {
	Register(Game{Name: "cheversi", Presets: cheversi.Presets(), New: func(preset string, overrides []game.Setting) (game.Rules, error) {
		r, err := cheversi.New(preset, overrides)
		if err != nil {
			return nil, err
		}
		return r, nil
	}, Solved: solvedCheversi})
	Register(Game{Name: "checkers", Presets: checkers.Presets(), New: func(preset string, overrides []game.Setting) (game.Rules, error) {
		r, err := checkers.New(preset, overrides)
		if err != nil {
			return nil, err
		}
		return r, nil
	}})
}

// ErrRegistered is returned by Register for a name that is already taken.
var ErrRegistered = errors.New("game already registered")

// Register adds a game, after those registered before: Cheversi and
// checkers are, by this package. A program (or a test) that brings a game
// of its own registers it before it builds rules from its name; every
// process that plays it, bots included, must register it too.
func Register(g Game) error {
	if g.Name == "" || g.New == nil || len(g.Presets) == 0 {
		return fmt.Errorf("register game %q: it needs a name, a preset and New", g.Name)
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if slices.ContainsFunc(registry.list, func(o Game) bool { return o.Name == g.Name }) {
		return fmt.Errorf("%w: %q", ErrRegistered, g.Name)
	}
	g.Presets = slices.Clone(g.Presets)
	registry.list = append(registry.list, g)
	return nil
}

// lookup returns the registered game of that name.
func lookup(name string) (Game, bool) {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	i := slices.IndexFunc(registry.list, func(g Game) bool { return g.Name == name })
	if i < 0 {
		return Game{}, false
	}
	return registry.list[i], true
}

// Names returns the names of the supported games, in the order they were
// registered.
func Names() []string {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	names := make([]string, len(registry.list))
	for i, g := range registry.list {
		names[i] = g.Name
	}
	return names
}

// Presets returns the rule presets of a game, the default first.
func Presets(name string) ([]string, error) {
	g, ok := lookup(name)
	if !ok {
		return nil, unknown(name)
	}
	return slices.Clone(g.Presets), nil
}

// New builds the rules of the named game from a preset ("" for the game's
// default) and switch overrides applied in order.
func New(name, preset string, overrides []game.Setting) (game.Rules, error) {
	g, ok := lookup(name)
	if !ok {
		return nil, unknown(name)
	}
	return g.New(preset, overrides)
}

// Solved returns what is proved of the game from its start position under
// the rules r under perfect play (Cheversi: what the exact solver's shipped
// proofs show); ok is false when nothing is known of those rules.
func Solved(r game.Rules) (s game.Solution, ok bool) {
	g, ok := lookup(r.Game())
	if !ok || g.Solved == nil {
		return game.Solution{}, false
	}
	return g.Solved(r)
}

// solvedCheversi is Cheversi's Solved: the solver's shipped proofs.
func solvedCheversi(r game.Rules) (game.Solution, bool) {
	cr, ok := r.(*cheversi.Rules)
	if !ok {
		return game.Solution{}, false
	}
	return solve.StartSolution(cr)
}

// Default returns the rules of the named game's default preset, built once
// and shared: the rules of which generic code asks the game's optional
// interfaces (see package game) when it has only the game's name.
func Default(name string) (game.Rules, error) {
	registry.mu.RLock()
	r, ok := registry.defaults[name]
	registry.mu.RUnlock()
	if ok {
		return r, nil
	}
	r, err := New(name, "", nil)
	if err != nil {
		return nil, err
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if old, ok := registry.defaults[name]; ok {
		return old, nil
	}
	registry.defaults[name] = r
	return r, nil
}

// With returns the names of the games whose default rules satisfy has, in
// the order registered: the games that implement an optional interface,
// for a message that names them.
func With(has func(game.Rules) bool) []string {
	var out []string
	for _, name := range Names() {
		if r, err := Default(name); err == nil && has(r) {
			out = append(out, name)
		}
	}
	return out
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
