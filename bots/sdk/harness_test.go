package sdk

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/protocol"
)

// arena is the test's side of a bot's pipes: it writes the arena's lines and
// reads the bot's.
type arena struct {
	t      *testing.T
	toBot  *io.PipeWriter
	r      *protocol.Reader
	done   chan error // Run's result
	cancel context.CancelFunc
	log    *syncBuffer
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startBot runs bot with Run on in-memory pipes.
func startBot(t *testing.T, bot Bot) *arena {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	a := &arena{t: t, toBot: inW, r: protocol.NewReader(outR), done: make(chan error, 1), cancel: cancel, log: &syncBuffer{}}
	if bot.Log == nil {
		bot.Log = a.log
	}
	go func() {
		err := Run(ctx, bot, inR, outW)
		outW.Close() // the test reads EOF after the bot's last line
		inR.Close()  // unblocks a test still writing to a finished bot
		a.done <- err
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-a.done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after the test ended")
		}
	})
	return a
}

// send writes lines to the bot in one write.
func (a *arena) send(lines ...string) {
	a.t.Helper()
	if _, err := io.WriteString(a.toBot, strings.Join(lines, "\n")+"\n"); err != nil {
		a.t.Fatalf("writing %q to the bot: %v", lines, err)
	}
}

// line reads the bot's next line, failing the test after a timeout.
func (a *arena) line() string {
	a.t.Helper()
	type res struct {
		line string
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		l, err := a.r.ReadLine()
		ch <- res{l, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			a.t.Fatalf("reading from the bot: %v", r.err)
		}
		return r.line
	case <-time.After(10 * time.Second):
		a.t.Fatalf("no line from the bot within 10s")
	}
	return ""
}

// expect reads the bot's next lines and compares them with want.
func (a *arena) expect(want ...string) {
	a.t.Helper()
	for _, w := range want {
		if got := a.line(); got != w {
			a.t.Fatalf("bot wrote %q, want %q", got, w)
		}
	}
}

// expectEOF checks that the bot's output ends.
func (a *arena) expectEOF() {
	a.t.Helper()
	ch := make(chan error, 1)
	go func() {
		l, err := a.r.ReadLine()
		if err == nil {
			err = errors.New("unexpected line " + l)
		}
		ch <- err
	}()
	select {
	case err := <-ch:
		if err != io.EOF {
			a.t.Fatalf("bot output: %v, want EOF", err)
		}
	case <-time.After(10 * time.Second):
		a.t.Fatalf("bot output did not end within 10s")
	}
}

// wait returns Run's result.
func (a *arena) wait() error {
	a.t.Helper()
	select {
	case err := <-a.done:
		a.done <- err // for the cleanup
		return err
	case <-time.After(10 * time.Second):
		a.t.Fatalf("Run did not return within 10s")
	}
	return nil
}

// handshake sends hello and reads the bot's reply up to arenaok.
func (a *arena) handshake() protocol.ID {
	a.t.Helper()
	a.send("arena 1")
	var id protocol.ID
	for {
		m, err := protocol.Parse(a.line())
		if err != nil {
			a.t.Fatalf("handshake: %v", err)
		}
		done, err := id.Apply(m)
		if err != nil {
			a.t.Fatalf("handshake: %v", err)
		}
		if done {
			return id
		}
	}
}
