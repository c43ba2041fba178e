package builtin

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
)

// benchStates returns positions from seeded random games of the named
// game: one every few plies, up to n.
func benchStates(b testing.TB, name string, n int) []game.State {
	b.Helper()
	rules, err := games.New(name, "", nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 11))
	var out []game.State
	for len(out) < n {
		st := rules.Start()
		for !st.Outcome().Over() && len(out) < n {
			moves := st.LegalMoves(nil)
			if err := st.Play(moves[rng.IntN(len(moves))]); err != nil {
				b.Fatal(err)
			}
			if st.Ply()%3 == 1 && !st.Outcome().Over() && st.Ply() < 60 {
				out = append(out, st.Clone())
			}
		}
	}
	return out
}

// benchSearch searches each position with a node budget and reports the
// search speed in nodes per second.
func benchSearch(b *testing.B, name string, p Player, lim Limits) {
	states := benchStates(b, name, 12)
	var nodes int64
	var spent time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res, err := p.Choose(context.Background(), states[i%len(states)], lim)
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Nodes
		spent += res.Elapsed
	}
	b.ReportMetric(float64(nodes)/spent.Seconds(), "nodes/s")
}

func BenchmarkAlphaBetaCheversi(b *testing.B) {
	benchSearch(b, "cheversi", NewAlphaBeta(16), Limits{Nodes: 200_000})
}

func BenchmarkAlphaBetaCheckers(b *testing.B) {
	benchSearch(b, "checkers", NewAlphaBeta(16), Limits{Nodes: 200_000})
}

func BenchmarkGreedyCheversi(b *testing.B) {
	benchSearch(b, "cheversi", NewGreedy(1), Limits{})
}

func BenchmarkGreedyCheckers(b *testing.B) {
	benchSearch(b, "checkers", NewGreedy(1), Limits{})
}

func BenchmarkExpertCheversi(b *testing.B) {
	benchSearch(b, "cheversi", NewExpert(1, 16), Limits{Nodes: 200_000})
}
