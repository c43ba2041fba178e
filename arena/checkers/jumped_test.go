package checkers_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/game"
)

// pieces reads a position text into square -> piece ("w", "W" for a
// white king, "b", "B").
func pieces(t *testing.T, text string) map[int]string {
	t.Helper()
	out := map[int]string{}
	for _, field := range strings.Split(text, ":")[1:] {
		if field == "" {
			continue
		}
		side := strings.ToLower(field[:1])
		for _, sq := range strings.Split(field[1:], ",") {
			if sq == "" {
				continue
			}
			p := side
			if strings.HasPrefix(sq, "K") {
				p, sq = strings.ToUpper(side), sq[1:]
			}
			n, err := strconv.Atoi(sq)
			if err != nil {
				t.Fatalf("position %q: %v", text, err)
			}
			out[n] = p
		}
	}
	return out
}

// TestReadingMovesAsTheProtocolSays checks what protocol/PROTOCOL.md tells
// a bot that reads the game from the moves alone: the piece a jump from s
// to t takes is on (s+t)/2, plus 1 when s lies on an even row counted from
// 0; a capture takes one piece per x; a man ending on the far row is
// crowned, and only then does a man become a king.
func TestReadingMovesAsTheProtocolSays(t *testing.T) {
	rules, err := checkers.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(27, 27))
	captures := 0
	for range 300 {
		st := rules.Start()
		for ply := 0; ply < 200 && !st.Outcome().Over(); ply++ {
			before := pieces(t, st.Text())
			legal := st.LegalMoves(nil)
			m := legal[rng.IntN(len(legal))]
			text := m.String()
			mover := "b"
			if st.Turn() == game.White {
				mover = "w"
			}
			if _, err := game.PlayText(st, text); err != nil {
				t.Fatal(err)
			}
			after := pieces(t, st.Text())
			var squares []int
			for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == 'x' }) {
				n, _ := strconv.Atoi(f)
				squares = append(squares, n)
			}
			taken := map[int]bool{}
			if strings.Contains(text, "x") {
				captures++
				for i := 0; i+1 < len(squares); i++ {
					s, u := squares[i], squares[i+1]
					j := (s + u) / 2
					if ((s-1)/4)%2 == 0 {
						j++
					}
					if p := before[j]; p == "" || strings.ToLower(p) == mover {
						t.Fatalf("%s in %s: the formula says the jump %d-%d takes %d, which holds %q", text, st.Text(), s, u, j, p)
					}
					taken[j] = true
				}
				if len(taken) != strings.Count(text, "x") {
					t.Fatalf("%s takes %d pieces", text, len(taken))
				}
			}
			for sq, p := range before {
				switch {
				case taken[sq]:
					if after[sq] != "" {
						t.Fatalf("%s: %d still holds %q", text, sq, after[sq])
					}
				case sq == squares[0]:
					end := squares[len(squares)-1]
					far := mover == "b" && end >= 29 || mover == "w" && end <= 4
					want := p
					if far {
						want = strings.ToUpper(p)
					}
					if after[end] != want {
						t.Fatalf("%s: %q on %d after the move, want %q", text, after[end], end, want)
					}
				case after[sq] != p && sq != squares[len(squares)-1]:
					t.Fatalf("%s: %d changed from %q to %q", text, sq, p, after[sq])
				}
			}
		}
	}
	if captures < 100 {
		t.Errorf("only %d captures checked", captures)
	}
}
