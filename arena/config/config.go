package config

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/BurntSushi/toml"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/rating"
)

// MaxConcurrency is the most games a tournament plays at a time. Each game
// runs two bot processes and holds an operating system thread while it
// waits for a reply; far beyond this the arena would meet the runtime's
// limit on threads rather than a clear error.
const MaxConcurrency = 1024

// Defaults applied by Load.
const (
	DefaultRounds   = 1
	DefaultMoveTime = time.Second
	// DefaultMargin covers the latency a loaded machine adds to a move:
	// on two CPUs at a load average of 20, moves of near-instant bots
	// took up to 0.3 s and a searching bot's up to 1.06 s beyond the time
	// the bot reported (see the Latency table of the reports).
	DefaultMargin      = time.Second
	DefaultRandomCount = 10
	DefaultOutputRoot  = "results"
)

// Config is a tournament configuration, decoded from TOML by Load and
// documented in configs/README.md. Relative paths in it are resolved
// against the directory of the configuration file, except Output, which is
// relative to the working directory.
type Config struct {
	Name         string         `toml:"name"`
	Output       string         `toml:"output"`
	Seed         int64          `toml:"seed"`
	Concurrency  int            `toml:"concurrency"`
	Game         GameConfig     `toml:"game"`
	Format       FormatConfig   `toml:"format"`
	Openings     OpeningsConfig `toml:"openings"`
	Time         TimeControl    `toml:"time"`
	Adjudication Adjudication   `toml:"adjudication"`
	// Limits are every bot's resource limits and sandbox (see Limits).
	Limits Limits `toml:"limits"`
	// Affinity pins bots to CPUs: "off" (the default), "auto" (each game's
	// bots on CPUs of their own when there are enough, else spread over
	// all) or a CPU list such as "0-3,6" to spread them over.
	Affinity string `toml:"affinity"`
	// SPRT, when set, stops a two-bot match as soon as the sequential test
	// decides (see SPRTConfig).
	SPRT *SPRTConfig `toml:"sprt"`
	// EndPositions writes the position every game ended in to the output
	// directory's end-positions file, one line per game, in the form of an
	// opening file (fastchess's -epdout).
	EndPositions bool        `toml:"end_positions"`
	Bots         []BotConfig `toml:"bots"`
	// Sweep is the [sweep] table of a sweep over rule variants, which
	// package sweep reads; nil in a tournament's configuration.
	Sweep map[string]any `toml:"sweep"`
	// League is the [league] table of a league's roster (see
	// LeagueConfig); nil in a tournament's configuration.
	League *LeagueConfig `toml:"league"`

	// Path is the file the configuration was read from ("" if none) and
	// Dir the directory relative paths are resolved against.
	Path string `toml:"-"`
	Dir  string `toml:"-"`

	// Rules are the game rules built from Game and Adjudication.
	Rules game.Rules `toml:"-"`

	keys      keyLines
	ruleOrder []string // the keys of game.rules in the order given
	// badTimes holds the time tables (displayKey) with a refused value, so
	// that validation does not report them again as missing a time.
	badTimes map[string]bool
}

// SPRTConfig is a sequential probability ratio test on a match of two bots,
// from the side of the first bot listed: H0 says its Elo advantage over the
// second is Elo0, H1 that it is Elo1. The match stops as soon as the test
// accepts either; Alpha and Beta (default 0.05 each) are the error rates.
// Model is "logistic" (the default) or "normalized" (fastchess's default),
// the Elo model in which Elo0 and Elo1 are meant.
type SPRTConfig struct {
	Elo0  float64 `toml:"elo0"`
	Elo1  float64 `toml:"elo1"`
	Alpha float64 `toml:"alpha"`
	Beta  float64 `toml:"beta"`
	Model string  `toml:"model"`
}

// Params returns the test's parameters with the defaults filled in.
func (s *SPRTConfig) Params() rating.SPRTParams {
	p := rating.SPRTParams{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: rating.SPRTModel(s.Model)}
	if p.Model == "" {
		p.Model = rating.LogisticElo
	}
	if p.Alpha == 0 {
		p.Alpha = 0.05
	}
	if p.Beta == 0 {
		p.Beta = 0.05
	}
	return p
}

// GameConfig selects the game and its rule set.
type GameConfig struct {
	Name   string `toml:"name"`   // a registered game (games.Names): "cheversi" or "checkers"
	Preset string `toml:"preset"` // "" = the game's default preset
	// Rules overrides individual switches of the preset; values may be
	// strings, booleans or integers.
	Rules map[string]any `toml:"rules"`

	overrides []game.Setting
}

// LeagueConfig is what a league's roster adds to a tournament's keys: its
// bots join one at a time, each playing only its own games against the
// bots already there.
type LeagueConfig struct {
	// Sample, when above 0, is the most bots of the pool a newcomer plays:
	// a sample of that many, drawn from the seed and the newcomer's place
	// in the league. 0 (the default) plays the whole pool.
	Sample int `toml:"sample"`
	// Anchors fixes the rating of each bot named (Ordo's -a and -m); a
	// league without one centres its ratings on 0.
	Anchors map[string]float64 `toml:"anchors"`
	// Synonyms gives a bot's earlier names: the games played under them
	// count as the bot's own, and it does not join again.
	Synonyms map[string][]string `toml:"synonyms"`
}

// FormatConfig is the pairing scheme.
type FormatConfig struct {
	// Kind is schedule.RoundRobin (default), schedule.Gauntlet,
	// schedule.Swiss or schedule.Knockout.
	Kind string `toml:"kind"`
	// Rounds: for a round-robin or gauntlet, default 1, a round plays
	// every opening of every pairing twice; for a Swiss, the number of
	// rounds, by default the fewest that can leave one bot with every
	// pairing won (⌈log₂ bots⌉). A knockout's rounds follow from its bots.
	Rounds  int      `toml:"rounds"`
	Players []string `toml:"players"` // Gauntlet: the bots that play every other bot
	// Bye is what a Swiss bye scores, in points of the pair of games it
	// stands for (0 to 2 in half points; DefaultBye).
	Bye *float64 `toml:"bye"`
	// Games is the number of games of a knockout match before any
	// tiebreak: colour-reversed pairs, so even (DefaultMatchGames).
	Games int `toml:"games"`
	// TiebreakPairs is the most colour-reversed pairs a tied knockout
	// match adds, one at a time, until one is won (DefaultTiebreakPairs;
	// 0 for none).
	TiebreakPairs *int `toml:"tiebreak_pairs"`
	// Decider settles a knockout match still tied after its tiebreak
	// pairs: schedule.DeciderArmageddon (default) or schedule.DeciderSeed.
	Decider string `toml:"decider"`
	// TiebreakTime, when set, is the time control of a knockout's
	// tiebreak games (its tiebreak pairs and armageddon decider), for
	// every bot in place of its own: a faster one, as matches of people
	// are decided by rapid games. Its margin defaults to [time]'s; the
	// bots' search limits still apply.
	TiebreakTime *TimeControl `toml:"tiebreak_time"`
	// Seeding orders a Swiss's or knockout's bots: SeedingOrder (default,
	// the order of the bots) or SeedingRating (by each bot's rating key,
	// highest first).
	Seeding string `toml:"seeding"`
}

// Seedings of a Swiss or knockout.
const (
	SeedingOrder  = "order"
	SeedingRating = "rating"
)

