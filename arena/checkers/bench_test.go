package checkers

import "testing"

// BenchmarkPerft runs perft(12) from the start position:
//
//	go test -run '^$' -bench Perft -benchtime 1x ./arena/checkers/
func BenchmarkPerft(b *testing.B) {
	p := StartPosition()
	b.ReportAllocs()
	for b.Loop() {
		if n := p.Perft(12); n != perftTable[12] {
			b.Fatalf("Perft(12) = %d, want %d", n, perftTable[12])
		}
	}
	b.ReportMetric(float64(perftTable[12])*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// benchPositions covers an opening, a middlegame with kings and a position
// with many king capture paths.
var benchPositions = []struct{ name, fen string }{
	{"start", startFEN},
	{"midgame", "W:W18,K19,22,24,27,28,30:B5,K10,11,13,15,K26,3"},
	{"kingCaptures", "B:W6,7,14,15,22,23,K27:BK10,K2,1"},
}

func BenchmarkGenerateMoves(b *testing.B) {
	for _, bp := range benchPositions {
		p := mustPosition(b, bp.fen)
		buf := make([]Move, 0, 64)
		b.Run(bp.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf = p.GenerateMoves(buf[:0])
			}
		})
	}
}

func BenchmarkCountMoves(b *testing.B) {
	for _, bp := range benchPositions {
		p := mustPosition(b, bp.fen)
		b.Run(bp.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n += p.CountMoves()
			}
			if n == 0 {
				b.Fatal("no moves")
			}
		})
	}
}

func BenchmarkPlay(b *testing.B) {
	for _, bp := range benchPositions {
		p := mustPosition(b, bp.fen)
		moves := p.GenerateMoves(nil)
		b.Run(bp.name, func(b *testing.B) {
			b.ReportAllocs()
			var h uint64
			for i := 0; b.Loop(); i++ {
				c := p
				c.Play(moves[i%len(moves)])
				h ^= c.Hash()
			}
			_ = h
		})
	}
}

func BenchmarkParseMove(b *testing.B) {
	p := mustPosition(b, "B:W6,15:B1")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.ParseMove("1x10x19"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHotPathDoesNotAllocate checks the allocation-free promise of the
// generator, Play, CountMoves, Perft and ParseMove.
func TestHotPathDoesNotAllocate(t *testing.T) {
	for _, bp := range benchPositions {
		p := mustPosition(t, bp.fen)
		buf := make([]Move, 0, 64)
		moves := p.GenerateMoves(nil)
		text := moves[len(moves)-1].String()
		checks := []struct {
			name string
			f    func()
		}{
			{"GenerateMoves", func() { buf = p.GenerateMoves(buf[:0]) }},
			{"CountMoves", func() { _ = p.CountMoves() }},
			{"Play", func() { c := p; c.Play(moves[0]) }},
			{"Perft", func() { _ = p.Perft(4) }},
			{"ParseMove", func() { _, _ = p.ParseMove(text) }},
		}
		for _, c := range checks {
			if n := testing.AllocsPerRun(20, c.f); n != 0 {
				t.Errorf("%s: %s allocates %v times per run", bp.name, c.name, n)
			}
		}
	}
}
