package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/race"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/sweep"
	"github.com/arena-games/arena/reports"
)

func init() {
	register(command{
		name:    "sweep",
		summary: "race rule variants toward a target first-mover score, stopping each as soon as it is settled",
		run: func(ctx context.Context, args []string) error {
			return runSweep(ctx, args, os.Stdout, os.Stderr)
		},
	})
}

// sweepFormats are the values of sweep's --format flag.
var sweepFormats = map[string]func(io.Writer, *sweep.Status) error{
	"terminal": nil, // to the width of the terminal
	"markdown": reports.WriteSweepMarkdown,
	"csv":      reports.WriteSweepCSV,
	"json":     reports.WriteSweepJSON,
	"html":     reports.WriteSweepHTML,
}

// runSweep runs "arena sweep [flags] CONFIG.toml": it plays (or resumes) the
// sweep, writes its reports into its output directory and prints the race.
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sweep", "[--shard I/N] [--concurrency N] [--set KEY=VALUE]... [--report] [--format F] [--quiet] CONFIG.toml")
	shardFlag := fs.String("shard", "", "play only slice `I/N` of every variant's games (0 <= I < N), the slices sharing the output directory; each waits for the others at every look")
	var sets overrides
	fs.Var(keyFlag{"concurrency", "concurrency", &sets}, "concurrency", "`N` games played at a time (default: the configuration's, or the number of CPUs the arena may use)")
	fs.Var(setFlag{&sets}, "set", "set a configuration key, e.g. sweep.precision=0.03, sweep.grid.komi=[0, 0.5]\n(`KEY=VALUE`, repeatable; see configs/README.md)")
	report := fs.Bool("report", false, "play nothing: write the reports of the games played so far")
	format := fs.String("format", "terminal", "what to print at the end: terminal, markdown, csv, json or html")
	quiet := fs.Bool("quiet", false, "no progress output, only the final table")
	path, err := parseInterspersed(fs, args, "configuration file")
	if err != nil {
		return err
	}
	write, ok := sweepFormats[*format]
	if !ok {
		return usagef("unknown format %q (want terminal, markdown, csv, json or html)", *format)
	}
	var shard *schedule.Shard
	if *shardFlag != "" {
		sh, err := schedule.ParseShard(*shardFlag)
		if err != nil {
			return usagef("--shard: %v", err)
		}
		shard = &sh
	}
	cfg, err := config.Load(path, sets...)
	if err != nil && onlyFlagErrors(err) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	sc, err := sweep.FromConfig(cfg, sets)
	if errors.Is(err, sweep.ErrNotSweep) {
		return fmt.Errorf("%s has no [sweep] table: it is a tournament (arena run %s)", path, path)
	}
	if err != nil {
		return err
	}

	stop := hardExitOnSecondSignal(stderr)
	defer stop()
	var obs *sweepProgress
	opts := sweep.Options{Shard: shard, ReportOnly: *report}
	if !*quiet {
		obs = newSweepProgress(stderr)
		opts.Observer = obs
	}
	st, runErr := sweep.Run(ctx, sc, opts)
	if obs != nil {
		obs.finish()
	}
	if st == nil {
		return runErr
	}
	// The reports are written even after an interrupt: they are what the
	// games recorded so far come to.
	if err := writeSweepReports(stdout, sc, st, write); err != nil {
		return errors.Join(runErr, err)
	}
	fmt.Fprintf(stderr, "the sweep's reports (sweep.md, sweep.csv, sweep.json, sweep.html) are in %s\n", sc.Output())
	if !st.Done && errors.Is(runErr, context.Canceled) {
		fmt.Fprintf(stderr, "stopped after %d looks; to go on, run again:\n  %s\n", st.Looks, commandLine(append([]string{"sweep"}, args...)))
	}
	if !st.Done && *report && runErr == nil {
		fmt.Fprintf(stderr, "the race is not over: %d of %d variants still running\n", len(st.Active()), len(st.Variants))
	}
	return runErr
}

