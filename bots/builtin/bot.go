package builtin

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/bots/sdk"
	"github.com/arena-games/arena/protocol"
)

// Options configure a built-in bot run as a process. The command-line
// flags (AddFlags) set them; the arena may then change some of them with
// setoption (see NewBot).
type Options struct {
	// Seed seeds random's moves and greedy's and expert's tie-breaks.
	Seed uint64
	// Depth caps the search depth of alphabeta and expert in plies; 0
	// means no cap.
	Depth int
	// Nodes caps the nodes alphabeta and expert search per move; 0 means
	// no cap.
	Nodes int64
	// MoveTime caps the time alphabeta thinks about one move, whatever
	// the clock allows; 0 means no cap.
	MoveTime time.Duration
	// HashMB is alphabeta's transposition table size in MiB.
	HashMB int
	// Overhead is the time kept back from every move for the trip
	// through the pipes and the arena's scheduling.
	Overhead time.Duration
}

// DefaultOptions returns the options a bot has without flags.
func DefaultOptions() Options {
	return Options{Seed: 1, HashMB: DefaultHashMB, Overhead: DefaultOverhead}
}

// DefaultOverhead is the default Options.Overhead.
const DefaultOverhead = 10 * time.Millisecond

// Limits of the values the flags and options accept.
const (
	maxDepthOption    = 64
	maxNodesOption    = 1 << 50
	maxMoveTimeOption = time.Hour
	maxOverhead       = 10 * time.Second
)

// AddFlags registers on fs the flags of the named bot, storing into o:
// --seed for random, greedy and expert; --depth, --nodes, --movetime,
// --hash and --overhead for alphabeta and expert. The flags' defaults are
// o's current values.
func (o *Options) AddFlags(fs *flag.FlagSet, name string) {
	switch name {
	case NameRandom, NameGreedy, NameExpert, NamePerfect:
		fs.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the random `number` generator")
	}
	switch name {
	case NameAlphaBeta, NameExpert, NamePerfect:
		fs.IntVar(&o.Depth, "depth", o.Depth, "search at most `N` plies deep (0: no limit)")
		fs.Int64Var(&o.Nodes, "nodes", o.Nodes, "search at most `N` nodes per move (0: no limit)")
		fs.DurationVar(&o.MoveTime, "movetime", o.MoveTime,
			"think at most this long per move, however much the clock allows (0: no cap)")
		fs.IntVar(&o.HashMB, "hash", o.HashMB, "transposition table size in `MiB`")
		fs.DurationVar(&o.Overhead, "overhead", o.Overhead, "time kept back from each move for communication")
	}
}

// Validate reports an out-of-range option.
func (o Options) Validate() error {
	switch {
	case o.Depth < 0 || o.Depth > maxDepthOption:
		return fmt.Errorf("depth %d out of range 0..%d", o.Depth, maxDepthOption)
	case o.Nodes < 0 || o.Nodes > maxNodesOption:
		return fmt.Errorf("nodes %d out of range 0..%d", o.Nodes, int64(maxNodesOption))
	case o.MoveTime < 0 || o.MoveTime > maxMoveTimeOption:
		return fmt.Errorf("movetime %v out of range 0..%v", o.MoveTime, maxMoveTimeOption)
	case o.HashMB < 1 || o.HashMB > MaxHashMB:
		return fmt.Errorf("hash %d MiB out of range 1..%d", o.HashMB, MaxHashMB)
	case o.Overhead < 0 || o.Overhead > maxOverhead:
		return fmt.Errorf("overhead %v out of range 0..%v", o.Overhead, maxOverhead)
	}
	return nil
}

// Budget returns how long a bot may think about one move under clock,
// playing side: sdk.Request.Budget's share of the clock (most of a fixed
// move time, or a twentieth of the remaining time plus three quarters of
// the increment, at most half the remaining time), capped by moveTime when
// it is positive, less overhead, and at least a millisecond.
func Budget(clock protocol.Clock, side game.Color, moveTime, overhead time.Duration) time.Duration {
	return capBudget(sdk.Request{Clock: clock, Color: side}.Budget(), moveTime, overhead)
}

