package sweep

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/race"
)

// Defaults of the [sweep] table.
const (
	DefaultTarget    = 0.5
	DefaultPrecision = 0.02
	DefaultAlpha     = 0.05
	DefaultBatch     = 200
)

// MaxVariants is the most variants (times strengths) a sweep races: the
// race's family of intervals grows with their square.
const MaxVariants = 64

// Config is a sweep: a tournament configuration (the game, its base rules,
// the openings, the bots and their limits) with a [sweep] table that says
// which rule variants to race and how.
type Config struct {
	// Base is the tournament every variant is played as: its rules are
	// the base of every variant, its openings the shared list (its
	// length the most openings a variant plays), its bots the players.
	Base *config.Config
	// Overrides are the keys set on the base from the command line; every
	// variant is loaded from the file with them.
	Overrides []config.Override

	Target, Precision, Alpha float64
	// Batch is the number of openings between looks; MinOpenings the
	// fewest on which a variant is judged.
	Batch, MinOpenings int
	// Nodes are the strengths: node limits per move for every bot, each a
	// race of its own within the family; empty for the base's limits.
	Nodes []int64
	// Variants are the rule switches each variant sets on the base, in
	// order: the grid's combinations, then the listed variants. The first
	// is the baseline the others' differences are taken from.
	Variants [][]game.Setting
	// Exclude lists tournament configurations whose openings the sweep's
	// openings must not repeat (by moves or by position).
	Exclude []string
	// Reference is a figure from elsewhere to set beside the sweep's
	// result ("" for none).
	Reference string
	// Stops are the reasons variants stop before the end of the list
	// (race.Config.Stops): nil for all, empty to measure every variant on
	// every opening.
	Stops []race.Reason
}

// ErrNotSweep means a configuration without a [sweep] table.
var ErrNotSweep = errors.New("not a sweep: the configuration has no [sweep] table")

// FromConfig reads the [sweep] table of cfg, loaded from its file with
// overrides. Errors name the key and its line.
func FromConfig(cfg *config.Config, overrides []config.Override) (*Config, error) {
	if cfg.Sweep == nil {
		return nil, ErrNotSweep
	}
	r := &sweepReader{cfg: cfg, c: &Config{Base: cfg, Overrides: overrides, Target: DefaultTarget, Precision: DefaultPrecision,
		Alpha: DefaultAlpha, Batch: DefaultBatch}}
	keys := make([]string, 0, len(cfg.Sweep))
	for k := range cfg.Sweep {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.key(k, cfg.Sweep[k])
	}
	r.checkShape()
	if len(r.errs) > 0 {
		return nil, fmt.Errorf("%w:\n%w", config.ErrInvalid, errors.Join(r.errs...))
	}
	if err := r.c.checkRules(); err != nil {
		return nil, err
	}
	return r.c, nil
}

// sweepReader reads the [sweep] table of cfg into c, gathering the errors
// of every key.
type sweepReader struct {
	cfg    *config.Config
	c      *Config
	errs   []error
	minSet bool // min_openings was given
}

// bad records an error of the key sweep.path.
func (r *sweepReader) bad(path []string, format string, args ...any) {
	r.errs = append(r.errs, r.cfg.KeyError(append([]string{"sweep"}, path...), fmt.Errorf(format, args...)))
}

// key reads the key k of [sweep], of value v.
func (r *sweepReader) key(k string, v any) {
	switch k {
	case "target", "precision", "alpha":
		r.fraction(k, v)
	case "batch", "min_openings":
		r.count(k, v)
	case "nodes":
		r.nodes(v)
	case "exclude":
		r.exclude(v)
	case "reference":
		s, ok := v.(string)
		if !ok {
			r.bad([]string{k}, "want a string, got %s", typeName(v))
		}
		r.c.Reference = s
	case "stop":
		r.stops(v)
	case "grid":
		r.errs = append(r.errs, r.c.readGrid(v)...)
	case "variants":
		r.errs = append(r.errs, r.c.readVariants(v)...)
	default:
		r.bad([]string{k}, "unknown key (want target, precision, alpha, batch, min_openings, nodes, stop, exclude, reference, grid or variants)")
	}
}

