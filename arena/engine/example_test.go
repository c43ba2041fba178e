package engine_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/protocol"
)

// A bot as a shell script: it plays Cheversi and always places its king on
// e4.
const shellBot = `
while read cmd rest; do
	case $cmd in
	arena)   echo "id name shellbot"; echo "games cheversi"; echo arenaok ;;
	isready) echo readyok ;;
	go)      echo "info depth 1 string thinking hard"; echo "move K@e4" ;;
	quit)    exit 0 ;;
	esac
done`

func Example() {
	ctx := context.Background()
	e, err := engine.Start(ctx, engine.Spec{
		Name:             "shellbot",
		Command:          "sh",
		Args:             []string{"-c", shellBot},
		HandshakeTimeout: 30 * time.Second,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	fmt.Println(e.ID().Name, "plays", e.ID().Games)

	reply, err := e.Move(ctx, engine.MoveRequest{
		Clock:    protocol.Clock{MoveTime: time.Second},
		Deadline: time.Now().Add(10 * time.Second),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("move:", reply.Move, "info:", reply.Info.String)
	// Output:
	// shellbot plays [cheversi]
	// move: K@e4 info: thinking hard
}

// The two bots of a game get newgame and isready at once, and prepare at
// the same time; each has its own error.
func ExampleNewGames() {
	ctx := context.Background()
	rules, err := games.New("cheversi", "", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var bots []*engine.Engine
	for _, name := range []string{"white bot", "black bot"} {
		e, err := engine.Start(ctx, engine.Spec{Name: name, Command: "sh", Args: []string{"-c", shellBot},
			HandshakeTimeout: 30 * time.Second})
		if err != nil {
			fmt.Println(err)
			return
		}
		defer e.Close()
		bots = append(bots, e)
	}
	errs := engine.NewGames(ctx, bots, []engine.NewGame{{Rules: rules, Color: game.White}, {Rules: rules, Color: game.Black}})
	for i, err := range errs {
		fmt.Println(i, "ready:", err == nil)
	}
	// Output:
	// 0 ready: true
	// 1 ready: true
}

// A tournament runner decides what a failure means from its Kind.
func ExampleError() {
	_, err := engine.Start(context.Background(), engine.Spec{
		Name:             "silent",
		Command:          "sleep",
		Args:             []string{"60"},
		HandshakeTimeout: 500 * time.Millisecond,
	})
	var ee *engine.Error
	if errors.As(err, &ee) {
		switch ee.Kind {
		case engine.KindTimeout, engine.KindCrash, engine.KindProtocol:
			fmt.Println("forfeit:", err)
		case engine.KindCanceled:
			fmt.Println("interrupted")
		default:
			fmt.Println("cannot run the bot:", err)
		}
	}
	// Output:
	// forfeit: bot "silent": timeout: no handshake within 500ms
}

// A held gameover goes out with the bot's next request, in the same
// write: here the bot reports the last result it heard of.
func ExampleEngine_HoldGameOver() {
	const memoBot = `
while read cmd rest; do
	case $cmd in
	arena)    echo "id name memo"; echo "games cheversi"; echo arenaok ;;
	isready)  echo readyok ;;
	gameover) last=$rest ;;
	go)       echo "info string last game: $last"; echo "move K@e4" ;;
	quit)     exit 0 ;;
	esac
done`
	ctx := context.Background()
	rules, err := games.New("cheversi", "", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := engine.Start(ctx, engine.Spec{Name: "memo", Command: "sh", Args: []string{"-c", memoBot},
		HandshakeTimeout: 30 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	// The end of a game, held; then the next game starts.
	if err := e.HoldGameOver(ctx, game.Win(game.Black), "score"); err != nil {
		fmt.Println(err)
		return
	}
	if err := e.NewGame(ctx, engine.NewGame{Rules: rules, Color: game.White}); err != nil {
		fmt.Println(err)
		return
	}
	reply, err := e.Move(ctx, engine.MoveRequest{Deadline: time.Now().Add(10 * time.Second)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reply.Info.String)
	// Output:
	// last game: result 0-1 reason score
}
