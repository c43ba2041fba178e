package checkers_test

import (
	"fmt"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/game"
)

// A referee's loop: decode each move against the state, play it, and read
// the outcome.
func Example() {
	rules, err := checkers.New("american", []game.Setting{{Key: "max_plies", Value: "300"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := rules.Start()
	for _, text := range []string{"11-15", "22-18", "15x22", "24-20", "25x18"} {
		m, err := s.ParseMove(text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		if err := s.Play(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(s.Text())
	fmt.Println(s.Ply(), s.Turn(), s.Outcome().Over())
	// Output:
	// illegal move: "24-20": capture is compulsory: 25x18, 26x17 are available
	// B:W18,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12
	// 4 black false
}

func ExampleParsePosition() {
	p, err := checkers.ParsePosition("W:W18,K19,22-24:B5,K10,K26.")
	if err != nil {
		fmt.Println(err)
		return
	}
	men, kings := p.Material(game.White)
	fmt.Println(p, men, kings)
	// Output: W:W18,K19,22,23,24:B5,K10,K26 4 1
}

func ExamplePosition_GenerateMoves() {
	// A king with four men around it can go round either way.
	p, _ := checkers.ParsePosition("B:W14,15,22,23:BK10")
	var buf [64]checkers.Move
	for _, m := range p.GenerateMoves(buf[:0]) {
		fmt.Println(m, m.Jumps(), m.IsKingMove())
	}
	// Unordered output:
	// 10x17x26x19x10 4 true
	// 10x19x26x17x10 4 true
}

func ExamplePosition_ParseMove() {
	p, _ := checkers.ParsePosition("B:W6,15:B1")
	m, err := p.ParseMove("1x19") // short form of a unique double jump
	fmt.Println(m, err)
	p2, _ := checkers.ParsePosition("B:W6,7,14,15:B2")
	_, err = p2.ParseMove("2x18")
	fmt.Println(err)
	// Output:
	// 1x10x19 <nil>
	// bad move notation: "2x18" is ambiguous: 2x9x18, 2x11x18
}

func ExamplePosition_Perft() {
	p := checkers.StartPosition()
	for depth := 1; depth <= 6; depth++ {
		fmt.Print(p.Perft(depth), " ")
	}
	fmt.Println()
	// Output: 7 49 302 1469 7361 36768
}

func ExamplePosition_Play() {
	p := checkers.StartPosition()
	var buf [64]checkers.Move
	moves := p.GenerateMoves(buf[:0])
	child := p // Position is a value: keep the parent, play on a copy
	child.Play(moves[0])
	fmt.Println(p.Turn(), child.Turn(), p.Hash() != child.Hash())
	// Output: black white true
}

// The --divide listing of a perft command: each legal move with the count
// below it.
func ExampleState_Perft() {
	rules, _ := checkers.New("", nil)
	s := rules.Start().(*checkers.State)
	var total uint64
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		if err := c.Play(m); err != nil {
			fmt.Println(err)
			return
		}
		n := c.(*checkers.State).Perft(2)
		total += n
		fmt.Println(m, n)
	}
	fmt.Println("total", total, s.Perft(3))
	// Output:
	// 9-13 48
	// 9-14 40
	// 10-14 40
	// 10-15 40
	// 11-15 40
	// 11-16 47
	// 12-16 47
	// total 302 302
}

func ExampleNew() {
	r, err := checkers.New("", []game.Setting{{Key: "repetition", Value: "1"}})
	fmt.Println(r == nil, err)
	r, _ = checkers.New("", []game.Setting{{Key: "quiet_moves", Value: "0"}})
	fmt.Println(r.Settings())
	// Output:
	// true bad rules: checkers switch repetition="1": want 0 (off) or a whole number >= 2
	// [{repetition 3} {quiet_moves 0} {max_plies 400}]
}
