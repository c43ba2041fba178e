package solve

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
)

// solvedTree solves p in units cut at cut and returns the results.
func solvedTree(t *testing.T, rules *cheversi.Rules, p *cheversi.Position, cut int) *Results {
	t.Helper()
	res, err := OpenResults(filepath.Join(t.TempDir(), "results.txt"), rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	d := &Driver{Results: res, Cut: cut, Jobs: 2, Table: NewTable(1 << 22)}
	if _, err := d.Run(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	return res
}

// rewrite decompresses a proof, lets edit change its records (after the
// header), and compresses it again.
func rewrite(t *testing.T, proof []byte, edit func(records []byte) []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(proof))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(raw, []byte("\n\n")) + 2
	records := edit(append([]byte(nil), raw[i:]...))
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(raw[:i])
	zw.Write(records)
	zw.Close()
	return out.Bytes()
}

func TestProofRoundTrip(t *testing.T) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range positionsOfEachValue(t, rules, 9) {
		want, err := NewSolver(SolverOptions{TableBytes: 1 << 22}).Solve(t.Context(), &p)
		if err != nil {
			t.Fatal(err)
		}
		res := solvedTree(t, rules, &p, 11)
		var buf bytes.Buffer
		b, leaves, err := WriteProof(&buf, rules, &p, 11, res)
		if err != nil {
			t.Fatal(err)
		}
		v := b.Lo
		if !b.Exact() || v != want.Value {
			t.Fatalf("%s: proof of a %s, the solver says %s", p.Text(), v, want.Value)
		}
		pr, err := ReadProof(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if pr.Value != v || len(pr.Leaves) != leaves || pr.Root != p {
			t.Fatalf("read back %v with %d leaves at %s, wrote %v with %d at %s", pr.Value, len(pr.Leaves), pr.Root.Text(), v, leaves, p.Text())
		}
		if err := pr.CheckLeaves(t.Context(), 0, 1, 1<<22, nil); err != nil {
			t.Fatal(err)
		}

		// A leaf stated with the wrong value is found by solving it.
		bad := rewrite(t, buf.Bytes(), func(rec []byte) []byte {
			i := leafOffset(t, rules, &p, v, 11, rec)
			rec[i] = (rec[i] + 1) % 3
			return rec
		})
		if pr, err := ReadProof(bytes.NewReader(bad)); err == nil {
			if err := pr.CheckLeaves(t.Context(), 0, 1, 1<<22, nil); !errors.Is(err, ErrBadProof) {
				t.Errorf("a wrong leaf value passed: %v", err)
			}
		} else if !errors.Is(err, ErrBadProof) {
			t.Errorf("a wrong leaf value: %v", err)
		}
		// A tree cut short, or with a record too many, is refused.
		for name, edit := range map[string]func([]byte) []byte{
			"short": func(rec []byte) []byte { return rec[:len(rec)-1] },
			"long":  func(rec []byte) []byte { return append(rec, tagLeafWin) },
			// The root's record relabelled: at most a loss shown as at most a
			// draw, at least a draw as at least a win.
			"root": func(rec []byte) []byte { rec[0] = relabel[rec[0]]; return rec },
		} {
			if name == "root" && v == Win {
				continue
			}
			if _, err := ReadProof(bytes.NewReader(rewrite(t, buf.Bytes(), edit))); !errors.Is(err, ErrBadProof) {
				t.Errorf("%s: %v, want ErrBadProof", name, err)
			}
		}
	}
}

// positionsOfEachValue returns random positions ply plies into the game,
// one won, one drawn and one lost for the side to move.
func positionsOfEachValue(t *testing.T, rules *cheversi.Rules, ply int) []cheversi.Position {
	t.Helper()
	r := rand.New(rand.NewPCG(21, 22))
	s := NewSolver(SolverOptions{TableBytes: 1 << 22})
	byValue := map[Value]cheversi.Position{}
	for range 200 {
		p := randomPosition(t, r, rules, ply)
		got, err := s.Solve(t.Context(), &p)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := byValue[got.Value]; !ok {
			byValue[got.Value] = p
		}
		if len(byValue) == 3 {
			return []cheversi.Position{byValue[Win], byValue[Draw], byValue[Loss]}
		}
	}
	t.Fatalf("200 random positions at ply %d do not give a win, a draw and a loss: %v", ply, byValue)
	return nil
}

var relabel = map[byte]byte{tagLoss: tagAtMostDraw, tagAtLeastDraw: tagWin}

// leafOffset returns the offset in rec, the records of a proof of p, of
// the first leaf at the cut ply.
func leafOffset(t *testing.T, rules *cheversi.Rules, p *cheversi.Position, v Value, cut int, rec []byte) int {
	t.Helper()
	cr := &countingReader{r: bytes.NewReader(rec)}
	rd := newProofReader(bufio.NewReader(cr), &Proof{Rules: rules, Root: *p, Cut: cut, Shown: Bounds{Lo: v, Hi: v}})
	rd.onLeaf = func() int { return cr.n - rd.r.Buffered() - 1 }
	if err := rd.readRoot(); err != nil {
		t.Fatal(err)
	}
	if len(rd.leafAt) == 0 {
		t.Fatal("no leaf at the cut ply")
	}
	return rd.leafAt[0]
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += n
	return n, err
}

// TestProofOfABound writes the proof of what is known of a drawn position
// from the units that show it is at least a draw, and reads it back.
func TestProofOfABound(t *testing.T) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Of drawn positions, one whose lower bound's units do not also show
	// its upper bound (in most they do).
	r := rand.New(rand.NewPCG(31, 32))
	s := NewSolver(SolverOptions{TableBytes: 1 << 22})
	var buf bytes.Buffer
	var b Bounds
	for try := 0; ; try++ {
		if try == 100 {
			t.Fatal("no drawn position in 100 whose lower bound's units leave its upper bound open")
		}
		p := randomPosition(t, r, rules, 8)
		if got, err := s.Solve(t.Context(), &p); err != nil || got.Value != Draw {
			continue
		}
		part := lowerBoundUnits(t, s, rules, &p, 11)
		buf.Reset()
		if b, _, err = WriteProof(&buf, rules, &p, 11, part); err != nil {
			t.Fatal(err)
		}
		if !b.Exact() {
			break
		}
	}
	if b != (Bounds{Lo: Draw, Hi: Win}) {
		t.Fatalf("from the units of its lower bound: proof of %s, want at least a draw", b)
	}
	pr, err := ReadProof(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if pr.Shown != b || pr.Move == 0 {
		t.Fatalf("read back %s with move %v, wrote %s", pr.Shown, pr.Move, b)
	}
	// A stronger value in the header than the records show is refused.
	for _, claimed := range []string{"win", "draw", "at most draw"} {
		zr, err := gzip.NewReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		raw = bytes.Replace(raw, []byte("\nvalue at least draw\n"), []byte("\nvalue "+claimed+"\n"), 1)
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		zw.Write(raw)
		zw.Close()
		if _, err := ReadProof(&out); !errors.Is(err, ErrBadProof) {
			t.Errorf("header %q on a proof of at least a draw: %v, want ErrBadProof", claimed, err)
		}
	}
}

// lowerBoundUnits returns the units at the cut ply that a driver asking
// only "is p at least a draw?" solves, solved by s.
func lowerBoundUnits(t *testing.T, s *Solver, rules *cheversi.Rules, p *cheversi.Position, cut int) *Results {
	t.Helper()
	part, err := OpenResults(filepath.Join(t.TempDir(), "results.txt"), rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { part.Close() })
	for {
		w := newWalker(part, cut)
		if w.atLeast(p, Draw) != unknown {
			return part
		}
		for _, q := range w.frontier {
			r, err := s.Solve(t.Context(), &q)
			if err != nil {
				t.Fatal(err)
			}
			e := Entry{Key: CanonicalKey(&q), Position: q, Value: r.Value, Move: r.Move, Positions: 1}
			if err := part.Add(e); err != nil {
				t.Fatal(err)
			}
		}
	}
}
