// Command arena runs bot-versus-bot tournaments of Cheversi and American
// checkers. See the README for an overview; "arena help" lists subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/suggest"
)

// command is one subcommand. Each lives in a file of its own and registers
// itself with register from an init function.
type command struct {
	name    string
	summary string
	hidden  bool // a helper the arena runs itself; not listed by help
	run     func(ctx context.Context, args []string) error
	// play, when set, runs the command instead of run: a command that
	// plays a tournament, whose first Ctrl-C finishes the games in
	// flight (see interrupts).
	play func(ctx context.Context, in *interrupts, args []string) error
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// usageError marks errors caused by a bad command line: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitError carries a specific exit status without an extra message
// (the command has already printed what it needs to).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	// This same executable sets up the processes of bots with limits or
	// a sandbox, and supervises bots where the kernel gives them no PID
	// namespace: so that none outlives the arena, whatever it starts.
	engine.Supervise()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		printUsage(stderr)
		return 2
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1:
		printUsage(stdout)
		return 0
	case args[0] == "help":
		// "arena help CMD" is "arena CMD -h".
		if len(args) > 2 {
			fmt.Fprintf(stderr, "arena help: one command at a time\n")
			return 2
		}
		args = []string{args[1], "-h"}
	case args[0] == "-version" || args[0] == "--version":
		args = []string{"version"}
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "arena: unknown command %q%s\n", args[0], suggest.Hint(args[0], commandNames()))
		printUsage(stderr)
		return 2
	}
	// The first SIGINT/SIGTERM cancels ctx so that a command can wind down
	// cleanly; commands that need a second-signal hard exit handle it. A
	// command that plays a tournament takes them itself (interrupts).
	var in *interrupts
	var ctx context.Context
	if cmd.play != nil {
		in = watchInterrupts(stderr)
		defer in.stop()
		ctx = in.ctx
	} else {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	ctx, outputGone, stopWatch := stopOnClosedOutput(ctx)
	defer stopWatch()
	var err error
	if cmd.play != nil {
		err = cmd.play(ctx, in, args[1:])
	} else {
		err = cmd.run(ctx, args[1:])
	}
	if outputGone() || outputClosed() {
		return closedOutputExit(stderr, cmd, err)
	}
	return exitCode(stderr, cmd.name, err)
}

// closedOutputExit is the exit status of a command whose standard output
// or error was closed under it (arena ... | head). A command that did
// all its work, its last writes lost (arena solve --status | head), exits
// quietly with the status of a command killed by SIGPIPE, as other tools
// do. One that stopped before its end (a tournament, a solve) stopped as by
// an interrupt, and says so.
func closedOutputExit(stderr io.Writer, cmd command, err error) int {
	if cmd.play == nil && (err == nil || errors.Is(err, syscall.EPIPE)) {
		return 128 + int(syscall.SIGPIPE)
	}
	return exitCode(stderr, cmd.name, context.Canceled)
}

func exitCode(stderr io.Writer, name string, err error) int {
	var ue usageError
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "arena %s: %v\n", name, err)
		fmt.Fprintf(stderr, "(\"arena help %s\" lists its flags)\n", name)
		return 2
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "arena %s: interrupted\n", name)
		return 130
	}
	fmt.Fprintf(stderr, "arena %s: %v\n", name, err)
	return 1
}

// commandNames returns the names of the commands help lists, sorted.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n, c := range commands {
		if !c.hidden {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: arena <command> [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, n := range commandNames() {
		fmt.Fprintln(w, wrapLine(fmt.Sprintf("  %-8s %s", n, commands[n].summary), lineWidth, 11))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, wrapLine(`Run "arena help <command>" for a command's flags; "arena version" tells the build.`, lineWidth, 0))
}

// newFlagSet returns a FlagSet that reports errors instead of exiting, so
// that main maps them to exit status 2. Its usage (on -h) goes to standard
// output.
func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("arena "+name, flag.ContinueOnError)
	fs.SetOutput(os.Stdout)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: arena %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, turning flag errors into usage errors. The flag
// package's own message is held back so that main prints each error once;
// -h prints the usage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return err
	case err != nil:
		return usageError{flagHint(fs, err)}
	}
	return nil
}

// flagHint adds to the error of an unknown flag the flag that was most
// likely meant: "flag provided but not defined: -concurency (did you mean
// --concurrency?)".
func flagHint(fs *flag.FlagSet, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return err
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if c := suggest.Closest(name, names); c != "" {
		return fmt.Errorf("%w (did you mean --%s?)", err, c)
	}
	return err
}

// parsePositional parses flags given before, between or after positional
// arguments and returns the positional arguments. Everything after "--" is
// positional, so that a file may be named -x.
func parsePositional(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos, after []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, after = args[:i], args[i+1:]
	}
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return append(pos, after...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseInterspersed parses flags given before or after the one positional
// argument, a what, and returns it.
func parseInterspersed(fs *flag.FlagSet, args []string, what string) (string, error) {
	pos, err := parsePositional(fs, args)
	if err != nil {
		return "", err
	}
	switch len(pos) {
	case 0:
		return "", usagef("missing %s", what)
	case 1:
		return pos[0], nil
	}
	return "", usagef("unexpected argument %q (one %s only)", pos[1], what)
}

// commandLine returns the command line that runs the arena with args the
// way the user invoked it: "go run ./cmd/arena run t.toml" under go run,
// "bin/arena run t.toml" for a binary run as bin/arena.
func commandLine(args []string) string {
	exe, _ := os.Executable()
	_, err := os.Stat(filepath.Join("cmd", "arena", "main.go"))
	parts := []string{programName(os.Args[0], exe, os.Getenv("GOCACHE"), err == nil)}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// programName returns how to start the arena again: arg0 as typed, or, when
// the executable exe is a go run build, the go run command (with the
// package directory when the working directory is the module's root).
func programName(arg0, exe, gocache string, atRoot bool) string {
	if !goRunBuild(exe, gocache) {
		return arg0
	}
	if atRoot {
		return "go run ./cmd/arena"
	}
	pkg := "github.com/arena-games/arena/cmd/arena"
	if info, ok := debug.ReadBuildInfo(); ok && info.Path != "" {
		pkg = info.Path
	}
	return "go run " + pkg
}

// goRunBuild reports whether exe was built by go run: it lives in a
// temporary go-build directory or in the build cache.
func goRunBuild(exe, gocache string) bool {
	if exe == "" {
		return false
	}
	if gocache != "" && strings.HasPrefix(exe, filepath.Clean(gocache)+string(filepath.Separator)) {
		return true
	}
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(exe)), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	return false
}
