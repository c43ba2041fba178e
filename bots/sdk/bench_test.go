package sdk

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/games"
)

// BenchmarkRunGame measures the SDK's work per move request as the arena
// sends them: every ply of a long checkers game is one "position startpos
// moves ..." line, growing by one move each time, and one "go". The bot
// answers with the game's next move at once, so what is timed is reading,
// parsing, decoding the position and writing the move.
func BenchmarkRunGame(b *testing.B) {
	rules, err := games.New("checkers", "american", nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	st := rules.Start()
	var line []string
	for len(line) < 150 && !st.Outcome().Over() {
		legal := st.LegalMoves(nil)
		m := legal[rng.IntN(len(legal))]
		if err := st.Play(m); err != nil {
			b.Fatal(err)
		}
		line = append(line, m.String())
	}
	var in strings.Builder
	in.WriteString("arena 1\nnewgame game checkers preset american color white\nisready\n")
	for ply := range line {
		in.WriteString("position startpos")
		if ply > 0 {
			fmt.Fprintf(&in, " moves %s", strings.Join(line[:ply], " "))
		}
		in.WriteString("\ngo wtime 60000 btime 60000 winc 0 binc 0\n")
	}
	in.WriteString("quit\n")
	input := in.String()
	bot := Bot{Move: func(_ context.Context, req Request) (string, error) {
		return line[len(req.Moves)], nil
	}}
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		if err := Run(context.Background(), bot, strings.NewReader(input), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(line)), "ns/move")
}