// Defaults of the Swiss and knockout keys.
const (
	DefaultBye           = 1.0 // a bye scores as a drawn pair of games
	DefaultMatchGames    = 2
	DefaultTiebreakPairs = 2
)

// Seeds returns the bots of a Swiss or knockout in seed order: as listed,
// or by rating (highest first, ties as listed).
func (c *Config) Seeds() []string {
	if c.Format.Seeding != SeedingRating {
		return c.BotNames()
	}
	bots := slices.Clone(c.Bots)
	slices.SortStableFunc(bots, func(a, b BotConfig) int { return cmpRating(b.Rating, a.Rating) })
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.Name
	}
	return names
}

func cmpRating(a, b *float64) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	case *a < *b:
		return -1
	case *a > *b:
		return 1
	}
	return 0
}

// Plan returns the plan of a Swiss or knockout configuration (see
// schedule.NewRounds).
func (c *Config) Plan() schedule.Plan {
	f := c.Format
	p := schedule.Plan{Kind: f.Kind, Seeds: c.Seeds(), FirstMover: c.Rules.FirstMover().String()}
	switch f.Kind {
	case schedule.Swiss:
		p.Rounds = f.Rounds
		p.ByeHalfPoints = int(math.Round(2 * *f.Bye))
	case schedule.Knockout:
		p.Games, p.TiebreakPairs, p.Decider = f.Games, *f.TiebreakPairs, f.Decider
		if f.TiebreakTime != nil {
			p.TiebreakTime = f.TiebreakTime.String()
		}
	}
	return p
}

// TiebreakGame reports whether game id is a knockout's tiebreak game
// (schedule.Plan.Tiebreak) played at the format's tiebreak_time. It
// follows from the configuration and the ID alone, so that a worker
// playing the game elsewhere gives it the same time control.
func (c *Config) TiebreakGame(id int) bool {
	f := &c.Format
	if f.Kind != schedule.Knockout || f.TiebreakTime == nil || f.TiebreakPairs == nil {
		return false
	}
	p := schedule.Plan{Kind: f.Kind, Games: f.Games, TiebreakPairs: *f.TiebreakPairs}
	return p.Tiebreak(id)
}

// GameTime returns the time control that applies to the named bot in game
// id: its own (BotTime), or in a knockout's tiebreak game (TiebreakGame)
// the format's tiebreak_time, with the bot's search limits.
func (c *Config) GameTime(name string, id int) TimeControl {
	tc := c.BotTime(name)
	if !c.TiebreakGame(id) {
		return tc
	}
	t := *c.Format.TiebreakTime
	t.Nodes, t.Depth = tc.Nodes, tc.Depth
	return t
}

// OpeningsConfig selects the openings. With File set, openings come from
// that file (an ACF ballot table, or one move sequence per line). Without
// it, checkers uses the ACF 3-move ballots and other games start from the
// start position, or, with Plies set, from Count random legal openings of
// that many plies drawn from the tournament seed.
//
// Once plays every opening of every pairing once, the colours alternating
// from one opening to the next (schedule.NewOnce), instead of twice with
// the colours reversed: for bots playing themselves, whose two games of an
// opening would be alike.
type OpeningsConfig struct {
	File  string `toml:"file"`
	Deck  string `toml:"deck"`  // ballot tables: DeckACF (default), DeckCTD or DeckAll
	Plies int    `toml:"plies"` // random openings: plies each
	Count int    `toml:"count"` // random openings: how many (default DefaultRandomCount)
	Limit int    `toml:"limit"` // use only the first Limit openings (0 = all)
	Once  bool   `toml:"once"`  // every opening once, not twice
	// After, with Plies, leaves the first After plies of every game to
	// the players: the random plies come after them, drawn as the game is
	// played (openings.Deferred).
	After int `toml:"after"`
	// Order is openings.OrderSequential ("" too: as listed) or
	// openings.OrderRandom (shuffled by the seed), and Start the 1-based
	// place in that order of the first opening played (0: the first):
	// fastchess's -openings order= and start=.
	Order string `toml:"order"`
	Start int    `toml:"start"`
}

// TimeControl is either a fixed time per move (Move) or a clock with Base
// time per side plus Increment per move; with Moves > 0 the base time is a
// period for that many moves, given again after each of them ("40/60s").
// Margin is extra time allowed for process overhead before a bot loses on
// time. Nodes and Depth, when positive, are search limits per move sent to
// the bots that declare they obey them (in the tournament's [time] table;
// a bot sets its own with BotConfig.Nodes and BotConfig.Depth).
type TimeControl struct {
	Move      time.Duration `toml:"move"`
	Base      time.Duration `toml:"base"`
	Increment time.Duration `toml:"increment"`
	Moves     int           `toml:"moves"`
	Margin    time.Duration `toml:"margin"`
	Nodes     int64         `toml:"nodes"`
	Depth     int           `toml:"depth"`
}

// Fixed reports whether tc gives a fixed time per move.
func (tc TimeControl) Fixed() bool { return tc.Base == 0 }

// Clock returns the engine's time control for tc.
func (tc TimeControl) Clock() engine.TimeControl {
	return engine.TimeControl{Move: tc.Move, Base: tc.Base, Increment: tc.Increment, Moves: tc.Moves, Margin: tc.Margin}
}

// String describes tc, e.g. "1s/move", "10s+100ms" or "40/1m0s", followed
// by its search limits (", depth 8, 20000 nodes").
func (tc TimeControl) String() string {
	var s string
	switch {
	case tc.Fixed():
		s = fmt.Sprintf("%v/move", tc.Move)
	case tc.Moves > 0 && tc.Increment == 0:
		s = fmt.Sprintf("%d/%v", tc.Moves, tc.Base)
	case tc.Moves > 0:
		s = fmt.Sprintf("%d/%v+%v", tc.Moves, tc.Base, tc.Increment)
	default:
		s = fmt.Sprintf("%v+%v", tc.Base, tc.Increment)
	}
	if tc.Depth > 0 {
		s += fmt.Sprintf(", depth %d", tc.Depth)
	}
	if tc.Nodes > 0 {
		s += fmt.Sprintf(", %d nodes", tc.Nodes)
	}
	return s
}

// Adjudication holds the draw rules and length cap the arena applies. They
// are rule switches of the game (checkers only); a zero value keeps the
// preset's default, a negative value turns the rule off.
//
// Resign and Draw, when set, adjudicate a game by the bots' agreement: on
// the scores they report in their info lines (see ResignRule and
// DrawRule). They are off by default, and checkers only.
type Adjudication struct {
	MaxPlies   int         `toml:"max_plies"`
	Repetition int         `toml:"repetition"`
	QuietMoves int         `toml:"quiet_moves"`
	Resign     *ResignRule `toml:"resign"`
	Draw       *DrawRule   `toml:"draw"`
}

// ResignRule ends a game as a win when both bots agree it is decided: the
// loser reported a score of -Score or less, and the winner +Score or more,
// on each of their last Moves moves. Scores are in the bots' own unit
// (hundredths of a man for checkers bots), so both bots must use the
// same one.
type ResignRule struct {
	Score int `toml:"score"`
	Moves int `toml:"moves"`
}

// DrawRule ends a game as a draw when both bots agree it is even: from ply
// AfterPly on, each reported a score between -Score and +Score on each of
// its last Moves moves.
type DrawRule struct {
	Score    int `toml:"score"`
	Moves    int `toml:"moves"`
	AfterPly int `toml:"after_ply"`
}

