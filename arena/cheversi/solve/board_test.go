package solve

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// TestBoardMargin plays random games under every preset and checks the
// margin the board keeps move by move, and the one delta predicts, against
// the rules' own scores.
func TestBoardMargin(t *testing.T) {
	for _, preset := range []string{"cheversi", "cheversi-classic", "echeversi"} {
		rules, _ := cheversi.New(preset, nil)
		r := rand.New(rand.NewPCG(1, 2))
		for range 300 {
			p := rules.StartPosition()
			b := newBoard(&p)
			var buf [320]cheversi.Move
			for !p.Over() {
				ms := p.GenerateMoves(buf[:0])
				m := ms[r.IntN(len(ms))]
				d := b.delta(m)
				before := b.margin
				b.play(m)
				p.Play(m)
				want := p.Score(game.White) - p.Score(game.Black)
				if b.margin != want || before+d != want {
					t.Fatalf("%s %s: margin %d delta-margin %d, want %d", preset, p.Text(), b.margin, before+d, want)
				}
				nb := newBoard(&p)
				if nb.margin != want {
					t.Fatalf("newBoard margin %d want %d", nb.margin, want)
				}
			}
		}
	}
}

// TestKingLastAgrees checks the last ply's own code against the generic
// search on random positions near the end of cheversi games.
func TestKingLastAgrees(t *testing.T) {
	rules, _ := cheversi.New("cheversi", nil)
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		p := randomPosition(t, r, rules, 11+r.IntN(5))
		a := &searcher{tt: NewTable(1 << 20), ttPlies: 14, sortPlies: 14, kingLast: true, stop: new(atomic.Bool)}
		c := &searcher{tt: NewTable(1 << 20), ttPlies: 14, sortPlies: 14, stop: new(atomic.Bool)}
		b1, b2 := newBoard(&p), newBoard(&p)
		v1 := a.search(&b1, -200, 200)
		v2 := c.search(&b2, -200, 200)
		if v1 != v2 {
			t.Fatalf("%s: %d vs %d", p.Text(), v1, v2)
		}
	}
}
