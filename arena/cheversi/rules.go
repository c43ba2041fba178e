package cheversi

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/game"
)

// Opening is the value of the "opening" switch.
type Opening uint8

// The opening constraints.
const (
	// OpeningKingFirst: White's first move places the King.
	OpeningKingFirst Opening = iota
	// OpeningKingQueen: White's first move places the King and Black's
	// first move places the Queen.
	OpeningKingQueen
	// OpeningFree: no opening constraint.
	OpeningFree
)

var openingNames = []string{"king-first", "king-queen", "free"}

// String returns the switch value: "king-first", "king-queen" or "free".
func (o Opening) String() string { return enumName(openingNames, uint8(o), "Opening") }

// Touch is the value of the "touch" switch.
type Touch uint8

// The adjacency constraints on every move but White's first.
const (
	// TouchOpponent: the piece goes next to at least one opponent piece.
	TouchOpponent Touch = iota
	// TouchAny: the piece goes next to at least one piece of either colour.
	TouchAny
	// TouchNone: no adjacency constraint.
	TouchNone
)

var touchNames = []string{"opponent", "any", "none"}

// String returns the switch value: "opponent", "any" or "none".
func (t Touch) String() string { return enumName(touchNames, uint8(t), "Touch") }

// Scoring is the value of the "scoring" switch.
type Scoring uint8

// The scoring modes. Only empty squares score.
const (
	// ScoreAttacks: one point per empty square per piece attacking it.
	ScoreAttacks Scoring = iota
	// ScoreSquares: one point per empty square attacked by at least one
	// piece.
	ScoreSquares
)

var scoringNames = []string{"attacks", "squares"}

// String returns the switch value: "attacks" or "squares".
func (s Scoring) String() string { return enumName(scoringNames, uint8(s), "Scoring") }

func enumName(names []string, v uint8, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// Options is a complete Cheversi rule set: the value of every switch.
type Options struct {
	Opening         Opening
	Touch           Touch
	BishopsOpposite bool // a side's second bishop goes on the other square colour
	QueenCall       bool // placing a Queen forces the opponent to place its Queen next
	BlackKingLast   bool // Black's King is its last piece, next to White's last piece
	Scoring         Scoring
	// Komi is the compensation added to the second mover's (Black's)
	// score, in half-points: 13 gives Black 6½ points, -4 gives White 2.
	// A finished game's result is the sign of
	// 2·(White's score − Black's score) − Komi, that is of White's score
	// minus Black's minus the komi in points: White wins above zero, Black
	// below and the game is drawn at zero, which an odd Komi rules out.
	// Scores (Position.Score, Outcome.Scores) never include it. Its
	// magnitude is at most MaxKomi.
	Komi int16
}

// MaxKomi is the largest komi, in half-points, that a rule set takes
// either way: 200, that is 100 points.
const MaxKomi = 200

// Switch names, in the order Settings reports them.
const (
	keyOpening         = "opening"
	keyTouch           = "touch"
	keyBishopsOpposite = "bishops_opposite"
	keyQueenCall       = "queen_call"
	keyBlackKingLast   = "black_king_last"
	keyScoring         = "scoring"
	keyKomi            = "komi"
)

var switchKeys = []string{keyOpening, keyTouch, keyBishopsOpposite, keyQueenCall, keyBlackKingLast, keyScoring, keyKomi}

// DefaultPreset is the preset New uses for an empty preset name.
const DefaultPreset = "cheversi"

// presets are the named rule sets, in the order Presets lists them.
var presets = []struct {
	name string
	opts Options
}{
	{"cheversi", Options{
		Opening: OpeningKingFirst, Touch: TouchOpponent,
		BishopsOpposite: true, QueenCall: true, BlackKingLast: true,
		Scoring: ScoreAttacks,
	}},
	{"cheversi-classic", Options{Opening: OpeningKingQueen, Touch: TouchNone, Scoring: ScoreAttacks}},
	{"echeversi", Options{Opening: OpeningKingQueen, Touch: TouchNone, Scoring: ScoreSquares}},
}

// Presets returns the names of the built-in rule sets. The first is the
// default.
func Presets() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}

// Rules is one fixed Cheversi rule set. It implements game.Rules and is
// safe for concurrent use: it is never modified after New.
type Rules struct {
	preset string
	opts   Options
}

var _ game.Rules = (*Rules)(nil)

