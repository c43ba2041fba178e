package viewer_test

import (
	"fmt"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/reports/viewer"
)

func ExampleReplay() {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	plies, err := viewer.Replay(rules, []viewer.Move{{Text: "K@e4", MS: 12.5}, {Text: "Q@d5", MS: 30}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range plies {
		fmt.Printf("%-5q %-24s scores %v placed %v\n", p.Move, p.Text, *p.Scores, p.Marks)
	}
	// Output:
	// ""    8/8/8/8/8/8/8/8 w 0 -    scores [0 0] placed []
	// "K@e4" 8/8/8/8/4K3/8/8/8 b 1 e4 scores [8 0] placed [28]
	// "Q@d5" 8/8/8/3q4/4K3/8/8/8 w 2 d5 scores [7 23] placed [35]
}