// BotConfig is one participant.
type BotConfig struct {
	Name string `toml:"name"`
	// Either Builtin names a built-in bot (see RegisterBuiltin: the
	// arena's "random", "greedy", "alphabeta", "expert", or "human", a
	// person at a board page), run as `arena bot NAME ARGS...`, or
	// Command is the
	// executable: a path (relative to the configuration's directory) or a
	// name looked up in PATH.
	Builtin string   `toml:"builtin"`
	Command string   `toml:"command"`
	Args    []string `toml:"args"`
	Dir     string   `toml:"dir"` // working directory ("" = the configuration's directory)
	// Env holds extra environment variables.
	Env map[string]string `toml:"env"`
	// Options are protocol options set after the handshake; values may be
	// strings, booleans or numbers.
	Options map[string]any `toml:"options"`
	// Time overrides the tournament's time control for this bot. Margin
	// is inherited when not set; search limits are set with Nodes and
	// Depth, not here.
	Time *TimeControl `toml:"time"`
	// Nodes and Depth, when positive, limit this bot's search per move,
	// replacing the tournament's [time] nodes and depth. The bot must
	// declare that it obeys them.
	Nodes int64 `toml:"nodes"`
	Depth int   `toml:"depth"`
	// HandshakeTimeout bounds the start-up handshake (default 10s).
	HandshakeTimeout time.Duration `toml:"handshake_timeout"`
	// Transcript writes every protocol line between the arena and the
	// bot, with the time, to the bot's log (logs/NAME.log).
	Transcript bool `toml:"transcript"`
	// Limits overrides the tournament's [limits], key by key.
	Limits *Limits `toml:"limits"`
	// Rating seeds the bot in a Swiss or knockout with seeding = "rating".
	Rating *float64 `toml:"rating"`
	// Restart is when the bot's process is replaced: RestartOnError
	// ("", the default: kept from game to game, replaced after it dies or
	// misbehaves) or RestartAlways (a fresh process for every game, for
	// engines that leak state from one game to the next).
	Restart string `toml:"restart"`
}

// Values of BotConfig.Restart.
const (
	RestartOnError = "on-error"
	RestartAlways  = "always"
)

// Error is a problem with a configuration, located by key and line,
// or by the command-line flag that set the key.
type Error struct {
	Path string // configuration file
	Line int    // 1-based; 0 when unknown
	Key  string // e.g. "bots[2].command"; "" when Flag names it
	Flag string // the flag that set the key, e.g. "--set time.move=2s"; "" when the file did
	Err  error
}

// Error returns e.g. `tour.toml:12: bots[2].command: executable "x" not
// found`, or `--rounds 0: must be at least 1, got 0`.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Flag != "" {
		b.WriteString(e.Flag)
		b.WriteString(": ")
	} else if e.Path != "" {
		b.WriteString(e.Path)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrInvalid is wrapped by every configuration error.
var ErrInvalid = errors.New("invalid configuration")

// Load reads, decodes and validates a configuration file, with the keys
// the overrides set replacing the file's. Unknown keys, wrong types and
// invalid values are reported together, each as a *Error naming the
// key and its line (or the override's flag); the joined error wraps
// ErrInvalid.
func Load(path string, overrides ...Override) (*Config, error) {
	data, dir, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path, dir, overrides...)
}

// LoadWith is Load with the keys set by apply, which changes the file's
// document as the command line says (keys, bots) before it is decoded and
// validated (see ParseWith).
func LoadWith(path string, apply func(*Document) error) (*Config, error) {
	data, dir, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return ParseWith(data, path, dir, apply)
}

// readFile reads a configuration file and returns it with the directory
// its relative paths are resolved against.
func readFile(path string) (data []byte, dir string, err error) {
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("read configuration: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", fmt.Errorf("read configuration: %w", err)
	}
	return data, filepath.Dir(abs), nil
}

// ParseWith decodes and validates the configuration data holds, after
// apply has changed its document (set keys, added bots: what a command
// line gives on top of a file). The file is checked first, as written:
// a value it sets that is wrong is reported even when apply replaces it
// (concurrency = -5 with --concurrency 2), with the file's line, so that
// the file is right for the next run without the flag. What the file
// lacks that apply gives (a second bot, say) is judged on the whole.
func ParseWith(data []byte, name, dir string, apply func(*Document) error) (*Config, error) {
	d, err := ReadDocument(data, name)
	if err != nil {
		return nil, err
	}
	_, fileErr := parse(data, name, dir, scanKeyLines(string(data)), nil, true)
	if err := apply(d); err != nil {
		return nil, err
	}
	cfg, err := d.Config(name, dir)
	hidden := d.replacedErrors(fileErr, err)
	if len(hidden) == 0 {
		return cfg, err
	}
	if err != nil {
		hidden = append(hidden, Errors(err)...)
	}
	return nil, fmt.Errorf("%w:\n%w", ErrInvalid, errors.Join(hidden...))
}

// Errors returns the configuration errors err holds, each a *Error (or,
// when err holds none, err itself).
func Errors(err error) []error {
	var out []error
	var walk func(error)
	walk = func(e error) {
		var ce *Error
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		default:
			if errors.As(e, &ce) {
				out = append(out, ce)
			}
		}
	}
	walk(err)
	if len(out) == 0 && err != nil {
		return []error{err}
	}
	return out
}

// replacedErrors returns the errors of fileErr, the file's own, about
// keys that the file sets and the document's flags replace (what the file
// lacks and a flag gives is no error of the file's): the decoding of the document with
// the flags' values does not see them. Each says which flag replaces the
// value.
// Errors the decoding reports too (err) are left out.
func (d *Document) replacedErrors(fileErr, err error) []error {
	if fileErr == nil || len(d.keys.sources) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, e := range Errors(err) {
		if ce, ok := e.(*Error); ok {
			seen[ce.Key+"\x00"+ce.Err.Error()] = true
		}
	}
	var out []error
	for _, e := range Errors(fileErr) {
		ce, ok := e.(*Error)
		if !ok || ce.Flag != "" || ce.Key == "" || seen[ce.Key+"\x00"+ce.Err.Error()] {
			continue
		}
		for _, p := range slices.Sorted(maps.Keys(d.keys.sources)) {
			if covers(p, ce.Key) && d.keys.defines(p) {
				c := *ce
				c.Err = fmt.Errorf("%w (the file's value, which %s replaces: the file must be right too)", ce.Err, d.keys.sources[p])
				out = append(out, &c)
				break
			}
		}
	}
	return out
}

// covers reports whether the key at the indexed dotted path p (bots.0.args)
// is key, as an error names it (bots[0].args, or bots.args without the
// index), encloses it, or is one of the keys of a table the error is about
// (time.move for an error about time).
func covers(p, key string) bool {
	for _, k := range []string{displayKey(strings.Split(p, ".")), unindexed(p)} {
		if key == k || strings.HasPrefix(key, k+".") || strings.HasPrefix(key, k+"[") ||
			strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[") {
			return true
		}
	}
	return false
}

// Parse decodes and validates a configuration held in memory, with the
// keys the overrides set replacing those of data. name is used in error
// messages; dir is the directory relative paths are resolved against.
// The values data sets are checked as written, even those an override
// replaces (see ParseWith).
func Parse(data []byte, name, dir string, overrides ...Override) (*Config, error) {
	if len(overrides) == 0 {
		return parse(data, name, dir, scanKeyLines(string(data)), nil, true)
	}
	return ParseWith(data, name, dir, func(d *Document) error {
		for _, o := range overrides {
			if err := d.Set(o); err != nil {
				return err
			}
		}
		return nil
	})
}

