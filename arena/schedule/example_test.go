package schedule_test

import (
	"fmt"

	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"
)

func ExampleNew() {
	s, err := schedule.New(schedule.Gauntlet, 1, []string{"new", "old", "older"}, []string{"new"},
		[]openings.Opening{{Name: "start position"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for g := range s.Games() {
		fmt.Println(g.ID, g.White, "vs", g.Black, g.PairKey)
	}
	// Output:
	// 1 new vs old r1/o1/new/old
	// 2 old vs new r1/o1/new/old
	// 3 new vs older r1/o1/new/older
	// 4 older vs new r1/o1/new/older
}

func ExampleSchedule_Slice() {
	s, err := schedule.New(schedule.RoundRobin, 1, []string{"a", "b", "c"}, nil,
		[]openings.Opening{{Name: "start position"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Slice 1 of 2 holds every second colour-reversed pair, with the IDs
	// the games have in the whole schedule.
	sh, _ := schedule.ParseShard("1/2")
	fmt.Println(s.Len(), "games;", s.SliceLen(&sh), "in slice", sh)
	for g := range s.Slice(&sh) {
		fmt.Println(g.ID, g.White, "vs", g.Black)
	}
	g, _ := s.Game(5)
	fmt.Println("game 5:", g.White, "vs", g.Black, g.PairKey)
	// Output:
	// 6 games; 2 in slice 1/2
	// 3 a vs c
	// 4 c vs a
	// game 5: b vs c r1/o1/b/c
}
