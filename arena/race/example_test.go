package race_test

import (
	"fmt"

	"github.com/arena-games/arena/arena/race"
)

// Three variants race to bring the first mover's score within 5 points of
// 50 %, on openings they share, looked at after every 100 openings.
func Example() {
	r, err := race.New(race.Config{Arms: 3, Target: 0.5, Precision: 0.05, Alpha: 0.05, MaxOpenings: 5000, MinOpenings: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The first mover's points on successive openings: variant 0 wins
	// three in four, variant 1 one in two, variant 2 three in five.
	patterns := [][]float64{{1, 1, 1, 0}, {1, 0}, {1, 1, 1, 0, 0}}
	for !r.Done() {
		for i, p := range patterns {
			for k := 0; k < 100 && r.Active(i); k++ {
				r.Add(i, p[r.Openings(i)%len(p)])
			}
		}
		for _, a := range r.Look() {
			fmt.Printf("look %d: variant %d stops (%s) at %.3f [%.3f, %.3f] after %d openings\n",
				a.Look, a.Index, a.Reason, a.Score, a.Lo, a.Hi, a.Openings)
		}
	}
	best := r.Ranking()[0]
	fmt.Printf("nearest: variant %d, %.1f points from the target, within [%.1f, %.1f]\n",
		best.Index, 100*best.Distance, 100*best.DistLo, 100*best.DistHi)
	// Output:
	// look 2: variant 0 stops (outside) at 0.750 [0.579, 0.921] after 200 openings
	// look 9: variant 2 stops (worse) at 0.600 [0.535, 0.665] after 900 openings
	// look 15: variant 1 stops (on-target) at 0.500 [0.451, 0.549] after 1500 openings
	// nearest: variant 1, 0.0 points from the target, within [0.0, 4.9]
}
