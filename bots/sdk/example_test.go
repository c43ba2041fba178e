package sdk_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/bots/sdk"
	"github.com/arena-games/arena/protocol"
)

func ExampleRun() {
	bot := sdk.Bot{
		Name:  "First",
		Games: []string{"checkers"},
		Move: func(ctx context.Context, req sdk.Request) (string, error) {
			moves := req.State.LegalMoves(nil)
			err := req.Info(protocol.Info{String: fmt.Sprintf("%d legal moves", len(moves))})
			if err != nil {
				return "", err
			}
			return moves[0].String(), nil
		},
	}
	// What the arena would write; a real bot reads os.Stdin (see Main).
	arena := strings.NewReader(strings.Join([]string{
		"arena 1",
		"isready",
		"newgame game checkers preset american rules repetition=3 quiet_moves=40 max_plies=400 color black",
		"isready",
		"position startpos",
		"go wtime 60000 btime 60000 winc 0 binc 0",
	}, "\n") + "\n")
	if err := sdk.Run(context.Background(), bot, arena, os.Stdout); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// id name First
	// games checkers
	// request movestogo
	// arenaok
	// readyok
	// readyok
	// info string 7 legal moves
	// move 9-13
}

// Budget shares out the clock: a twentieth of the time left, or, under a
// moves-per-period clock, the time left over the moves to go plus one;
// Ceiling is the most a node- or depth-limited search should take.
func ExampleRequest_Budget() {
	for _, c := range []protocol.Clock{
		{WTime: 60 * time.Second, BTime: 60 * time.Second},
		{WTime: 60 * time.Second, BTime: 60 * time.Second, MovesToGo: 29},
		{MoveTime: time.Second},
	} {
		req := sdk.Request{Color: game.White, Clock: c}
		fmt.Println(req.Budget(), req.Ceiling())
	}
	// Output:
	// 3s 30s
	// 2s 30s
	// 900ms 900ms
}
