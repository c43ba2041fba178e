package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/arena-games/arena/arena/engine"
)

// interrupts is how a command that plays a tournament (arena run, arena
// match) takes signals. The first Ctrl-C (SIGINT) drains: no game starts,
// the games in flight are played to their end and recorded, then the run
// stops as when interrupted (reports written, the command to resume
// printed). SIGTERM, which batch systems and service managers send with
// a deadline of their own, stops at once instead: the games in flight
// are abandoned, to be played again on resume. A second signal of either
// kind exits at once, every bot killed.
type interrupts struct {
	ctx    context.Context // canceled by SIGTERM
	cancel context.CancelFunc
	drain  chan struct{} // closed by the first SIGINT
	w      io.Writer

	mu    sync.Mutex
	again string // the command line that resumes, said on a hard exit

	sigs chan os.Signal
	done chan struct{}
}

// watchInterrupts starts taking SIGINT and SIGTERM; messages go to w.
func watchInterrupts(w io.Writer) *interrupts {
	in := &interrupts{drain: make(chan struct{}), w: w, sigs: make(chan os.Signal, 2), done: make(chan struct{})}
	in.ctx, in.cancel = context.WithCancel(context.Background())
	signal.Notify(in.sigs, os.Interrupt, syscall.SIGTERM)
	go in.watch() // exits when stop is called (or the process does)
	return in
}

func (in *interrupts) watch() {
	n := 0
	for {
		select {
		case <-in.done:
			return
		case sig := <-in.sigs:
			n++
			switch {
			case n >= 2:
				in.mu.Lock()
				again := in.again
				in.mu.Unlock()
				fmt.Fprintln(in.w, "\narena: second signal: exiting now; the games in flight are lost and played again on resume")
				if again != "" {
					fmt.Fprintf(in.w, "(the reports are as the last run left them; to play the rest, run again:\n  %s)\n", again)
				}
				engine.Exit(130)
			case sig == os.Interrupt:
				fmt.Fprintln(in.w, "\narena: finishing the games in flight, then stopping (Ctrl-C again to stop at once: they are then played again on resume)")
				close(in.drain)
			default:
				fmt.Fprintln(in.w, "\narena: stopping: games in flight are abandoned and will be replayed on resume (signal again to exit at once)")
				in.cancel()
			}
		}
	}
}

// resumeWith sets the command line a hard exit says resumes the run.
func (in *interrupts) resumeWith(again string) {
	in.mu.Lock()
	in.again = again
	in.mu.Unlock()
}

// untilDrain returns a context of ctx that the first Ctrl-C cancels too:
// for what a command does before it plays (reading openings, starting
// bots), which has nothing to finish.
func (in *interrupts) untilDrain(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() { // ends with ctx
		select {
		case <-in.drain:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// stop stops taking signals.
func (in *interrupts) stop() {
	signal.Stop(in.sigs)
	close(in.done)
	in.cancel()
}
