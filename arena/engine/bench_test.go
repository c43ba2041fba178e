package engine

import (
	"bufio"
	"testing"
	"time"

	"github.com/arena-games/arena/protocol"
)

// BenchmarkMoveRoundTrip measures one Move against a bot that answers at
// once: position, legal moves and go written together, one move line back.
func BenchmarkMoveRoundTrip(b *testing.B) {
	benchMoves(b, mustStart(b, botSpec(b, modeInstant)))
}

// benchMoves times one Move of e per round: position, legal moves and go
// written together, the instant bot's move line back.
func benchMoves(b *testing.B, e *Engine) {
	ctx := b.Context()
	req := MoveRequest{
		Moves: []string{"K@e4", "Q@d5", "R@a1", "B@c6"},
		Legal: []string{"N@c3", "N@c4", "N@d3", "B@f3"},
		Clock: protocol.Clock{WTime: time.Minute, BTime: time.Minute, WInc: time.Second, BInc: time.Second},
	}
	for b.Loop() {
		req.Deadline = time.Now().Add(5 * time.Second)
		r, err := e.Move(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if r.Move != "N@c3" {
			b.Fatalf("Move = %q, want N@c3", r.Move)
		}
	}
}

// BenchmarkPipePingPong is the floor for BenchmarkMoveRoundTrip: the same
// bot process answering "ping" with "pong" over the raw pipes, without the
// Engine.
func BenchmarkPipePingPong(b *testing.B) {
	spec := botSpec(b, modeInstant)
	p, err := startProcess(&spec, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer p.shutdown(0, reapTimeout)
	r := bufio.NewReader(p.stdout)
	ping := []byte("ping x\n")
	for b.Loop() {
		if _, err := p.stdin.Write(ping); err != nil {
			b.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		if line != "pong x\n" {
			b.Fatalf("got %q, want pong x", line)
		}
	}
}

// TestMoveAllocations checks that a Move allocates only for the reply:
// the move line as a string and its parsed message. The request is made
// in place (see moveMessages).
func TestMoveAllocations(t *testing.T) {
	e := mustStart(t, botSpec(t, modeInstant))
	req := MoveRequest{
		Moves: []string{"K@e4", "Q@d5"},
		Legal: []string{"N@c3", "N@c4"},
		Clock: protocol.Clock{WTime: time.Minute, BTime: time.Minute},
	}
	var err error
	allocs := testing.AllocsPerRun(50, func() {
		req.Deadline = time.Now().Add(patient)
		if _, err = e.Move(t.Context(), req); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2 {
		t.Errorf("Move allocates %v times, want at most 2", allocs)
	}
}
