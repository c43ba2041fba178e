package solve

import (
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// benchUnits are positions at ply 6 of the cheversi preset's game tree, as
// the solve of the whole game meets them.
var benchUnits = []string{
	"8/8/5R2/4r3/3Q4/2q5/1K6/r7 w 6 a1",
	"8/8/6r1/4rB2/3Q4/2q5/1K6/8 w 6 g6",
	"8/8/8/4r3/3Q4/2qB4/1K6/r7 w 6 a1",
	"8/8/8/4rB2/3Q2r1/2q5/1K6/8 w 6 g4",
}

// BenchmarkSolveUnit solves work units of the whole game's solve, each
// with an empty table: positions/op is what one unit costs.
func BenchmarkSolveUnit(b *testing.B) {
	for _, etc := range []int{8, 10} {
		b.Run(fmt.Sprint("etc", etc), func(b *testing.B) { benchUnit(b, etc) })
	}
}

func BenchmarkSolveUnitPlain(b *testing.B) {
	benchUnit(b, 8)
}

func BenchmarkSolveUnitLastTwo(b *testing.B) {
	benchUnit(b, 10)
}

// BenchmarkSolveUnitSquares solves the same units under the scoring
// "squares", whose last two plies have a pass of their own (lastTwoSquares).
func BenchmarkSolveUnitSquares(b *testing.B) {
	benchUnit(b, 10, game.Setting{Key: "scoring", Value: "squares"})
}

// BenchmarkSolveUnitTouchAny solves the same units under touch=any, where
// a piece may go next to a piece of either colour: more moves a ply.
func BenchmarkSolveUnitTouchAny(b *testing.B) {
	benchUnit(b, 10, game.Setting{Key: "touch", Value: "any"})
}

func benchUnit(b *testing.B, etc int, set ...game.Setting) {
	rules, err := cheversi.New("cheversi", set)
	if err != nil {
		b.Fatal(err)
	}
	var ps []cheversi.Position
	for _, text := range benchUnits {
		p, err := rules.ParsePosition(text)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	t := NewTable(256 << 20)
	var n uint64
	for i := 0; i < b.N; i++ {
		t.Clear()
		s := NewSolver(SolverOptions{Table: t})
		s.s.etcPlies = etc
		s.s.lastTwo = etc == 10
		p := ps[i%len(ps)]
		if _, err := s.Solve(b.Context(), &p); err != nil {
			b.Fatal(err)
		}
		n += s.TotalPositions()
	}
	b.ReportMetric(float64(n)/float64(b.N), "positions/op")
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkSolvePly8 solves positions two plies below the work units.
func BenchmarkSolvePly8(b *testing.B) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		b.Fatal(err)
	}
	var ps []cheversi.Position
	for _, text := range benchUnits {
		p, err := rules.ParsePosition(text)
		if err != nil {
			b.Fatal(err)
		}
		for i := range 3 {
			q := p
			for q.Ply() < 8 {
				ms := q.GenerateMoves(nil)
				q.Play(ms[(i*7)%len(ms)])
			}
			ps = append(ps, q)
		}
	}
	t := NewTable(16 << 20)
	var n uint64
	for i := 0; i < b.N; i++ {
		for _, p := range ps {
			t.Clear()
			s := NewSolver(SolverOptions{Table: t})
			if _, err := s.Solve(b.Context(), &p); err != nil {
				b.Fatal(err)
			}
			n += s.TotalPositions()
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "positions/op")
}

// BenchmarkSolveByPly solves positions at each ply from 6 to 14, reached
// from the work units above by random moves, each with an empty table:
// positions/op is what solving one position of that ply costs.
func BenchmarkSolveByPly(b *testing.B) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		b.Fatal(err)
	}
	for ply := 6; ply <= 14; ply++ {
		r := rand.New(rand.NewPCG(uint64(ply), 7))
		var ps []cheversi.Position
		for k := range 3 * len(benchUnits) {
			p, err := rules.ParsePosition(benchUnits[k%len(benchUnits)])
			if err != nil {
				b.Fatal(err)
			}
			for p.Ply() < ply {
				ms := p.GenerateMoves(nil)
				p.Play(ms[r.IntN(len(ms))])
			}
			ps = append(ps, p)
		}
		b.Run(fmt.Sprint("ply", ply), func(b *testing.B) {
			t := NewTable(64 << 20)
			if ply >= 10 {
				t = NewTable(1 << 20)
			}
			var n uint64
			for i := 0; i < b.N; i++ {
				p := ps[i%len(ps)]
				b.StopTimer()
				t.Clear()
				b.StartTimer()
				s := NewSolver(SolverOptions{Table: t})
				if _, err := s.Solve(b.Context(), &p); err != nil {
					b.Fatal(err)
				}
				n += s.TotalPositions()
			}
			b.ReportMetric(float64(n)/float64(b.N), "positions/op")
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// BenchmarkWalk walks the committed solve of the empty board (what a
// Driver does after every unit to choose the next), with the moves
// generated afresh and from a cache kept across walks.
func BenchmarkWalk(b *testing.B) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Open("../../../docs/solved/cheversi-results.txt.gz")
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "results.txt")
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		b.Fatal(err)
	}
	out.Close()
	res, err := ReadResults(rules, path)
	if err != nil {
		b.Fatal(err)
	}
	root := rules.StartPosition()
	for _, cached := range []bool{false, true} {
		b.Run(fmt.Sprint("cached=", cached), func(b *testing.B) {
			mc := &moveCache{m: map[uint64][]keyedMove{}}
			for b.Loop() {
				w := newWalker(res, 6)
				if cached {
					w.moves = mc
				}
				w.eval(&root)
			}
		})
	}
}

// BenchmarkCanonicalKey keys positions of random games from ply 1 to the
// end, as the walks, the upward bounds and the results files do for every
// position they touch.
func BenchmarkCanonicalKey(b *testing.B) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var ps []cheversi.Position
	for range 64 {
		p := rules.StartPosition()
		for !p.Over() {
			moves := p.GenerateMoves(nil)
			p.Play(moves[r.IntN(len(moves))])
			ps = append(ps, p)
		}
	}
	for i := 0; b.Loop(); i++ {
		CanonicalKey(&ps[i%len(ps)])
	}
}
