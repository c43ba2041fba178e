package builtin_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/bots/builtin"
	"github.com/arena-games/arena/protocol"
)

// A player chooses moves in-process, here in a checkers position where
// Black can take two men with one move.
func ExampleNew() {
	rules, _ := games.New("checkers", "", nil)
	st, _ := rules.ParseState("B:W14,15,23:B10")
	for _, name := range builtin.Names() {
		p, err := builtin.New(name, builtin.Config{Seed: 1, HashMB: 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := p.Choose(context.Background(), st, builtin.Limits{Depth: 4})
		if errors.Is(err, builtin.ErrUnsupported) {
			fmt.Println(name, "plays Cheversi only")
			continue
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(name, res.Move.(checkers.Move).Jumps() >= 1)
	}
	// Output:
	// random true
	// greedy true
	// alphabeta true
	// expert true
	// perfect plays Cheversi only
}

// Near the end of a Cheversi game alphabeta searches every remaining ply:
// its score is the exact final score difference for the side to move.
func ExampleAlphaBeta_Choose() {
	rules, _ := games.New("cheversi", "cheversi", nil)
	st := rules.Start()
	for _, m := range strings.Fields("K@c2 B@b1 B@a2 R@c1 R@a1 R@d3 R@e3 B@f4 N@c4 N@b3 Q@e2 Q@c5 N@d6") {
		mv, err := st.ParseMove(m)
		if err == nil {
			err = st.Play(mv)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	res, err := builtin.NewAlphaBeta(1).Choose(context.Background(), st, builtin.Limits{Time: 10 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("plies searched:", res.Depth, "of", 16-st.Ply())
	fmt.Println("line:", len(res.PV), "moves")
	// Output:
	// plies searched: 3 of 3
	// line: 3 moves
}

// Budget splits the clock: here 60 s left with a 1 s increment.
func ExampleBudget() {
	clock := protocol.Clock{WTime: 60 * time.Second, BTime: 60 * time.Second, WInc: time.Second, BInc: time.Second}
	fmt.Println(builtin.Budget(clock, 0, 0, 10*time.Millisecond))
	fmt.Println(builtin.Budget(protocol.Clock{MoveTime: 100 * time.Millisecond}, 0, 0, 10*time.Millisecond))
	// Output:
	// 3.74s
	// 80ms
}

// Run plays a built-in bot over the protocol, as "arena bot alphabeta"
// does; here, limited to a search one ply deep, it must take the man White
// offers.
func ExampleRun() {
	arena := strings.NewReader(strings.Join([]string{
		"arena 1",
		"isready",
		"newgame game checkers preset american rules repetition=3 quiet_moves=40 max_plies=400 color black",
		"isready",
		"position startpos moves 11-15 22-18",
		"go movetime 1000 depth 1",
	}, "\n") + "\n")
	o := builtin.DefaultOptions()
	var out strings.Builder
	if err := builtin.Run(context.Background(), builtin.NameAlphaBeta, o, arena, &out, os.Stderr); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.HasPrefix(line, "option") && !strings.HasPrefix(line, "info") {
			fmt.Println(line)
		}
	}
	// Output:
	// id name alphabeta
	// id author arena built-in
	// games cheversi checkers
	// request nodes
	// request depth
	// request movestogo
	// arenaok
	// readyok
	// readyok
	// move 15x22
}
