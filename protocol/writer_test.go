package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	err := w.WriteMessage(Position{Moves: []string{"K@e4"}}, Go{Clock: Clock{MoveTime: time.Second}})
	if err != nil {
		t.Fatalf("WriteMessage: %v", err)
	}
	if err := w.WriteMessage(Quit{}); err != nil {
		t.Fatalf("WriteMessage: %v", err)
	}
	want := "position startpos moves K@e4\ngo movetime 1000\nquit\n"
	if buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
}

func TestWriterWritesNothingOnError(t *testing.T) {
	tests := []struct {
		ms   []Message
		want error
	}{
		{[]Message{IsReady{}, Move{}}, ErrInvalid},
		{[]Message{IsReady{}, LegalMoves{Moves: []string{strings.Repeat("x", MaxLineLength)}}}, ErrLineTooLong},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		err := NewWriter(&buf).WriteMessage(tt.ms...)
		if !errors.Is(err, tt.want) {
			t.Errorf("WriteMessage(%T...) = %v, want %v", tt.ms[1], err, tt.want)
		}
		if buf.Len() != 0 {
			t.Errorf("WriteMessage(%T...) wrote %d bytes despite the error", tt.ms[1], buf.Len())
		}
	}
}

// countingWriter records each Write call separately.
type countingWriter struct {
	mu     sync.Mutex
	writes []string
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, string(p))
	return len(p), nil
}

func TestWriterConcurrent(t *testing.T) {
	cw := &countingWriter{}
	w := NewWriter(cw)
	const goroutines, each = 8, 50
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				tok := fmt.Sprintf("%d-%d", g, i)
				if err := w.WriteMessage(Ping{Token: tok}, Pong{Token: tok}); err != nil {
					t.Errorf("WriteMessage: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(cw.writes) != goroutines*each {
		t.Fatalf("%d Write calls, want %d", len(cw.writes), goroutines*each)
	}
	for _, s := range cw.writes {
		var a, b string
		if _, err := fmt.Sscanf(s, "ping %s\npong %s\n", &a, &b); err != nil || a != b {
			t.Errorf("Write %q is not one ping/pong pair", s)
		}
	}
}
