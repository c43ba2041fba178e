package conformance

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/bots/builtin"
	"github.com/arena-games/arena/bots/sdk"
	"github.com/arena-games/arena/protocol"
)

// The test binary doubles as the bots under check: with envFake set,
// TestMain plays that bot on stdin/stdout instead of running the tests.
const envFake = "ARENA_CONFORMANCE_FAKE"

func TestMain(m *testing.M) {
	engine.Supervise()
	if mode, ok := os.LookupEnv(envFake); ok {
		os.Exit(fakeBot(mode))
	}
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// Fake bot modes. "builtin:NAME" is a built-in bot; the others misbehave
// in one way each and otherwise play random legal moves.
const (
	modeCrash       = "crash"        // exits with status 3 when asked to move
	modeSilent      = "silent"       // never answers go
	modeGarbage     = "garbage"      // answers go with bytes that are not UTF-8
	modeIllegal     = "illegal"      // Cheversi only: answers with an illegal placement
	modeWrongSide   = "wrong-side"   // checkers only: answers with a move of the opponent
	modeIgnoreQuit  = "ignore-quit"  // does not exit on quit or at the end of its input
	modeNoGames     = "no-games"     // ends its handshake without a games line
	modeUnknownGame = "unknown-game" // claims only a game the arena does not know
	modeNoPong      = "no-pong"      // never answers ping
	modeNodeHog     = "node-hog"     // declares node and depth limits, reports searching beyond them
	modeBadInfo     = "bad-info"     // writes a malformed info line before each move
)

// fakeBot plays the given mode and returns the exit status.
func fakeBot(mode string) int {
	if name, ok := strings.CutPrefix(mode, "builtin:"); ok {
		if err := builtin.Run(context.Background(), name, builtin.DefaultOptions(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "fake bot:", err)
			return 1
		}
		return 0
	}
	switch mode {
	case modeNoGames, modeNoPong:
		return rawBot(mode)
	}
	random := builtin.NewRandom(1)
	bot := sdk.Bot{
		Name: "fake " + mode,
		Log:  os.Stderr,
		Move: func(ctx context.Context, req sdk.Request) (string, error) {
			res, err := random.Choose(ctx, req.State, builtin.Limits{})
			if err != nil {
				return "", err
			}
			return res.Move.String(), nil
		},
	}
	switch mode {
	case modeCrash:
		bot.Move = func(context.Context, sdk.Request) (string, error) {
			os.Exit(3)
			return "", nil
		}
	case modeSilent:
		bot.Move = func(ctx context.Context, _ sdk.Request) (string, error) {
			<-ctx.Done()
			return "", nil
		}
	case modeGarbage:
		bot.Move = func(ctx context.Context, _ sdk.Request) (string, error) {
			os.Stdout.WriteString("move \xff\xfe\xc0\n")
			<-ctx.Done()
			return "", nil
		}
	case modeIllegal:
		bot.Games = []string{"cheversi"}
		bot.Move = func(_ context.Context, req sdk.Request) (string, error) {
			p := req.State.(*cheversi.State).Position()
			if sq, ok := p.Last(); ok {
				return "K@" + sq.String(), nil // an occupied square
			}
			return "Q@a1", nil // the first move must place the King
		}
	case modeWrongSide:
		bot.Games = []string{"checkers"}
		bot.Move = func(_ context.Context, req sdk.Request) (string, error) {
			p := req.State.(*checkers.State).Position()
			kings := p.Kings(game.Black) | p.Kings(game.White)
			q, err := checkers.NewPosition(p.Pieces(game.Black), p.Pieces(game.White), kings, p.Turn().Other())
			if err != nil {
				return "", err
			}
			if moves := q.GenerateMoves(nil); len(moves) > 0 {
				return moves[0].String(), nil
			}
			return p.GenerateMoves(nil)[0].String(), nil
		}
	case modeUnknownGame:
		bot.Games = []string{"chess"}
	case modeNodeHog:
		bot.NodeLimit, bot.DepthLimit = true, true
		move := bot.Move
		bot.Move = func(ctx context.Context, req sdk.Request) (string, error) {
			mv, err := move(ctx, req)
			if err == nil {
				err = req.Info(protocol.Info{Depth: req.Depth + 1, Nodes: 2*req.Nodes + 1, PV: []string{mv}})
			}
			return mv, err
		}
	case modeBadInfo:
		move := bot.Move
		bot.Move = func(ctx context.Context, req sdk.Request) (string, error) {
			os.Stdout.WriteString("info depth deep\n")
			return move(ctx, req)
		}
	case modeIgnoreQuit:
	default:
		fmt.Fprintf(os.Stderr, "fake bot: unknown mode %q\n", mode)
		return 2
	}
	err := sdk.Run(context.Background(), bot, os.Stdin, os.Stdout)
	if mode == modeIgnoreQuit {
		time.Sleep(time.Hour) // until the arena kills it
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake bot:", err)
		return 1
	}
	return 0
}

// rawBot speaks just enough of the protocol by hand for the modes the SDK
// cannot play: a handshake without games, and no pong.
func rawBot(mode string) int {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(lines ...string) {
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
		out.Flush()
	}
	for in.Scan() {
		switch cmd, _, _ := strings.Cut(in.Text(), " "); cmd {
		case "arena":
			say("id name fake " + mode)
			if mode != modeNoGames {
				say("games checkers")
			}
			say("arenaok")
		case "isready":
			say("readyok")
		case "quit":
			return 0
		}
	}
	return 0
}

// fake returns a Config that checks the test binary in the given mode.
// The fake bots answer at once or never, so the limits are generous: a
// loaded machine, which may take seconds to start a bot or run it, cannot
// make a bot that answers late. The move time, which the bots think for,
// stays short; a test that waits for a bot that never answers shortens
// the limit it waits for.
func fake(mode string) Config {
	return Config{
		Command: os.Args[0],
		// A binary built with the race detector otherwise sleeps a second
		// before it exits, which the quit check would count against it.
		Env:              []string{envFake + "=" + mode, "GORACE=atexit_sleep_ms=0"},
		MoveTime:         50 * time.Millisecond,
		Margin:           time.Minute,
		HandshakeTimeout: time.Minute,
		QuitGrace:        30 * time.Second,
		MaxPlies:         24,
		Seed:             7,
	}
}

// The arena binary, built once by arenaBinary.
var (
	buildOnce sync.Once
	buildDir  string
	buildPath string
	buildErr  error
)

// arenaBinary builds cmd/arena into a temporary directory (once per test
// run) and returns its path.
func arenaBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "arena-conformance-")
		if buildErr != nil {
			return
		}
		buildPath = filepath.Join(buildDir, "arena")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", buildPath, "./cmd/arena")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/arena: %w\n%s", err, out)
		}
	})
	if errors.Is(buildErr, exec.ErrNotFound) {
		t.Skip("no go command to build the arena with")
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildPath
}
