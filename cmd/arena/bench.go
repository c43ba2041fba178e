package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/bots/builtin"
	"gonum.org/v1/gonum/stat"
)

func init() {
	register(command{
		name:    "bench",
		summary: "measure the arena's own cost per move against the floor of a pipe round trip",
		run: func(ctx context.Context, args []string) error {
			return runBench(ctx, args, os.Stdout, os.Stderr)
		},
	})
}

// benchBotName is the --bot value of the near-instant bot (bench-bot).
const benchBotName = "instant"

// benchConfig is what one arena bench measures.
type benchConfig struct {
	game        string
	games       int // at the given concurrency
	serial      int // games at concurrency 1
	concurrency int
	bot         string        // benchBotName or a built-in bot
	moveTime    time.Duration // per move
	floorRounds int           // ping-pong exchanges of the floor
	self        string        // the arena executable
	progress    io.Writer     // nil: none
	terminal    bool
	affinity    string // the tournament's affinity key
}

// benchPass is one tournament played by arena bench.
type benchPass struct {
	concurrency int
	games       int
	plies       int
	wall        time.Duration
	runnerCPU   time.Duration // the arena process's user and system time
	botsCPU     time.Duration // the bots' (children reaped during the pass)
	steady      benchWindow   // from the first game's start to the last game's end
	// fit splits the arena's CPU time per game, at concurrency 1, into
	// what does not grow with the game's length (starting, ending and
	// recording it) and what each ply costs; fitted is false when the
	// games did not differ enough in length to tell the two apart.
	fit    benchFit
	fitted bool
	// timeForfeits counts the games lost on time; latency holds, per move
	// with a time the bot reported, the time measured less that time.
	timeForfeits int
	latency      []time.Duration
}

// benchWindow is what the arena spent while games were played: without
// starting the bots, the tournament's set-up, stopping the bots and the
// final reports, which a run pays once. It is what compares with the floor.
type benchWindow struct {
	plies     int
	wall      time.Duration
	runnerCPU time.Duration
}

// benchObserver measures a pass's benchWindow as a tournament.Observer.
type benchObserver struct {
	mu       sync.Mutex
	started  bool
	begin    time.Time
	beginCPU time.Duration
	end      time.Time
	endCPU   time.Duration
	plies    int // moved before the latest end
	moved    int

	// With perGame (at concurrency 1, where games do not overlap), the
	// plies and the arena's CPU time of each game but the first, from the
	// previous game's end to its own: a whole cycle of the runner.
	perGame   bool
	gamePlies []float64
	gameCPU   []float64 // µs

	latency []time.Duration // per move with a reported time (see benchPass)
}

func (o *benchObserver) GameStarted(journal.Record) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.started {
		o.started = true
		o.begin, o.beginCPU = time.Now(), selfCPU()
	}
}

func (o *benchObserver) Moved(_ int, m journal.MoveRecord) {
	o.mu.Lock()
	o.moved++
	if m.Info != nil && m.Info.TimeMS > 0 {
		o.latency = append(o.latency, time.Duration((m.MS-float64(m.Info.TimeMS))*float64(time.Millisecond)))
	}
	o.mu.Unlock()
}

func (o *benchObserver) GameEnded(int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	cpu := selfCPU()
	if o.perGame && !o.end.IsZero() {
		o.gamePlies = append(o.gamePlies, float64(o.moved-o.plies))
		o.gameCPU = append(o.gameCPU, float64(cpu-o.endCPU)/float64(time.Microsecond))
	}
	o.end, o.endCPU, o.plies = time.Now(), cpu, o.moved
}

