package engine

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/protocol"
)

// scriptedEngine returns an Engine, with the handshake taken as id, over
// in-process pipes. The bot answers every go with reply; the lines the
// arena writes arrive on the returned channel. stop releases everything
// instead of Close.
func scriptedEngine(t *testing.T, id protocol.ID, reply string) (e *Engine, written <-chan string, stop func()) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{stdin: inW, stdout: outR, exited: make(chan struct{}), stderrDone: make(chan struct{})}
	close(p.stderrDone)
	e, err = newEngine("scripted", Spec{HandshakeTimeout: time.Second}, p, &gate{})
	if err != nil {
		t.Fatal(err)
	}
	e.id = id
	lines := make(chan string, 100)
	botDone := make(chan struct{})
	go func() { // the bot: ends when the arena closes its input
		defer close(botDone)
		defer close(lines)
		sc := bufio.NewScanner(inR)
		for sc.Scan() {
			lines <- sc.Text()
			if strings.HasPrefix(sc.Text(), "go") {
				_, _ = outW.WriteString(reply)
			}
		}
	}()
	return e, lines, func() {
		close(e.closing)
		e.gate.close()
		inW.Close()
		<-botDone
		outW.Close()
		outR.Close()
		inR.Close()
	}
}

// TestMoveRequestFeatures checks which lines of a move request each bot
// sees: the current position text, movestogo and the search limits go
// only to bots that asked for them.
func TestMoveRequestFeatures(t *testing.T) {
	req := MoveRequest{
		Moves: []string{"9-13"}, Legal: []string{"22-18", "21-17"},
		FEN:      "B:W18,21:B1,13",
		Clock:    protocol.Clock{WTime: time.Minute, BTime: 50 * time.Second, MovesToGo: 39},
		Deadline: time.Now().Add(time.Minute),
	}
	limited := req
	limited.Nodes, limited.Depth = 5000, 7
	all := protocol.ID{Games: []string{"checkers"}, LegalMoves: true, FEN: true, Nodes: true, Depth: true, MovesToGo: true}
	tests := []struct {
		name string
		id   protocol.ID
		req  MoveRequest
		want []string
	}{
		{"version 1.0", protocol.ID{Games: []string{"checkers"}}, req, []string{
			"position startpos moves 9-13",
			"go wtime 60000 btime 50000 winc 0 binc 0",
		}},
		{"legal moves only", protocol.ID{Games: []string{"checkers"}, LegalMoves: true}, req, []string{
			"position startpos moves 9-13",
			"legalmoves 22-18 21-17",
			"go wtime 60000 btime 50000 winc 0 binc 0",
		}},
		{"every feature", all, limited, []string{
			"position startpos moves 9-13",
			"fen B:W18,21:B1,13",
			"legalmoves 22-18 21-17",
			"go wtime 60000 btime 50000 winc 0 binc 0 movestogo 39 depth 7 nodes 5000",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, written, stop := scriptedEngine(t, tt.id, "move 22-18\n")
			defer stop()
			r, err := e.Move(t.Context(), tt.req)
			if err != nil {
				t.Fatalf("Move: %v", err)
			}
			if r.Move != "22-18" {
				t.Errorf("move %q, want 22-18", r.Move)
			}
			for i, want := range tt.want {
				if got := <-written; got != want {
					t.Errorf("line %d: %q, want %q", i+1, got, want)
				}
			}
		})
	}
}

// TestUndeclaredLimit checks that a search limit is never sent to a bot
// that did not declare it obeys one.
func TestUndeclaredLimit(t *testing.T) {
	for _, tt := range []struct {
		id  protocol.ID
		req MoveRequest
		bad string
	}{
		{protocol.ID{Depth: true}, MoveRequest{Nodes: 100}, "request nodes"},
		{protocol.ID{Nodes: true}, MoveRequest{Depth: 3}, "request depth"},
	} {
		e, written, stop := scriptedEngine(t, tt.id, "move 22-18\n")
		tt.req.Deadline = time.Now().Add(time.Minute)
		_, err := e.Move(t.Context(), tt.req)
		var ee *Error
		if !errors.As(err, &ee) || ee.Kind != KindUnsupported || !strings.Contains(err.Error(), tt.bad) {
			t.Errorf("Move with %+v for %+v: %v, want KindUnsupported naming %q", tt.req, tt.id, err, tt.bad)
		}
		// The engine stays usable and nothing was written.
		tt.req.Nodes, tt.req.Depth = 0, 0
		if _, err := e.Move(t.Context(), tt.req); err != nil {
			t.Errorf("Move without the limit: %v", err)
		}
		if got := <-written; !strings.HasPrefix(got, "position ") {
			t.Errorf("first line written %q, want the position of the second request", got)
		}
		stop()
	}
}
