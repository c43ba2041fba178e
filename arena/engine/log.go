package engine

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
)

// DefaultLogLimit is the size a Log keeps when OpenLog is given 0, and the
// cap of a bot's stderr log when Spec.StderrLimit is 0.
const DefaultLogLimit = 8 << 20

// Log is a bot's log file, shared by every process of the bot (a
// tournament restarts a bot that breaks): the bots' stderr, the arena's
// notes about them (lines starting with "[arena: ") and any lines the
// caller adds, such as protocol transcripts. It is safe for concurrent use.
//
// A Log is capped so that a flooding bot can neither block nor fill the
// disk. Past the cap it keeps writing nothing to the file but holds the
// newest output in memory (a quarter of the cap, at most 256 KiB), and
// Flush writes that tail after a note saying how much was dropped, in
// place of the previous tail. A bot's last words before a crash thus stay
// in the log however much it wrote before. Engines flush the log when a
// process of the bot ends; Close flushes it too.
type Log struct {
	mu      sync.Mutex
	f       *os.File
	limit   int64 // < 0: unlimited
	size    int64 // bytes of the file before the tail
	tail    []byte
	tailCap int
	full    bool  // the cap was reached: output goes to tail
	dropped int64 // bytes of output not in the file (tail included)
	nl      bool  // the last byte written ends a line (or nothing was written)
	err     error // the first write error; later writes are dropped
}

// OpenLog opens (creating it if needed) the log file at path for
// appending. limit caps the bytes the file may take: 0 means
// DefaultLogLimit, a negative value no cap. A file that exists already
// counts towards the cap.
func OpenLog(path string, limit int64) (*Log, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return nil, err
	}
	return newLog(f, size, limit), nil
}

func newLog(f *os.File, size, limit int64) *Log {
	if limit == 0 {
		limit = DefaultLogLimit
	}
	l := &Log{f: f, limit: limit, size: size, nl: true}
	if limit >= 0 {
		l.tailCap = int(min(limit/4, 256<<10))
		l.full = size >= limit-int64(l.tailCap)
	}
	return l
}

// Write adds p (a bot's raw output) to the log. It always reports success,
// so that a copy feeding it keeps draining the bot's pipe; write errors
// are returned by Flush and Close.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.add(p)
	return len(p), nil
}

// Line adds one line of text (a line end is appended), starting on a line
// of its own.
func (l *Log) Line(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.nl {
		l.add([]byte{'\n'})
	}
	l.add(append([]byte(text), '\n'))
}

// Notef adds an arena note, a line "[arena: ...]". A nil Log drops it.
func (l *Log) Notef(format string, args ...any) {
	if l == nil {
		return
	}
	l.Line(fmt.Sprintf("[arena: "+format+"]", args...))
}

// add writes p to the file, or to the tail once the cap is reached. l.mu
// is held.
func (l *Log) add(p []byte) {
	if len(p) == 0 {
		return
	}
	l.nl = p[len(p)-1] == '\n'
	if !l.full {
		room := int64(len(p))
		if l.limit >= 0 {
			room = min(room, l.limit-int64(l.tailCap)-l.size)
		}
		l.write(p[:room])
		l.size += room
		p = p[room:]
		if len(p) == 0 {
			return
		}
		l.full = true
	}
	l.dropped += int64(len(p))
	if len(p) >= l.tailCap {
		l.tail = append(l.tail[:0], p[len(p)-l.tailCap:]...)
		return
	}
	if over := len(l.tail) + len(p) - l.tailCap; over > 0 {
		l.tail = l.tail[:copy(l.tail, l.tail[over:])]
	}
	l.tail = append(l.tail, p...)
}

func (l *Log) write(p []byte) {
	if l.err != nil || len(p) == 0 {
		return
	}
	if _, err := l.f.WriteAt(p, l.size); err != nil {
		l.err = err
	}
}

// Flush writes the newest output kept past the cap, if any, with a note of
// how much was dropped, over the tail written by the previous Flush. It
// returns the first write error the log met.
func (l *Log) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.flush()
}

func (l *Log) flush() error {
	if l.f == nil {
		return l.err
	}
	if l.full && l.err == nil && l.dropped > 0 {
		tail := l.tail
		if i := bytes.IndexByte(tail, '\n'); i >= 0 && i+1 < len(tail) && int64(len(tail)) < l.dropped {
			tail = tail[i+1:] // start at a line
		}
		note := fmt.Appendf(nil, "\n[arena: log capped at %d bytes: %d bytes of output dropped; the newest %d follow]\n",
			l.limit, l.dropped-int64(len(tail)), len(tail))
		if err := l.f.Truncate(l.size); err != nil {
			l.err = err
			return err
		}
		if _, err := l.f.WriteAt(append(note, tail...), l.size); err != nil {
			l.err = err
		}
	}
	return l.err
}

// Close flushes the log and closes its file. It is safe to call more than
// once.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return l.err
	}
	err := l.flush()
	if cerr := l.f.Close(); cerr != nil && err == nil {
		err = cerr
	}
	l.f = nil
	if err != nil {
		return fmt.Errorf("log: %w", err)
	}
	return nil
}
