package cheversi

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// BenchmarkPerft measures perft(6) of the cheversi preset from the empty
// board (974,020,552 leaves).
func BenchmarkPerft(b *testing.B) {
	st := mustRules(b, "cheversi").Start().(*State)
	b.ReportAllocs()
	for b.Loop() {
		if n := st.Perft(6); n != 974020552 {
			b.Fatalf("perft(6) = %d", n)
		}
	}
}

// benchPositions returns positions from seeded random cheversi games, one
// per ply of each game.
func benchPositions(tb testing.TB) []Position {
	r := mustRules(tb, "cheversi")
	rng := rand.New(rand.NewPCG(7, 7))
	var out []Position
	var buf [NumPieces * NumSquares]Move
	for range 64 {
		p := r.StartPosition()
		for {
			moves := p.GenerateMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			out = append(out, p)
			p.Play(moves[rng.IntN(len(moves))])
		}
		out = append(out, p)
	}
	return out
}

func BenchmarkGenerateMoves(b *testing.B) {
	ps := benchPositions(b)
	buf := make([]Move, 0, NumPieces*NumSquares)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf = ps[i%len(ps)].GenerateMoves(buf[:0])
		i++
	}
}

func BenchmarkCountMoves(b *testing.B) {
	ps := benchPositions(b)
	b.ReportAllocs()
	i, n := 0, 0
	for b.Loop() {
		n += ps[i%len(ps)].CountMoves()
		i++
	}
	_ = n
}

func BenchmarkPlay(b *testing.B) {
	ps := benchPositions(b)
	var buf [NumPieces * NumSquares]Move
	type pm struct {
		p Position
		m Move
	}
	var cases []pm
	for _, p := range ps {
		if ms := p.GenerateMoves(buf[:0]); len(ms) > 0 {
			cases = append(cases, pm{p, ms[len(ms)/2]})
		}
	}
	b.ReportAllocs()
	i := 0
	var sink uint64
	for b.Loop() {
		c := cases[i%len(cases)]
		c.p.Play(c.m)
		sink += c.p.Hash()
		i++
	}
	_ = sink
}

func BenchmarkScore(b *testing.B) {
	for _, sc := range []string{"attacks", "squares"} {
		b.Run(sc, func(b *testing.B) {
			r := mustRules(b, "cheversi", "scoring="+sc)
			ps := benchPositions(b)
			for i := range ps {
				ps[i].opts = r.Options()
			}
			b.ReportAllocs()
			i, n := 0, 0
			for b.Loop() {
				p := &ps[i%len(ps)]
				n += p.Score(game.White) - p.Score(game.Black)
				i++
			}
			_ = n
		})
	}
}

// TestHotPathDoesNotAllocate checks the allocation-free promise of
// GenerateMoves, CountMoves, Play, Score, Hash, Perft and ParseMove, and
// that a request's legal moves are listed as text without allocating.
func TestHotPathDoesNotAllocate(t *testing.T) {
	ps := benchPositions(t)
	buf := make([]Move, 0, NumPieces*NumSquares)
	for _, i := range []int{0, 1, len(ps) / 2, len(ps) - 2} {
		p := ps[i]
		moves := p.GenerateMoves(nil)
		if len(moves) == 0 {
			t.Fatalf("%s: no legal moves", p.Text())
		}
		text := moves[len(moves)-1].String()
		st := &State{pos: p}
		legal := make([]game.Move, 0, len(moves))
		checks := []struct {
			name string
			f    func()
		}{
			{"GenerateMoves", func() { buf = p.GenerateMoves(buf[:0]) }},
			{"CountMoves", func() { _ = p.CountMoves() }},
			{"Play", func() { c := p; c.Play(moves[0]) }},
			{"Score", func() { _ = p.Score(game.White) + p.Score(game.Black) }},
			{"Hash", func() { _ = p.Hash() }},
			{"Perft", func() { _ = p.Perft(2) }},
			{"ParseMove", func() { _, _ = p.ParseMove(text) }},
			{"State.ParseMove", func() { _, _ = st.ParseMove(text) }},
			{"State.LegalMoves+String", func() {
				for _, m := range st.LegalMoves(legal[:0]) {
					_ = m.String()
				}
			}},
		}
		for _, c := range checks {
			if n := testing.AllocsPerRun(20, c.f); n != 0 {
				t.Errorf("%s: %s allocates %v times per run", p.Text(), c.name, n)
			}
		}
	}
}
