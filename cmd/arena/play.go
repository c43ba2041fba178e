package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/bots/human"
)

func init() {
	register(command{
		name:    "play",
		summary: "play against a bot yourself, on a board in your browser",
		run: func(ctx context.Context, args []string) error {
			return runPlay(ctx, args, os.Stdout, os.Stderr)
		},
	})
}

const playUsage = `--game NAME --bot SPEC [--color white|black] [--my-tc TC] [--me NAME] [--listen ADDR] [match flags]

Plays you against a bot. You are a player like any other: a bot process
(builtin = "human") that shows you the board in your browser and sends the
moves you click, so your games are refereed, timed, recorded and rated like
every game (the output directory is results/NAME-vs-BOT unless --out says).
Open the address it prints. Every flag of arena match applies (--rules,
--set, --movetime for the bot, --games, --out, ...); by default you play two
games of the first opening, one with each colour.

  arena play --game cheversi --bot builtin=alphabeta
  arena play --game checkers --bot builtin=greedy --color black --my-tc 5m+3s

Flags of arena play:
  --color white|black   your colour in the first game (default white)
  --my-tc TC            your clock, [MOVES/]BASE[+INC] (default 10m+5s)
  --me NAME             your name in the standings (default you)
  --listen ADDR         the board page's address (default 127.0.0.1, a free port; port 0 picks one)`

// runPlay is "arena play": arena match with the person as one of the bots.
func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	color, tc, me, listen := "white", "10m+5s", "you", ""
	var rest []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") {
			rest = append(rest, args[i])
			continue
		}
		var dst *string
		switch name {
		case "color":
			dst = &color
		case "my-tc":
			dst = &tc
		case "me":
			dst = &me
		case "listen":
			dst = &listen
		case "h", "help":
			fmt.Fprintf(stdout, "usage: arena play %s\n", playUsage)
			return flag.ErrHelp
		default:
			rest = append(rest, args[i])
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return usagef("flag needs an argument: -%s", name)
			}
			i++
			value = args[i]
		}
		*dst = value
	}
	if color != "white" && color != "black" {
		return usagef("--color: want white or black, got %q", color)
	}
	moves, base, inc, err := parseClock(tc)
	if err != nil {
		return usagef("--my-tc: %v", err)
	}
	if me == "" || strings.ContainsAny(me, `,"'`) {
		return usagef("--me: want a name without commas or quotes, got %q", me)
	}
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	if _, port, err := net.SplitHostPort(listen); err == nil && port == "0" {
		// A free port, for the player's process to listen on: the page's
		// address is said once it is up, so it must be known here.
		l, err := net.Listen("tcp", listen)
		if err != nil {
			return fmt.Errorf("--listen: %w", err)
		}
		listen = l.Addr().String()
		l.Close()
	}
	spec := fmt.Sprintf("name=%s,builtin=%s,args=%q,time.base=%s", me, human.Name, "--listen "+listen, base)
	if inc != "" {
		spec += ",time.increment=" + inc
	}
	if moves != "" {
		spec += ",time.moves=" + moves
	}
	margs := []string{"--bot", spec}
	if color == "black" {
		margs = nil
	}
	margs = append(margs, rest...)
	if color == "black" {
		margs = append(margs, "--bot", spec)
	}
	if !hasFlag(rest, "games") && !hasFlag(rest, "rounds") {
		margs = append(margs, "--games", "2")
	}
	m, err := parseMatch(ctx, "play", margs, stderr)
	if err != nil {
		return err
	}
	if len(m.cfg.Bots) != 2 {
		return usagef("arena play is you against one bot: give one --bot (got %d bots besides you)", len(m.cfg.Bots)-1)
	}
	if m.save != "" {
		if err := saveMatchConfig(m.doc, m.save); err != nil {
			return err
		}
	}
	stop := hardExitOnSecondSignal(stderr)
	defer stop()
	var opts tournament.Options
	progressOptions(&opts, stderr, m.quiet)
	// Say where the board is once it is up (the arena starts the
	// player's process first thing).
	runDone, said := make(chan struct{}), make(chan struct{})
	go func() { // ends once the page answers or the run is over
		defer close(said)
		for {
			if conn, err := net.DialTimeout("tcp", listen, time.Second); err == nil {
				conn.Close()
				fmt.Fprintf(stderr, "your board: http://%s/ (open it in your browser; your clock is %s)\n", listen, tc)
				return
			}
			select {
			case <-runDone:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	sum, err := tournament.Run(ctx, m.cfg, opts)
	close(runDone)
	<-said
	if sum == nil {
		return err
	}
	return finishRun(stdout, stderr, commandLine(append([]string{"play"}, args...)), sum, err)
}

// hasFlag reports whether args give the flag name.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && n == name {
			return true
		}
	}
	return false
}
