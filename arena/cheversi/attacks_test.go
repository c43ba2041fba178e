package cheversi

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestAttacks(t *testing.T) {
	sq := func(s string) Square {
		x, ok := parseSquare(s)
		if !ok {
			t.Fatalf("bad square %q", s)
		}
		return x
	}
	bb := func(names ...string) uint64 {
		var b uint64
		for _, n := range names {
			b |= 1 << sq(n)
		}
		return b
	}
	tests := []struct {
		pc   Piece
		on   string
		occ  uint64
		want int // squares attacked
	}{
		{King, "a1", 0, 3},
		{King, "e4", 0, 8},
		{Knight, "a1", 0, 2},
		{Knight, "d4", 0, 8},
		{Rook, "a1", 0, 14},
		{Rook, "a1", bb("a3"), 9}, // a2 a3 (the blocker) and the first rank
		{Bishop, "d4", 0, 13},
		{Queen, "d4", 0, 27},
		{Queen, "d4", bb("d5", "e5", "c3"), 19}, // 11 on the lines, 8 on the diagonals
		{Piece(NumPieces), "d4", 0, 0},
	}
	for _, tc := range tests {
		if got := bits.OnesCount64(Attacks(tc.pc, sq(tc.on), tc.occ)); got != tc.want {
			t.Errorf("Attacks(%v, %s, %#x) has %d squares, want %d", tc.pc, tc.on, tc.occ, got, tc.want)
		}
	}
	if got := Attacks(Queen, NumSquares, 0); got != 0 {
		t.Errorf("Attacks on an invalid square = %#x, want 0", got)
	}
}

// TestAttacksScore checks Attacks against Score on random positions: under
// attack scoring a side's score is the sum of its pieces' attacked empty
// squares, under square scoring the size of their union.
func TestAttacksScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, scoring := range []string{"attacks", "squares"} {
		r := mustRules(t, "cheversi-classic", "scoring="+scoring)
		for range 200 {
			p := r.StartPosition()
			for n := rng.IntN(MaxPlies + 1); p.Ply() < n; {
				moves := p.GenerateMoves(nil)
				p.Play(moves[rng.IntN(len(moves))])
			}
			occ := p.Occupied(game.White) | p.Occupied(game.Black)
			for _, c := range []game.Color{game.White, game.Black} {
				sum, union := 0, uint64(0)
				for pc := range Piece(NumPieces) {
					for b := p.Pieces(c, pc); b != 0; b &= b - 1 {
						a := Attacks(pc, Square(bits.TrailingZeros64(b)), occ) &^ occ
						sum += bits.OnesCount64(a)
						union |= a
					}
				}
				want := sum
				if scoring == "squares" {
					want = bits.OnesCount64(union)
				}
				if got := p.Score(c); got != want {
					t.Fatalf("%s scoring, %v in %s: Score %d, from Attacks %d", scoring, c, p.Text(), got, want)
				}
			}
		}
	}
}

// TestBeyond compares Beyond with stepping along the eight directions.
func TestBeyond(t *testing.T) {
	steps := [][2]int{{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}
	on := func(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }
	for from := range Square(NumSquares) {
		want := map[Square]uint64{} // to: the squares past it; none off the lines
		for _, st := range steps {
			var line []Square
			for f, r := int(from)%8+st[0], int(from)/8+st[1]; on(f, r); f, r = f+st[0], r+st[1] {
				line = append(line, Square(8*r+f))
			}
			for i, to := range line {
				for _, x := range line[i+1:] {
					want[to] |= 1 << x
				}
			}
		}
		for to := range Square(NumSquares) {
			if got := Beyond(from, to); got != want[to] {
				t.Fatalf("Beyond(%v, %v) = %#x, want %#x", from, to, got, want[to])
			}
		}
	}
	if got := Beyond(NumSquares, 0); got != 0 {
		t.Errorf("Beyond(invalid, a1) = %#x, want 0", got)
	}
}

// TestTargets: the target squares are those of the legal moves, piece kind
// by piece kind, under every rule set.
func TestTargets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, preset := range []string{"cheversi", "cheversi-classic", "echeversi"} {
		r := mustRules(t, preset)
		for range 100 {
			p := r.StartPosition()
			for {
				var want [NumPieces]uint64
				moves := p.GenerateMoves(nil)
				for _, m := range moves {
					want[m.Piece()] |= 1 << m.Square()
				}
				if got := p.Targets(); got != want {
					t.Fatalf("%s, %s: Targets %#x, want %#x", preset, p.Text(), got, want)
				}
				if len(moves) == 0 {
					break
				}
				p.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
}