// fit fits each game's CPU time as a fixed part plus a part per ply, by
// the median of the slopes between pairs of games (Theil-Sen: robust to
// the games a busy machine, a collection or a journal sync slowed down).
// It returns false with too few games, or games too alike in length for
// the fit to tell the two parts apart.
func (o *benchObserver) fit() (f benchFit, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	x, y := o.gamePlies, o.gameCPU
	if len(x) < 20 || stat.StdDev(x, nil) < 2 {
		return benchFit{}, false
	}
	if step := len(x)/1000 + 1; step > 1 { // at most about 500,000 pairs
		var xs, ys []float64
		for i := 0; i < len(x); i += step {
			xs, ys = append(xs, x[i]), append(ys, y[i])
		}
		x, y = xs, ys
	}
	var slopes []float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			if x[i] != x[j] {
				slopes = append(slopes, (y[j]-y[i])/(x[j]-x[i]))
			}
		}
	}
	slices.Sort(slopes)
	perPly := stat.Quantile(0.5, stat.Empirical, slopes, nil)
	rest := make([]float64, len(x))
	for i := range x {
		rest[i] = y[i] - perPly*x[i]
	}
	slices.Sort(rest)
	fixed := stat.Quantile(0.5, stat.Empirical, rest, nil)
	minPlies, maxPlies := slices.Min(x), slices.Max(x)
	return benchFit{games: len(o.gamePlies), minPlies: int(minPlies), maxPlies: int(maxPlies),
		fixed: time.Duration(fixed * float64(time.Microsecond)), perPly: time.Duration(perPly * float64(time.Microsecond))}, true
}

// benchFit splits the arena's CPU time per game into a fixed part and a
// part per ply.
type benchFit struct {
	games              int
	minPlies, maxPlies int
	fixed, perPly      time.Duration
}

func (o *benchObserver) window() benchWindow {
	o.mu.Lock()
	defer o.mu.Unlock()
	return benchWindow{plies: o.plies, wall: o.end.Sub(o.begin), runnerCPU: o.endCPU - o.beginCPU}
}

func (w benchWindow) perPly(d time.Duration) time.Duration {
	return d / time.Duration(max(w.plies, 1))
}

func (p benchPass) perPly(d time.Duration) time.Duration {
	return d / time.Duration(max(p.plies, 1))
}

func (p benchPass) pliesPerSecond() float64 { return float64(p.plies) / p.wall.Seconds() }

// benchReport is what arena bench measured.
type benchReport struct {
	floors   [2]time.Duration // one raw ping-pong exchange between two processes, before and after the concurrency-1 pass
	serial   benchPass
	parallel benchPass
	peakHeap uint64 // bytes of heap objects, sampled
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "[--game G] [--games N] [--concurrency N] [--bot NAME] [--movetime D] [--quiet]")
	gameName := fs.String("game", "cheversi", "game: "+strings.Join(games.Names(), " or "))
	n := fs.Int("games", 2000, "games to play at --concurrency (rounded up to an even number)")
	serial := fs.Int("serial-games", 0, "games to play at concurrency 1, against the floor (default: a fifth of --games)")
	concurrency := fs.Int("concurrency", 2, "games played at a time")
	bot := fs.String("bot", benchBotName, "bot playing both sides: "+benchBotName+
		" (answers at once from the legal moves: measures the arena) or a built-in bot ("+strings.Join(builtin.Names(), ", ")+")")
	moveTime := fs.Duration("movetime", 0, "time per move (default: 5s for instant bots, 20ms for alphabeta)")
	quiet := fs.Bool("quiet", false, "no progress line")
	affinity := fs.String("affinity", config.AffinityOff, "pin the bots to CPUs: off, auto or a CPU list (the affinity key)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *n < 1 || *concurrency < 1 || *serial < 0 || *moveTime < 0 {
		return usagef("--games and --concurrency must be at least 1, --serial-games and --movetime not negative")
	}
	if *bot != benchBotName && !slices.Contains(builtin.Names(), *bot) {
		return usagef("unknown bot %q (want %s or one of %s)", *bot, benchBotName, strings.Join(builtin.Names(), ", "))
	}
	if *moveTime == 0 {
		*moveTime = 5 * time.Second
		if *bot == builtin.NameAlphaBeta {
			*moveTime = 20 * time.Millisecond
		}
	}
	if *serial == 0 {
		*serial = max(2, *n/5)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cfg := benchConfig{game: *gameName, games: *n, serial: *serial, concurrency: *concurrency, bot: *bot,
		moveTime: *moveTime, floorRounds: 20000, self: self, affinity: *affinity}
	if !*quiet {
		cfg.progress = stderr
		if f, ok := stderr.(*os.File); ok {
			cfg.terminal = isTerminal(f)
		}
	}
	rep, err := bench(ctx, cfg)
	if err != nil {
		return err
	}
	rep.write(stdout, cfg)
	return nil
}