// capBudget returns b capped by moveTime when it is positive, less
// overhead, and at least a millisecond.
func capBudget(b, moveTime, overhead time.Duration) time.Duration {
	if moveTime > 0 {
		b = min(b, moveTime)
	}
	return max(b-overhead, time.Millisecond)
}

// Ceiling returns the most a bot searching to a node or depth limit may
// think about req's move: sdk.Request.Ceiling (most of a fixed move time,
// half the remaining clock time), capped by moveTime when it is positive,
// less overhead, and at least a millisecond.
func Ceiling(req sdk.Request, moveTime, overhead time.Duration) time.Duration {
	return capBudget(req.Ceiling(), moveTime, overhead)
}

// minLimit returns the smaller of two limits where 0 means none.
func minLimit[T int | int64](a, b T) T {
	switch {
	case a <= 0:
		return b
	case b <= 0:
		return a
	}
	return min(a, b)
}

// Protocol option names of the built-in bots.
const (
	OptionSeed     = "Seed"
	OptionDepth    = "Depth"
	OptionNodes    = "Nodes"
	OptionMoveTime = "MoveTime"
	OptionHash     = "Hash"
	OptionOverhead = "Overhead"
)

// NewBot returns the named built-in bot as an sdk.Bot configured by o. It
// declares protocol options whose defaults are o's values: Seed for random,
// greedy and expert; Depth, Nodes, MoveTime (ms), Hash (MiB) and Overhead
// (ms) for alphabeta and expert. Every move request is answered with
// Player.Choose within Budget (expert: within expertBudget), and alphabeta
// and expert report each completed iteration in an info line.
//
// Alphabeta and expert also declare that they obey the node and depth
// limits of a move request (protocol version 1.1), which combine with its own
// options, the smaller limit winning. Under a node or depth limit it
// thinks until the limit is reached, the clock serving only as a ceiling
// (sdk.Request.Ceiling less the overhead), so that node-limited games are
// reproducible.
func NewBot(name string, o Options) (sdk.Bot, error) {
	if err := o.Validate(); err != nil {
		return sdk.Bot{}, fmt.Errorf("%s: %w", name, err)
	}
	b := &bot{name: name, opts: o}
	if err := b.reset(); err != nil {
		return sdk.Bot{}, err
	}
	var opts []protocol.Option
	spin := func(name string, def, lo, hi int64) protocol.Option {
		return protocol.Option{Name: name, Type: protocol.OptionSpin, Default: strconv.FormatInt(def, 10), Min: lo, Max: hi}
	}
	searches := name == NameAlphaBeta || name == NameExpert || name == NamePerfect
	switch name {
	case NameRandom, NameGreedy, NameExpert, NamePerfect:
		// A spin option holds an int64; larger seeds stay flag-only.
		if o.Seed <= 1<<62 {
			opts = append(opts, spin(OptionSeed, int64(o.Seed), 0, 1<<62))
		}
	}
	if searches {
		opts = append(opts,
			spin(OptionDepth, int64(o.Depth), 0, maxDepthOption),
			spin(OptionNodes, o.Nodes, 0, maxNodesOption),
			spin(OptionMoveTime, o.MoveTime.Milliseconds(), 0, maxMoveTimeOption.Milliseconds()),
			spin(OptionHash, int64(o.HashMB), 1, MaxHashMB),
			spin(OptionOverhead, o.Overhead.Milliseconds(), 0, maxOverhead.Milliseconds()))
	}
	var plays []string
	if name == NamePerfect {
		plays = []string{"cheversi"} // checkers is not solved
	}
	return sdk.Bot{
		Name:       name,
		Games:      plays,
		Author:     "arena built-in",
		Options:    opts,
		NodeLimit:  searches,
		DepthLimit: searches,
		SetOption:  b.setOption,
		NewGame:    b.newGame,
		Move:       b.move,
	}, nil
}

// bot is the state behind a built-in sdk.Bot. The SDK never calls
// SetOption, NewGame and Move concurrently.
type bot struct {
	name   string
	opts   Options
	player Player
	dirty  bool // an option changed: rebuild the player before the next game
}

// reset builds a fresh player from the options.
func (b *bot) reset() error {
	p, err := New(b.name, Config{Seed: b.opts.Seed, HashMB: b.opts.HashMB})
	if err != nil {
		return err
	}
	b.player, b.dirty = p, false
	return nil
}

