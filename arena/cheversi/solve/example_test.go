package solve_test

import (
	"context"
	"fmt"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
)

// Solve a position four plies from the end of a game: its value for the
// side to move, a best move, and the exact final score margin.
func ExampleSolver() {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		panic(err)
	}
	p, err := rules.ParsePosition("8/4q3/2BB1Q2/1Rnbn3/3KN3/4b3/1r6/8 w 12 b2")
	if err != nil {
		panic(err)
	}
	s := solve.NewSolver(solve.SolverOptions{TableBytes: 1 << 20})
	r, err := s.Solve(context.Background(), &p)
	if err != nil {
		panic(err)
	}
	m, err := s.Margin(context.Background(), &p)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Value, r.Move, m)
	// Output: loss R@d2 -8
}

// ExampleMarginBounds combines what two solves of cheversi say, each under
// its komi: White loses given a point (komi -1, -2 half-points) and draws
// at least given two (-4): so White's score minus Black's under best play
// is exactly -2, and given two points the game is a draw.
func ExampleMarginBounds() {
	d := solve.AnyMargin().
		Narrow(solve.Bounds{Lo: solve.Loss, Hi: solve.Loss}, -2).
		Narrow(solve.Bounds{Lo: solve.Draw, Hi: solve.Win}, -4)
	fmt.Println(d.Lo, d.Hi)
	fmt.Println(d.Value(-4), d.Value(0), d.Value(-5))
	// Output:
	// -2 -2
	// a draw a loss a win
}
