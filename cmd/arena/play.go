package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/config"
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

Flags (arena play's: --color, --my-tc, --me, --listen; the others are arena match's):`

// playFlags are the flags arena play adds to those of arena match.
type playFlags struct {
	color, tc, me, listen *string
}

// runPlay is "arena play": arena match with the person as one of the bots.
func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newMatchFlags("play", playUsage)
	p := playFlags{
		color:  f.fs.String("color", "white", "your `COLOR` in the first game: white or black"),
		tc:     f.fs.String("my-tc", "10m+5s", "your clock `TC`, [MOVES/]BASE[+INC]"),
		me:     f.fs.String("me", "you", "your `NAME` in the standings"),
		listen: f.fs.String("listen", "127.0.0.1:0", "the board page's `ADDR` (port 0 picks a free one)"),
	}
	if err := f.parse(args); err != nil {
		return err
	}
	person, err := p.person()
	if err != nil {
		return err
	}
	if *p.color == "black" {
		f.bots = append(f.bots, person)
	} else {
		f.bots = append([]botSpec{person}, f.bots...)
	}
	if f.games == 0 && !hasKey(f.sets, "format.rounds") {
		f.games = 2 // one game with each colour
	}
	m, err := f.match(ctx, stderr)
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
	// The person's process says where it serves the board in a file of
	// its own: the port is the one its listener got, which it keeps.
	tmp, err := os.MkdirTemp("", "arena-play-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	addrFile := filepath.Join(tmp, "board")
	setEnv(m.cfg, person.name, human.AddrFileEnv, addrFile)

	stop := hardExitOnSecondSignal(stderr)
	defer stop()
	var opts tournament.Options
	progressOptions(&opts, stderr, m.quiet)
	runDone := make(chan struct{})
	said := sayBoard(addrFile, *p.tc, stderr, runDone)
	sum, err := tournament.Run(ctx, m.cfg, opts)
	close(runDone)
	<-said
	if sum == nil {
		return err
	}
	return finishRun(stdout, stderr, commandLine(append([]string{"play"}, args...)), sum, err)
}

// person checks arena play's flags and returns the person as a bot.
func (p playFlags) person() (botSpec, error) {
	if *p.color != "white" && *p.color != "black" {
		return botSpec{}, usagef("--color: want white or black, got %q", *p.color)
	}
	moves, base, inc, err := parseClock(*p.tc)
	if err != nil {
		return botSpec{}, usagef("--my-tc: %v", err)
	}
	if *p.me == "" || strings.ContainsAny(*p.me, `,"'`) {
		return botSpec{}, usagef("--me: want a name without commas or quotes, got %q", *p.me)
	}
	b := botSpec{name: *p.me, source: "--me " + shellQuote(*p.me),
		keys: [][2]string{{"builtin", human.Name}, {"time.base", base}}, args: []string{"--listen", *p.listen}}
	if inc != "" {
		b.keys = append(b.keys, [2]string{"time.increment", inc})
	}
	if moves != "" {
		b.keys = append(b.keys, [2]string{"time.moves", moves})
	}
	return b, nil
}

// setEnv sets an environment variable of the named bot.
func setEnv(cfg *config.Config, bot, key, value string) {
	for i := range cfg.Bots {
		if cfg.Bots[i].Name == bot {
			if cfg.Bots[i].Env == nil {
				cfg.Bots[i].Env = map[string]string{}
			}
			cfg.Bots[i].Env[key] = value
		}
	}
}

// sayBoard tells the person where the board is once the person's process
// has written its address to addrFile (the arena starts it first thing),
// or gives up when runDone is closed. The returned channel is closed when
// it is done.
func sayBoard(addrFile, tc string, w io.Writer, runDone <-chan struct{}) <-chan struct{} {
	said := make(chan struct{})
	go func() { // ends once the address is said or the run is over
		defer close(said)
		for {
			if b, err := os.ReadFile(addrFile); err == nil && len(bytes.TrimSpace(b)) > 0 {
				fmt.Fprintf(w, "your board: http://%s/ (open it in your browser; your clock is %s)\n", bytes.TrimSpace(b), tc)
				return
			}
			select {
			case <-runDone:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return said
}
