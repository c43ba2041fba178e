package pgn_test

import (
	"fmt"
	"strings"

	"github.com/arena-games/arena/arena/pgn"
)

func ExampleReadAll() {
	const text = `[Event "match"]
[GameType "21"]
[White "white bot"]
[Black "red bot"]
[Result "0-2"]

1. 11-15 {ballot} 23-19 2. 8-11 (2. 9-14) 22-17 0-2
`
	recs, err := pgn.ReadAll(strings.NewReader(text), "match.pdn")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range recs {
		fmt.Printf("%s - %s %v, %v moved first\n", r.White(), r.Black(), r.Result, r.FirstMover())
	}
	// Output:
	// white bot - red bot 0-1, black moved first
}

func ExampleSyntaxError() {
	_, err := pgn.ReadAll(strings.NewReader("[White \"a\"]\n[Black \"b]\n"), "broken.pgn")
	fmt.Println(err)
	// Output:
	// broken.pgn:2: tag Black: value is not closed on its line
}
