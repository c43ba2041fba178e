package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/suggest"
	"github.com/arena-games/arena/arena/tournament"
)

func init() {
	register(command{
		name:    "match",
		summary: "play a tournament between bots given on the command line",
		play: func(ctx context.Context, in *interrupts, args []string) error {
			return runMatch(ctx, in, args, os.Stdout, os.Stderr)
		},
	})
}

const matchUsage = `--game NAME --bot SPEC --bot SPEC [--bot SPEC]... [flags]

Plays (or resumes) the tournament the flags describe, as "arena run" plays a
configuration file; --save-config writes that file. Every configuration key
can be set with --set KEY=VALUE (see configs/README.md); the common ones have
flags of their own.

A bot SPEC is a comma-separated list of the bot's configuration keys, e.g.
  --bot name=mine,cmd="./mybot --hash 64"   a command and its arguments
  --bot builtin=alphabeta                   a built-in bot (named after it)
  --bot name=v2,cmd=./v2,options.Depth=6,env.THREADS=1,time.move=500ms
cmd is the command line (split into command and args as a shell does);
name defaults to the built-in's or the command's name. Quote a value that
holds a comma.

Examples:
  arena match --game checkers --bot name=a,cmd="./a --x" --bot builtin=alphabeta \
      --tc 10+0.1 --games 200 --concurrency 2 --openings ballots
  arena match --game cheversi --rules echeversi --set touch=any \
      --bot builtin=greedy --bot builtin=alphabeta --movetime 100ms --rounds 2
  arena match --game checkers --bot name=new,cmd=./new --bot name=old,cmd=./old \
      --sprt elo0=0,elo1=5 --rounds 50 --save-config new-vs-old.toml

Flags:`

type botSpec struct {
	spec   string // as given
	name   string
	keys   [][2]string // key, value in order
	args   []string    // the bot's arguments, when given as a list (arena play's person)
	source string
}

// runMatch is "arena match": the flags become a configuration document,
// which is loaded, validated and played exactly as a file would be.
func runMatch(ctx context.Context, in *interrupts, args []string, stdout, stderr io.Writer) error {
	prep, stopPrep := in.untilDrain(ctx)
	defer stopPrep()
	m, err := parseMatch(prep, args, stderr)
	if prep.Err() != nil && ctx.Err() == nil {
		return context.Canceled
	}
	if err != nil {
		return err
	}
	if m.save != "" {
		if err := saveMatchConfig(m.doc, m.save); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "configuration written to %s (arena run %s plays or resumes this match)\n", m.save, shellQuote(m.save))
	}

	again := commandLine(append([]string{"match"}, args...))
	in.resumeWith(again)
	opts := tournament.Options{Drain: in.drain}
	progressOptions(&opts, stderr, m.quiet)
	sum, err := tournament.Run(ctx, m.cfg, opts)
	if sum == nil {
		return err
	}
	return finishRun(stdout, stderr, again, sum, err)
}

// match is a match as the command line describes it.
type match struct {
	doc   *config.Document
	cfg   *config.Config
	save  string // --save-config
	quiet bool
}

// parseMatch parses the flags of arena match into a configuration, checked
// as Load checks a file. Notes (how --games was met) go to stderr.
func parseMatch(ctx context.Context, args []string, stderr io.Writer) (*match, error) {
	f := newMatchFlags("match", matchUsage)
	if err := f.parse(args); err != nil {
		return nil, err
	}
	return f.match(ctx, stderr)
}

// matchFlags are the flags of arena match, which arena play takes too;
// arena run takes those that set the configuration's keys (configFlags).
type matchFlags struct {
	cmd   string // match, play or run
	fs    *flag.FlagSet
	sets  overrides // the configuration keys they set, in order
	bots  []botSpec
	games int // --games; 0 when not given
	save  *string
	quiet *bool
}

// newMatchFlags defines the flags of arena match on a flag set of the
// command cmd, with usage after "usage: arena CMD".
func newMatchFlags(cmd, usage string) *matchFlags {
	f := &matchFlags{cmd: cmd, fs: newFlagSet(cmd, usage)}
	f.configFlags(true)
	f.save = f.fs.String("save-config", "", "also write the configuration to `FILE` (TOML), to repeat or resume the match with arena run FILE")
	f.quiet = f.fs.Bool("quiet", false, "no progress output, only the final table")
	return f
}

