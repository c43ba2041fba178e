package protocol_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/protocol"
)

func ExampleParse() {
	for _, line := range []string{
		"info depth 5 score 12 pv K@e4 Q@d5 string opening book",
		"move 11-15",
		"bestmove e2e4",
	} {
		m, err := protocol.Parse(line)
		if err != nil {
			fmt.Println("ignored:", err)
			continue
		}
		switch m := m.(type) {
		case protocol.Info:
			fmt.Printf("depth %d, score %d, pv %v, %q\n", m.Depth, m.Score, m.PV, m.String)
		case protocol.Move:
			fmt.Println("the bot plays", m.Move)
		}
	}
	// Output:
	// depth 5, score 12, pv [K@e4 Q@d5], "opening book"
	// the bot plays 11-15
	// ignored: protocol: unknown command: "bestmove": "bestmove e2e4"
}

func ExampleFormat() {
	line, err := protocol.Format(protocol.NewGame{
		Game:     "checkers",
		Preset:   "american",
		Settings: []game.Setting{{Key: "repetition", Value: "3"}, {Key: "quiet_moves", Value: "40"}},
		Color:    game.Black,
	})
	fmt.Println(line, err)
	// Output:
	// newgame game checkers preset american rules repetition=3 quiet_moves=40 color black <nil>
}

func ExampleWriter() {
	w := protocol.NewWriter(os.Stdout)
	// A move request: the position and the clock, written together.
	err := w.WriteMessage(
		protocol.Position{Text: "8/8/8/8/4K3/8/8/8 b 1 e4"},
		protocol.Go{Clock: protocol.Clock{WTime: 59 * time.Second, BTime: time.Minute, WInc: time.Second, BInc: time.Second}},
	)
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// position text 8/8/8/8/4K3/8/8/8 b 1 e4
	// go wtime 59000 btime 60000 winc 1000 binc 1000
}

func ExampleReader() {
	bot := "info string thinking\nfoo bar\nmove 15x24\n"
	r := protocol.NewReader(strings.NewReader(bot))
	for {
		m, err := r.ReadMessage()
		if err != nil {
			fmt.Println("error:", err)
			if _, ok := err.(*protocol.ProtocolError); ok {
				continue // the protocol says: log and ignore
			}
			return
		}
		fmt.Printf("%T %s\n", m, m.Command())
	}
	// Output:
	// protocol.Info info
	// error: protocol: unknown command: "foo": "foo bar"
	// protocol.Move move
	// error: EOF
}

func ExampleID_Apply() {
	reply := "id name Random\nid author Someone\ngames cheversi\nrequest legalmoves\narenaok\n"
	r := protocol.NewReader(strings.NewReader(reply))
	var id protocol.ID
	for {
		m, err := r.ReadMessage()
		if err != nil {
			fmt.Println(err)
			return
		}
		done, err := id.Apply(m)
		if err != nil {
			fmt.Println(err)
			return
		}
		if done {
			break
		}
	}
	fmt.Printf("%s by %s plays %v, legal moves: %v\n", id.Name, id.Author, id.Games, id.LegalMoves)
	// Output:
	// Random by Someone plays [cheversi], legal moves: true
}

func ExampleOption_Check() {
	hash := protocol.Option{Name: "Hash", Type: protocol.OptionSpin, Default: "16", Min: 1, Max: 1024}
	fmt.Println(hash.Check("64"))
	fmt.Println(hash.Check("4096"))
	// Output:
	// <nil>
	// option Hash: bad option value: 4096 is outside 1..1024
}

// A move request of version 1.1 to a bot that asked for the position text,
// node limits and movestogo: the clock is 40 moves per minute, the search
// limited to 20000 nodes.
func ExampleGo() {
	w := protocol.NewWriter(os.Stdout)
	err := w.WriteMessage(
		protocol.Position{Moves: []string{"11-15"}},
		protocol.FEN{Text: "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"},
		protocol.Go{Clock: protocol.Clock{WTime: time.Minute, BTime: 58 * time.Second, MovesToGo: 40}, Nodes: 20000},
	)
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// position startpos moves 11-15
	// fen W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15
	// go wtime 60000 btime 58000 winc 0 binc 0 movestogo 40 nodes 20000
}

// ExampleGameInfo shows the line a bot that asked for gameinfo receives
// after newgame, and how it reads it.
func ExampleGameInfo() {
	line, _ := protocol.Format(protocol.GameInfo{Opponent: "alphabeta", Opening: "ACF 1 Edinburgh"})
	fmt.Println(line)
	m, _ := protocol.Parse(line)
	info := m.(protocol.GameInfo)
	fmt.Printf("against %s, opening %q\n", info.Opponent, info.Opening)
	// Output:
	// gameinfo opponent alphabeta opening ACF 1 Edinburgh
	// against alphabeta, opening "ACF 1 Edinburgh"
}
