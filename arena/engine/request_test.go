package engine

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
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
	return scriptedEngineLog(t, id, reply, nil)
}

// scriptedEngineLog is scriptedEngine with a log and, when log is not nil,
// a transcript.
func scriptedEngineLog(t *testing.T, id protocol.ID, reply string, log *Log) (e *Engine, written <-chan string, stop func()) {
	t.Helper()
	inR, inW, outR, outW, g := botPipes(t)
	p := &process{stdin: inW, stdout: outR, exited: make(chan struct{}), stderrDone: make(chan struct{}), log: log, pid: 4242}
	close(p.stderrDone)
	e, err := newEngine("scripted", Spec{HandshakeTimeout: time.Second, Transcript: log != nil}, p, g)
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
		g.release()
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

// TestTranscript checks that a transcript logs both directions of a
// move request, each line stamped with the time, the process id and its
// direction, and the bytes as they came (an over-long line shortened).
func TestTranscript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.log")
	log, err := OpenLog(path, -1)
	if err != nil {
		t.Fatal(err)
	}
	long := "info string " + strings.Repeat("x", 3000)
	e, _, stop := scriptedEngineLog(t, protocol.ID{Games: []string{"checkers"}},
		"info depth 3 score -5 pv 22-18\r\n"+long+"\nbogus \x01 line\nmove 22-18\n", log)
	if _, err := e.Move(t.Context(), MoveRequest{Moves: []string{"9-13"}, Clock: protocol.Clock{MoveTime: time.Second},
		Deadline: time.Now().Add(time.Minute)}); err != nil {
		t.Fatalf("Move: %v", err)
	}
	stop()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stamp := `\d\d:\d\d:\d\d\.\d\d\d \[4242\] `
	for _, want := range []string{
		`(?m)^\[arena: protocol transcript of process 4242: → arena to bot, ← bot to arena\]$`,
		`(?m)^` + stamp + `→ position startpos moves 9-13$`,
		`(?m)^` + stamp + `→ go movetime 1000$`,
		`(?m)^` + stamp + `← info depth 3 score -5 pv 22-18$`,
		`(?m)^` + stamp + `← info string x{1000}x{12} \.\.\. \(3012 bytes\)$`,
		`(?m)^` + stamp + `← "bogus \\x01 line"$`,
		`(?m)^` + stamp + `← move 22-18$`,
	} {
		if !regexp.MustCompile(want).Match(data) {
			t.Errorf("transcript lacks a line matching %s:\n%s", want, data)
		}
	}
}

// TestNoTranscript checks that without the switch the log holds no
// protocol line.
func TestNoTranscript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.log")
	log, err := OpenLog(path, -1)
	if err != nil {
		t.Fatal(err)
	}
	e, _, stop := scriptedEngine(t, protocol.ID{Games: []string{"checkers"}}, "move 22-18\n")
	e.proc.log = log
	if _, err := e.Move(t.Context(), MoveRequest{Moves: []string{"9-13"}, Deadline: time.Now().Add(time.Minute)}); err != nil {
		t.Fatalf("Move: %v", err)
	}
	stop()
	log.Close()
	if data, _ := os.ReadFile(path); len(data) != 0 {
		t.Errorf("log without a transcript holds %q", data)
	}
}

// BenchmarkMoveRoundTripTranscript is BenchmarkMoveRoundTrip with the
// bot's transcript on: every line both ways stamped and logged.
func BenchmarkMoveRoundTripTranscript(b *testing.B) {
	spec := botSpec(b, modeInstant)
	log, err := OpenLog(filepath.Join(b.TempDir(), "bot.log"), -1)
	if err != nil {
		b.Fatal(err)
	}
	defer log.Close()
	spec.Log, spec.Transcript = log, true
	benchMoves(b, mustStart(b, spec))
}

// FuzzTranscriber feeds arbitrary bytes, cut into arbitrary reads, to a
// transcriber: it must log one line per line end, each within its bound.
func FuzzTranscriber(f *testing.F) {
	f.Add([]byte("move 11-15\ninfo depth 3\r\n"), uint8(3))
	f.Add([]byte("\xff\xfe\x00\n\n"+strings.Repeat("y", 2000)+"\n"), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		path := filepath.Join(t.TempDir(), "t.log")
		log, err := OpenLog(path, -1)
		if err != nil {
			t.Fatal(err)
		}
		tr := newTranscriber(log, 7, "←")
		step := int(cut)%16 + 1
		for i := 0; i < len(data); i += step {
			tr.add(data[i:min(i+step, len(data))])
		}
		if err := log.Close(); err != nil {
			t.Fatal(err)
		}
		out, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(out) == 0 {
			lines = nil
		}
		if want := bytes.Count(data, []byte{'\n'}); len(lines) != want {
			t.Fatalf("%d lines logged for %d line ends:\n%q", len(lines), want, out)
		}
		for _, l := range lines {
			// The stamp, the prefix, a quoted line (up to 4 bytes per
			// byte) and the length note.
			if len(l) > 40+4*maxTranscriptLine+30 || !strings.Contains(l, " [7] ← ") {
				t.Fatalf("logged line %q", l)
			}
		}
	})
}
