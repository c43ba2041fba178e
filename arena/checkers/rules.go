package checkers

import (
	"fmt"
	"strconv"

	"github.com/arena-games/arena/arena/game"
)

// Switch names, in the order Settings lists them.
const (
	SettingRepetition = "repetition"
	SettingQuietMoves = "quiet_moves"
	SettingMaxPlies   = "max_plies"
)

// PresetAmerican is the default preset: American checkers with the arena's
// draw rules at their defaults (repetition=3, quiet_moves=40, max_plies=400).
const PresetAmerican = "american"

// Presets returns the names of the rule presets, the default first.
func Presets() []string { return []string{PresetAmerican} }

// Rules is American checkers with one set of arena draw rules. It
// implements game.Rules and is safe for concurrent use.
type Rules struct {
	preset     string
	repetition int // draw at the Nth occurrence of a position; 0 = off
	quietMoves int // draw after N moves by each side without capture or man move; 0 = off
	maxPlies   int // draw at this ply; 0 = off
}

var _ game.Rules = (*Rules)(nil)

// New returns the rules of a preset ("" means "american") with the given
// switch overrides applied in order. The switches are:
//
//   - repetition: the same position with the same side to move for the
//     Nth time is a draw; 0 turns the rule off, otherwise N >= 2
//     (default 3);
//   - quiet_moves: N moves by each side (2N plies) with no capture and no
//     man moved is a draw; 0 turns it off (default 40);
//   - max_plies: the game is drawn when it reaches this many plies; 0
//     turns it off (default 400).
//
// An unknown preset or switch or a bad value gives an error wrapping
// game.ErrBadRules.
func New(preset string, overrides []game.Setting) (*Rules, error) {
	switch preset {
	case "", PresetAmerican:
	default:
		return nil, fmt.Errorf("%w: unknown checkers preset %q (want %s)", game.ErrBadRules, preset, PresetAmerican)
	}
	r := &Rules{preset: PresetAmerican, repetition: 3, quietMoves: 40, maxPlies: 400}
	for _, s := range overrides {
		var dst *int
		lowest, want := 0, "a whole number >= 0 (0 turns the rule off)"
		switch s.Key {
		case SettingRepetition:
			dst, lowest, want = &r.repetition, 2, "0 (off) or a whole number >= 2"
		case SettingQuietMoves:
			dst = &r.quietMoves
		case SettingMaxPlies:
			dst = &r.maxPlies
		default:
			return nil, fmt.Errorf("%w: unknown checkers switch %q (want %s, %s or %s)",
				game.ErrBadRules, s.Key, SettingRepetition, SettingQuietMoves, SettingMaxPlies)
		}
		n, err := strconv.Atoi(s.Value)
		if err != nil || n < 0 || (n != 0 && n < lowest) {
			return nil, fmt.Errorf("%w: checkers switch %s=%q: want %s", game.ErrBadRules, s.Key, s.Value, want)
		}
		*dst = n
	}
	return r, nil
}

// Game returns "checkers".
func (r *Rules) Game() string { return "checkers" }

// Preset returns the name of the preset the rules were built from.
func (r *Rules) Preset() string { return r.preset }

// FirstMover returns game.Black: Black moves first.
func (r *Rules) FirstMover() game.Color { return game.Black }

// Settings returns the switches in the order repetition, quiet_moves,
// max_plies.
func (r *Rules) Settings() []game.Setting {
	return []game.Setting{
		{Key: SettingRepetition, Value: strconv.Itoa(r.repetition)},
		{Key: SettingQuietMoves, Value: strconv.Itoa(r.quietMoves)},
		{Key: SettingMaxPlies, Value: strconv.Itoa(r.maxPlies)},
	}
}

// Repetition returns the occurrence count that draws a repeated position,
// or 0 when the rule is off.
func (r *Rules) Repetition() int { return r.repetition }

// QuietMoves returns the number of moves by each side without a capture or
// a man move that draws the game, or 0 when the rule is off.
func (r *Rules) QuietMoves() int { return r.quietMoves }

// MaxPlies returns the game length that draws the game, or 0 when the cap
// is off.
func (r *Rules) MaxPlies() int { return r.maxPlies }

// Start returns a new game from the start position.
func (r *Rules) Start() game.State { return r.NewState(StartPosition()) }

// ParseState decodes a PDN FEN position (see ParsePosition) into a new game
// whose counters start at ply 0 with that position as its only history.
func (r *Rules) ParseState(text string) (game.State, error) {
	p, err := ParsePosition(text)
	if err != nil {
		return nil, err
	}
	return r.NewState(p), nil
}

// NewState returns a new game from position p, at ply 0 with p as its only
// history entry.
func (r *Rules) NewState(p Position) *State {
	s := &State{rules: r, pos: p, history: []uint64{p.hash}}
	s.adjudicate()
	return s
}
