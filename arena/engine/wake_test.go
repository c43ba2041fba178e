package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestContextKeptAcrossCalls checks that the end of a context given to
// several calls in turn still cuts short a later call that waits: the
// Engine watches that context once, from its first call.
func TestContextKeptAcrossCalls(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeMuteMove))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	for i := range 3 {
		if err := e.Ping(ctx, patient); err != nil {
			t.Fatalf("Ping %d: %v", i, err)
		}
	}
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := e.Move(ctx, MoveRequest{Deadline: time.Now().Add(time.Minute)})
	if ee := asError(t, err); ee.Kind != KindCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("Move: %v, want KindCanceled wrapping context.Canceled", err)
	}
}

// TestCanceledWrite checks that the end of the call's context cuts short
// a write that waits for a bot that does not read.
func TestCanceledWrite(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeDeaf))
	var moves, legal []string
	for i := range 10000 { // 60 KB each: more than the pipe holds
		moves = append(moves, fmt.Sprintf("m%04d", i))
		legal = append(legal, fmt.Sprintf("l%04d", i))
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := e.Move(ctx, MoveRequest{Moves: moves, Legal: legal, Deadline: time.Now().Add(time.Minute)})
	if ee := asError(t, err); ee.Kind != KindCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("Move: %v, want KindCanceled wrapping context.Canceled", err)
	}
}

// TestContextPerCall checks calls that each come with a context of their
// own, ended after the call: a context that ends between calls does not
// disturb the next one.
func TestContextPerCall(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeInstant))
	for i := range 20 {
		ctx, cancel := context.WithCancel(t.Context())
		r, err := e.Move(ctx, MoveRequest{Legal: []string{"N@c3"}, Deadline: time.Now().Add(30 * time.Second)})
		cancel()
		if err != nil {
			t.Fatalf("Move %d: %v", i, err)
		}
		if r.Move != "N@c3" {
			t.Fatalf("Move %d = %q, want N@c3", i, r.Move)
		}
	}
}

// TestNoDescriptorLeft checks that an Engine closes every descriptor it
// opened, its wake-up descriptor included, whether Close interrupts a
// call or not.
func TestNoDescriptorLeft(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts descriptors in /proc/self/fd")
	}
	checkNoLeaks(t)
	openFDs := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	before := openFDs()
	for i := range 4 {
		e, err := Start(t.Context(), botSpec(t, modeMuteMove))
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			errc := make(chan error, 1)
			go func() {
				_, err := e.Move(context.Background(), MoveRequest{})
				errc <- err
			}()
			time.Sleep(50 * time.Millisecond)
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			if err := <-errc; !errors.Is(err, ErrClosed) {
				t.Errorf("Move: %v, want ErrClosed", err)
			}
		} else if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if after := openFDs(); after > before {
		t.Errorf("%d descriptors open after four Engines were closed, %d before", after, before)
	}
}

// TestQuitLeaveEndsWithQuit checks that Close's leave to write quit
// whatever the call's context and the closed gate applies to that one
// write: a call's write that gets the lock after it (a pong, say) is cut
// short by the closed gate, rather than waiting for its own deadline on a
// bot that does not read while Close waits for the call to end.
func TestQuitLeaveEndsWithQuit(t *testing.T) {
	g, err := newGate()
	if err != nil {
		t.Fatal(err)
	}
	defer g.release()
	ctx, cancel := context.WithCancel(t.Context())
	g.begin(ctx)
	defer g.end()
	g.quit(time.Now().Add(time.Hour))
	if _, err := g.writeLimit(); err != nil {
		t.Fatalf("writeLimit while Close writes quit: %v, want none", err)
	}
	g.close()
	cancel()
	if _, err := g.writeLimit(); err != nil {
		t.Fatalf("writeLimit of quit after close and cancel: %v, want none", err)
	}
	g.setWrite(time.Time{}) // the call's next write, with no deadline
	if _, err := g.writeLimit(); !errors.Is(err, errCut) {
		t.Errorf("writeLimit of a call's write after quit and close: %v, want the write cut short", err)
	}
}