// fraction reads target, precision or alpha: a number strictly between 0
// and 1.
func (r *sweepReader) fraction(k string, v any) {
	x, ok := number(v)
	dst := map[string]*float64{"target": &r.c.Target, "precision": &r.c.Precision, "alpha": &r.c.Alpha}[k]
	switch {
	case !ok:
		r.bad([]string{k}, "want a number, got %s", typeName(v))
	case !(x > 0 && x < 1):
		r.bad([]string{k}, "want a number strictly between 0 and 1, got %v", x)
	default:
		*dst = x
	}
}

// count reads batch or min_openings: a whole number of at least 1.
func (r *sweepReader) count(k string, v any) {
	n, ok := v.(int64)
	switch {
	case !ok:
		r.bad([]string{k}, "want a whole number, got %s", typeName(v))
	case n < 1:
		r.bad([]string{k}, "want at least 1, got %d", n)
	case k == "batch":
		r.c.Batch = int(n)
	default:
		r.c.MinOpenings, r.minSet = int(n), true
	}
}

// nodes reads the list of node limits, the strengths of the bots.
func (r *sweepReader) nodes(v any) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		r.bad([]string{"nodes"}, "want a list of node limits, such as [1000, 10000]")
		return
	}
	for i, x := range list {
		n, ok := x.(int64)
		if !ok || n < 1 {
			r.bad([]string{"nodes"}, "item %d: want a node limit above 0, got %v", i+1, x)
			continue
		}
		if slices.Contains(r.c.Nodes, n) {
			r.bad([]string{"nodes"}, "%d is listed twice", n)
		}
		r.c.Nodes = append(r.c.Nodes, n)
	}
}

// exclude reads the list of configuration files whose openings the sweep
// must not repeat.
func (r *sweepReader) exclude(v any) {
	list, ok := v.([]any)
	if !ok {
		r.bad([]string{"exclude"}, "want a list of configuration files")
		return
	}
	for i, x := range list {
		s, ok := x.(string)
		if !ok || s == "" {
			r.bad([]string{"exclude"}, "item %d: want a file name, got %v", i+1, x)
			continue
		}
		r.c.Exclude = append(r.c.Exclude, resolve(r.cfg.Dir, s))
	}
}

// stops reads the list of reasons to stop a variant early.
func (r *sweepReader) stops(v any) {
	list, ok := v.([]any)
	if !ok {
		r.bad([]string{"stop"}, "want a list of reasons to stop early: outside, worse, on-target (or [] for none)")
		return
	}
	r.c.Stops = []race.Reason{}
	for i, x := range list {
		s, _ := x.(string)
		switch race.Reason(s) {
		case race.Outside, race.Worse, race.OnTarget:
			r.c.Stops = append(r.c.Stops, race.Reason(s))
		default:
			r.bad([]string{"stop"}, "item %d: %v is not a reason to stop early (want outside, worse or on-target)", i+1, x)
		}
	}
}

// checkShape checks the rest of the configuration against a sweep (two
// bots, one round, no SPRT) and sets the defaults that follow from the
// keys read.
func (r *sweepReader) checkShape() {
	cfg, c := r.cfg, r.c
	// The race takes game IDs for openings: one game per opening.
	if len(cfg.Bots) != 2 {
		r.bad(nil, "a sweep's games are between two bots (two seeds of one bot, say), got %d", len(cfg.Bots))
	}
	if cfg.Format.Rounds != 1 {
		r.errs = append(r.errs, cfg.KeyError([]string{"format", "rounds"}, fmt.Errorf("a sweep plays one round (its openings are its rounds), got %d", cfg.Format.Rounds)))
	}
	if cfg.SPRT != nil {
		r.errs = append(r.errs, cfg.KeyError([]string{"sprt"}, errors.New("a sweep stops its variants by its own race, not by a sequential test")))
	}
	if !r.minSet {
		c.MinOpenings = c.Batch
	}
	if len(c.Variants) == 0 {
		c.Variants = [][]game.Setting{nil} // the base alone
	}
	if n := len(c.Variants) * max(1, len(c.Nodes)); n > MaxVariants {
		r.bad(nil, "%d variants at %d strengths are %d arms, more than the %d a sweep races", len(c.Variants), max(1, len(c.Nodes)), n, MaxVariants)
	}
}

