package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// The processes arena bench measures the runner with: a bot that costs
// next to nothing, and a raw pipe ping-pong between two processes, the
// floor of one request/reply exchange. Both talk through raw read and
// write system calls on blocking pipes, as a minimal C program does.

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
	var (
		buf  = make([]byte, 1<<17)
		out  = make([]byte, 0, 256)
		have int
		move []byte // the chosen legal move; points into buf until go
		keep [64]byte
	)
	for {
		n, err := syscall.Read(0, buf[have:])
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
			switch string(cmd) {
			case "arena":
				out = append(out, "id name bench\ngames cheversi checkers\nrequest legalmoves\narenaok\n"...)
			case "isready":
				out = append(out, "readyok\n"...)
			case "ping":
				out = append(append(append(out, "pong "...), rest...), '\n')
			case "legalmoves":
				fields := bytes.Fields(rest)
				if len(fields) > 0 {
					seed ^= seed << 13
					seed ^= seed >> 7
					seed ^= seed << 17
					move = append(keep[:0], fields[seed%uint64(len(fields))]...)
				}
			case "go":
				if move == nil {
					return errors.New("bench-bot: go without legal moves")
				}
				out = append(append(append(out, "move "...), move...), '\n')
				move = nil
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

// writeAll writes p to the file descriptor fd.
func writeAll(fd int, p []byte) error {
	for len(p) > 0 {
		n, err := syscall.Write(fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
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
	ping, buf := []byte("ping x\n"), make([]byte, 64)
	exchange := func() error {
		if err := writeAll(in[1], ping); err != nil {
			return err
		}
		for got := 0; got == 0 || buf[got-1] != '\n'; {
			n, err := syscall.Read(out[0], buf[got:])
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