// parse decodes and validates data, locating keys with keys. ruleOrder
// lists the rule switches in the order given (nil: as data has them).
// With fileLines, data is the file as written and the decoder's line
// numbers are the file's; otherwise keys are located by name.
func parse(data []byte, name, dir string, keys keyLines, ruleOrder []string, fileLines bool) (*Config, error) {
	cfg := &Config{Path: name, Dir: dir, keys: keys}
	md, err := toml.Decode(string(data), cfg)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			if !fileLines { // a value set by a flag, such as a bad duration
				return nil, fmt.Errorf("%w: %w", ErrInvalid, cfg.errUnindexed(strings.Split(pe.LastKey, "."), errors.New(pe.Message)))
			}
			return nil, fmt.Errorf("%w: %w", ErrInvalid, syntaxError(pe, data, name))
		}
		// A value of the wrong type stops the decoder: find them all, with
		// the unknown keys, to report them together.
		var raw map[string]any
		if _, rerr := toml.Decode(string(data), &raw); rerr == nil {
			if errs := cfg.typeErrors(raw); len(errs) > 0 {
				return nil, fmt.Errorf("%w:\n%w", ErrInvalid, errors.Join(errs...))
			}
		}
		if m := decodeErrRE.FindStringSubmatch(err.Error()); m != nil {
			e := cfg.errUnindexed(strings.Split(m[2], "."), errors.New(plainTypeError(m[3])))
			if line, _ := strconv.Atoi(m[1]); fileLines {
				e.Line = line
			}
			return nil, fmt.Errorf("%w: %w", ErrInvalid, e)
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalid, name, err)
	}
	cfg.ruleOrder = ruleOrder
	if ruleOrder == nil {
		cfg.ruleOrder = ruleKeys(md)
	}
	errs := cfg.unknownKeys(md.Undecoded())
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err == nil {
		errs = append(errs, cfg.checkDurations(raw)...)
	}
	errs = append(errs, cfg.validate(md)...)
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w:\n%w", ErrInvalid, errors.Join(errs...))
	}
	return cfg, nil
}

// decodeErrRE matches the decoder's type errors, which carry the line and
// key only in their text: `toml: line 4 (last key "format.rounds"): ...`.
var decodeErrRE = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// Type errors as the decoder words them; plainTypeError rewords them
// without the names of Go types.
var (
	mismatchRE     = regexp.MustCompile(`^type mismatch for [\w.*\[\]]+: expected (\w+) but found (\w+)$`)
	incompatibleRE = regexp.MustCompile(`^incompatible types: TOML value has type (\w+); destination has type (\w+)$`)
)

func plainTypeError(msg string) string {
	if m := mismatchRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("wrong type: want a %s, got a %s", m[1], m[2])
	}
	if m := incompatibleRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("wrong type: want %s, got %s", m[2], m[1])
	}
	return msg
}

// durationKeys are the keys of a time table; only an increment may be zero.
var durationKeys = []struct {
	key    string
	zeroOK bool
}{{"move", false}, {"base", false}, {"increment", true}, {"margin", false}}

// checkDurations refuses time values the decoder would take silently: an
// integer (which it reads as nanoseconds) or another non-string, and a
// zero where zero means nothing (a zero move time, base time, margin or
// handshake timeout). raw is the document decoded without a schema.
func (c *Config) checkDurations(raw map[string]any) []error {
	var errs []error
	c.badTimes = map[string]bool{}
	check := func(path []string, v any, zeroOK bool) {
		var err error
		str, ok := v.(string)
		if !ok {
			err = fmt.Errorf("want a duration such as \"500ms\" or \"2s\", got %s", valueWords(v))
		} else if d, perr := time.ParseDuration(str); perr == nil && d == 0 && !zeroOK {
			err = fmt.Errorf("%q: must be more than zero", str)
		}
		if err != nil {
			errs = append(errs, c.KeyError(path, err))
			c.badTimes[displayKey(path[:len(path)-1])] = true
		}
	}
	table := func(path []string, t any) {
		m, ok := t.(map[string]any)
		if !ok {
			return
		}
		for _, k := range durationKeys {
			if v, ok := m[k.key]; ok {
				check(append(slices.Clone(path), k.key), v, k.zeroOK)
			}
		}
	}
	table([]string{"time"}, raw["time"])
	if f, ok := raw["format"].(map[string]any); ok {
		table([]string{"format", "tiebreak_time"}, f["tiebreak_time"])
	}
	cpuTime := func(path []string, t any) {
		if m, ok := t.(map[string]any); ok {
			if v, ok := m["cpu_time"]; ok {
				check(append(slices.Clone(path), "cpu_time"), v, false)
			}
		}
	}
	cpuTime([]string{"limits"}, raw["limits"])
	bots, _ := raw["bots"].([]map[string]any)
	for i, b := range bots {
		table([]string{"bots", strconv.Itoa(i), "time"}, b["time"])
		cpuTime([]string{"bots", strconv.Itoa(i), "limits"}, b["limits"])
		if v, ok := b["handshake_timeout"]; ok {
			check([]string{"bots", strconv.Itoa(i), "handshake_timeout"}, v, false)
		}
	}
	return errs
}

// valueWords describes a decoded TOML value for an error message.
func valueWords(v any) string {
	switch v := v.(type) {
	case int64:
		return fmt.Sprintf("the integer %d (write a unit: \"%dms\", \"%ds\")", v, v, v)
	case float64:
		return fmt.Sprintf("the number %v", v)
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	}
	return fmt.Sprintf("a %T", v)
}

// freeForm reports whether an undecoded key lies in a table whose keys are
// free (rule switches and bot options are decoded into interface values,
// which the decoder does not mark as decoded).
func freeForm(k toml.Key) bool {
	return len(k) >= 3 && (k[0] == "game" && k[1] == "rules" || k[0] == "bots" && k[1] == "options") ||
		len(k) >= 2 && k[0] == "sweep" // package sweep checks its keys
}

// unknownKeys reports each unknown key once: not the keys inside an
// unknown table (the decoder lists them all), nor an unknown array of
// tables once per element.
func (c *Config) unknownKeys(keys []toml.Key) []error {
	var errs []error
	reported := map[string]bool{}
	for _, k := range keys {
		if freeForm(k) {
			continue
		}
		inside := false
		for n := 1; n <= len(k) && !inside; n++ {
			inside = reported[strings.Join(k[:n], ".")]
		}
		if inside {
			continue
		}
		reported[strings.Join(k, ".")] = true
		errs = append(errs, c.errUnindexed(k, errors.New("unknown key"+keyHint(k))))
	}
	return errs
}

// KeyError builds an error for the key at path (indexed, see keyLines). A
// flag that set exactly that key names it: the key is left out.
func (c *Config) KeyError(path []string, err error) error {
	line, flag, exact := c.keys.where(path, true)
	key := displayKey(path)
	if exact {
		key = ""
	}
	return &Error{Path: c.Path, Line: line, Key: key, Flag: flag, Err: err}
}

// errUnindexed builds an error for a key as the decoder names it, without
// array indices: an unknown key or a value of the wrong type.
func (c *Config) errUnindexed(key []string, err error) *Error {
	line, flag, _ := c.keys.where(key, false)
	return &Error{Path: c.Path, Line: line, Key: strings.Join(key, "."), Flag: flag, Err: err}
}

