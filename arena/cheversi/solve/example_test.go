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
	// Output: loss R@c2 -8
}
