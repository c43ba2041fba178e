package solve

import (
	"flag"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

var checkAll = flag.Bool("solve.all", false, "solve every leaf of the shipped proofs again (hours)")

// TestShippedProofs checks every proof shipped with the package: the whole
// tree always, and the leaves' values by solving them again, a random
// sample by default (one leaf a proof; none in -short mode), all of them with -solve.all.
func TestShippedProofs(t *testing.T) {
	names := ShippedProofs()
	if len(names) == 0 {
		t.Fatal("no proof is shipped")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			pr, err := ReadShippedProof(name)
			if err != nil {
				t.Fatal(err)
			}
			n := 1
			switch {
			case *checkAll:
				n = 0
			case testing.Short():
				t.Logf("%s: tree checked (%s from %s, %d leaves); leaves not solved in -short mode", name, pr.Shown, pr.Root.Text(), len(pr.Leaves))
				return
			}
			start := time.Now()
			seed := uint64(start.UnixNano())
			err = pr.CheckLeaves(t.Context(), n, seed, 256<<20, func(done, total int, e Entry) {
				if *checkAll {
					t.Logf("leaf %d/%d %s %s right (%s)", done, total, e.Position.Text(), e.Value, time.Since(start).Round(time.Second))
				}
			})
			if err != nil {
				t.Fatalf("%v (leaves drawn with seed %d)", err, seed)
			}
		})
	}
}

