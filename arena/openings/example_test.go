package openings_test

import (
	"fmt"
	"strings"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/openings"
)

// ExampleCanonicalize reads a file of openings, a move list and a
// position with moves after it (an 11-man ballot), and checks them under
// the rules, which tell the position from the moves.
func ExampleCanonicalize() {
	list, err := openings.Parse(strings.NewReader("9-13 22-18\tballot\nB:W21-31:B2-12 moves 9-13 22-18\t11-man\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	rules, _ := checkers.New("", nil)
	for i := range list {
		if err := openings.Canonicalize(rules, &list[i]); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: position %q, moves %q\n", list[i].Name, list[i].Position, list[i].Moves)
	}
	// Output:
	// ballot: position "", moves ["9-13" "22-18"]
	// 11-man: position "B:W21,22,23,24,25,26,27,28,29,30,31:B2,3,4,5,6,7,8,9,10,11,12", moves ["9-13" "22-18"]
}
