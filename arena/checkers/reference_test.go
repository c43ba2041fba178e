package checkers

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// This file holds a deliberately simple move generator on an 8x8 array,
// written from the rules text with row/column arithmetic, to check the
// bitboard generator against.

// coords returns the row (0 at Black's side) and column of square sq.
func coords(sq int) (row, col int) {
	row = (sq - 1) / 4
	col = 2 * ((sq - 1) % 4)
	if row%2 == 0 {
		col++
	}
	return row, col
}

// squareAt returns the square number of a dark square, or 0 when (row, col)
// is off the board or light.
func squareAt(row, col int) int {
	if row < 0 || row > 7 || col < 0 || col > 7 || (row+col)%2 == 0 {
		return 0
	}
	return row*4 + col/2 + 1
}

type refPiece struct {
	present, black, king bool
}

type refBoard struct {
	sq          [33]refPiece
	blackToMove bool
}

func toRef(p Position) refBoard {
	var b refBoard
	for sq := 1; sq <= 32; sq++ {
		c, king, ok := p.At(sq)
		b.sq[sq] = refPiece{present: ok, black: ok && c == game.Black, king: king}
	}
	b.blackToMove = p.Turn() == game.Black
	return b
}

// refMove is a move as the reference generator sees it.
type refMove struct {
	text     string
	captured []int
	crowns   bool
}

func (b *refBoard) moves() []refMove {
	var caps []refMove
	for sq := 1; sq <= 32; sq++ {
		pc := b.sq[sq]
		if !pc.present || pc.black != b.blackToMove {
			continue
		}
		// The moving piece leaves its square for the whole move.
		saved := b.sq[sq]
		b.sq[sq] = refPiece{}
		b.jumps(sq, sq, pc, strconv.Itoa(sq), nil, &caps)
		b.sq[sq] = saved
	}
	if len(caps) > 0 {
		return caps
	}
	var out []refMove
	for sq := 1; sq <= 32; sq++ {
		pc := b.sq[sq]
		if !pc.present || pc.black != b.blackToMove {
			continue
		}
		r, c := coords(sq)
		for _, d := range b.dirs(pc) {
			to := squareAt(r+d[0], c+d[1])
			if to != 0 && !b.sq[to].present {
				out = append(out, refMove{text: fmt.Sprintf("%d-%d", sq, to), crowns: !pc.king && b.crownRow(pc, to)})
			}
		}
	}
	return out
}