// New returns the rule set of the named preset ("" means "cheversi") with
// the overrides applied in order. Switch keys are opening, touch,
// bishops_opposite, queen_call, black_king_last and scoring; booleans accept
// true, false, yes and no; komi takes a number of points that is a whole
// or a half ("6.5", "-2", "0.5"). An unknown preset, key or value gives an
// error wrapping game.ErrBadRules.
func New(preset string, overrides []game.Setting) (*Rules, error) {
	if preset == "" {
		preset = DefaultPreset
	}
	r := &Rules{preset: preset}
	found := false
	for _, p := range presets {
		if p.name == preset {
			r.opts, found = p.opts, true
			break
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: unknown cheversi preset %q (want one of %s)",
			game.ErrBadRules, preset, strings.Join(Presets(), ", "))
	}
	for _, s := range overrides {
		if err := r.opts.set(s.Key, s.Value); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (o *Options) set(key, value string) error {
	var err error
	switch key {
	case keyOpening:
		err = setEnum(&o.Opening, openingNames, key, value)
	case keyTouch:
		err = setEnum(&o.Touch, touchNames, key, value)
	case keyScoring:
		err = setEnum(&o.Scoring, scoringNames, key, value)
	case keyBishopsOpposite:
		err = setBool(&o.BishopsOpposite, key, value)
	case keyQueenCall:
		err = setBool(&o.QueenCall, key, value)
	case keyBlackKingLast:
		err = setBool(&o.BlackKingLast, key, value)
	case keyKomi:
		o.Komi, err = ParseKomi(value)
	default:
		err = fmt.Errorf("%w: unknown cheversi switch %q (want one of %s)",
			game.ErrBadRules, key, strings.Join(switchKeys, ", "))
	}
	return err
}

func setEnum[T ~uint8](dst *T, names []string, key, value string) error {
	for i, n := range names {
		if n == value {
			*dst = T(i)
			return nil
		}
	}
	return fmt.Errorf("%w: %s = %q (want one of %s)", game.ErrBadRules, key, value, strings.Join(names, ", "))
}

func setBool(dst *bool, key, value string) error {
	switch value {
	case "true", "yes":
		*dst = true
	case "false", "no":
		*dst = false
	default:
		return fmt.Errorf("%w: %s = %q (want one of true, false, yes, no)", game.ErrBadRules, key, value)
	}
	return nil
}

// ParseKomi decodes a komi in points, a whole or a half number with an
// optional sign ("6.5", "-2", "0.5", "+3"), into half-points (13, -4, 1,
// 6). Errors wrap game.ErrBadRules.
func ParseKomi(value string) (int16, error) {
	bad := func(why string) (int16, error) {
		return 0, fmt.Errorf("%w: %s = %q: %s", game.ErrBadRules, keyKomi, value, why)
	}
	// ParseFloat alone would take "Inf", "0x1p1" and "1_0".
	if strings.ContainsFunc(value, func(r rune) bool { return !strings.ContainsRune("+-.0123456789", r) }) {
		return bad("want a number of points, whole or half, such as 6.5 or -2")
	}
	f, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return bad("want a number of points, whole or half, such as 6.5 or -2")
	}
	if math.Abs(f) > MaxKomi/2 {
		return bad(fmt.Sprintf("want at most %d points either way", MaxKomi/2))
	}
	if f*2 != math.Trunc(f*2) {
		return bad("want a whole or half number of points")
	}
	return int16(f * 2), nil
}

// FormatKomi writes a komi given in half-points as ParseKomi reads it:
// 13 as "6.5", -4 as "-2", 0 as "0".
func FormatKomi(halves int16) string {
	s := strconv.Itoa(int(halves / 2))
	if halves%2 != 0 {
		if halves < 0 && halves > -2 {
			s = "-0"
		}
		s += ".5"
	}
	return s
}

// Game returns "cheversi".
func (r *Rules) Game() string { return "cheversi" }

// Preset returns the name of the preset the rules were built from (even
// when overrides changed some switches).
func (r *Rules) Preset() string { return r.preset }

// Options returns the rule set's switches.
func (r *Rules) Options() Options { return r.opts }

// Settings returns every switch with its value in the order opening, touch,
// bishops_opposite, queen_call, black_king_last, scoring, komi. Booleans
// are "true" or "false" and the komi is in points (FormatKomi). The komi
// is listed only when it is not 0, so that a rule set without one reads
// as it did before the switch existed.
func (r *Rules) Settings() []game.Setting {
	o := r.opts
	s := []game.Setting{
		{Key: keyOpening, Value: o.Opening.String()},
		{Key: keyTouch, Value: o.Touch.String()},
		{Key: keyBishopsOpposite, Value: fmt.Sprint(o.BishopsOpposite)},
		{Key: keyQueenCall, Value: fmt.Sprint(o.QueenCall)},
		{Key: keyBlackKingLast, Value: fmt.Sprint(o.BlackKingLast)},
		{Key: keyScoring, Value: o.Scoring.String()},
	}
	if o.Komi != 0 {
		s = append(s, game.Setting{Key: keyKomi, Value: FormatKomi(o.Komi)})
	}
	return s
}

// FirstMover returns game.White.
func (r *Rules) FirstMover() game.Color { return game.White }

// StartPosition returns the empty board under these rules.
func (r *Rules) StartPosition() Position { return Position{opts: r.opts} }

// Start returns the start position as a *State.
func (r *Rules) Start() game.State { return r.newState(r.StartPosition()) }

// ParseState decodes a position text (see the package documentation) into
// a *State. Errors wrap game.ErrBadPosition.
func (r *Rules) ParseState(text string) (game.State, error) {
	p, err := r.ParsePosition(text)
	if err != nil {
		return nil, err
	}
	return r.newState(p), nil
}

// newState wraps p, a position under r's rule set.
func (r *Rules) newState(p Position) *State { return &State{rules: r, pos: p} }