// readGrid reads [sweep.grid]: switches with the values to try; every
// combination is a variant, the keys varying in alphabetical order, the
// last fastest.
func (c *Config) readGrid(v any) []error {
	table, ok := v.(map[string]any)
	if !ok {
		return []error{c.Base.KeyError([]string{"sweep", "grid"}, fmt.Errorf("want a table of switches, each with a list of values"))}
	}
	var errs []error
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	combos := [][]game.Setting{nil}
	for _, k := range keys {
		list, ok := table[k].([]any)
		if !ok || len(list) == 0 {
			errs = append(errs, c.Base.KeyError([]string{"sweep", "grid", k}, fmt.Errorf("want a list of values to try")))
			continue
		}
		var values []string
		for i, x := range list {
			s, err := settingValue(x)
			if err != nil {
				errs = append(errs, c.Base.KeyError([]string{"sweep", "grid", k}, fmt.Errorf("item %d: %w", i+1, err)))
				continue
			}
			if slices.Contains(values, s) {
				errs = append(errs, c.Base.KeyError([]string{"sweep", "grid", k}, fmt.Errorf("%s is listed twice", s)))
			}
			values = append(values, s)
		}
		var next [][]game.Setting
		for _, base := range combos {
			for _, s := range values {
				next = append(next, append(slices.Clone(base), game.Setting{Key: k, Value: s}))
			}
		}
		combos = next
		if len(combos) > 10*MaxVariants {
			break // refused below, whatever the rest
		}
	}
	c.Variants = append(c.Variants, combos...)
	return errs
}

// readVariants reads [[sweep.variants]]: each a table of switches.
func (c *Config) readVariants(v any) []error {
	list, ok := v.([]map[string]any)
	if !ok {
		return []error{c.Base.KeyError([]string{"sweep", "variants"}, fmt.Errorf("want tables of switches ([[sweep.variants]])"))}
	}
	var errs []error
	for i, table := range list {
		keys := make([]string, 0, len(table))
		for k := range table {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var variant []game.Setting
		for _, k := range keys {
			s, err := settingValue(table[k])
			if err != nil {
				errs = append(errs, c.Base.KeyError([]string{"sweep", "variants[" + strconv.Itoa(i) + "]", k}, err))
				continue
			}
			variant = append(variant, game.Setting{Key: k, Value: s})
		}
		c.Variants = append(c.Variants, variant)
	}
	return errs
}

// checkRules builds every variant's rules on the base, naming the first
// variant the game refuses, and refuses two variants with the same rules.
func (c *Config) checkRules() error {
	seen := map[string]int{}
	for i, v := range c.Variants {
		rules, err := c.VariantRules(v)
		if err != nil {
			return fmt.Errorf("%w: %w", config.ErrInvalid, c.Base.KeyError([]string{"sweep"}, fmt.Errorf("variant %d (%s): %w", i+1, VariantName(v), err)))
		}
		key := settingsText(rules.Settings())
		if j, dup := seen[key]; dup {
			return fmt.Errorf("%w: %w", config.ErrInvalid, c.Base.KeyError([]string{"sweep"},
				fmt.Errorf("variants %d (%s) and %d (%s) have the same rules", j+1, VariantName(c.Variants[j]), i+1, VariantName(v))))
		}
		seen[key] = i
	}
	return nil
}

// VariantRules returns the rules of a variant: the base's preset with the
// base's switches, then the variant's.
func (c *Config) VariantRules(v []game.Setting) (game.Rules, error) {
	return games.New(c.Base.Game.Name, c.Base.Game.Preset, append(c.Base.Overrides(), v...))
}

// VariantName names a variant by its switches: "komi=1.5 touch=any", or
// "base" for none.
func VariantName(v []game.Setting) string {
	if len(v) == 0 {
		return "base"
	}
	parts := make([]string, len(v))
	for i, s := range v {
		parts[i] = s.Key + "=" + s.Value
	}
	return strings.Join(parts, " ")
}

func settingsText(s []game.Setting) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.Key + "=" + x.Value
	}
	return strings.Join(parts, " ")
}

// settingValue renders a TOML scalar as a switch value.
func settingValue(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "", fmt.Errorf("want a finite number, got %v", v)
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	}
	return "", fmt.Errorf("want a string, boolean or number, got %s", typeName(v))
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

// Strengths returns the sweep's strengths: its node limits, or the base's
// limits as one strength (0).
func (c *Config) Strengths() []int64 {
	if len(c.Nodes) == 0 {
		return []int64{0}
	}
	return c.Nodes
}
