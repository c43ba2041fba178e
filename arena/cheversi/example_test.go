package cheversi_test

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

func ExampleNew() {
	r, err := cheversi.New("cheversi", []game.Setting{{Key: "touch", Value: "any"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Game(), r.Preset())
	for _, s := range r.Settings() {
		fmt.Printf("%s=%s\n", s.Key, s.Value)
	}

	_, err = cheversi.New("cheversi", []game.Setting{{Key: "touch", Value: "corner"}})
	fmt.Println(errors.Is(err, game.ErrBadRules), err)
	// Output:
	// cheversi cheversi
	// opening=king-first
	// touch=any
	// bishops_opposite=true
	// queen_call=true
	// black_king_last=true
	// scoring=attacks
	// true bad rules: touch = "corner" (want one of opponent, any, none)
}

func ExampleRules_Start() {
	r, _ := cheversi.New("", nil)
	st := r.Start()
	moves := st.LegalMoves(nil)
	fmt.Println(st.Turn(), st.Ply(), len(moves), moves[0], moves[63])
	fmt.Println(st.Text())
	fmt.Println(st.(*cheversi.State).Perft(2))
	// Output:
	// white 0 64 K@a1 K@h8
	// 8/8/8/8/8/8/8/8 w 0 -
	// 1680
}

func ExampleState_ParseMove() {
	r, _ := cheversi.New("cheversi", nil)
	st := r.Start()
	for _, text := range []string{"k@e4", "Q@e4", "K@e4"} {
		m, err := st.ParseMove(text)
		switch {
		case errors.Is(err, game.ErrBadNotation):
			fmt.Println("notation:", err)
		case errors.Is(err, game.ErrIllegalMove):
			fmt.Println("illegal:", err)
		default:
			fmt.Println("ok:", m)
		}
	}
	// Output:
	// notation: bad move notation: "k@e4": piece letters are upper case (K)
	// illegal: illegal move Q@e4: white's first move must place the king (opening king-first)
	// ok: K@e4
}

func ExampleState_Play() {
	r, _ := cheversi.New("cheversi", nil)
	st := r.Start()
	for _, text := range []string{"K@e4", "Q@e5"} {
		m, err := st.ParseMove(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := st.Play(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(st.Text())
	// Black's queen calls White's: only queen moves next to e5.
	fmt.Println(st.LegalMoves(nil))
	pos := st.(*cheversi.State).Position()
	fmt.Println(pos.Score(game.White), pos.Score(game.Black))
	// Output:
	// 8/8/8/4q3/4K3/8/8/8 w 2 e5
	// [Q@d4 Q@f4 Q@d5 Q@f5 Q@d6 Q@e6 Q@f6]
	// 7 23
}

func ExampleRules_ParsePosition() {
	r, _ := cheversi.New("echeversi", nil)
	pos, err := r.ParsePosition("8/8/8/4q3/4K3/8/8/8 w 2 e5")
	if err != nil {
		fmt.Println(err)
		return
	}
	// A search engine copies the position before playing on it.
	moves := pos.GenerateMoves(nil)
	child := pos
	child.Play(moves[0])
	fmt.Println(len(moves), moves[0], child.Text())
	fmt.Println(child.Score(game.White), child.Score(game.Black))
	// Output:
	// 248 Q@a1 8/8/8/4q3/4K3/8/8/Q7 b 3 a1
	// 23 22
}

func ExampleBeyond() {
	a1, c3 := cheversi.Square(0), cheversi.Square(2+8*2)
	// A bishop on a1 would see these squares past c3 on an empty board.
	var past []cheversi.Square
	for b := cheversi.Beyond(a1, c3); b != 0; b &= b - 1 {
		past = append(past, cheversi.Square(bits.TrailingZeros64(b)))
	}
	fmt.Println(past)
	fmt.Println(cheversi.Beyond(a1, cheversi.Square(1+8*2)) == 0) // b3 is on no line of a1
	// Output:
	// [d4 e5 f6 g7 h8]
	// true
}

// The komi decides a finished game without changing its scores: here
// White is 3 points ahead on the board, which wins without a komi, draws
// against a komi of 3 and loses against 3½.
func ExamplePosition_Lead() {
	for _, komi := range []string{"0", "3", "3.5"} {
		r, _ := cheversi.New("cheversi", []game.Setting{{Key: "komi", Value: komi}})
		st := r.Start()
		for !st.Outcome().Over() {
			game.PlayText(st, st.LegalMoves(nil)[0].String())
		}
		p := st.(*cheversi.State).Position()
		fmt.Printf("komi %s: %d-%d, lead %d half-points, %v\n",
			komi, p.Score(game.White), p.Score(game.Black), p.Lead(game.White), p.Outcome().Result)
	}
	// Output:
	// komi 0: 20-17, lead 6 half-points, 1-0
	// komi 3: 20-17, lead 0 half-points, 1/2-1/2
	// komi 3.5: 20-17, lead -1 half-points, 0-1
}

// White's King on b2 and on g7 are images of each other under a half turn
// of the board: each position's ImageHashes holds the other's Hash, and
// the smallest of its eight hashes, a key for both, is the same.
func ExamplePosition_ImageHashes() {
	r, _ := cheversi.New("cheversi", nil)
	var ps [2]cheversi.Position
	for i, text := range []string{"K@b2", "K@g7"} {
		m, err := cheversi.ParseMove(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		ps[i] = r.StartPosition()
		ps[i].Play(m)
	}
	b2, g7 := ps[0].ImageHashes(), ps[1].ImageHashes()
	fmt.Println(b2[cheversi.Identity] == ps[0].Hash(), slices.Contains(b2[:], ps[1].Hash()))
	fmt.Println(slices.Min(b2[:]) == slices.Min(g7[:]))
	// Output:
	// true true
	// true
}
