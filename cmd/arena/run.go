package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/reports/dirreport"

	"golang.org/x/sys/unix"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/arena/workers"
	"github.com/arena-games/arena/reports"
)

func init() {
	register(command{
		name:    "run",
		summary: "play (or resume) a tournament described by a TOML configuration",
		play: func(ctx context.Context, in *interrupts, args []string) error {
			return runTournament(ctx, in, args, os.Stdout, os.Stderr)
		},
	})
}

const runUsage = `[--out DIR] [--shard I/N | --workers URL] [--transcript BOT]... [--serve ADDR] [--quiet] [flags] CONFIG.toml

Plays (or resumes) the tournament a configuration file describes. The flags
of arena match set keys on top of the file's (--concurrency, --tc,
--movetime, --rounds, --games, --openings, --bot to add a bot, --set for any
key, ...); a value of the file is checked even when a flag replaces it.

Flags:`

func runTournament(ctx context.Context, in *interrupts, args []string, stdout, stderr io.Writer) error {
	rf, path, err := parseRunFlags(args)
	if err != nil {
		return err
	}
	cfg, text, err := rf.load(ctx, in, path, stderr)
	if err != nil {
		return err
	}
	var coord *workers.Coordinator
	if rf.wf.url != "" {
		if coord, err = rf.wf.coordinator(text, path, cfg, stderr, rf.quiet); err != nil {
			return err
		}
	}

	// The first Ctrl-C drains the run (opts.Drain); SIGTERM cancels ctx;
	// a second signal kills every bot's process group and exits at once
	// (the kernel ends what the bots started with the first process of
	// their PID namespaces, or their supervisors, told by their
	// parent-death signal, kill it), so none survives the hard exit.
	again := commandLine(append([]string{"run"}, args...))
	in.resumeWith(again)
	opts := tournament.Options{Out: rf.out, Shard: rf.shard, Drain: in.drain}
	progressOptions(&opts, stderr, rf.quiet)
	var page *livePage
	if rf.serve != "" {
		dir := cfg.Output
		if rf.out != "" {
			dir = rf.out
		}
		if page, err = startLive(ctx, dir, rf.serve, stderr); err != nil {
			return err
		}
		defer page.stop()
		opts.Observer = page.srv
	}
	if coord != nil {
		opts.Pool = coord.Pool
	}
	sum, err := tournament.Run(ctx, cfg, opts)
	closeCoordinator(ctx, coord, sum, stderr)
	if sum == nil {
		return err
	}
	err = finishRun(stdout, stderr, again, sum, err)
	if page != nil && err == nil {
		page.stay(ctx, in.drain, stderr)
	}
	return err
}

// runFlags are the flags of arena run.
type runFlags struct {
	match       *matchFlags
	out, serve  string
	shard       *schedule.Shard
	quiet       bool
	wf          workerFlags
	transcripts namesFlag
}

// parseRunFlags parses the arguments of arena run: its flags and the path
// of the configuration.
func parseRunFlags(args []string) (rf *runFlags, path string, err error) {
	fs := newFlagSet("run", runUsage)
	rf = &runFlags{match: &matchFlags{cmd: "run", fs: fs}}
	rf.match.configFlags(false)
	fs.StringVar(&rf.out, "out", "", "output directory (default: the configuration's output, or results/NAME; for --shard I/N, its slice-I)")
	shardFlag := fs.String("shard", "", "play only slice `I/N` of the schedule (0 <= I < N), for a batch job of N tasks; merge the slices with arena merge")
	fs.BoolVar(&rf.quiet, "quiet", false, "no progress output, only the final table")
	fs.StringVar(&rf.serve, "serve", "", "serve a live page of the tournament on `ADDR` (e.g. 127.0.0.1:8080; :0 picks a free port) and keep it up until Ctrl-C")
	rf.wf.register(fs)
	fs.Var(&rf.transcripts, "transcript", "write the protocol transcript of `BOT` (a bot's name, or all) to its log, logs/BOT.log (repeatable)")
	if path, err = parseInterspersed(fs, args, "configuration file"); err != nil {
		return nil, "", err
	}
	if *shardFlag != "" {
		sh, err := schedule.ParseShard(*shardFlag)
		if err != nil {
			return nil, "", usagef("--shard: %v", err)
		}
		rf.shard = &sh
	}
	return rf, path, nil
}