// configFlags defines the flags that set keys of the configuration, the
// same for arena match, play and run: on a file's keys for run, on
// nothing else for match. withOut defines --out as the output key (arena
// run has an --out of its own, which also places slices).
func (f *matchFlags) configFlags(withOut bool) {
	fs := f.fs
	key := func(name, k, usage string) { fs.Var(keyFlag{name, k, &f.sets}, name, usage) }
	key("game", "game.name", "the `GAME`: "+strings.Join(games.Names(), " or "))
	key("rules", "game.preset", "rules `PRESET` (default: the game's default preset)")
	key("name", "name", "tournament `NAME` (default: the bots' names, BOT1-vs-BOT2-vs-..., for a match; the file's name for run)")
	if withOut {
		key("out", "output", "output directory `DIR` (default: results/NAME)")
	}
	key("seed", "seed", "`SEED` of the random openings")
	key("concurrency", "concurrency", "`N` games played at a time (default: the number of CPUs)")
	key("format", "format.kind", "`FORMAT`: round-robin, gauntlet, swiss or knockout")
	key("rounds", "format.rounds", "`N` rounds, each playing every opening of every pairing with both colours (a swiss: its rounds)")
	fs.Func("movetime", "fixed `TIME` per move, e.g. 200ms (default 1s); replaces a clock", func(v string) error {
		src := "--movetime " + shellQuote(v)
		f.sets = append(f.sets, unsetTime(src, "base", "increment", "moves")...)
		f.sets = append(f.sets, config.Override{Key: "time.move", Value: v, Source: src})
		return nil
	})
	key("margin", "time.margin", "`TIME` allowed for process overhead before a bot loses on time (default 1s)")
	key("memory", "limits.memory", "cap each bot's memory at `SIZE` (512MiB, 2GiB)")
	key("processes", "limits.processes", "cap each bot's processes and threads at `N`")
	key("open-files", "limits.open_files", "cap the files each bot process may have open at `N`")
	key("file-size", "limits.file_size", "cap the size of a file a bot writes at `SIZE`")
	key("cpu-time", "limits.cpu_time", "cap each bot's CPU time per game at `TIME`")
	fs.Var(boolKeyFlag{keyFlag{"sandbox", "limits.sandbox", &f.sets}}, "sandbox", "run the bots in the sandbox (no network, no files but their own and the system's)")
	key("affinity", "affinity", "pin bots to CPUs: `off`, auto or a CPU list such as 2-7")
	fs.Var(setFlag{&f.sets}, "set", "set a configuration key: a rule switch (touch=any) or any key such as time.move=200ms\n(`KEY=VALUE`, repeatable)")
	fs.Func("bot", "a bot: comma-separated `SPEC` of its keys (at least two --bot)", func(s string) error {
		b, err := parseBotSpec(s)
		if err != nil {
			return err
		}
		f.bots = append(f.bots, b)
		return nil
	})
	fs.Func("tc", "clock `[MOVES/]BASE[+INC]`: BASE per side (per MOVES moves) plus INC per move,\nin seconds or with units (10+0.1, 1m+1s, 40/60)", f.setClock)
	fs.Func("players", "gauntlet players: comma-separated bot `NAMES`", func(s string) error {
		list := strings.Split(s, ",")
		for i := range list {
			list[i] = strconv.Quote(strings.TrimSpace(list[i]))
		}
		f.sets = append(f.sets, config.Override{Key: "format.players", Value: "[" + strings.Join(list, ", ") + "]", Source: "--players " + shellQuote(s)})
		return nil
	})
	fs.Func("openings", "`SPEC`: ballots (checkers' ACF 3-move ballots), ballots:ctd or ballots:all (other decks),\nrandom:PLIES[:COUNT] (random openings), or an opening file", func(s string) error {
		o, err := parseOpenings(s)
		f.sets = append(f.sets, o...)
		return err
	})
	fs.Func("sprt", "a sequential test that stops the match once it decides: `SPEC` elo0=E0,elo1=E1[,alpha=A,beta=B]", f.setSPRT)
	fs.Func("games", "play at least `N` games: the openings are cut or repeated in rounds to the fewest whole colour-reversed pairs that make N", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return fmt.Errorf("must be a whole number of at least 1, got %q", s)
		}
		f.games = n
		return nil
	})
}