func (b *refBoard) dirs(pc refPiece) [][2]int {
	switch {
	case pc.king:
		return [][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	case pc.black:
		return [][2]int{{1, -1}, {1, 1}}
	}
	return [][2]int{{-1, -1}, {-1, 1}}
}

func (b *refBoard) crownRow(pc refPiece, sq int) bool {
	r, _ := coords(sq)
	return (pc.black && r == 7) || (!pc.black && r == 0)
}

func (b *refBoard) jumps(start, cur int, pc refPiece, text string, captured []int, out *[]refMove) {
	r, c := coords(cur)
	found := false
	for _, d := range b.dirs(pc) {
		over := squareAt(r+d[0], c+d[1])
		land := squareAt(r+2*d[0], c+2*d[1])
		if over == 0 || land == 0 {
			continue
		}
		o := b.sq[over]
		if !o.present || o.black == pc.black || slices.Contains(captured, over) || b.sq[land].present {
			continue
		}
		found = true
		t := text + "x" + strconv.Itoa(land)
		cp := append(slices.Clone(captured), over)
		if !pc.king && b.crownRow(pc, land) {
			*out = append(*out, refMove{text: t, captured: cp, crowns: true})
			continue
		}
		b.jumps(start, land, pc, t, cp, out)
	}
	if !found && len(captured) > 0 {
		*out = append(*out, refMove{text: text, captured: captured})
	}
}

// checkAgainstReference compares GenerateMoves, CountMoves, HasMoves,
// HasCapture and the Move accessors of p with the reference generator.
func checkAgainstReference(t *testing.T, p Position) {
	t.Helper()
	rb := toRef(p)
	want := rb.moves()
	got := p.GenerateMoves(nil)
	wantText := make([]string, len(want))
	for i, m := range want {
		wantText[i] = m.text
	}
	gotText := make([]string, len(got))
	for i, m := range got {
		gotText[i] = m.String()
	}
	slices.Sort(wantText)
	slices.Sort(gotText)
	if !slices.Equal(gotText, wantText) {
		t.Fatalf("%s: GenerateMoves = %v, want %v", p, gotText, wantText)
	}
	if n := p.CountMoves(); n != len(want) {
		t.Fatalf("%s: CountMoves = %d, want %d", p, n, len(want))
	}
	if got, want := p.HasMoves(), len(want) > 0; got != want {
		t.Fatalf("%s: HasMoves = %v, want %v", p, got, want)
	}
	if got, want := p.HasCapture(), len(want) > 0 && len(want[0].captured) > 0; got != want {
		t.Fatalf("%s: HasCapture = %v, want %v", p, got, want)
	}
	byText := map[string]refMove{}
	for _, m := range want {
		byText[m.text] = m
	}
	for _, m := range got {
		r := byText[m.String()]
		var capt Bitboard
		for _, sq := range r.captured {
			capt |= SquareBit(sq)
		}
		if m.Captured() != capt || m.Jumps() != len(r.captured) || m.IsCapture() != (len(r.captured) > 0) {
			t.Fatalf("%s: %v captures %v (%d jumps), want %v", p, m, slices.Collect(m.Captured().All()), m.Jumps(), r.captured)
		}
		if m.Crowns() != r.crowns {
			t.Fatalf("%s: %v Crowns() = %v, want %v", p, m, m.Crowns(), r.crowns)
		}
		if _, king, _ := p.At(m.From()); m.IsKingMove() != king {
			t.Fatalf("%s: %v IsKingMove() = %v, want %v", p, m, m.IsKingMove(), king)
		}
	}
}

// refPlay applies a move on the reference board and returns the FEN of the
// result, built without the package's formatter.
func refPlay(p Position, m Move) string {
	b := toRef(p)
	pc := b.sq[m.From()]
	b.sq[m.From()] = refPiece{}
	for sq := range m.Captured().All() {
		b.sq[sq] = refPiece{}
	}
	if b.crownRow(pc, m.To()) {
		pc.king = true
	}
	b.sq[m.To()] = pc
	var w, bl []string
	for sq := 1; sq <= 32; sq++ {
		s := b.sq[sq]
		if !s.present {
			continue
		}
		txt := strconv.Itoa(sq)
		if s.king {
			txt = "K" + txt
		}
		if s.black {
			bl = append(bl, txt)
		} else {
			w = append(w, txt)
		}
	}
	turn := "B"
	if b.blackToMove {
		turn = "W"
	}
	return turn + ":W" + strings.Join(w, ",") + ":B" + strings.Join(bl, ",")
}

// randomPosition places up to twelve random men and kings per side.
func randomPosition(rng *rand.Rand) Position {
	for {
		var black, white, kings Bitboard
		nb, nw := 1+rng.IntN(MaxPieces), 1+rng.IntN(MaxPieces)
		kingRate := rng.Float64()
		for _, side := range []struct {
			bb    *Bitboard
			n     int
			crown Bitboard
		}{{&black, nb, rowBlackCrown}, {&white, nw, rowWhiteCrown}} {
			for side.bb.Count() < side.n {
				sq := 1 + rng.IntN(32)
				bit := SquareBit(sq)
				if (black|white)&bit != 0 {
					continue
				}
				*side.bb |= bit
				if bit&side.crown != 0 || rng.Float64() < kingRate {
					kings |= bit
				}
			}
		}
		turn := game.Color(rng.IntN(2))
		p, err := NewPosition(black, white, kings, turn)
		if err == nil {
			return p
		}
	}
}

func TestGeneratorMatchesReferenceOnRandomPositions(t *testing.T) {
	n := 50000
	if testing.Short() {
		n = 2000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	captures := 0
	for range n {
		p := randomPosition(rng)
		checkAgainstReference(t, p)
		for _, m := range p.GenerateMoves(nil) {
			if m.IsCapture() {
				captures++
			}
			c := p
			c.Play(m)
			if got, want := c.String(), refPlay(p, m); got != want {
				t.Fatalf("%s: after %v: %s, want %s", p, m, got, want)
			}
			if got, want := c.Hash(), c.computeHash(); got != want {
				t.Fatalf("%s: after %v: incremental hash %x, want %x", p, m, got, want)
			}
		}
		if got, want := p.Perft(2), perftSlow(p, 2); got != want {
			t.Fatalf("%s: Perft(2) = %d, want %d", p, got, want)
		}
		if got, want := p.Perft(3), perftSlow(p, 3); got != want {
			t.Fatalf("%s: Perft(3) = %d, want %d", p, got, want)
		}
	}
	if captures < n {
		t.Errorf("only %d capture moves in %d positions: the sample does not exercise captures", captures, n)
	}
}

// perftSlow is perft by GenerateMoves and Play alone, without bulk counting.
func perftSlow(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.GenerateMoves(nil) {
		c := p
		c.Play(m)
		n += perftSlow(c, depth-1)
	}
	return n
}