// bench measures the floor, plays cfg.serial games at concurrency 1,
// measures the floor again (a shared machine's speed drifts: the ratio to
// the floor compares the pass with the mean of the two), then plays
// cfg.games at cfg.concurrency.
func bench(ctx context.Context, cfg benchConfig) (*benchReport, error) {
	rep := &benchReport{}
	var err error
	rounds := max(1, cfg.floorRounds/2)
	if rep.floors[0], err = benchFloorTime(ctx, cfg.self, rounds); err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}

	// Sample the heap while the games run.
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // samples until done is closed
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			rep.peakHeap = max(rep.peakHeap, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	defer func() {
		close(done)
		wg.Wait()
	}()
	if rep.serial, err = benchTournament(ctx, cfg, 1, cfg.serial); err != nil {
		return nil, err
	}
	if rep.floors[1], err = benchFloorTime(ctx, cfg.self, rounds); err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	if rep.parallel, err = benchTournament(ctx, cfg, cfg.concurrency, cfg.games); err != nil {
		return nil, err
	}
	return rep, nil
}

// floor is the time of one raw ping-pong exchange between two processes:
// the mean of the floors measured before and after the concurrency-1 pass.
func (r *benchReport) floor() time.Duration { return (r.floors[0] + r.floors[1]) / 2 }

// benchFloorTime runs "arena bench-floor" and returns the time of one
// exchange.
func benchFloorTime(ctx context.Context, self string, rounds int) (time.Duration, error) {
	out, err := exec.CommandContext(ctx, self, "bench-floor", strconv.Itoa(rounds)).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return 0, fmt.Errorf("%w: %s", err, ee.Stderr)
		}
		return 0, err
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("unexpected output %q", out)
	}
	return time.Duration(ns), nil
}

// benchTournament plays games between two copies of cfg.bot at
// concurrency and measures it.
func benchTournament(ctx context.Context, cfg benchConfig, concurrency, games int) (benchPass, error) {
	dir, err := os.MkdirTemp("", "arena-bench-*")
	if err != nil {
		return benchPass{}, err
	}
	defer os.RemoveAll(dir)
	bot := func(name string, seed int) string {
		if cfg.bot == benchBotName {
			return fmt.Sprintf("[[bots]]\nname = %q\ncommand = %q\nargs = [\"bench-bot\", \"%d\"]\n", name, cfg.self, seed)
		}
		args := ""
		if cfg.bot == builtin.NameRandom || cfg.bot == builtin.NameGreedy {
			args = fmt.Sprintf("args = [\"--seed\", \"%d\"]\n", seed)
		}
		return fmt.Sprintf("[[bots]]\nname = %q\nbuiltin = %q\n%s", name, cfg.bot, args)
	}
	conf := fmt.Sprintf("name = \"bench-c%d\"\nconcurrency = %d\naffinity = %q\n[game]\nname = %q\n[openings]\nlimit = 1\n"+
		"[format]\nrounds = %d\n[time]\nmove = %q\n%s%s",
		concurrency, concurrency, cmp.Or(cfg.affinity, config.AffinityOff), cfg.game, (games+1)/2, cfg.moveTime.String(), bot("a", 1), bot("b", 2))
	tc, err := config.Parse([]byte(conf), "bench", dir)
	if err != nil {
		return benchPass{}, err
	}
	obs := &benchObserver{perGame: concurrency == 1}
	opts := tournament.Options{Out: dir, Self: cfg.self, Observer: obs}
	if cfg.progress != nil {
		opts.Progress = newProgress(cfg.progress, cfg.terminal, nil, 0)
	}
	selfBefore, kidsBefore := cpuTimes()
	start := time.Now()
	sum, err := tournament.Run(ctx, tc, opts)
	wall := time.Since(start)
	if err != nil {
		return benchPass{}, err
	}
	selfAfter, kidsAfter := cpuTimes()
	p := benchPass{concurrency: concurrency, games: sum.Played, plies: sum.Plies, wall: wall,
		runnerCPU: selfAfter - selfBefore, botsCPU: kidsAfter - kidsBefore, steady: obs.window()}
	p.fit, p.fitted = obs.fit()
	p.latency = obs.latency
	p.timeForfeits, err = timeForfeits(filepath.Join(dir, journal.File))
	return p, err
}