// setClock is --tc: the clock of every bot.
func (f *matchFlags) setClock(s string) error {
	moves, base, inc, err := parseClock(s)
	if err != nil {
		return err
	}
	src := "--tc " + shellQuote(s)
	f.sets = append(f.sets, unsetTime(src, "move", "increment", "moves")...)
	f.sets = append(f.sets, config.Override{Key: "time.base", Value: base, Source: src})
	if inc != "" {
		f.sets = append(f.sets, config.Override{Key: "time.increment", Value: inc, Source: src})
	}
	if moves != "" {
		f.sets = append(f.sets, config.Override{Key: "time.moves", Value: moves, Source: src})
	}
	return nil
}

// unsetTime returns the overrides that remove keys of the [time] table:
// a clock given on the command line replaces a file's time per move, and
// a time per move its clock.
func unsetTime(src string, keys ...string) overrides {
	var out overrides
	for _, k := range keys {
		out = append(out, config.Override{Key: "time." + k, Source: src, Unset: true})
	}
	return out
}

// setSPRT is --sprt: the keys of the sequential test.
func (f *matchFlags) setSPRT(s string) error {
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%q: want elo0=E0,elo1=E1[,alpha=A,beta=B]", kv)
		}
		f.sets = append(f.sets, config.Override{Key: "sprt." + strings.TrimSpace(k), Value: strings.TrimSpace(v), Source: "--sprt " + shellQuote(s)})
	}
	return nil
}

// parse parses the command line; it takes flags only.
func (f *matchFlags) parse(args []string) error {
	if err := parseFlags(f.fs, args); err != nil {
		return err
	}
	if f.fs.NArg() > 0 {
		return usagef("unexpected argument %q (arena %s takes flags only)", f.fs.Arg(0), f.cmd)
	}
	return nil
}

// match builds the configuration the parsed flags describe.
func (f *matchFlags) match(ctx context.Context, stderr io.Writer) (*match, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	doc := config.NewDocument()
	doc.Describe("bots", "--bot")
	doc.Describe("game.name", "--game")
	if !hasKey(f.sets, "name") {
		if err := doc.SetValue("name", matchName(f.bots), "--name"); err != nil {
			return nil, commandLineError(err)
		}
	}
	if err := f.apply(ctx, doc, *f.save, wd, stderr); err != nil {
		return nil, commandLineError(err)
	}
	cfg, err := doc.Config(*f.save, wd)
	if err != nil {
		return nil, commandLineError(err)
	}
	return &match{doc: doc, cfg: cfg, save: *f.save, quiet: *f.quiet}, nil
}

// apply adds what the flags say to a configuration document: the bots,
// then the keys the other flags set, in the order given, then the rounds
// and openings --games asks for. path and dir are the configuration's
// file ("" for none) and the directory its relative paths are resolved
// against. Notes (how --games was met) go to stderr.
func (f *matchFlags) apply(ctx context.Context, doc *config.Document, path, dir string, stderr io.Writer) error {
	if f.games > 0 && hasKey(f.sets, "format.rounds") {
		return usagef("--games sets the rounds itself: give --games or --rounds, not both")
	}
	first := map[string]string{}
	for _, b := range f.bots {
		// The document names bots by name: say what the configuration
		// would of two bots of one name.
		if src, dup := first[b.name]; dup {
			return usagef("%s: duplicate bot name %q (first used on %s); give one of them name=...", b.source, b.name, src)
		}
		first[b.name] = b.source
		if err := addBot(doc, b); err != nil {
			return err
		}
	}
	for _, o := range f.sets {
		if err := doc.Set(o); err != nil {
			return err
		}
	}
	if f.games > 0 {
		return fitGames(ctx, doc, f.games, path, dir, stderr)
	}
	return nil
}