// TestBook checks that the book answers for the root of every shipped proof
// of a value and for an image of it under a symmetry, with a move that
// wins; and that for the root of a proof of a bound it shows that bound
// at least (other proofs of the rules under another komi may show more).
func TestBook(t *testing.T) {
	for _, name := range ShippedProofs() {
		pr, err := ReadShippedProof(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ShippedBook(pr.Rules.Options())
		if err != nil {
			t.Fatal(err)
		}
		if !pr.Shown.Exact() {
			if bd, _ := b.Bounds(&pr.Root); bd.Lo < pr.Shown.Lo || bd.Hi > pr.Shown.Hi {
				t.Fatalf("%s: the book shows %s for a position the proof shows is %s", name, bd, pr.Shown)
			}
			if !pr.Root.Legal(pr.Move) {
				t.Fatalf("%s: the proof's move %s is not legal in %s", name, pr.Move, pr.Root.Text())
			}
			continue
		}
		for s := range cheversi.Symmetry(cheversi.NumSymmetries) {
			p := pr.Root.Transform(s)
			v, m, ok := b.Lookup(&p)
			if !ok || v != pr.Value {
				t.Fatalf("%s: book gives %v, %v for %s", name, v, ok, p.Text())
			}
			if v == Win {
				if !p.Legal(m) {
					t.Fatalf("%s: book move %s is not legal in %s", name, m, p.Text())
				}
				q := p
				q.Play(m)
				if cv, _, ok := b.Lookup(&q); !ok || cv != Loss {
					t.Fatalf("%s: after book move %s the book gives %v, %v", name, m, cv, ok)
				}
			}
		}
	}
}

// TestMarginBounds checks, for every margin d and every pair of komi, that
// the value under one komi narrows the margin so that the value under the
// other is what every margin left gives, exactly where they all agree.
func TestMarginBounds(t *testing.T) {
	sign := func(x int) Value {
		switch {
		case x > 0:
			return Win
		case x < 0:
			return Loss
		}
		return Draw
	}
	for d := -6; d <= 6; d++ {
		for k1 := -9; k1 <= 9; k1++ {
			v1 := sign(2*d - k1)
			// What a proof may show: the value, or a bound either way (a draw's
			// under an odd komi, which leaves no draws, shows a value).
			for _, shown := range []Bounds{{Lo: v1, Hi: v1}, {Lo: v1, Hi: Win}, {Lo: Loss, Hi: v1}, {Lo: Draw, Hi: Win}, {Lo: Loss, Hi: Draw}} {
				nb := AnyMargin().Narrow(shown, int16(k1))
				for k2 := -9; k2 <= 9; k2++ {
					got := nb.Value(int16(k2))
					want := Bounds{Lo: Win, Hi: Loss} // the range of the values the margins left give
					for e := -20; e <= 20; e++ {
						if v := sign(2*e - k1); v >= shown.Lo && v <= shown.Hi {
							want.Lo, want.Hi = min(want.Lo, sign(2*e-k2)), max(want.Hi, sign(2*e-k2))
						}
					}
					if got != want {
						t.Fatalf("margin %d: %s under komi %d half-points; under %d the book gives %s, want %s", d, shown, k1, k2, got, want)
					}
				}
			}
		}
	}
}

// TestBookAcrossKomi plays down the proofs of cheversi under komi -1 and -2
// with the book of komi -2, where neither proof alone makes the value of
// the empty board exact: the book gives a draw, and a move that holds it
// at each ply; a leaf it reaches is solved again under komi -2.
func TestBookAcrossKomi(t *testing.T) {
	rules, err := cheversi.New("cheversi", []game.Setting{{Key: "komi", Value: "-2"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ShippedBook(rules.Options())
	if err != nil {
		t.Fatal(err)
	}
	p := rules.StartPosition()
	for p.Ply() < 6 {
		v, m, ok := b.Lookup(&p)
		if !ok || v != Draw || m == 0 || !p.Legal(m) {
			t.Fatalf("%s under komi -2: the book gives %v, %v, move %s; want a draw and a move that holds it", p.Text(), v, ok, m)
		}
		p.Play(m)
	}
	want, _, ok := b.Lookup(&p)
	if !ok {
		t.Fatalf("%s: not in the book", p.Text())
	}
	got, err := NewSolver(SolverOptions{TableBytes: 1 << 24}).Solve(t.Context(), &p)
	if err != nil {
		t.Fatal(err)
	}
	if got.Value != want {
		t.Errorf("%s under komi -2: the book gives %v, the solver %v", p.Text(), want, got.Value)
	}
}

// TestBookSharesOpening looks up, under opening=free, positions of
// cheversi's proof past its second ply: the book answers them from that
// proof, whose positions have the same value under both rule sets, and the
// solver agrees at the proof's leaf. Before ply 2 the opening can matter,
// and the book leaves cheversi's proof out.
func TestBookSharesOpening(t *testing.T) {
	free, err := cheversi.New("cheversi", []game.Setting{{Key: "opening", Value: "free"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ShippedBook(free.Options())
	if err != nil {
		t.Fatal(err)
	}
	p := free.StartPosition()
	for _, m := range []string{"K@d4", "Q@e3"} { // cheversi's proof: Black's reply to d4
		mv, err := p.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(mv)
		if _, _, ok := b.Lookup(&p); ok != (p.Ply() >= 2) {
			t.Errorf("%s (ply %d) under opening=free: in the book %v, want %v", p.Text(), p.Ply(), ok, p.Ply() >= 2)
		}
	}
	// Down the proof to its leaf: White's first move at each of its plies,
	// Black's proved reply at each of Black's.
	for p.Ply() < 6 {
		v, m, ok := b.Lookup(&p)
		if want := Loss; p.Turn() == game.Black {
			want = Win
			if !ok || v != want || m == 0 || !p.Legal(m) {
				t.Fatalf("%s under opening=free: the book gives %v, %v, move %s; want Black's win and its move", p.Text(), v, ok, m)
			}
		} else if !ok || v != want {
			t.Fatalf("%s under opening=free: the book gives %v, %v; want White's loss", p.Text(), v, ok)
		} else {
			var buf [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
			m = p.GenerateMoves(buf[:0])[0]
		}
		p.Play(m)
	}
	v, _, ok := b.Lookup(&p)
	got, err := NewSolver(SolverOptions{TableBytes: 1 << 24}).Solve(t.Context(), &p)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || v != Loss || got.Value != Loss {
		t.Errorf("%s under opening=free: the book gives %v (%v), the solver %v; want White's loss from both", p.Text(), v, ok, got.Value)
	}
}
