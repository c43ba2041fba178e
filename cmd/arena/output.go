package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// stopOnClosedOutput returns a context that is canceled, like an
// interrupt, when whatever reads the arena's standard output or error goes
// away (arena run ... | head): the command then winds down as after Ctrl-C
// instead of dying of SIGPIPE. closed reports whether that happened.
// stop releases the signal watch.
func stopOnClosedOutput(parent context.Context) (ctx context.Context, closed func() bool, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	var gone atomic.Bool
	// Watching SIGPIPE turns a write to a closed pipe into an EPIPE error
	// for standard output and error too. A bot's closed pipe raises it as
	// well: only a closed standard output or error stops the command.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() { // ends when stop is called
		for {
			select {
			case <-done:
				return
			case <-sigs:
				if outputClosed() {
					gone.Store(true)
					cancel()
				}
			}
		}
	}()
	return ctx, gone.Load, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// outputClosed reports whether standard output or error is a pipe whose
// reader has gone.
func outputClosed() bool {
	fds := []unix.PollFd{{Fd: 1, Events: unix.POLLOUT}, {Fd: 2, Events: unix.POLLOUT}}
	if _, err := unix.Poll(fds, 0); err != nil {
		return false
	}
	for _, f := range fds {
		if f.Revents&unix.POLLERR != 0 {
			return true
		}
	}
	return false
}
