package engine_test

import (
	"fmt"
	"time"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
)

// A clock of 2 moves per second, repeating: the second move of each
// period ends it, and the clock gains another second, what is left
// carrying over.
func ExampleClock() {
	tc := engine.TimeControl{Base: time.Second, Moves: 2, Margin: 50 * time.Millisecond}
	c := engine.NewClock(tc, tc)
	for _, spent := range []time.Duration{300 * time.Millisecond, 500 * time.Millisecond, 100 * time.Millisecond} {
		pc, left := c.Request(game.White)
		fmt.Printf("movestogo %d, %v left; ", pc.MovesToGo, left)
		fmt.Println("spends", spent, "->", c.Charge(game.White, spent))
	}
	pc, left := c.Request(game.White)
	fmt.Printf("movestogo %d, %v left\n", pc.MovesToGo, left)
	// Output:
	// movestogo 2, 1s left; spends 300ms -> <nil>
	// movestogo 1, 700ms left; spends 500ms -> <nil>
	// movestogo 2, 1.2s left; spends 100ms -> <nil>
	// movestogo 1, 1.1s left
}