// writeSweepReports writes the report files of the sweep sc, at the state
// st, to its output directory, and the report to stdout with write (the
// terminal's when nil).
func writeSweepReports(stdout io.Writer, sc *sweep.Config, st *sweep.Status, write func(io.Writer, *sweep.Status) error) error {
	if err := reports.WriteSweepFiles(sc.Output(), st); err != nil {
		return err
	}
	if write == nil {
		return reports.WriteSweepTerminal(stdout, st, terminalWidth(stdout))
	}
	return write(stdout, st)
}

// sweepProgress shows how a sweep is going: a line per look with the
// variants still in the race and those that stopped, and on a terminal a
// live line with the variant being played.
type sweepProgress struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	width    func() int
	last     time.Time
	shown    bool
	current  string // the variant being played and its goal
	played   int
	goal     int
	running  string // "8 of 12 variants running"
	reported map[string]bool
}

func newSweepProgress(w io.Writer) *sweepProgress {
	p := &sweepProgress{w: w, reported: map[string]bool{}}
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		p.tty, p.width = true, func() int { return terminalWidth(w) }
	}
	return p
}

// clearLocked removes the live line.
func (p *sweepProgress) clearLocked() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// Looked prints the race: every variant that stopped since the last look,
// and those still running.
func (p *sweepProgress) Looked(s *sweep.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	var running []string
	for _, v := range s.Variants {
		name := v.Name
		if s.Groups() > 1 {
			name += " (" + v.Strength + ")"
		}
		a := v.Arm
		if a.Reason == race.Running {
			if a.Openings > 0 {
				name += fmt.Sprintf(" %.1f%%", 100*a.Score)
			}
			running = append(running, name)
			continue
		}
		if !p.reported[name] {
			p.reported[name] = true
			fmt.Fprintf(p.w, "look %d: %s stopped (%s) after %d openings: first mover %.1f%% [%.1f%%, %.1f%%]\n",
				a.Look, name, a.Reason, a.Openings, 100*a.Score, 100*a.Lo, 100*a.Hi)
		}
	}
	p.running = fmt.Sprintf("%d of %d variants running", len(running), len(s.Variants))
	if len(running) > 0 {
		fmt.Fprintf(p.w, "after look %d, %s: %s\n", s.Looks, p.running, strings.Join(running, ", "))
	} else {
		fmt.Fprintf(p.w, "after look %d, every variant has stopped\n", s.Looks)
	}
}

// Playing starts the live line of a variant's batch.
func (p *sweepProgress) Playing(v sweep.Variant, look, until int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = fmt.Sprintf("look %d · %s, %s: games up to opening %d", look, v.Name, v.Strength, until)
	p.played, p.goal = 0, until-v.Arm.Openings
	if !p.tty {
		fmt.Fprintln(p.w, p.current)
	}
	p.drawLocked()
}

// Recorded counts a game of the batch.
func (p *sweepProgress) Recorded(sweep.Variant, *journal.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.played++
	if time.Since(p.last) >= ttyRedraw {
		p.drawLocked()
	}
}

// Waiting says which variants a slice waits for.
func (p *sweepProgress) Waiting(look int, variants []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	fmt.Fprintf(p.w, "look %d: waiting for the other slices' games of %s\n", look, strings.Join(variants, "; "))
}

// Notice prints msg on a line of its own.
func (p *sweepProgress) Notice(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	fmt.Fprintln(p.w, msg)
	p.drawLocked()
}

// drawLocked redraws the live line on a terminal.
func (p *sweepProgress) drawLocked() {
	if !p.tty || p.current == "" {
		return
	}
	line := fmt.Sprintf("%s (%d of %d played) · %s", p.current, p.played, p.goal, p.running)
	if w := p.width(); w > 1 && len([]rune(line)) >= w {
		line = string([]rune(line)[:w-1])
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown, p.last = true, time.Now()
}

// finish ends the live line.
func (p *sweepProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
}
