package pairing_test

import (
	"fmt"

	"github.com/arena-games/arena/arena/pairing"
)

// A second round of eight players after the top four seeds won their
// first-round pairs: winners meet winners, the top half of each score
// group against its bottom half, and White in the first game goes to the
// player who had Black first (players 1 and 5 had the other colours).
func ExampleSwiss() {
	players := make([]pairing.Player, 8)
	for i := range 4 {
		players[i] = pairing.Player{Points: 4, Met: []int{i + 4}, ColourDiff: 1, LastColour: 1}
		players[i+4] = pairing.Player{Points: 0, Met: []int{i}, ColourDiff: -1, LastColour: -1}
	}
	players[1].ColourDiff, players[1].LastColour = -1, -1
	players[5].ColourDiff, players[5].LastColour = 1, 1
	round, err := pairing.Swiss(players)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range round.Boards {
		fmt.Printf("%d-%d\n", b.White, b.Black)
	}
	// Output:
	// 0-2
	// 1-3
	// 4-6
	// 7-5
}

func ExampleBracket() {
	fmt.Println(pairing.Bracket(6))
	// Output: [0 -1 3 4 1 -1 2 5]
}
