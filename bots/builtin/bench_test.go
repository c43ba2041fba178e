package builtin

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/bots/sdk"
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

// BenchmarkRandomMove measures one move request answered by the random bot
// run as a process would be (over pipes, the arena's side in the
// benchmark), through its own loop and through the SDK as the other
// built-in bots are.
func BenchmarkRandomMove(b *testing.B) {
	request := "position startpos moves K@e4\nlegalmoves Q@d5 Q@e5 N@c3\ngo movetime 1000\n"
	for _, c := range []struct {
		name string
		run  func(ctx context.Context, in io.Reader, out io.Writer) error
	}{
		{"own-loop", func(ctx context.Context, in io.Reader, out io.Writer) error {
			return runRandom(ctx, DefaultOptions(), in, out, io.Discard)
		}},
		{"sdk", func(ctx context.Context, in io.Reader, out io.Writer) error {
			bot, err := NewBot(NameRandom, DefaultOptions())
			if err != nil {
				return err
			}
			bot.Log = io.Discard
			return sdk.Run(ctx, bot, in, out)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			inR, inW, _ := os.Pipe()
			outR, outW, _ := os.Pipe()
			done := make(chan error, 1)
			go func() { // ends at the end of its input
				done <- c.run(b.Context(), inR, outW)
				outW.Close()
			}()
			lines := bufio.NewReader(outR)
			send := func(s string) {
				if _, err := inW.WriteString(s); err != nil {
					b.Fatal(err)
				}
			}
			expect := func(prefix string) {
				for {
					line, err := lines.ReadString('\n')
					if err != nil {
						b.Fatal(err)
					}
					if strings.HasPrefix(line, prefix) {
						return
					}
				}
			}
			send("arena 1\nisready\n")
			expect("readyok")
			send("newgame game cheversi preset cheversi color black\nisready\n")
			expect("readyok")
			for b.Loop() {
				send(request)
				expect("move ")
			}
			inW.Close()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
			inR.Close()
			outR.Close()
		})
	}
}
