package solve

import (
	"math/bits"
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

// lastPliesRules are the rule sets whose last plies have code of their
// own: black_king_last under each scoring.
var lastPliesRules = []struct {
	name string
	set  []game.Setting
}{
	{"attacks", nil},
	{"attacks touch=any", []game.Setting{{Key: "touch", Value: "any"}}},
	{"squares", []game.Setting{{Key: "scoring", Value: "squares"}}},
}

// lastPliesSearcher returns a searcher that uses the last plies' own code
// of rules (lastTwo: the last two plies' too, under "attacks").
func lastPliesSearcher(rules *cheversi.Rules, tableBytes int64, lastTwo bool) *searcher {
	squares := rules.Options().Scoring == cheversi.ScoreSquares
	return &searcher{tt: NewTable(tableBytes), ttPlies: 14, sortPlies: 14, kingLast: !squares, lastTwo: lastTwo,
		kingLastSquares: squares, stop: new(atomic.Bool)}
}

// TestKingLastAgrees checks the last plies' own code against the generic
// search on random positions near the end of games, under each scoring.
func TestKingLastAgrees(t *testing.T) {
	for _, rs := range lastPliesRules {
		t.Run(rs.name, func(t *testing.T) {
			rules, _ := cheversi.New("cheversi", rs.set)
			r := rand.New(rand.NewPCG(3, 4))
			for i := range 600 {
				p := randomPosition(t, r, rules, 11+r.IntN(5))
				a := lastPliesSearcher(rules, 1<<20, i%2 == 0)
				c := &searcher{tt: NewTable(1 << 20), ttPlies: 14, sortPlies: 14, stop: new(atomic.Bool)}
				b1, b2 := newBoard(&p), newBoard(&p)
				v1 := a.search(&b1, -200, 200)
				v2 := c.search(&b2, -200, 200)
				if v1 != v2 {
					t.Fatalf("%s: %d vs %d", p.Text(), v1, v2)
				}
			}
		})
	}
}

// TestLastTwoWindows checks the last two plies' own code under null
// windows at many thresholds, where its bounds (not exact values) decide.
func TestLastTwoWindows(t *testing.T) {
	for _, rs := range lastPliesRules {
		t.Run(rs.name, func(t *testing.T) {
			rules, _ := cheversi.New("cheversi", rs.set)
			r := rand.New(rand.NewPCG(8, 9))
			for range 150 {
				p := randomPosition(t, r, rules, 12+r.IntN(3))
				want := reference(&p)
				for th := -12; th <= 12; th += 3 {
					s := lastPliesSearcher(rules, 1<<18, true)
					b := newBoard(&p)
					v := s.search(&b, th-1, th)
					if (v >= th) != (want >= th) || (v >= th && v > want) || (v < th && v < want) {
						t.Fatalf("%s: threshold %d: search %d, exact %d", p.Text(), th, v, want)
					}
				}
			}
		})
	}
}

// TestPairBound checks, for every last move of White in random positions
// at ply 14, lastTwo's tables against playing both last moves: pair gives
// the exact change of White's margin and bound never less than it.
func TestPairBound(t *testing.T) {
	for _, rs := range lastPliesRules[:2] {
		t.Run(rs.name, func(t *testing.T) {
			rules, _ := cheversi.New("cheversi", rs.set)
			r := rand.New(rand.NewPCG(5, 6))
			exact := 0
			for range 300 {
				p := randomPosition(t, r, rules, cheversi.MaxPlies-2)
				b := newBoard(&p)
				targets := p.Targets()
				k, squares := lastKind(&targets)
				var pt pairTables
				pt.make(&b, squares)
				pt.makeSliders(&b, squares)
				for sq := squares; sq != 0; sq &= sq - 1 {
					s := cheversi.Square(bits.TrailingZeros64(sq))
					q := p
					q.Play(cheversi.NewMove(k, s))
					want := -reference(&q) - b.margin
					got, bound := pt.pair(&b, k, s), pt.bound(&b, k, s)
					if got != want || bound < want {
						t.Fatalf("%s: %v@%v: pair %d, bound %d, exact %d", p.Text(), k, s, got, bound, want)
					}
					if bound == want {
						exact++
					}
				}
			}
			if exact == 0 {
				t.Error("the bound was never exact")
			}
		})
	}
}

// TestLossTable checks the loss table against playing each move.
func TestLossTable(t *testing.T) {
	rules, _ := cheversi.New("cheversi-classic", nil)
	r := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		p := randomPosition(t, r, rules, r.IntN(15))
		b := newBoard(&p)
		var loss [cheversi.NumSquares]int16
		b.lossTable(&loss)
		for sq := range cheversi.Square(cheversi.NumSquares) {
			if b.occ&(1<<sq) != 0 {
				continue
			}
			// A knight on sq attacks nothing that changes the
			// count of the others: its own gain is added back.
			m := cheversi.NewMove(cheversi.Knight, sq)
			occ := b.occ | 1<<sq
			gain := bits.OnesCount64(cheversi.Attacks(cheversi.Knight, sq, occ) &^ occ)
			if b.pos.Turn() == game.Black {
				gain = -gain
			}
			if got, want := -int(loss[sq]), b.delta(m)-gain; got != want {
				t.Fatalf("%s: filling %v changes the margin by %d, the table says %d", p.Text(), sq, want, got)
			}
		}
	}
}

func TestHistoryTable(t *testing.T) {
	var h historyTable
	a := cheversi.NewMove(cheversi.Queen, 27)
	b := cheversi.NewMove(cheversi.Rook, 27)
	h.credit(6, a)
	h.credit(6, a)
	h.credit(13, b)
	if got := h[6][historyIndex(a)]; got != 2*10*10 {
		t.Errorf("two credits at ply 6: %d, want 200", got)
	}
	if got := h[13][historyIndex(b)]; got != 3*3 {
		t.Errorf("one credit at ply 13: %d, want 9", got)
	}
	if h[6][historyIndex(b)] != 0 || h[13][historyIndex(a)] != 0 {
		t.Error("a credit reached another ply or move")
	}
	// Counts never pass the limit, and halving keeps their order.
	h[6][historyIndex(b)] = historyLimit / 4
	h[6][historyIndex(a)] = historyLimit - 50
	h.credit(6, a)
	if ca, cb := h[6][historyIndex(a)], h[6][historyIndex(b)]; ca > historyLimit || cb != historyLimit/8 || ca <= cb {
		t.Errorf("after passing the limit: a %d, b %d", ca, cb)
	}
	h.clear(7)
	if h[6][historyIndex(a)] == 0 || h[13][historyIndex(b)] != 0 {
		t.Error("clear(7) should keep ply 6 and empty ply 13")
	}
}
