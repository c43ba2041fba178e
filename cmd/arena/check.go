package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/sandbox"
	"github.com/arena-games/arena/bots/conformance"
)

// limitFlags defines the flags of a bot's limits and sandbox on fs.
func limitFlags(fs *flag.FlagSet, pol *sandbox.Policy) {
	fs.Func("memory", "cap the bot's memory at `SIZE` (512MiB, 2GiB)", func(s string) error {
		n, err := sandbox.ParseBytes(s)
		pol.Memory = n
		return err
	})
	fs.IntVar(&pol.Processes, "processes", 0, "cap the bot's processes and threads at `N`")
	fs.IntVar(&pol.OpenFiles, "open-files", 0, "cap the files each of its processes may have open at `N`")
	fs.Func("file-size", "cap the size of a file the bot writes at `SIZE`", func(s string) error {
		n, err := sandbox.ParseBytes(s)
		pol.FileSize = n
		return err
	})
	fs.DurationVar(&pol.CPUTime, "cpu-time", 0, "cap the bot's CPU time per game at `TIME`")
	fs.BoolVar(&pol.Isolate, "sandbox", false, "run the bot in the sandbox: no network, no files but its own and the system's, a private /tmp")
	fs.Func("read", "let the sandboxed bot read and execute `PATH` too (repeatable)", func(s string) error {
		abs, err := filepath.Abs(s)
		pol.Read = append(pol.Read, abs)
		return err
	})
	fs.BoolVar(&pol.Optional, "best-effort", false, "run the bot under what of its limits and sandbox this machine gives, instead of refusing")
}

func init() {
	register(command{
		name:    "check",
		summary: "check that a bot follows the protocol and the rules",
		run:     runCheck,
	})
}

// runCheck runs "arena check [flags] -- CMD [ARGS...]": the conformance
// checks of package conformance, one PASS/FAIL/SKIP line each, and exit
// status 1 when any check fails.
func runCheck(ctx context.Context, args []string) error {
	return check(ctx, args, os.Stdout)
}

func check(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlagSet("check", "[flags] -- CMD [ARGS...]")
	moveTime := fs.Duration("movetime", conformance.DefaultMoveTime, "the bot's time per move in the check games")
	margin := fs.Duration("margin", conformance.DefaultMargin, "latency allowed beyond each time limit")
	timeout := fs.Duration("timeout", engine.DefaultHandshakeTimeout, "time allowed for the handshake and each readyok")
	grace := fs.Duration("quit-grace", conformance.DefaultQuitGrace, "time the bot has to exit after quit")
	plies := fs.Int("plies", conformance.DefaultMaxPlies, "length of the checkers check games, in plies")
	seed := fs.Uint64("seed", 1, "seed of the arena's own moves and positions")
	logPath := fs.String("log", "", "append the bot's standard error to this `file` (default: discard it)")
	transcript := fs.Bool("transcript", false, "also write every protocol line, with the time, to the --log file")
	dir := fs.String("dir", "", "the bot's working `directory` (default: the current one)")
	var pol sandbox.Policy
	limitFlags(fs, &pol)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no bot command: arena check [flags] -- CMD [ARGS...]")
	}
	switch {
	case *moveTime <= 0:
		return usagef("--movetime must be positive")
	case *margin <= 0, *timeout <= 0, *grace <= 0:
		return usagef("--margin, --timeout and --quit-grace must be positive")
	case *plies <= 0:
		return usagef("--plies must be positive")
	case *transcript && *logPath == "":
		return usagef("--transcript writes to the --log file: give one")
	}
	cfg := conformance.Config{
		Command:          fs.Arg(0),
		Args:             fs.Args()[1:],
		Dir:              *dir,
		StderrPath:       *logPath,
		Transcript:       *transcript,
		MoveTime:         *moveTime,
		Margin:           *margin,
		HandshakeTimeout: *timeout,
		QuitGrace:        *grace,
		MaxPlies:         *plies,
		Seed:             *seed,
		Policy:           pol,
	}
	if err := sandbox.Check(&pol); err != nil {
		return fmt.Errorf("%w (--best-effort checks the bot without it)", err)
	}
	// Each result fits 80 columns, its detail going on under its name.
	stdout = &wrapWriter{w: stdout, width: lineWidth, indent: 6}
	fmt.Fprintf(stdout, "checking %s\n", strings.Join(fs.Args(), " "))
	fmt.Fprintf(stdout, "limits: %s\n", sandbox.Probe().Describe(&pol))
	rep, err := conformance.Run(ctx, cfg, func(r conformance.Result) {
		fmt.Fprintf(stdout, "%s  %s: %s\n", r.Status, r.Name, r.Detail)
	})
	if err != nil {
		return err
	}
	pass, fail, skip := rep.Count(conformance.Pass), rep.Count(conformance.Fail), rep.Count(conformance.Skip)
	fmt.Fprintf(stdout, "%d checks: %d passed, %d failed, %d skipped\n", pass+fail+skip, pass, fail, skip)
	if !rep.Passed() {
		return exitError{code: 1}
	}
	return nil
}