// load reads the configuration at path with the flags applied and checks
// that the flags go with it; with --workers it also returns the
// configuration as the workers are to read it.
func (rf *runFlags) load(ctx context.Context, in *interrupts, path string, stderr io.Writer) (*config.Config, []byte, error) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, nil, err
	}
	// Until the games start, Ctrl-C has nothing to finish: it stops.
	prep, stopPrep := in.untilDrain(ctx)
	defer stopPrep()
	var text []byte // the configuration as the workers are to read it
	cfg, err := config.LoadWith(path, func(d *config.Document) error {
		if err := rf.match.apply(prep, d, path, dir, stderr); err != nil || rf.wf.url == "" {
			return err
		}
		text, err = d.Encode()
		return err
	})
	if prep.Err() != nil && ctx.Err() == nil {
		return nil, nil, context.Canceled
	}
	if err != nil && (onlyFlagErrors(err) || errors.As(err, new(usageError))) {
		return nil, nil, usageError{err}
	}
	if err != nil {
		return nil, nil, err
	}
	if err := rf.check(cfg, path); err != nil {
		return nil, nil, err
	}
	return cfg, text, nil
}

// check refuses the flags that do not go with the configuration cfg read
// from path.
func (rf *runFlags) check(cfg *config.Config, path string) error {
	if cfg.Sweep != nil {
		return usagef("%s has a [sweep] table: it is a sweep over rule variants (arena sweep %s)", path, path)
	}
	if cfg.League != nil {
		return usagef("%s has a [league] table: it is a league's roster (arena league %s)", path, filepath.Dir(path))
	}
	if err := cfg.EnableTranscripts(rf.transcripts); err != nil {
		return usagef("--transcript: %v", err)
	}
	if rf.shard != nil && cfg.SPRT != nil {
		return usagef("--shard: %s has an [sprt] test, which needs every game in one place; play it without --shard (or with --workers)", path)
	}
	if rf.shard != nil && rf.wf.url != "" {
		return usagef("--shard and --workers: the workers play the whole tournament; give one or the other")
	}
	return nil
}

// closeCoordinator removes the state in NATS of a tournament played by
// workers once it is over, if coord is not nil.
func closeCoordinator(ctx context.Context, coord *workers.Coordinator, sum *tournament.Summary, stderr io.Writer) {
	if coord == nil {
		return
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := coord.Close(cctx, sum); err != nil {
		fmt.Fprintf(stderr, "arena run: %v\n", err)
	}
}

// finishRun writes the reports, prints the standings and the rating
// summary, and says how to resume an interrupted tournament (again is the
// command line that does). runErr is Run's error; it is returned (after
// the reports are written) so that main picks the exit status.
func finishRun(stdout, stderr io.Writer, again string, sum *tournament.Summary, runErr error) error {
	if sum.Played == 0 && sum.Complete && runErr == nil {
		fmt.Fprintf(stderr, "%s: the tournament is complete (%d games); results in %s\n", sum.Manifest.Name, sum.Total, sum.Dir)
	}
	if sum.Played > 0 {
		secs := sum.Elapsed.Seconds()
		fmt.Fprintf(stderr, "played %s (%d plies) in %v: %.1f games/s, %.0f plies/s\n",
			countGames(sum.Played), sum.Plies, sum.Elapsed.Round(10*time.Millisecond), float64(sum.Played)/secs, float64(sum.Plies)/secs)
	}
	// The reports are written even after an interrupt: they are what the
	// games recorded so far come to.
	rep, err := dirreport.Write(context.Background(), sum.Dir, dirreport.Options{})
	if err == nil {
		err = printReport(stdout, sum.Dir, rep)
	}
	if err != nil {
		return errors.Join(runErr, err)
	}
	fmt.Fprintf(stderr, "journal, games and reports are in %s\n", sum.Dir)
	if !sum.Complete && errors.Is(runErr, context.Canceled) {
		fmt.Fprintf(stderr, "stopped with %d of %d games recorded; to play the rest, run again:\n  %s\n", sum.Recorded, sum.Total, again)
	}
	return runErr
}

// printReport prints the standings and the rating summary of the reports
// written for the output directory dir, fitted to the terminal's width
// when w is one.
func printReport(w io.Writer, dir string, rep *dirreport.Report) error {
	return printReportWidth(w, dir, rep, terminalWidth(w))
}

// printReportWidth is printReport for a width in columns (0: no limit).
func printReportWidth(w io.Writer, dir string, rep *dirreport.Report, width int) error {
	m, a := rep.Manifest, rep.Analysis
	fmt.Fprintf(w, "%s: %d of %d games\n", m.Name, rep.Games, m.Games)
	if a == nil {
		return nil // no games recorded yet
	}
	run := rep.Meta.Run
	if err := reports.WriteTerminalWidth(w, reports.Meta{Run: run}, a, width); err != nil {
		return err
	}
	if run.SPRT != "" {
		fmt.Fprintln(w, wrapLine(run.SPRT, width, 0))
	}
	var forfeits []string
	for _, s := range rep.Standings {
		if s.Forfeits > 0 {
			forfeits = append(forfeits, fmt.Sprintf("%s %d", s.Bot, s.Forfeits))
		}
	}
	if len(forfeits) > 0 {
		fmt.Fprintln(w, wrapLine(fmt.Sprintf("Games lost by forfeit: %s (%s)", strings.Join(forfeits, ", "), forfeitReasons(dir)), width, 0))
	}
	return nil
}

// forfeitReasons says where the reasons of a directory's forfeits are: its
// arena.log when it has one (a run's), else the journal and the report's
// game list (a merged directory's, whose slices kept their logs).
func forfeitReasons(dir string) string {
	if log := filepath.Join(dir, "arena.log"); fileExists(log) {
		return "reasons in " + log
	}
	return fmt.Sprintf("reasons in %s and in the game list of %s", filepath.Join(dir, journal.File), filepath.Join(dir, "report.html"))
}

// fileExists reports whether path names a file.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// countGames says "1 game" or "N games".
func countGames(n int) string {
	if n == 1 {
		return "1 game"
	}
	return fmt.Sprintf("%d games", n)
}

// overrides collects the configuration keys set on the command line, in
// the order given.
type overrides []config.Override

// setFlag is --set KEY=VALUE: any configuration key.
// namesFlag collects the values of a repeatable flag; each may also list
// several names separated by commas.
type namesFlag []string

func (f *namesFlag) String() string { return strings.Join(*f, ",") }

func (f *namesFlag) Set(s string) error {
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			*f = append(*f, name)
		}
	}
	return nil
}

