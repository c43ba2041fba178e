package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// The processes arena bench measures the runner with: a bot that costs
// next to nothing, and a raw pipe ping-pong between two processes, the
// floor of one request/reply exchange. Both work as a minimal C program
// does: raw read and write system calls on blocking pipes, and nothing
// allocated per exchange. The system calls are made without the Go
// scheduler's bookkeeping (rawRead, rawWrite): its hand-offs around a
// blocking call (waking the runtime's monitor thread as the call starts,
// a thread that may take the processor away while it waits) would cost
// these single-goroutine programs more than the exchange itself. With
// nothing allocated there is no garbage to collect either, and the
// collector is turned off, so that it never needs to stop a goroutine
// that waits in a raw system call.

func init() {
	register(command{
		name:    "bench-bot",
		summary: "the near-instant bot of arena bench",
		hidden:  true,
		run:     func(_ context.Context, args []string) error { return benchBot(args) },
	})
	register(command{
		name:    "bench-floor",
		summary: "the raw pipe ping-pong of arena bench",
		hidden:  true,
		run:     func(_ context.Context, args []string) error { return benchFloor(args) },
	})
}

// benchBot speaks the protocol on stdin/stdout with the least work: it
// asks for the legal moves and answers go with one of them, picked by a
// tiny generator seeded with its one argument; ping gets pong.
func benchBot(args []string) error {
	seed := uint64(1)
	if len(args) > 0 {
		n, err := strconv.ParseUint(args[0], 10, 64)
		if err != nil {
			return usagef("bench-bot: bad seed %q", args[0])
		}
		seed = n | 1
	}
	debug.SetGCPercent(-1)
	var (
		buf     = make([]byte, 1<<17)
		out     = make([]byte, 0, 256)
		have    int
		move    [64]byte // the chosen legal move
		moveLen = -1     // -1: no legal moves since the last go
	)
	for {
		n, err := rawRead(0, buf[have:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return nil // the arena is gone
		}
		have += n
		start := 0
		for {
			nl := bytes.IndexByte(buf[start:have], '\n')
			if nl < 0 {
				break
			}
			line := bytes.TrimRight(buf[start:start+nl], "\r")
			start += nl + 1
			cmd, rest, _ := bytes.Cut(line, []byte{' '})
			switch string(cmd) { // no allocation: the conversion is only compared
			case "arena":
				out = append(out, "id name bench\ngames cheversi checkers\nrequest legalmoves\narenaok\n"...)
			case "isready":
				out = append(out, "readyok\n"...)
			case "ping":
				out = append(append(append(out, "pong "...), rest...), '\n')
			case "legalmoves":
				if count := countFields(rest); count > 0 {
					seed ^= seed << 13
					seed ^= seed >> 7
					seed ^= seed << 17
					moveLen = copy(move[:], nthField(rest, int(seed%uint64(count))))
				}
			case "go":
				if moveLen < 0 {
					return errors.New("bench-bot: go without legal moves")
				}
				out = append(append(append(out, "move "...), move[:moveLen]...), '\n')
				moveLen = -1
			case "quit":
				return nil
			}
		}
		if len(out) > 0 {
			if err := writeAll(1, out); err != nil {
				return nil
			}
			out = out[:0]
		}
		have = copy(buf, buf[start:have])
		if have == len(buf) {
			return errors.New("bench-bot: line too long")
		}
	}
}

// countFields returns the number of space-separated fields of s.
func countFields(s []byte) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && (i == 0 || s[i-1] == ' ') {
			n++
		}
	}
	return n
}

// nthField returns the space-separated field k of s, counted from 0.
func nthField(s []byte, k int) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || (i > 0 && s[i-1] != ' ') {
			continue
		}
		if k--; k < 0 {
			j := i
			for j < len(s) && s[j] != ' ' {
				j++
			}
			return s[i:j]
		}
	}
	return nil
}

// rawRead reads from the file descriptor fd with a raw system call.
func rawRead(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// writeAll writes p to the file descriptor fd with raw system calls.
func writeAll(fd int, p []byte) error {
	for len(p) > 0 {
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return errno
		}
		p = p[n:]
	}
	return nil
}

// benchFloor runs "bench-floor N": it starts bench-bot on two blocking
// pipes, exchanges N ping/pong lines with it, and prints the mean time of
// one exchange in nanoseconds.
func benchFloor(args []string) error {
	if len(args) != 1 {
		return usagef("usage: arena bench-floor N")
	}
	rounds, err := strconv.Atoi(args[0])
	if err != nil || rounds < 1 {
		return usagef("bench-floor: bad count %q", args[0])
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	in, err := blockingPipe()
	if err != nil {
		return err
	}
	out, err := blockingPipe()
	if err != nil {
		return err
	}
	pid, err := syscall.ForkExec(self, []string{self, "bench-bot"}, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{uintptr(in[0]), uintptr(out[1]), 2},
	})
	syscall.Close(in[0])
	syscall.Close(out[1])
	if err != nil {
		return err
	}
	defer func() {
		syscall.Close(in[1])
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}()
	debug.SetGCPercent(-1)
	ping, buf := []byte("ping x\n"), make([]byte, 64)
	exchange := func() error {
		if err := writeAll(in[1], ping); err != nil {
			return err
		}
		for got := 0; got == 0 || buf[got-1] != '\n'; {
			n, err := rawRead(out[0], buf[got:])
			if err == syscall.EINTR {
				continue
			}
			if err != nil || n <= 0 {
				return fmt.Errorf("bench-floor: read: %v", err)
			}
			got += n
		}
		return nil
	}
	for range min(rounds, 1000) { // warm up
		if err := exchange(); err != nil {
			return err
		}
	}
	start := time.Now()
	for range rounds {
		if err := exchange(); err != nil {
			return err
		}
	}
	fmt.Println(time.Since(start).Nanoseconds() / int64(rounds))
	return nil
}

// blockingPipe returns a pipe whose ends are blocking file descriptors,
// closed on exec.
func blockingPipe() ([2]int, error) {
	var p [2]int
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(p[:]); err != nil {
		return p, err
	}
	syscall.CloseOnExec(p[0])
	syscall.CloseOnExec(p[1])
	return p, nil
}
