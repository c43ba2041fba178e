package engine

import (
	"fmt"
	"io"
	"sync"
)

// DefaultStderrLimit is the number of bytes of a bot's stderr kept in its
// log file per process when Spec.StderrLimit is 0.
const DefaultStderrLimit = 8 << 20

// cappedLog writes to w until limit bytes have been written, then writes one
// truncation note and silently discards the rest, so that a bot flooding its
// stderr can neither block nor fill the disk. It is safe for concurrent use:
// the stderr copier and the engine (noting ignored stdout lines) share it.
type cappedLog struct {
	mu        sync.Mutex
	w         io.Writer
	limit     int64 // < 0: unlimited
	written   int64
	dropped   int64
	truncated bool
	err       error // first write error; later writes are dropped
}

func newCappedLog(w io.Writer, limit int64) *cappedLog {
	return &cappedLog{w: w, limit: limit}
}

// Write always reports success so that an io.Copy feeding it keeps draining
// the pipe; write errors are remembered and returned by close.
func (l *cappedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	if l.err != nil || l.truncated {
		l.dropped += int64(n)
		return n, nil
	}
	if l.limit >= 0 && l.written+int64(len(p)) > l.limit {
		keep := l.limit - l.written
		l.write(p[:keep])
		l.dropped += int64(len(p)) - keep
		l.truncated = true
		l.write(fmt.Appendf(nil, "\n[arena: log truncated after %d bytes]\n", l.limit))
		return n, nil
	}
	l.write(p)
	l.written += int64(len(p))
	return n, nil
}

func (l *cappedLog) write(p []byte) {
	if l.err != nil || len(p) == 0 {
		return
	}
	if _, err := l.w.Write(p); err != nil {
		l.err = err
	}
}

// notef writes an arena note (a line starting with "[arena: ") that counts
// towards the limit like the bot's own output.
func (l *cappedLog) notef(format string, args ...any) {
	if l == nil {
		return
	}
	_, _ = l.Write(fmt.Appendf(nil, "[arena: "+format+"]\n", args...))
}

// finish records how much was dropped and returns the first write error.
func (l *cappedLog) finish() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dropped > 0 && l.err == nil {
		l.write(fmt.Appendf(nil, "[arena: %d bytes of output dropped]\n", l.dropped))
	}
	return l.err
}
