package builtin

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/arena/game"
)

// TestPerfectKeepsItsValue plays perfect against expert and random from
// random positions past the middle of the game, and checks with the solver
// that none of perfect's moves lets a win or a draw go.
func TestPerfectKeepsItsValue(t *testing.T) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	check := solve.NewSolver(solve.SolverOptions{TableBytes: 64 << 20})
	r := rand.New(rand.NewPCG(4, 5))
	games := 12
	if testing.Short() {
		games = 4
	}
	for g := range games {
		p := rules.StartPosition()
		for p.Ply() < 8+g%3 {
			ms := p.GenerateMoves(nil)
			p.Play(ms[r.IntN(len(ms))])
		}
		if p.Over() {
			continue
		}
		perfect := NewPerfect(uint64(g), 16)
		var other Player = NewRandom(uint64(g))
		if g%2 == 0 {
			other = NewExpert(uint64(g), 1)
		}
		perfectSide := p.Turn()
		st, err := rules.ParseState(p.Text())
		if err != nil {
			t.Fatal(err)
		}
		for !p.Over() {
			player := other
			if p.Turn() == perfectSide {
				player = perfect
			}
			res, err := player.Choose(t.Context(), st, Limits{Nodes: 2000})
			if err != nil {
				t.Fatal(err)
			}
			m := res.Move.(cheversi.Move)
			if player == perfect {
				before, err := check.Solve(t.Context(), &p)
				if err != nil {
					t.Fatal(err)
				}
				q := p
				q.Play(m)
				after, err := check.Solve(t.Context(), &q)
				if err != nil {
					t.Fatal(err)
				}
				if after.Value.Neg() < before.Value {
					t.Fatalf("%s: perfect played %s, turning a %s into a %s", p.Text(), m, before.Value, after.Value.Neg())
				}
				if want := int(before.Value) * 10000; res.Score != want {
					t.Errorf("%s: perfect reports %d for a %s", p.Text(), res.Score, before.Value)
				}
			}
			if err := st.Play(res.Move); err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
	}
}

// TestPerfectBook: after White's King on b2, whose class the shipped proofs
// solve, perfect as Black wins against expert, from its first move on, by
// the book and the solver.
func TestPerfectBook(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game with solves of early positions")
	}
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := solve.ShippedBook(rules.Options())
	if err != nil {
		t.Fatal(err)
	}
	st := rules.Start().(*cheversi.State)
	k, err := st.ParseMove("K@b2")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Play(k); err != nil {
		t.Fatal(err)
	}
	pos := st.Position()
	if v, _, ok := b.Lookup(&pos); !ok || v != solve.Win {
		t.Skipf("the shipped proofs do not hold K@b2 as a win for Black (%v %v)", v, ok)
	}
	perfect, expert := NewPerfect(1, 64), NewExpert(1, 16)
	for st.Outcome().Result == game.Ongoing {
		player := Player(expert)
		lim := Limits{Nodes: 5000}
		if st.Turn() == game.Black {
			player, lim = perfect, Limits{Time: 30 * time.Second}
		}
		res, err := player.Choose(t.Context(), st, lim)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	if o := st.Outcome(); o.Result != game.BlackWins {
		t.Fatalf("perfect lost a won game as Black: %v (%v)", o.Result, o.Scores)
	}
}

func TestPerfectPlaysCheversiOnly(t *testing.T) {
	rules, err := checkers.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewPerfect(1, 1).Choose(t.Context(), rules.Start(), Limits{Depth: 1})
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("perfect in checkers: %v, want ErrUnsupported", err)
	}
}
