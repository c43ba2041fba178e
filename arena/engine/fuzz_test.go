package engine

import (
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// pipeEngine returns an Engine whose bot is simulated in-process: output is
// what the bot writes (then its stdout closes) and the bot has already
// exited. stop releases everything; it must be called instead of Close,
// since there is no process to kill.
func pipeEngine(t *testing.T, output []byte) (e *Engine, stop func()) {
	t.Helper()
	inR, inW, outR, outW, g := botPipes(t)
	p := &process{stdin: inW, stdout: outR, exited: make(chan struct{}), stderrDone: make(chan struct{})}
	close(p.exited)
	close(p.stderrDone)
	e, err := newEngine("fuzz", Spec{HandshakeTimeout: time.Second}, p, g)
	if err != nil {
		t.Fatal(err)
	}
	e.id.LegalMoves = true
	var wg sync.WaitGroup
	wg.Go(func() { // the bot's input: discarded until inW is closed
		_, _ = io.Copy(io.Discard, inR)
		inR.Close()
	})
	wg.Go(func() { // the bot's output: ends early if outR is closed
		_, _ = outW.Write(output)
		outW.Close()
	})
	return e, func() {
		close(e.closing)
		e.gate.close()
		inW.Close()
		outR.Close()
		wg.Wait()
		g.release()
	}
}

// botPipes returns the two pipes between the arena and a bot that is not
// a process (the arena writes inW and reads outR) and a gate with its own
// wake-up descriptor; the caller releases the gate once done with it.
func botPipes(t *testing.T) (inR, inW, outR, outW *os.File, g *gate) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err = os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	g, err = newGate()
	if err != nil {
		t.Fatal(err)
	}
	return inR, inW, outR, outW, g
}

// FuzzMoveReply feeds arbitrary bot output to Move. Move must return a
// plausible move or an *Error blaming the bot, never anything else.
func FuzzMoveReply(f *testing.F) {
	for _, seed := range []string{
		"move K@e4\n",
		"info depth 3 score -5 nodes 10 pv K@e4 Q@d5\ninfo string hi\nmove 11-15\n",
		"move K@e4\r\n",
		"chatter\n\n  \ninfo depth x\nmove 9x14\n",
		"ping abc\nmove K@e4\n",
		"pong p1\nreadyok\n",
		"move\n",
		"move a b\n",
		"\xff\xfe\n",
		"move K@e4",
		"id name late\n",
		strings.Repeat("x", 70000) + "\nmove K@e4\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, output []byte) {
		e, stop := pipeEngine(t, output)
		defer stop()
		r, err := e.Move(t.Context(), MoveRequest{
			Moves: []string{"K@e4"}, Legal: []string{"Q@d5"},
			Deadline: time.Now().Add(time.Minute), // never reached: the output ends
		})
		if err != nil {
			var ee *Error
			if !errors.As(err, &ee) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			switch ee.Kind {
			case KindProtocol, KindCrash:
			default:
				t.Fatalf("error %v: Kind %v, want protocol violation or crash", err, ee.Kind)
			}
			return
		}
		if r.Move == "" || strings.ContainsAny(r.Move, " \t\r\n") || !utf8.ValidString(r.Move) {
			t.Fatalf("Move = %q, not a single word", r.Move)
		}
		found := false
		for _, line := range strings.Split(string(output), "\n") {
			line = strings.TrimRight(line, "\r")
			f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
			if len(f) == 2 && f[0] == "move" && f[1] == r.Move {
				found = true
			}
		}
		if !found {
			t.Fatalf("Move = %q, not on a move line of the output %q", r.Move, output)
		}
		if in := r.Info; in != nil && !strings.Contains(string(output), in.Raw) {
			t.Fatalf("info %q not in the output %q", in.Raw, output)
		}
	})
}
