package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/arena-games/arena/bots/builtin"
	"github.com/arena-games/arena/bots/builtinbots"
	"github.com/arena-games/arena/bots/human"
)

func init() {
	register(command{
		name:    "bot",
		summary: "run a built-in bot (" + strings.Join(builtin.Names(), ", ") + ", or human) on stdin/stdout",
		run:     runBot,
	})
	// The bots "arena bot NAME" runs are those a configuration may name
	// with builtin.
	builtinbots.Register()
}

// runBot runs "arena bot NAME [flags]": the named built-in bot speaking the
// arena protocol on standard input and output, its notes on standard error.
func runBot(ctx context.Context, args []string) error {
	names := strings.Join(append(builtin.Names(), human.Name), ", ")
	if len(args) == 0 {
		return usagef("usage: arena bot NAME [flags], with NAME one of %s", names)
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" {
		fmt.Fprintf(os.Stdout, "usage: arena bot NAME [flags]\n\nNAME is one of %s; \"arena bot NAME -h\" lists its flags.\n", names)
		return flag.ErrHelp
	}
	if name == human.Name {
		return runHuman(ctx, args[1:])
	}
	if !slices.Contains(builtin.Names(), name) {
		return usagef("unknown bot %q (want one of %s)", name, names)
	}
	o := builtin.DefaultOptions()
	fs := newFlagSet("bot "+name, "[flags]")
	o.AddFlags(fs, name)
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if err := o.Validate(); err != nil {
		return usageError{err}
	}
	if name == builtin.NameRandom {
		// random reads its input without a goroutine of its own, so an
		// interrupt cannot stop a read in progress; it has nothing to
		// save, so it exits.
		stop := context.AfterFunc(ctx, func() { os.Exit(130) })
		defer stop()
	}
	err := builtin.Run(ctx, name, o, os.Stdin, os.Stdout, os.Stderr)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// runHuman runs "arena bot human [--listen ADDR]": a person playing
// through a board page, as a protocol bot.
func runHuman(ctx context.Context, args []string) error {
	fs := newFlagSet("bot human", "[--listen ADDR]")
	listen := fs.String("listen", human.DefaultListen, "serve the board page on `ADDR`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	// arena play learns the page's address from the file the environment
	// names (human.AddrFileEnv).
	err := human.Run(ctx, human.Options{Listen: *listen, AddrFile: os.Getenv(human.AddrFileEnv)}, os.Stdin, os.Stdout, os.Stderr)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