// timeForfeits counts the games of a journal lost on time.
func timeForfeits(path string) (int, error) {
	n := 0
	err := journal.Scan(path, func(r *journal.Record) error {
		if r.Forfeit != nil && r.Forfeit.Kind == journal.ForfeitTime {
			n++
		}
		return nil
	})
	return n, err
}

// latencyLine describes the latencies of a pass, "" when no move came
// with a reported time.
func (p benchPass) latencyLine() string {
	if len(p.latency) == 0 {
		return ""
	}
	l := slices.Clone(p.latency)
	slices.Sort(l)
	q := func(f float64) string {
		return l[min(len(l)-1, int(f*float64(len(l))))].Round(10 * time.Microsecond).String()
	}
	return fmt.Sprintf("latency (time measured less time reported) over %d moves: p50 %s, p90 %s, p99 %s, max %s",
		len(l), q(0.5), q(0.9), q(0.99), l[len(l)-1].Round(10*time.Microsecond))
}

// selfCPU returns the user and system time of this process.
func selfCPU() time.Duration { return rusageCPU(syscall.RUSAGE_SELF) }

// cpuTimes returns the user and system time of this process and of its
// reaped children.
func cpuTimes() (self, children time.Duration) {
	return rusageCPU(syscall.RUSAGE_SELF), rusageCPU(syscall.RUSAGE_CHILDREN)
}

// rusageCPU returns the user and system time of who (RUSAGE_SELF or
// RUSAGE_CHILDREN), with one system call.
func rusageCPU(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// write prints the report, its lines wrapped to 80 columns.
func (r *benchReport) write(w io.Writer, cfg benchConfig) {
	w = &wrapWriter{w: w, width: lineWidth, indent: 2}
	us := func(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond)) }
	fmt.Fprintf(w, "%s, two %s bots, %v a move, %d CPUs (the machine may be shared: compare ratios measured in one run)\n",
		cfg.game, cfg.bot, cfg.moveTime, runtime.NumCPU())
	fmt.Fprintf(w, "floor: a raw pipe round trip between two processes takes %s (%s before the concurrency 1 pass, %s after)\n",
		us(r.floor()), us(r.floors[0]), us(r.floors[1]))
	for _, p := range []benchPass{r.serial, r.parallel} {
		fmt.Fprintf(w, "concurrency %d: %d games, %d plies in %v: %.0f plies/s, %.1f games/s\n",
			p.concurrency, p.games, p.plies, p.wall.Round(time.Millisecond), p.pliesPerSecond(), float64(p.games)/p.wall.Seconds())
		fmt.Fprintf(w, "  per ply: wall %s (%.1f x floor), runner CPU %s, bots CPU %s\n",
			us(p.perPly(p.wall)), float64(p.perPly(p.wall))/float64(max(r.floor(), 1)), us(p.perPly(p.runnerCPU)), us(p.perPly(p.botsCPU)))
		s := p.steady
		fmt.Fprintf(w, "  steady state (start-up and shutdown left out): wall %s (%.1f x floor), runner CPU %s\n",
			us(s.perPly(s.wall)), float64(s.perPly(s.wall))/float64(max(r.floor(), 1)), us(s.perPly(s.runnerCPU)))
		switch {
		case p.fitted:
			f := p.fit
			fmt.Fprintf(w, "  runner CPU per game: %s fixed + %s per ply (median fit over %d games of %d to %d plies)\n",
				us(f.fixed), us(f.perPly), f.games, f.minPlies, f.maxPlies)
		case p.concurrency == 1:
			fmt.Fprintf(w, "  runner CPU per game: not split into fixed and per ply (the games hardly differ in length)\n")
		}
		if p.timeForfeits > 0 || cfg.bot != benchBotName {
			fmt.Fprintf(w, "  time forfeits: %d of %d games\n", p.timeForfeits, p.games)
		}
		if l := p.latencyLine(); l != "" {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprintf(w, "heap: peak %.1f MiB of objects\n", float64(r.peakHeap)/(1<<20))
}