// matchName is the default name of a match, after its bots: "a-vs-b",
// "a-vs-b-vs-c", so that two matches of other bots have directories of
// their own. A name too long for a directory is shortened to the first two
// bots, how many more there are and a hash of all the names, which
// tells matches of different bots apart.
func matchName(bots []botSpec) string {
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.name
	}
	if len(names) == 0 {
		return "match"
	}
	name := strings.Join(names, "-vs-")
	if len(names) <= 2 || len(name) <= maxMatchName {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(strings.Join(names, "\x00")))
	return fmt.Sprintf("%s-vs-%s-and-%d-more-%08x", names[0], names[1], len(names)-2, h.Sum32())
}

// maxMatchName bounds the default name of a match, which names its
// output directory.
const maxMatchName = 80

// commandLineError makes a configuration error of a match a usage error:
// every key of a match comes from its command line.
func commandLineError(err error) error {
	if errors.Is(err, config.ErrInvalid) {
		return usageError{err}
	}
	return err
}

// addBot adds a bot and its keys to the document.
func addBot(doc *config.Document, b botSpec) error {
	doc.AddBot(b.name, b.source)
	for _, kv := range b.keys {
		if err := setBotKey(doc, b, kv[0], kv[1]); err != nil {
			return err
		}
	}
	if b.args != nil {
		return doc.SetValue("bots."+b.name+".args", b.args, b.source)
	}
	return nil
}

// setBotKey sets a key of a bot as its spec gives it: cmd is a command
// line and args a list of words, both split as a shell splits them.
func setBotKey(doc *config.Document, b botSpec, k, v string) error {
	switch k {
	case "cmd":
		words, err := splitWords(v)
		if err != nil || len(words) == 0 {
			return usagef("--bot %s: cmd: want a command line, got %q", b.spec, v)
		}
		if err := doc.SetValue("bots."+b.name+".command", words[0], b.source); err != nil || len(words) == 1 {
			return err
		}
		return doc.SetValue("bots."+b.name+".args", words[1:], b.source)
	case "args":
		words, err := botArgs(v)
		if err != nil {
			return usagef("--bot %s: args: %v", b.spec, err)
		}
		return doc.SetValue("bots."+b.name+".args", words, b.source)
	}
	return doc.Set(config.Override{Key: "bots." + b.name + "." + k, Value: v, Source: b.source})
}

// botArgs reads the args of a --bot spec: a TOML array of strings, as in
// a file (args=["--hash", "64"]), or words split as a shell splits them
// (args="--hash 64").
func botArgs(v string) ([]string, error) {
	if !strings.HasPrefix(strings.TrimSpace(v), "[") {
		return splitWords(v)
	}
	var doc struct{ V []string }
	if _, err := toml.Decode("V = "+v, &doc); err != nil {
		return nil, fmt.Errorf("%s is not a TOML array of strings, as [\"--hash\", \"64\"] (or give the words alone: args=\"--hash 64\")", v)
	}
	if doc.V == nil {
		doc.V = []string{}
	}
	return doc.V, nil
}

func hasKey(sets overrides, key string) bool {
	for _, o := range sets {
		if o.Key == key {
			return true
		}
	}
	return false
}

