package solve

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// reference returns the exact value of p for the side to move by plain
// minimax over the rules' own Position: no table, no ordering, no
// incremental score, no special last plies.
func reference(p *cheversi.Position) int {
	if p.Ply() == cheversi.MaxPlies {
		m := p.Score(game.White) - p.Score(game.Black)
		if p.Turn() == game.Black {
			m = -m
		}
		return m
	}
	var buf [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
	moves := p.GenerateMoves(buf[:0])
	if len(moves) == 0 {
		return NoMoves
	}
	best := NoMoves - 1
	for _, m := range moves {
		q := *p
		q.Play(m)
		best = max(best, -reference(&q))
	}
	return best
}

// randomPosition plays random legal moves from the empty board to ply.
func randomPosition(t testing.TB, r *rand.Rand, rules *cheversi.Rules, ply int) cheversi.Position {
	for range 1000 {
		p := rules.StartPosition()
		var buf [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
		for p.Ply() < ply {
			moves := p.GenerateMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p.Play(moves[r.IntN(len(moves))])
		}
		if p.Ply() == ply {
			return p
		}
	}
	t.Fatalf("no random game reached ply %d", ply)
	return cheversi.Position{}
}

var testRuleSets = []struct {
	preset    string
	overrides []game.Setting
}{
	{"cheversi", nil},
	{"cheversi-classic", nil},
	{"echeversi", nil},
	{"cheversi", []game.Setting{{Key: "touch", Value: "any"}}},
	{"cheversi", []game.Setting{{Key: "black_king_last", Value: "false"}}},
	{"cheversi", []game.Setting{{Key: "scoring", Value: "squares"}}},
	{"cheversi", []game.Setting{{Key: "queen_call", Value: "false"}, {Key: "bishops_opposite", Value: "false"}}},
}

// TestAgainstReference compares the solver's exact values, and the margin
// its move reaches, with plain minimax on random positions a few plies
// from the end, under every preset and several switches.
func TestAgainstReference(t *testing.T) {
	for _, rs := range testRuleSets {
		rules, err := cheversi.New(rs.preset, rs.overrides)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(len(rs.overrides)), 99))
		for i := range 60 {
			// Classic rule sets branch 50 ways a ply at the end: keep
			// their reference searches short.
			left := 1 + i%4
			if rules.Options().Touch == cheversi.TouchNone {
				left = 1 + i%3
			}
			p := randomPosition(t, r, rules, cheversi.MaxPlies-left)
			want := reference(&p)
			s := NewSolver(SolverOptions{TableBytes: 1 << 20})
			got, m, err := s.MarginMove(t.Context(), &p)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s %v: %s: solver %d, minimax %d", rs.preset, rs.overrides, p.Text(), got, want)
			}
			if !p.Legal(m) {
				t.Fatalf("%s %v: %s: the margin's move %v is not legal", rs.preset, rs.overrides, p.Text(), m)
			}
			q := p
			q.Play(m)
			if v := -reference(&q); v != want {
				t.Fatalf("%s %v: %s: the margin's move %v reaches %d, not %d", rs.preset, rs.overrides, p.Text(), m, v, want)
			}
		}
	}
}

// TestKomi checks Solve's outcome under several komi values against the
// sign of the reference margin less the komi, and the proofs' terminal
// values against the rules' own outcome.
func TestKomi(t *testing.T) {
	for _, komi := range []string{"0", "0.5", "3", "-2.5", "7"} {
		rules, err := cheversi.New("cheversi", []game.Setting{{Key: "komi", Value: komi}})
		if err != nil {
			t.Fatal(err)
		}
		k := int(rules.Options().Komi)
		r := rand.New(rand.NewPCG(17, uint64(k+100)))
		for i := range 40 {
			p := randomPosition(t, r, rules, cheversi.MaxPlies-1-i%4)
			m := reference(&p) // the mover's margin
			c := k
			if p.Turn() == game.Black {
				c = -k
			}
			want := outcomeOf(m, c)
			got, err := NewSolver(SolverOptions{TableBytes: 1 << 20}).Solve(t.Context(), &p)
			if err != nil {
				t.Fatal(err)
			}
			if got.Value != want {
				t.Fatalf("komi %s, %s: solver %s, minimax margin %d gives %s", komi, p.Text(), got.Value, m, want)
			}
			if got.Move != 0 {
				q := p
				q.Play(got.Move)
				if v := outcomeOf(-reference(&q), c); v != want {
					t.Fatalf("komi %s, %s: best move %s gives a %s, not a %s", komi, p.Text(), got.Move, v, want)
				}
			}
		}
		// A finished game's value is the rules' outcome.
		for range 20 {
			p := randomPosition(t, r, rules, cheversi.MaxPlies)
			o := p.Outcome()
			want := map[game.Result]Value{game.WhiteWins: Win, game.BlackWins: Loss, game.Draw: Draw}[o.Result]
			if got := terminalValue(&p); got != want {
				t.Fatalf("komi %s, %s: terminal value %s, rules say %v", komi, p.Text(), got, o.Result)
			}
		}
	}
}

// outcomeOf returns the outcome of the mover's margin m when the komi is c
// half-points as the mover sees it.
func outcomeOf(m, c int) Value {
	switch {
	case 2*m < c:
		return Loss
	case 2*m > c:
		return Win
	}
	return Draw
}

// TestPlainAgrees compares the plain search with the full one on positions
// from ply 9 on, where the last plies' own code does most of the work.
func TestPlainAgrees(t *testing.T) {
	rules, _ := cheversi.New("cheversi", nil)
	r := rand.New(rand.NewPCG(31, 32))
	full, plain := NewSolver(SolverOptions{TableBytes: 1 << 22}), NewSolver(SolverOptions{TableBytes: 1 << 22, Plain: true})
	for i := range 40 {
		p := randomPosition(t, r, rules, 9+i%5)
		a, err := full.Margin(t.Context(), &p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := plain.Margin(t.Context(), &p)
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Fatalf("%s: full search %d, plain %d", p.Text(), a, b)
		}
	}
}
