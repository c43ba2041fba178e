package viewer_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/reports/viewer"
)

// randomGame plays random legal moves from the start of rules to the end
// and returns their text.
func randomGame(t testing.TB, rules game.Rules, seed uint64) []viewer.Move {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	st := rules.Start()
	var moves []viewer.Move
	var buf []game.Move
	for !st.Outcome().Over() {
		buf = st.LegalMoves(buf[:0])
		m := buf[rng.IntN(len(buf))]
		moves = append(moves, viewer.Move{Text: m.String(), MS: float64(len(moves))})
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return moves
}

// TestReplayCheversi checks every ply against the rules package: the
// position text, the placed square, both scores and the attacked empty
// squares.
func TestReplayCheversi(t *testing.T) {
	for _, preset := range cheversi.Presets() {
		rules, err := cheversi.New(preset, nil)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(20) {
			moves := randomGame(t, rules, seed)
			plies, err := viewer.Replay(rules, moves)
			if err != nil {
				t.Fatal(err)
			}
			if len(plies) != len(moves)+1 {
				t.Fatalf("%d plies for %d moves", len(plies), len(moves))
			}
			pos := rules.StartPosition()
			for i, p := range plies {
				if i > 0 {
					m, err := pos.ParseMove(moves[i-1].Text)
					if err != nil {
						t.Fatal(err)
					}
					pos.Play(m)
					if p.Move != moves[i-1].Text || p.MS != moves[i-1].MS {
						t.Errorf("ply %d: move %q (%v ms), want %q (%v ms)", i, p.Move, p.MS, moves[i-1].Text, moves[i-1].MS)
					}
					if sq, _ := pos.Last(); !slices.Equal(p.Marks, []int{int(sq)}) {
						t.Errorf("ply %d: marks %v, want [%d]", i, p.Marks, sq)
					}
				} else if p.Marks != nil {
					t.Errorf("start position marks %v", p.Marks)
				}
				if p.Text != pos.Text() {
					t.Errorf("%s seed %d ply %d: text %q, want %q", preset, seed, i, p.Text, pos.Text())
				}
				if p.Scores == nil || *p.Scores != [2]int{pos.Score(game.White), pos.Score(game.Black)} {
					t.Errorf("ply %d: scores %v, want %d, %d", i, p.Scores, pos.Score(game.White), pos.Score(game.Black))
				}
				empty := ^(pos.Occupied(game.White) | pos.Occupied(game.Black))
				for c, hex := range p.Attacked {
					got, err := strconv.ParseUint(hex, 16, 64)
					if err != nil || len(hex) != 16 {
						t.Fatalf("ply %d: attacked %q: %v", i, hex, err)
					}
					if want := pos.Attacked(game.Color(c)) & empty; got != want {
						t.Errorf("ply %d %v: attacked %x, want %x", i, game.Color(c), got, want)
					}
				}
			}
		}
	}
}

// TestReplayCheckers checks the marks of simple moves and captures and
// the captured squares against the moves the rules generate.
func TestReplayCheckers(t *testing.T) {
	rules, err := checkers.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	captures := 0
	for seed := range uint64(10) {
		moves := randomGame(t, rules, seed)
		plies, err := viewer.Replay(rules, moves)
		if err != nil {
			t.Fatal(err)
		}
		st := rules.Start().(*checkers.State)
		for i, mv := range moves {
			gm, err := st.ParseMove(mv.Text)
			if err != nil {
				t.Fatal(err)
			}
			m := gm.(checkers.Move)
			want := []int{m.From()}
			var wantCaptured []int
			if m.IsCapture() {
				captures++
				for j := range m.Jumps() {
					want = append(want, m.Landing(j))
				}
				for sq := range m.Captured().All() {
					wantCaptured = append(wantCaptured, sq)
				}
			} else {
				want = append(want, m.To())
			}
			if err := st.Play(gm); err != nil {
				t.Fatal(err)
			}
			p := plies[i+1]
			if !slices.Equal(p.Marks, want) || !slices.Equal(p.Captured, wantCaptured) || p.Text != st.Text() {
				t.Errorf("ply %d %s: marks %v captured %v text %q; want %v, %v, %q", i+1, mv.Text, p.Marks, p.Captured, p.Text, want, wantCaptured, st.Text())
			}
			if p.Scores != nil || p.Attacked != nil {
				t.Errorf("ply %d: checkers ply with scores %v", i+1, p.Scores)
			}
		}
	}
	if captures == 0 {
		t.Error("no capture was played")
	}
}

func TestReplayStopsAtAnIllegalMove(t *testing.T) {
	rules, err := cheversi.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	plies, err := viewer.Replay(rules, []viewer.Move{{Text: "K@e4"}, {Text: "Q@d5"}, {Text: "Q@e4"}})
	if !errors.Is(err, viewer.ErrReplay) || !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("error %v, want ErrReplay and game.ErrIllegalMove", err)
	}
	if len(plies) != 3 {
		t.Errorf("%d plies before the illegal move, want 3", len(plies))
	}
}

func TestListEncoding(t *testing.T) {
	l := viewer.NewList("cheversi")
	l.Add(viewer.Summary{ID: 1, Round: 1, White: "a", Black: "b", Opening: "o1", Result: "1-0", Reason: "score", Plies: 16})
	l.Add(viewer.Summary{ID: 2, Round: 1, White: "b", Black: "a", Opening: "o1", Result: "0-1", Reason: "forfeit: time", Plies: 7})
	l.Add(viewer.Summary{ID: 3, Round: 2, White: "c", Black: "a", Opening: "o2", Result: "1/2-1/2", Reason: "score", Plies: 16})
	data, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"game":"cheversi","bots":["a","b","c"],"openings":["o1","o2"],"reasons":["score","forfeit: time"],"rows":[[1,1,0,1,0,0,0,16],[2,1,1,0,0,1,1,7],[3,2,2,0,1,2,0,16]]}`
	if string(data) != want {
		t.Errorf("list encodes as\n%s\nwant\n%s", data, want)
	}
}

// BenchmarkReplay measures replaying a whole game for the viewer.
func BenchmarkReplay(b *testing.B) {
	cr, _ := cheversi.New("", nil)
	kr, _ := checkers.New("", nil)
	for _, rules := range []game.Rules{cr, kr} {
		b.Run(rules.Game(), func(b *testing.B) {
			moves := randomGame(b, rules, 3)
			b.ResetTimer()
			for range b.N {
				if _, err := viewer.Replay(rules, moves); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(moves)), "plies")
		})
	}
}