func (b *bot) setOption(name, value string) error {
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		return fmt.Errorf("option %s: %q is not a whole number", name, value)
	}
	o := b.opts
	switch name {
	case OptionSeed:
		o.Seed = uint64(n)
	case OptionDepth:
		o.Depth = int(n)
	case OptionNodes:
		o.Nodes = n
	case OptionMoveTime:
		o.MoveTime = time.Duration(n) * time.Millisecond
	case OptionHash:
		o.HashMB = int(n)
	case OptionOverhead:
		o.Overhead = time.Duration(n) * time.Millisecond
	default:
		return fmt.Errorf("no option %q", name)
	}
	if err := o.Validate(); err != nil {
		return err
	}
	// Seed and Hash shape the player: rebuild it before the next move.
	b.dirty = b.dirty || o.Seed != b.opts.Seed || o.HashMB != b.opts.HashMB
	b.opts = o
	return nil
}

func (b *bot) newGame(context.Context, game.Rules, game.Color) error {
	if b.dirty {
		return b.reset()
	}
	if r, ok := b.player.(interface{ Reset() }); ok {
		r.Reset()
	}
	return nil
}

func (b *bot) move(ctx context.Context, req sdk.Request) (string, error) {
	if b.dirty {
		if err := b.reset(); err != nil {
			return "", err
		}
	}
	lim := Limits{
		Depth: minLimit(b.opts.Depth, req.Depth),
		Nodes: minLimit(b.opts.Nodes, req.Nodes),
	}
	switch {
	case lim.Depth > 0 || lim.Nodes > 0:
		lim.Time = Ceiling(req, b.opts.MoveTime, b.opts.Overhead)
	case b.name == NameExpert || b.name == NamePerfect:
		lim.Time = expertBudget(req, b.opts.MoveTime, b.opts.Overhead)
	default:
		lim.Time = Budget(req.Clock, req.Color, b.opts.MoveTime, b.opts.Overhead)
	}
	if b.name == NameAlphaBeta || b.name == NameExpert || b.name == NamePerfect {
		lim.Progress = func(r Result) {
			// A failed info line (the request was abandoned) is no reason
			// to stop searching.
			_ = req.Info(info(r))
		}
	}
	res, err := b.player.Choose(ctx, req.State, lim)
	if err != nil {
		if ctx.Err() != nil && !errors.Is(err, ErrNoMoves) {
			// The arena abandoned the request; the SDK discards the move.
			return "", nil
		}
		return "", err
	}
	return res.Move.String(), nil
}

// info turns a search result into an info line.
func info(r Result) protocol.Info {
	pv := make([]string, len(r.PV))
	for i, m := range r.PV {
		pv[i] = m.String()
	}
	return protocol.Info{
		Depth:    r.Depth,
		Score:    r.Score,
		HasScore: true,
		Nodes:    r.Nodes,
		Time:     r.Elapsed,
		PV:       pv,
	}
}

// Run plays the named built-in bot over the protocol on in and out until
// the arena says quit or in ends (see sdk.Run); log receives the SDK's
// notes.
func Run(ctx context.Context, name string, o Options, in io.Reader, out, log io.Writer) error {
	if name == NameRandom {
		return runRandom(ctx, o, in, out, log)
	}
	b, err := NewBot(name, o)
	if err != nil {
		return err
	}
	b.Log = log
	return sdk.Run(ctx, b, in, out)
}

// Main is the whole of a standalone command for the named built-in bot
// (cmd/arena-random and its siblings): it parses the bot's flags from the
// command line, plays on standard input and output with notes on standard
// error until quit or the end of input, and exits: status 0 on success, 2
// for bad flags, 1 on any other error.
func Main(name string) {
	os.Exit(mainStatus(name, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// mainStatus is Main with its arguments and files, returning the exit
// status.
func mainStatus(name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := DefaultOptions()
	fs := flag.NewFlagSet("arena-"+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	o.AddFlags(fs, name)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "arena-%s: unexpected argument %q\n", name, fs.Arg(0))
		return 2
	}
	if err := o.Validate(); err != nil {
		fmt.Fprintf(stderr, "arena-%s: %v\n", name, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := Run(ctx, name, o, stdin, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "arena-%s: %v\n", name, err)
		return 1
	}
	return 0
}