// whereKey describes where the key at path was given: "line 12" or
// "--bot name=a".
func (c *Config) whereKey(path []string) string {
	line, flag, _ := c.keys.where(path, true)
	if flag != "" {
		return flag
	}
	return fmt.Sprintf("line %d", line)
}

// displayKey renders an indexed path as bots[2].command.
func displayKey(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if _, err := strconv.Atoi(p); err == nil && i > 0 {
			fmt.Fprintf(&b, "[%s]", p)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

var botNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// validate checks values, applies defaults and builds the rules.
func (c *Config) validate(md toml.MetaData) []error {
	c.defaultNames()
	errs := c.validateConcurrency(md)
	errs = append(errs, c.validateRules()...)
	errs = append(errs, c.validateSolo(md)...)
	errs = append(errs, c.validateSPRT()...)
	errs = append(errs, c.validateFormat(md)...)
	errs = append(errs, c.validateOpenings()...)
	if err := c.Time.validate(true); err != nil {
		errs = append(errs, c.KeyError([]string{"time"}, fmt.Errorf("%v", err)))
	}
	errs = append(errs, c.Limits.validate(c, []string{"limits"})...)
	errs = append(errs, c.validateAffinity()...)
	errs = append(errs, c.validateBots()...)
	errs = append(errs, c.validateLeague()...)
	return append(errs, c.validatePlayers()...)
}

// validateLeague checks a league's keys: its bots play gauntlets the
// league lays out, so the roster's format is the plain round-robin; a
// sample is not negative; a name is one bot's only.
func (c *Config) validateLeague() []error {
	l := c.League
	if l == nil {
		return nil
	}
	e := keyErrors{c: c}
	if c.Format.Kind != schedule.RoundRobin {
		e.add([]string{"format", "kind"}, "a league lays out its own games (each newcomer against the pool): leave the format out, not %q", c.Format.Kind)
	}
	if c.SPRT != nil {
		e.add([]string{"sprt"}, "a league takes no sequential test")
	}
	if l.Sample < 0 {
		e.add([]string{"league", "sample"}, "must be 0 (the whole pool) or more, got %d", l.Sample)
	}
	owner := map[string]string{}
	for _, b := range c.Bots {
		owner[b.Name] = b.Name
	}
	for _, bot := range slices.Sorted(maps.Keys(l.Synonyms)) {
		for _, old := range l.Synonyms[bot] {
			switch o, ok := owner[old]; {
			case old == "" || old == bot:
				e.add([]string{"league", "synonyms", bot}, "%q is not an earlier name of %q", old, bot)
			case ok:
				e.add([]string{"league", "synonyms", bot}, "%q is already the name of %q", old, o)
			default:
				owner[old] = bot
			}
		}
	}
	return e.errs
}

// keyErrors collects errors about keys.
type keyErrors struct {
	c    *Config
	errs []error
}

// add adds an error about the key at path.
func (e *keyErrors) add(path []string, format string, args ...any) {
	e.errs = append(e.errs, e.c.KeyError(path, fmt.Errorf(format, args...)))
}

// defaultNames names the tournament after its file, and its output
// directory after its name, when the configuration does not.
func (c *Config) defaultNames() {
	if c.Name == "" {
		base := filepath.Base(c.Path)
		c.Name = strings.TrimSuffix(base, filepath.Ext(base))
		if c.Name == "" || c.Name == "." {
			c.Name = "tournament"
		}
	}
	if c.Output == "" {
		c.Output = filepath.Join(DefaultOutputRoot, SafeFileName(c.Name))
	}
}

// validateConcurrency checks the concurrency and sets its default.
func (c *Config) validateConcurrency(md toml.MetaData) []error {
	e := keyErrors{c: c}
	// A count left out takes its default; one given must be at least 1.
	if md.IsDefined("concurrency") && c.Concurrency < 1 {
		e.add([]string{"concurrency"}, "must be at least 1, got %d", c.Concurrency)
	}
	if c.Concurrency > MaxConcurrency {
		e.add([]string{"concurrency"}, "must be at most %d, got %d", MaxConcurrency, c.Concurrency)
	}
	if c.Concurrency == 0 {
		// The CPUs this process may use: a container's limit or a batch
		// job's allocation, not the machine's.
		c.Concurrency = min(runtime.GOMAXPROCS(0), MaxConcurrency)
	}
	return e.errs
}

// validateSolo plays one game at a time when a bot does (a person).
func (c *Config) validateSolo(md toml.MetaData) []error {
	e := keyErrors{c: c}
	if i := slices.IndexFunc(c.Bots, func(b BotConfig) bool { return soloBuiltin(b.Builtin) }); i >= 0 && c.Concurrency != 1 {
		if md.IsDefined("concurrency") {
			e.add([]string{"concurrency"}, "a person (builtin = %q) plays one game at a time: set it to 1", c.Bots[i].Builtin)
		}
		c.Concurrency = 1
	}
	return e.errs
}

// validateSPRT checks the sequential test.
func (c *Config) validateSPRT() []error {
	e := keyErrors{c: c}
	if c.SPRT != nil {
		if err := c.SPRT.Params().Validate(); err != nil {
			e.add([]string{"sprt"}, "%v", err)
		}
		if len(c.Bots) != 2 {
			e.add([]string{"sprt"}, "a sequential test needs a match of exactly two bots, not %d", len(c.Bots))
		}
	}
	return e.errs
}

// validateFormat checks the format and the rounds and sets their
// defaults.
func (c *Config) validateFormat(md toml.MetaData) []error {
	e := keyErrors{c: c}
	switch c.Format.Kind {
	case "":
		c.Format.Kind = schedule.RoundRobin
	case schedule.RoundRobin, schedule.Gauntlet, schedule.Swiss, schedule.Knockout:
	default:
		e.add([]string{"format", "kind"}, "unknown format %q (want %q, %q, %q or %q)", c.Format.Kind, schedule.RoundRobin, schedule.Gauntlet, schedule.Swiss, schedule.Knockout)
	}
	e.errs = append(e.errs, c.validateRounds(md)...)
	if md.IsDefined("format", "rounds") && c.Format.Rounds < 1 {
		e.add([]string{"format", "rounds"}, "must be at least 1, got %d", c.Format.Rounds)
	}
	if c.Format.Rounds > schedule.MaxGames/2 {
		e.add([]string{"format", "rounds"}, "%d rounds of at least 2 games each is more than the %d games a tournament may have", c.Format.Rounds, schedule.MaxGames)
	}
	if c.Format.Rounds == 0 {
		c.Format.Rounds = DefaultRounds
		if c.Format.Kind == schedule.Swiss {
			c.Format.Rounds = max(1, bits.Len(uint(len(c.Bots)-1)))
		}
	}
	return e.errs
}

// validateRounds checks the keys of the Swiss and knockout formats, which
// no other format takes, and sets their defaults.
func (c *Config) validateRounds(md toml.MetaData) []error {
	e := keyErrors{c: c}
	f := &c.Format
	only := func(key, kind string) {
		if md.IsDefined("format", key) && f.Kind != kind {
			e.add([]string{"format", key}, "only a %q format takes %s", kind, key)
		}
	}
	only("bye", schedule.Swiss)
	for _, k := range []string{"games", "tiebreak_pairs", "decider", "tiebreak_time"} {
		only(k, schedule.Knockout)
	}
	if md.IsDefined("format", "seeding") && !schedule.Progressive(f.Kind) {
		e.add([]string{"format", "seeding"}, "only a %q or %q format takes seeding", schedule.Swiss, schedule.Knockout)
	}
	if !schedule.Progressive(f.Kind) {
		return e.errs
	}
	if f.Bye == nil {
		f.Bye = ptr(DefaultBye)
	}
	if b := *f.Bye; b < 0 || b > 2 || b*2 != math.Trunc(b*2) {
		e.add([]string{"format", "bye"}, "a bye scores 0, 0.5, 1, 1.5 or 2 points (of the pair of games it stands for), got %v", b)
	}
	if f.Kind == schedule.Knockout {
		c.validateKnockout(md, &e)
	}
	c.validateSeeding(&e)
	if c.Openings.Once {
		e.add([]string{"openings", "once"}, "a %s plays every pairing as a colour-reversed pair of games", f.Kind)
	}
	if c.SPRT != nil {
		e.add([]string{"sprt"}, "a sequential test stops a match of two bots; a %s has no such match", f.Kind)
	}
	return e.errs
}

// validateKnockout checks the keys of a knockout's format and sets the
// defaults of those not given.
func (c *Config) validateKnockout(md toml.MetaData, e *keyErrors) {
	f := &c.Format
	if md.IsDefined("format", "rounds") {
		e.add([]string{"format", "rounds"}, "a knockout's rounds follow from its bots; set games, the games of each match")
	}
	if f.Games == 0 && !md.IsDefined("format", "games") {
		f.Games = DefaultMatchGames
	}
	if f.Games < 2 || f.Games%2 != 0 {
		e.add([]string{"format", "games"}, "a match plays colour-reversed pairs of games: want an even number, at least 2, got %d", f.Games)
	}
	if f.TiebreakPairs == nil {
		f.TiebreakPairs = ptr(DefaultTiebreakPairs)
	}
	if *f.TiebreakPairs < 0 {
		e.add([]string{"format", "tiebreak_pairs"}, "must not be negative, got %d", *f.TiebreakPairs)
	}
	switch f.Decider {
	case "":
		f.Decider = schedule.DeciderArmageddon
	case schedule.DeciderArmageddon, schedule.DeciderSeed:
	default:
		e.add([]string{"format", "decider"}, "unknown decider %q (want %q: one game, the higher seed moving first and a draw sending the other through; or %q: the higher seed goes through)",
			f.Decider, schedule.DeciderArmageddon, schedule.DeciderSeed)
	}
	c.validateTiebreakTime(e)
}

// validateTiebreakTime checks a knockout's tiebreak_time, and gives it
// [time]'s margin when it sets none.
func (c *Config) validateTiebreakTime(e *keyErrors) {
	f := &c.Format
	tc := f.TiebreakTime
	if tc == nil || c.badTimes[displayKey([]string{"format", "tiebreak_time"})] {
		return
	}
	key := []string{"format", "tiebreak_time"}
	if tc.Nodes != 0 || tc.Depth != 0 {
		e.add(key, "search limits (nodes, depth) are set in [time] or per bot, and hold in the tiebreak games too")
		return
	}
	if err := tc.check(false); err != nil {
		e.add(key, "%v", err)
		return
	}
	if tc.Move == 0 && tc.Base == 0 {
		e.add(key, "give move (a fixed time per move) or base (a clock)")
		return
	}
	if f.TiebreakPairs != nil && *f.TiebreakPairs == 0 && f.Decider == schedule.DeciderSeed {
		e.add(key, "no game is a tiebreak game: tiebreak_pairs is 0 and the decider is %q", schedule.DeciderSeed)
	}
	if tc.Margin == 0 {
		tc.Margin = c.Time.Margin
	}
}

// validateSeeding checks how a Swiss or knockout seeds its bots, "order"
// when not given.
func (c *Config) validateSeeding(e *keyErrors) {
	f := &c.Format
	switch f.Seeding {
	case "":
		f.Seeding = SeedingOrder
	case SeedingOrder:
	case SeedingRating:
		for i, b := range c.Bots {
			if b.Rating == nil {
				e.add([]string{"bots", strconv.Itoa(i)}, "seeding = %q needs a rating for every bot; bot %q has none", SeedingRating, b.Name)
			}
		}
	default:
		e.add([]string{"format", "seeding"}, "unknown seeding %q (want %q, the order of the bots, or %q, by each bot's rating)", f.Seeding, SeedingOrder, SeedingRating)
	}
}

func ptr[T any](v T) *T { return &v }

// validatePlayers checks a gauntlet's players.
func (c *Config) validatePlayers() []error {
	e := keyErrors{c: c}
	if c.Format.Kind != schedule.Gauntlet {
		if len(c.Format.Players) > 0 {
			e.add([]string{"format", "players"}, "only a %q format takes players", schedule.Gauntlet)
		}
		return e.errs
	}
	if len(c.Format.Players) == 0 {
		e.add([]string{"format", "players"}, "a gauntlet needs at least one player")
	}
	seen := map[string]bool{}
	for _, p := range c.Format.Players {
		if !slices.ContainsFunc(c.Bots, func(b BotConfig) bool { return b.Name == p }) {
			e.add([]string{"format", "players"}, "no bot is named %q", p)
		}
		if seen[p] {
			e.add([]string{"format", "players"}, "%q is listed twice", p)
		}
		seen[p] = true
	}
	if len(c.Format.Players) >= len(c.Bots) && len(c.Bots) > 0 {
		e.add([]string{"format", "players"}, "a gauntlet needs at least one bot that is not a player")
	}
	return e.errs
}

func (c *Config) validateRules() []error {
	var errs []error
	if c.Game.Name == "" {
		return []error{c.KeyError([]string{"game", "name"}, fmt.Errorf("missing (want %s)", strings.Join(games.Names(), " or ")))}
	}
	// Keep the overrides in the order they were given.
	for _, k := range c.ruleOrder {
		v, err := settingValue(c.Game.Rules[k])
		if err != nil {
			errs = append(errs, c.KeyError([]string{"game", "rules", k}, err))
			continue
		}
		c.Game.overrides = append(c.Game.overrides, game.Setting{Key: k, Value: v})
	}
	adj := []struct {
		key, name string
		v         int
	}{
		{"max_plies", "max_plies", c.Adjudication.MaxPlies},
		{"repetition", "repetition", c.Adjudication.Repetition},
		{"quiet_moves", "quiet_moves", c.Adjudication.QuietMoves},
	}
	errs = append(errs, c.validateAgreement()...)
	var adjOverrides []game.Setting
	for _, a := range adj {
		switch {
		case a.v == 0:
			continue
		case !hasSwitch(c.Game.Name, a.name):
			errs = append(errs, c.KeyError([]string{"adjudication", a.key}, onlyFor(func(r game.Rules) bool { return hasSwitch(r.Game(), a.name) })))
			continue
		case a.v < 0:
			adjOverrides = append(adjOverrides, game.Setting{Key: a.name, Value: "0"})
		default:
			adjOverrides = append(adjOverrides, game.Setting{Key: a.name, Value: strconv.Itoa(a.v)})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	rules, err := games.New(c.Game.Name, c.Game.Preset, c.Game.overrides)
	if err != nil {
		key := []string{"game"}
		_, presetErr := games.New(c.Game.Name, c.Game.Preset, nil)
		switch {
		case !slices.Contains(games.Names(), c.Game.Name):
			key = []string{"game", "name"}
		case presetErr != nil:
			key = []string{"game", "preset"}
		case len(c.Game.overrides) > 0:
			key = []string{"game", "rules"}
			// Name the first switch the rules refuse.
			for i, o := range c.Game.overrides {
				if _, err := games.New(c.Game.Name, c.Game.Preset, c.Game.overrides[:i+1]); err != nil {
					key = append(key, o.Key)
					break
				}
			}
		}
		return []error{c.KeyError(key, err)}
	}
	if len(adjOverrides) > 0 {
		all := append(slices.Clone(c.Game.overrides), adjOverrides...)
		if rules, err = games.New(c.Game.Name, c.Game.Preset, all); err != nil {
			return []error{c.KeyError([]string{"adjudication"}, err)}
		}
		c.Game.overrides = all
	}
	if t, ok := rules.(game.Terminating); ok {
		if err := t.Terminates(); err != nil {
			return []error{c.KeyError([]string{"adjudication"}, err)}
		}
	}
	c.Rules = rules
	return nil
}

// validateAgreement checks the adjudication rules by agreement.
func (c *Config) validateAgreement() []error {
	var errs []error
	add := func(key, format string, args ...any) {
		errs = append(errs, c.KeyError([]string{"adjudication", key}, fmt.Errorf(format, args...)))
	}
	a := &c.Adjudication
	agrees := func(r game.Rules) bool {
		ag, ok := r.(game.Agreement)
		return ok && ag.AdjudicatesByAgreement()
	}
	byAgreement := gameHas(c.Game.Name, agrees)
	if a.Resign != nil {
		switch {
		case !byAgreement:
			add("resign", "%v", onlyFor(agrees))
		case a.Resign.Score <= 0:
			add("resign", "score must be more than 0 (the winner's score and minus the loser's, in the bots' unit), got %d", a.Resign.Score)
		case a.Resign.Moves < 1:
			add("resign", "moves must be at least 1 (the moves of each bot that must agree), got %d", a.Resign.Moves)
		}
	}
	if a.Draw != nil {
		switch {
		case !byAgreement:
			add("draw", "%v", onlyFor(agrees))
		case a.Draw.Score < 0:
			add("draw", "score must not be negative, got %d", a.Draw.Score)
		case a.Draw.Moves < 1:
			add("draw", "moves must be at least 1 (the moves of each bot that must agree), got %d", a.Draw.Moves)
		case a.Draw.AfterPly < 0:
			add("draw", "after_ply must not be negative, got %d", a.Draw.AfterPly)
		}
	}
	return errs
}

// gameHas reports whether the default rules of the named game satisfy
// has (false for an unknown game).
func gameHas(name string, has func(game.Rules) bool) bool {
	r, err := games.Default(name)
	return err == nil && has(r)
}

// hasSwitch reports whether the named game's rules have the switch key.
func hasSwitch(name, key string) bool {
	return gameHas(name, func(r game.Rules) bool {
		return slices.ContainsFunc(r.Settings(), func(s game.Setting) bool { return s.Key == key })
	})
}

// hasBallots reports whether rules have a table of standard openings.
func hasBallots(r game.Rules) bool {
	_, ok := r.(game.Ballots)
	return ok
}

// onlyFor is the error for a key that applies only to the games whose
// rules satisfy has: "applies to checkers only".
func onlyFor(has func(game.Rules) bool) error {
	return fmt.Errorf("applies to %s only", strings.Join(games.With(has), " or "))
}

// settingValue renders a TOML scalar as a rule switch or option value.
func settingValue(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	}
	return "", fmt.Errorf("want a string, boolean or number, got %T", v)
}

func (c *Config) validateOpenings() []error {
	o := &c.Openings
	e := keyErrors{c: c}
	add := func(key, format string, args ...any) { e.add([]string{"openings", key}, format, args...) }
	switch o.Deck {
	case "", openings.DeckACF, openings.DeckCTD, openings.DeckAll:
	default:
		add("deck", "unknown deck %q (want %q, %q or %q)", o.Deck, openings.DeckACF, openings.DeckCTD, openings.DeckAll)
	}
	for _, n := range []struct {
		key string
		v   int
	}{{"plies", o.Plies}, {"count", o.Count}} {
		if n.v < 0 {
			add(n.key, "must not be negative, got %d", n.v)
		}
	}
	if o.Count > openings.Max {
		add("count", "%d openings is more than the %d a tournament takes", o.Count, openings.Max)
	}
	for _, n := range []struct {
		key string
		v   int
	}{{"limit", o.Limit}, {"after", o.After}, {"start", o.Start}} {
		if n.v < 0 {
			add(n.key, "must not be negative, got %d", n.v)
		}
	}
	switch o.Order {
	case "", openings.OrderSequential, openings.OrderRandom:
	default:
		add("order", "unknown order %q (want %q or %q)", o.Order, openings.OrderSequential, openings.OrderRandom)
	}
	if o.After > 0 && o.Order == openings.OrderRandom {
		add("order", "does not apply to openings drawn in play (after): they are random already")
	}
	if o.After > 0 && o.Start > 1 {
		add("start", "does not apply to openings drawn in play (after); count and seed choose them")
	}
	c.validateOpeningChoice(add)
	if o.Plies > 0 && o.Count == 0 {
		o.Count = DefaultRandomCount
	}
	if o.File != "" && !filepath.IsAbs(o.File) {
		o.File = filepath.Join(c.Dir, o.File)
	}
	return e.errs
}

// validateOpeningChoice checks that the keys of [openings] choose one kind
// of openings: a file, random openings or ballots.
func (c *Config) validateOpeningChoice(add func(key, format string, args ...any)) {
	o := &c.Openings
	if o.After > 0 && o.Plies == 0 {
		add("after", "leaves plies to the players before random ones: set plies too")
	}
	if o.File != "" && o.Plies > 0 {
		add("plies", "random openings and an opening file exclude each other")
	}
	if o.Count > 0 && o.Plies == 0 {
		add("count", "counts random openings: set plies too")
	}
	if o.Plies > 0 && o.Deck != "" {
		add("deck", "selects ballots, not random openings")
	}
	if o.Deck != "" && o.File == "" && !gameHas(c.Game.Name, hasBallots) {
		add("deck", "selects ACF ballots, which are %s openings (give an opening file for %s)", strings.Join(games.With(hasBallots), " or "), c.Game.Name)
	}
}

func (tc *TimeControl) validate(top bool) error {
	if err := tc.check(top); err != nil {
		return err
	}
	if top && tc.Move == 0 && tc.Base == 0 {
		tc.Move = DefaultMoveTime
	}
	if top && tc.Margin == 0 {
		tc.Margin = DefaultMargin
	}
	return nil
}

// check says what is wrong with tc, the tournament's time table (top) or
// a bot's.
func (tc *TimeControl) check(top bool) error {
	negative := tc.Move < 0 || tc.Base < 0 || tc.Increment < 0 || tc.Margin < 0
	switch {
	case negative:
		return errors.New("times must not be negative")
	case tc.Move > 0 && (tc.Base > 0 || tc.Increment > 0 || tc.Moves > 0):
		return errors.New("give either move (fixed time per move) or base (a clock), not both")
	case tc.Base == 0 && tc.Increment > 0:
		return errors.New("an increment needs a base time")
	case tc.Moves < 0:
		return errors.New("moves (per period) must not be negative")
	case tc.Base == 0 && tc.Moves > 0:
		return errors.New("moves per period need a base time: the time of each period")
	}
	switch {
	case tc.Nodes < 0 || tc.Depth < 0:
		return errors.New("nodes and depth must not be negative")
	case !top && (tc.Nodes != 0 || tc.Depth != 0):
		return errors.New("a bot's search limits are the bot's own keys nodes and depth, not part of its time table")
	}
	return nil
}

func (c *Config) validateBots() []error {
	e := keyErrors{c: c}
	if len(c.Bots) < 2 {
		e.add([]string{"bots"}, "a tournament needs at least two bots, got %d", len(c.Bots))
	}
	first := map[string]int{}
	for i := range c.Bots {
		c.validateBot(&e, i, first)
	}
	return e.errs
}

// validateBot checks bot i, whose name first holds when it is the first
// of that name, resolving its command and directory.
func (c *Config) validateBot(e *keyErrors, i int, first map[string]int) {
	b := &c.Bots[i]
	path := func(k ...string) []string { return append([]string{"bots", strconv.Itoa(i)}, k...) }
	switch j, dup := first[b.Name]; {
	case b.Name == "":
		e.add(path("name"), "missing")
	case !botNameRE.MatchString(b.Name):
		e.add(path("name"), "%q: use letters, digits and . _ + - (starting with a letter or digit)", b.Name)
	case dup:
		e.add(path("name"), "duplicate bot name %q (first used on %s)", b.Name, c.whereKey([]string{"bots", strconv.Itoa(j), "name"}))
	default:
		first[b.Name] = i
	}
	c.validateProgram(e, b, path)
	// In key order: errors come out in a stable order.
	for _, k := range slices.Sorted(maps.Keys(b.Env)) {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			e.add(path("env"), "bad variable name %q", k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b.Options)) {
		if _, err := settingValue(b.Options[k]); err != nil {
			e.add(path("options", k), "%v", err)
		}
	}
	if b.Time != nil {
		if err := b.Time.validate(false); err != nil {
			e.add(path("time"), "%v", err)
		}
		if b.Time.Move == 0 && b.Time.Base == 0 && !c.badTimes[displayKey(path("time"))] {
			e.add(path("time"), "give move or base (the margin alone is inherited)")
		}
	}
	if b.HandshakeTimeout < 0 {
		e.add(path("handshake_timeout"), "must not be negative")
	}
	if b.Limits != nil {
		e.errs = append(e.errs, b.Limits.validate(c, path("limits"))...)
	}
	switch b.Restart {
	case "", RestartOnError, RestartAlways:
	default:
		e.add(path("restart"), "unknown value %q (want %q or %q)", b.Restart, RestartAlways, RestartOnError)
	}
	if b.Nodes < 0 {
		e.add(path("nodes"), "must not be negative")
	}
	if b.Depth < 0 {
		e.add(path("depth"), "must not be negative")
	}
}

// validateProgram checks what runs a bot, its builtin or its command and
// directory, resolving the command and the directory.
func (c *Config) validateProgram(e *keyErrors, b *BotConfig, path func(k ...string) []string) {
	switch {
	case b.Builtin != "" && b.Command != "":
		e.add(path("command"), "give either builtin or command, not both")
	case b.Builtin == "" && b.Command == "":
		e.add(path(), "bot %q needs a command or a builtin", b.Name)
	case b.Builtin != "" && !slices.Contains(builtinNames(), b.Builtin):
		e.add(path("builtin"), "unknown built-in bot %q (want %s)", b.Builtin, strings.Join(builtinNames(), ", "))
	case b.Command != "":
		resolved, err := resolveCommand(b.Command, c.Dir)
		if err != nil {
			e.add(path("command"), "%v", err)
		} else {
			b.Command = resolved
		}
	}
	if b.Dir != "" {
		if !filepath.IsAbs(b.Dir) {
			b.Dir = filepath.Join(c.Dir, b.Dir)
		}
		if fi, err := os.Stat(b.Dir); err != nil || !fi.IsDir() {
			e.add(path("dir"), "%q is not a directory", b.Dir)
		}
	}
}

// resolveCommand finds a bot executable: a path with a separator is taken
// relative to dir, a bare name is looked up in PATH.
func resolveCommand(cmd, dir string) (string, error) {
	if !strings.ContainsRune(cmd, os.PathSeparator) && !strings.ContainsRune(cmd, '/') {
		p, err := exec.LookPath(cmd)
		if err != nil {
			return "", fmt.Errorf("executable %q not found in PATH", cmd)
		}
		return p, nil
	}
	p := cmd
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return "", fmt.Errorf("executable %q not found", p)
	case fi.IsDir():
		return "", fmt.Errorf("%q is a directory, not an executable", p)
	case fi.Mode()&0o111 == 0:
		return "", fmt.Errorf("%q is not executable", p)
	}
	return p, nil
}

// BotTime returns the time control that applies to the named bot, with
// the search limits that apply to it: its own nodes and depth, or the
// tournament's.
func (c *Config) BotTime(name string) TimeControl {
	tc := c.Time
	for _, b := range c.Bots {
		if b.Name != name {
			continue
		}
		if b.Time != nil {
			tc = *b.Time
			if tc.Margin == 0 {
				tc.Margin = c.Time.Margin
			}
			tc.Nodes, tc.Depth = c.Time.Nodes, c.Time.Depth
		}
		if b.Nodes > 0 {
			tc.Nodes = b.Nodes
		}
		if b.Depth > 0 {
			tc.Depth = b.Depth
		}
		break
	}
	return tc
}

// EnableTranscripts turns on the protocol transcript (BotConfig.Transcript)
// of the named bots, or of every bot for the name "all". An unknown name is
// an error that lists the bots.
func (c *Config) EnableTranscripts(names []string) error {
	for _, name := range names {
		found := false
		for i := range c.Bots {
			if name == "all" || c.Bots[i].Name == name {
				c.Bots[i].Transcript, found = true, true
			}
		}
		if !found {
			return fmt.Errorf("no bot is named %q (the bots: %s)", name, strings.Join(c.BotNames(), ", "))
		}
	}
	return nil
}

// BotNames returns the bot names in configuration order.
func (c *Config) BotNames() []string {
	names := make([]string, len(c.Bots))
	for i, b := range c.Bots {
		names[i] = b.Name
	}
	return names
}

// Overrides returns the rule switches the configuration sets on top of its
// preset (including adjudication), in order.
func (c *Config) Overrides() []game.Setting { return slices.Clone(c.Game.overrides) }

// OptionValues renders a bot's protocol options as strings.
func (b *BotConfig) OptionValues() map[string]string {
	if len(b.Options) == 0 {
		return nil
	}
	out := make(map[string]string, len(b.Options))
	for k, v := range b.Options {
		s, _ := settingValue(v) // validated by Load
		out[k] = s
	}
	return out
}

// Environ renders a bot's environment as sorted KEY=VALUE entries.
func (b *BotConfig) Environ() []string {
	out := make([]string, 0, len(b.Env))
	for k, v := range b.Env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._+-]+`)

// SafeFileName turns a name (a tournament's, a bot's) into something
// safe as a file name.
func SafeFileName(s string) string {
	s = unsafeFileChars.ReplaceAllString(s, "_")
	s = strings.Trim(s, "._")
	if s == "" {
		return "tournament"
	}
	return s
}
