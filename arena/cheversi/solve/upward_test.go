package solve

import (
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
)

// TestUpwardIsMinimax solves every position two plies below a random
// position and checks that the bounds computed upward from them are the
// exact values of the positions above, as one search of each finds them;
// then, with one unit left out, that no bound claims more than the search.
func TestUpwardIsMinimax(t *testing.T) {
	for _, rs := range testRuleSets[:4] {
		rules, err := cheversi.New(rs.preset, rs.overrides)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, uint64(len(rs.overrides))))
		p := randomPosition(t, r, rules, 11)
		res, err := OpenResults(filepath.Join(t.TempDir(), "results"), rules)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSolver(SolverOptions{TableBytes: 1 << 22})
		units := PositionsAt(&p, 13)
		for i, q := range units {
			if i == 0 {
				continue // added last
			}
			e, err := s.SolveUnit(t.Context(), &q)
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Add(e); err != nil {
				t.Fatal(err)
			}
		}
		above := append(PositionsAt(&p, 12), p)
		check := func(u *upward, complete bool) {
			t.Helper()
			for _, q := range above {
				if q.Ply() >= 13 || q.Over() {
					continue
				}
				want, err := s.Solve(t.Context(), &q)
				if err != nil {
					t.Fatal(err)
				}
				b, ok := u.known(CanonicalKey(&q))
				switch {
				case complete && (!ok || !b.Exact() || b.Lo != want.Value):
					t.Errorf("%s %v: %s: upward %v (%v), search %v", rs.preset, rs.overrides, q.Text(), b, ok, want.Value)
				case ok && (want.Value < b.Lo || want.Value > b.Hi):
					t.Errorf("%s %v: %s: upward %v, search %v", rs.preset, rs.overrides, q.Text(), b, want.Value)
				}
			}
		}
		u := newUpward(res, p.Ply())
		check(u, false)
		e, err := s.SolveUnit(t.Context(), &units[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Add(e); err != nil {
			t.Fatal(err)
		}
		u.raise(&units[0])
		check(u, true)
		check(newUpward(res, p.Ply()), true)
		res.Close()
	}
}

// TestProofAfterHistoryOrder solves positions with a Driver, which orders
// moves by their history, and writes their proofs, which look at moves in
// the solver's order: the proof shows the driver's value.
func TestProofAfterHistoryOrder(t *testing.T) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(8, 1))
	for range 4 {
		p := randomPosition(t, r, rules, 8)
		res, err := OpenResults(filepath.Join(t.TempDir(), "results"), rules)
		if err != nil {
			t.Fatal(err)
		}
		d := &Driver{Results: res, Cut: 12, Jobs: 1, Table: NewTable(1 << 22)}
		v, err := d.Run(t.Context(), &p)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := WriteProof(io.Discard, rules, &p, 12, res)
		if err != nil || !b.Exact() || b.Lo != v {
			t.Errorf("%s: driver %v, proof %v (%v)", p.Text(), v, b, err)
		}
		res.Close()
	}
}

// TestUpwardSeesAnyOrder solves the units under one move of a position,
// not its first: a walk from the position waits on its first move, not
// known, and cannot tell; with the bounds computed upward it sees that the
// move holds what it holds, and the history counts the move.
func TestUpwardSeesAnyOrder(t *testing.T) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 4))
	s := NewSolver(SolverOptions{TableBytes: 1 << 22})
	missed := 0
	for range 6 {
		p := randomPosition(t, r, rules, 11)
		// A move other than the first that holds at least a draw.
		var c child
		lo := Loss
		for _, ch := range children(&p)[1:] {
			v, err := s.Solve(t.Context(), &ch.pos)
			if err != nil {
				t.Fatal(err)
			}
			if v.Value.Neg() > Loss {
				c, lo = ch, v.Value.Neg()
				break
			}
		}
		if lo == Loss {
			continue
		}
		res, err := OpenResults(filepath.Join(t.TempDir(), "results"), rules)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range PositionsAt(&c.pos, 13) {
			e, err := s.SolveUnit(t.Context(), &q)
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Add(e); err != nil {
				t.Fatal(err)
			}
		}
		w := newWalker(res, 13)
		if b := w.bounds(&p); b.Lo < lo {
			missed++
		}
		w = newWalker(res, 13)
		w.up, w.hist = newUpward(res, p.Ply()), newHistory()
		if b := w.bounds(&p); b.Lo < lo {
			t.Errorf("%s: %s holds %v, the walk with the bounds upward shows %v", p.Text(), c.move, lo, b)
		}
		// The move that settled it counts in the history, although the
		// walk had p's bound before it looked at p's moves.
		if n := w.hist.count[plyMove{p.Ply(), c.move}]; n == 0 {
			t.Errorf("%s: %s settled a test and the history has %v", p.Text(), c.move, w.hist.count)
		}
		res.Close()
	}
	if missed == 0 {
		t.Error("the walk alone saw every bound: the test shows nothing")
	}
}