type setFlag struct{ list *overrides }

func (f setFlag) String() string { return "" }

func (f setFlag) Set(s string) error {
	o, err := config.ParseOverride("--set", s)
	if err != nil {
		return err
	}
	*f.list = append(*f.list, o)
	return nil
}

// keyFlag is a flag that sets one configuration key: --concurrency N sets
// concurrency. Its value is checked with the configuration, so that flag
// and file get the same rule and message.
type keyFlag struct {
	name, key string
	list      *overrides
}

func (f keyFlag) String() string { return "" }

// boolKeyFlag is a keyFlag for a boolean key, which may be given without
// a value (--sandbox is --sandbox=true).
type boolKeyFlag struct{ keyFlag }

func (boolKeyFlag) IsBoolFlag() bool { return true }

func (f keyFlag) Set(s string) error {
	*f.list = append(*f.list, config.Override{Key: f.key, Value: s, Source: "--" + f.name + " " + shellQuote(s)})
	return nil
}

// onlyFlagErrors reports whether every configuration error err holds
// names the flag that set its key (--set, --concurrency), not the file:
// the command line alone is wrong.
func onlyFlagErrors(err error) bool {
	switch u := err.(type) {
	case *config.Error:
		return u.Flag != ""
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if !onlyFlagErrors(e) {
				return false
			}
		}
		return true
	case interface{ Unwrap() error }:
		return onlyFlagErrors(u.Unwrap())
	}
	return err == config.ErrInvalid
}

// hardExitOnSecondSignal exits the process with status 130 on the second
// SIGINT or SIGTERM, after telling the user on the first one what is going
// on. The returned function stops watching.
func hardExitOnSecondSignal(w io.Writer) (stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { // exits when stop is called (or the process does)
		n := 0
		for {
			select {
			case <-done:
				return
			case <-sigs:
				n++
				if n >= 2 {
					fmt.Fprintln(w, "\narena: second signal: exiting now")
					engine.Exit(130)
				}
				fmt.Fprintln(w, "\narena: stopping: games in flight are abandoned and will be replayed on resume (signal again to exit at once)")
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// terminalWidth returns the width in columns of the terminal w writes to,
// or 0 when w is not a terminal or its size is unknown.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// progressOptions sets where the progress of a tournament goes: nowhere
// when quiet, else to w, redrawn in place and fitted to its width when w
// is a terminal.
func progressOptions(opts *tournament.Options, w io.Writer, quiet bool) {
	if quiet {
		return
	}
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		opts.Progress = newProgress(w, true, func() int { return terminalWidth(w) }, 0)
		return
	}
	opts.Progress = newProgress(w, false, nil, 0)
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