// fitGames sets the rounds and the number of openings so that the match
// has at least n games in whole colour-reversed pairs: with P pairings and
// O openings a round has 2·P·O games; R rounds of the first L openings make
// 2·P·L·R.
func fitGames(ctx context.Context, doc *config.Document, n int, path, dir string, stderr io.Writer) error {
	cfg, err := doc.Config(path, dir)
	if err != nil {
		return err
	}
	if cfg.Openings.Limit > 0 {
		return usagef("--games sets openings.limit itself: give one or the other")
	}
	if schedule.Progressive(cfg.Format.Kind) {
		return usagef("--games: a %s's games follow from its bots and rounds (--rounds for a swiss, --set format.games=N for a knockout's matches)", cfg.Format.Kind)
	}
	openings, err := config.LoadOpenings(ctx, cfg)
	if err != nil {
		return err
	}
	one, err := schedule.New(cfg.Format.Kind, 1, cfg.BotNames(), cfg.Format.Players, openings[:1])
	if err != nil {
		return err
	}
	pairings, o := one.Pairs(), len(openings)
	rounds := (n + 2*pairings*o - 1) / (2 * pairings * o)
	limit := (n + 2*pairings*rounds - 1) / (2 * pairings * rounds)
	src := "--games " + strconv.Itoa(n)
	if err := doc.SetValue("format.rounds", int64(rounds), src); err != nil {
		return err
	}
	if limit < o {
		if err := doc.SetValue("openings.limit", int64(limit), src); err != nil {
			return err
		}
	}
	if total := 2 * pairings * limit * rounds; total != n {
		fmt.Fprintf(stderr, "%s: playing %d games (%d of %d openings, %d %s, both colours, %d %s)\n",
			src, total, limit, o, pairings, plural(pairings, "pairing", "pairings"), rounds, plural(rounds, "round", "rounds"))
	}
	return nil
}

// plural picks the word for a count.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// saveMatchConfig writes the document as a TOML file. An existing file is
// replaced only if it holds the same configuration (the same match run
// again), so that a hand-written configuration is never overwritten.
func saveMatchConfig(doc *config.Document, path string) error {
	body, err := doc.Encode()
	if err != nil {
		return err
	}
	text := append([]byte("# A match configuration written by arena match; play or resume it with\n#   arena run "+shellQuote(path)+"\n\n"), body...)
	if old, err := os.ReadFile(path); err == nil && !bytes.Equal(old, text) {
		return fmt.Errorf("--save-config: %s exists and holds another configuration; remove it or choose another file", path)
	}
	if err := os.WriteFile(path, text, 0o644); err != nil {
		return fmt.Errorf("--save-config: %w", err)
	}
	return nil
}

// parseBotSpec parses a --bot value: comma-separated KEY=VALUE items, a
// value in quotes holding commas.
func parseBotSpec(spec string) (botSpec, error) {
	b := botSpec{spec: spec, source: "--bot " + shellQuote(spec)}
	items, err := splitQuoted(spec, func(r rune) bool { return r == ',' }, false)
	if err != nil {
		return b, err
	}
	var builtinName, command string
	keys := append([]string{"cmd"}, config.BotKeys()...)
	for _, item := range items {
		k, v, ok := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return b, fmt.Errorf("%q is not KEY=VALUE (a bot is e.g. name=mine,cmd=./mybot or builtin=alphabeta)", item)
		}
		if top, _, _ := strings.Cut(k, "."); !slices.Contains(keys, top) {
			return b, fmt.Errorf("unknown key %q%s (a bot's keys: %s)", k, suggest.Hint(top, keys), strings.Join(keys, ", "))
		}
		v = unquote(strings.TrimSpace(v))
		switch k {
		case "name":
			b.name = v
		case "builtin":
			builtinName = v
		case "cmd", "command":
			if words, err := splitWords(v); err == nil && len(words) > 0 {
				command = words[0]
			}
			if k == "command" {
				command = v
			}
		}
		if k != "name" {
			b.keys = append(b.keys, [2]string{k, v})
		}
	}
	if b.name == "" {
		switch {
		case builtinName != "":
			b.name = builtinName
		case command != "":
			base := filepath.Base(command)
			b.name = strings.TrimSuffix(base, filepath.Ext(base))
		default:
			return b, errors.New("a bot needs cmd=COMMAND or builtin=NAME")
		}
	}
	return b, nil
}

// parseClock parses a --tc value, [MOVES/]BASE[+INC], into its parts
// ("" for a part left out).
func parseClock(s string) (moves, base, inc string, err error) {
	bad := fmt.Errorf("%q: want BASE+INC, e.g. 10+0.1 (seconds) or 1m+1s, or MOVES/BASE such as 40/60", s)
	rest := s
	if m, r, ok := strings.Cut(s, "/"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return "", "", "", bad
		}
		moves, rest = m, r
	}
	b, i, hasInc := strings.Cut(rest, "+")
	bd, err := parseSeconds(b)
	if err != nil || bd <= 0 {
		return "", "", "", bad
	}
	if hasInc {
		id, err := parseSeconds(i)
		if err != nil {
			return "", "", "", bad
		}
		inc = id.String()
	}
	return moves, bd.String(), inc, nil
}

