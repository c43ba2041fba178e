package solve

import (
	"flag"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/cheversi"
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
// wins; and that it does not answer for the root of a proof of a bound.
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
			if v, _, ok := b.Lookup(&pr.Root); ok {
				t.Fatalf("%s: the book gives %s for a position the proof shows is %s", name, v, pr.Shown)
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
