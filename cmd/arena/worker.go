package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/workers"
)

func init() {
	register(command{
		name:    "worker",
		summary: "play the games of tournaments (arena run --workers) or solve the units of solves (arena solve --workers), handed out over NATS",
		run: func(ctx context.Context, args []string) error {
			return runWorker(ctx, args, os.Stderr)
		},
	})
	register(command{
		name:    "nats",
		summary: "run a NATS server with JetStream for arena run --workers and arena worker",
		run: func(ctx context.Context, args []string) error {
			return runNATS(ctx, args, os.Stderr)
		},
	})
}

// workerFlags are the flags of arena run that hand the games to workers.
type workerFlags struct {
	url     string
	batch   int
	timeout time.Duration
}

func (f *workerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.url, "workers", "", "hand the games to arena worker processes through NATS at `URL`: nats://HOST:PORT connects to a NATS server with JetStream,\nlisten://HOST:PORT starts one in this process (its state kept in the output directory); see configs/README.md")
	fs.IntVar(&f.batch, "batch", workers.DefaultBatchPairs, "with --workers: colour-reversed pairs of games per batch handed to a worker")
	fs.DurationVar(&f.timeout, "worker-timeout", workers.DefaultAckWait, "with --workers: how long a worker may go silent before its batches go to another")
}

// coordinator returns the coordinator of a run with --workers. text is
// the configuration's text with the command line's settings applied; the
// transcripts cfg asks for are added to it.
func (f *workerFlags) coordinator(text []byte, path string, cfg *config.Config, stderr io.Writer, quiet bool) (*workers.Coordinator, error) {
	if f.batch < 1 {
		return nil, usagef("--batch %d: must be at least 1", f.batch)
	}
	if f.timeout < time.Second {
		return nil, usagef("--worker-timeout %v: must be at least 1s", f.timeout)
	}
	text, err := withTranscripts(text, path, cfg)
	if err != nil {
		return nil, err
	}
	opts := workers.CoordinatorOptions{URL: f.url, Config: text, ConfigName: path, BatchPairs: f.batch, AckWait: f.timeout}
	if !quiet {
		opts.ServerLog = natsWarnings(stderr)
	}
	c, err := workers.NewCoordinator(opts)
	if errors.Is(err, workers.ErrURL) {
		return nil, usagef("--workers: %v", err)
	}
	return c, err
}

// withTranscripts sets transcript = true in the configuration text for
// the bots of cfg that --transcript names.
func withTranscripts(text []byte, path string, cfg *config.Config) ([]byte, error) {
	var names []string
	for _, b := range cfg.Bots {
		if b.Transcript {
			names = append(names, b.Name)
		}
	}
	if len(names) == 0 {
		return text, nil
	}
	d, err := config.ReadDocument(text, path)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if err := d.SetValue("bots."+name+".transcript", true, "--transcript "+name); err != nil {
			return nil, err
		}
	}
	return d.Encode()
}

// natsWarnings writes the warnings and errors of a NATS server started
// here; its notices say little a user needs.
func natsWarnings(w io.Writer) func(string) {
	log := serverLog(w, "nats: ")
	return func(line string) {
		if strings.HasPrefix(line, "warning:") || strings.HasPrefix(line, "error:") || strings.HasPrefix(line, "fatal:") {
			log(line)
		}
	}
}

// serverLog writes the log lines of a NATS server started here, from its
// warnings up (its notices say little a user needs).
func serverLog(w io.Writer, prefix string) func(string) {
	var mu sync.Mutex
	return func(line string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "%s %s%s\n", time.Now().Format("15:04:05"), prefix, line)
	}
}

func runWorker(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlagSet("worker", "[--concurrency N] [--dir DIR] [--logs DIR] [--memory SIZE] [--name NAME] [--once] URL")
	concurrency := fs.Int("concurrency", 0, "`N` games played (or units of a solve solved) at a time (default: the configuration's, or the number of CPUs the worker may use)")
	dir := fs.String("dir", "", "the directory the configuration's relative paths (bot commands and directories) are resolved against (default: the working directory)")
	logs := fs.String("logs", "", "the directory of the bots' logs, one subdirectory per tournament (default: one under $TMPDIR)")
	name := fs.String("name", "", "the worker's name, for the coordinator's log (default: HOST-PID)")
	memory := fs.String("memory", defaultTableSize, "the transposition table `size` the units of a solve share (e.g. 64MiB, 1GiB)")
	once := fs.Bool("once", false, "exit when the first tournament (or solve) served is over (a batch job), with status 1 if it cannot be played")
	url, err := parseInterspersed(fs, args, "NATS URL (nats://HOST:PORT)")
	if err != nil {
		return err
	}
	if *concurrency < 0 {
		return usagef("--concurrency %d: must be positive", *concurrency)
	}
	if _, _, err := workers.ParseURL(url); err != nil {
		return usagef("%v", err)
	}
	mem, err := parseSize(*memory)
	if err != nil {
		return usagef("--memory: %v", err)
	}
	// The first signal stops taking batches and hands back those held;
	// a second one exits at once.
	stop := hardExitOnSecondSignal(stderr)
	defer stop()
	log := serverLog(stderr, "")
	err = workers.RunWorker(ctx, workers.WorkerOptions{
		URL: url, Name: *name, Dir: *dir, Logs: *logs, Concurrency: *concurrency, SolveMemory: mem,
		Once: *once, Version: arenaVersion(), Log: log,
	})
	return err
}

// arenaVersion is the arena's module version and revision, in a word.
func arenaVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

func runNATS(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlagSet("nats", "[--store DIR] [listen://[USER:PASSWORD@]HOST:PORT]")
	store := fs.String("store", "nats-store", "the directory of JetStream's state, taken up again on the next start")
	pos, err := parsePositional(fs, args)
	if err != nil {
		return err
	}
	url := "listen://0.0.0.0:4222"
	switch len(pos) {
	case 0:
	case 1:
		url = pos[0]
	default:
		return usagef("unexpected argument %q", pos[1])
	}
	_, l, err := workers.ParseURL(url)
	if err == nil && l == nil {
		err = errors.New("give the address to listen on: listen://HOST:PORT")
	}
	if err != nil {
		return usagef("%v", err)
	}
	srv, err := workers.StartServer(ctx, workers.ServerOptions{Listen: *l, Store: *store, Log: serverLog(stderr, "")})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "NATS with JetStream listening on %s, state in %s: arena run --workers nats://HOST:%s, arena worker nats://HOST:%s\n", srv.Addr(), *store, l.Port, l.Port)
	<-ctx.Done()
	srv.Close()
	return nil
}