// parseSeconds reads a time as seconds (0.1) or a duration (100ms).
func parseSeconds(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f < 0 || f > 1e9 {
			return 0, fmt.Errorf("%q is out of range", s)
		}
		return time.Duration(f * float64(time.Second)).Round(time.Millisecond), nil
	}
	return time.ParseDuration(s)
}

// parseOpenings turns an --openings value into configuration keys.
func parseOpenings(s string) (overrides, error) {
	src := "--openings " + shellQuote(s)
	set := func(kv ...string) overrides {
		var out overrides
		for i := 0; i < len(kv); i += 2 {
			out = append(out, config.Override{Key: kv[i], Value: kv[i+1], Source: src})
		}
		return out
	}
	switch kind, arg, _ := strings.Cut(s, ":"); kind {
	case "ballots":
		if arg == "" {
			arg = openings.DeckACF
		}
		return set("openings.deck", arg), nil
	case "random":
		plies, count, hasCount := strings.Cut(arg, ":")
		if plies == "" {
			return nil, fmt.Errorf("%q: want random:PLIES or random:PLIES:COUNT", s)
		}
		if hasCount {
			return set("openings.plies", plies, "openings.count", count), nil
		}
		return set("openings.plies", plies), nil
	}
	return set("openings.file", s), nil
}

// splitWords splits a command line into words as a shell does, minus
// expansions: blanks separate words, quotes group them.
func splitWords(s string) ([]string, error) {
	return splitQuoted(s, unicode.IsSpace, true)
}

// splitQuoted splits s at the runes for which sep is true, outside single
// or double quotes. With strip the quotes are removed (as a shell does);
// otherwise they are kept, and empty parts are dropped only when strip.
func splitQuoted(s string, sep func(rune) bool, strip bool) ([]string, error) {
	q := quoteSplitter{sep: sep, strip: strip}
	for _, r := range s {
		q.add(r)
	}
	if q.quote != 0 {
		return nil, fmt.Errorf("%q: unbalanced %c quote", s, q.quote)
	}
	if q.inWord || (!strip && (q.cur.Len() > 0 || len(q.out) > 0)) {
		q.out = append(q.out, q.cur.String())
	}
	return q.out, nil
}

// quoteSplitter is the state of splitQuoted between two runes.
type quoteSplitter struct {
	sep    func(rune) bool
	strip  bool
	out    []string
	cur    strings.Builder
	quote  rune // the open quote, or 0
	inWord bool
	depth  int // of brackets, outside quotes, when not strip: a TOML array holds commas
}

// add takes the next rune of the text.
func (q *quoteSplitter) add(r rune) {
	if q.quote == 0 && !q.strip && q.bracket(r) {
		return
	}
	switch {
	case q.quote != 0 && r == q.quote:
		q.quote = 0
		if !q.strip {
			q.cur.WriteRune(r)
		}
	case q.quote != 0:
		q.cur.WriteRune(r)
	case r == '"' || r == '\'':
		q.quote, q.inWord = r, true
		if !q.strip {
			q.cur.WriteRune(r)
		}
	case q.sep(r):
		if q.inWord || !q.strip {
			q.out = append(q.out, q.cur.String())
		}
		q.cur.Reset()
		q.inWord = false
	default:
		q.cur.WriteRune(r)
		q.inWord = true
	}
}

// bracket takes r, outside quotes and when the quotes are kept, if it
// opens or closes a bracket or is inside one, and reports whether it did.
func (q *quoteSplitter) bracket(r rune) bool {
	switch {
	case r == '[':
		q.depth++
		q.inWord = true
	case r == ']' && q.depth > 0:
		q.depth--
	case q.depth > 0 && r != '"' && r != '\'':
	default:
		return false
	}
	q.cur.WriteRune(r)
	return true
}

// unquote removes quotes around a whole value.
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] && !strings.ContainsRune(v[1:len(v)-1], rune(v[0])) {
		return v[1 : len(v)-1]
	}
	return v
}
