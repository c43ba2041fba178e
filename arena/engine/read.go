package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arena-games/arena/protocol"
)

// The reply path. A call reads the bot's answer itself, in the caller's
// goroutine, straight from the pipe: the Go runtime parks the goroutine
// on the pipe until the bot writes, so an answer costs one wake-up and no
// hand-off between goroutines. The gate sets the pipes' deadlines; Close,
// the caller's context and the bot's exit cut them short to interrupt a
// read or write in progress.

// gate holds the deadlines of the arena's ends of a bot's pipes. A call
// sets the deadline it needs; Close, the end of the call's context and the
// bot's exit cut it short (an exit only after exitDrain, to take the last
// lines the bot wrote). Its methods are safe for concurrent use.
type gate struct {
	mu       sync.Mutex
	in, out  *os.File  // the bot's stdin (written) and stdout (read)
	read     time.Time // the current call's read deadline; zero: none
	canceled bool      // the current call's context is done
	closed   bool      // the Engine is closing: reads and writes stop now
	off      bool      // Close owns the pipes: the gate sets nothing more
	exitedAt time.Time // when the bot exited; zero while it runs
}

// longAgo is a deadline in the past: it stops a read or write at once.
var longAgo = time.Unix(1, 0)

// applyRead sets the read deadline from the gate's state; g.mu is held.
func (g *gate) applyRead() {
	if g.off || g.out == nil {
		return
	}
	d := g.read
	if !g.exitedAt.IsZero() {
		if cut := g.exitedAt.Add(exitDrain); d.IsZero() || cut.Before(d) {
			d = cut
		}
	}
	if g.closed || g.canceled {
		d = longAgo
	}
	_ = g.out.SetReadDeadline(d)
}

// update changes the gate's state with change and applies the read
// deadline that follows.
func (g *gate) update(change func()) {
	g.mu.Lock()
	change()
	g.applyRead()
	g.mu.Unlock()
}

// begin starts a call: no deadline, not canceled.
func (g *gate) begin() { g.update(func() { g.read, g.canceled = time.Time{}, false }) }

// setRead sets the current call's read deadline (zero: none).
func (g *gate) setRead(d time.Time) { g.update(func() { g.read = d }) }

// setWrite sets the write deadline of the next write (zero: none).
func (g *gate) setWrite(d time.Time) {
	g.mu.Lock()
	if g.closed || g.canceled {
		d = longAgo
	}
	if !g.off {
		_ = g.in.SetWriteDeadline(d)
	}
	g.mu.Unlock()
}

// cancel stops the current call's reads and writes: its context is done.
func (g *gate) cancel() { g.stop(func() { g.canceled = true }) }

// close stops every read and write for good.
func (g *gate) close() { g.stop(func() { g.closed = true }) }

func (g *gate) stop(mark func()) {
	g.mu.Lock()
	mark()
	if !g.off {
		_ = g.in.SetWriteDeadline(longAgo)
		g.applyRead()
	}
	g.mu.Unlock()
}

// exited records that the bot exited at t: reads end exitDrain later.
func (g *gate) exited(t time.Time) { g.update(func() { g.exitedAt = t }) }

// exitTime returns when the bot exited, if it has.
func (g *gate) exitTime() (time.Time, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.exitedAt, !g.exitedAt.IsZero()
}

// release hands the pipes to Close: no deadlines from now on.
func (g *gate) release() {
	g.mu.Lock()
	g.off = true
	_ = g.out.SetReadDeadline(time.Time{})
	g.mu.Unlock()
}

// pipeSource is the bot's stdout as the line reader's source. A plain read
// waits for output (under the gate's deadline); in poll mode a read takes
// only what the pipe holds and fails with errNoOutput when it is empty.
type pipeSource struct {
	f    *os.File
	rc   syscall.RawConn
	poll bool
}

// errNoOutput is a poll-mode read's error for an empty pipe.
var errNoOutput = errors.New("no output waiting")

func newPipeSource(f *os.File) (*pipeSource, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	return &pipeSource{f: f, rc: rc}, nil
}

func (s *pipeSource) Read(p []byte) (int, error) {
	if !s.poll {
		return s.f.Read(p)
	}
	var (
		n     int
		errno error
	)
	err := s.rc.Read(func(fd uintptr) bool {
		for {
			n, errno = syscall.Read(int(fd), p)
			if errno != syscall.EINTR {
				return true // never wait: poll mode takes what is there
			}
		}
	})
	switch {
	case err != nil:
		return 0, err // a deadline, or the file closed
	case errno == syscall.EAGAIN:
		return 0, errNoOutput
	case errno != nil:
		return 0, &os.PathError{Op: "read", Path: s.f.Name(), Err: errno}
	case n == 0 && len(p) > 0:
		return 0, io.EOF
	}
	return n, nil
}

// MaxInfoText bounds the text a Reply keeps of an info line: Raw and
// String are cut to MaxInfoText bytes, and PV keeps the leading moves that
// fit in as many.
const MaxInfoText = 1 << 10

// maxParsedInfo is how many info lines of one move are parsed as they
// arrive. Beyond it only the newest line is kept, unparsed, and parsed
// when the move comes, so that a bot streaming info lines costs a copy per
// line and no memory.
const maxParsedInfo = 256

// infoKeeper keeps the last well-formed info line of a move.
type infoKeeper struct {
	last   protocol.Info // the last well-formed info line parsed
	has    bool
	parsed int    // info lines parsed so far
	newest string // the newest info line, when not parsed (beyond maxParsedInfo)
}

// add takes one info line. A malformed line is returned as an error for
// the caller to ignore.
func (k *infoKeeper) add(line string) error {
	if k.parsed >= maxParsedInfo {
		k.newest = line
		return nil
	}
	k.parsed++
	return k.parse(line)
}

func (k *infoKeeper) parse(line string) error {
	m, err := protocol.Parse(line)
	if err != nil {
		return err
	}
	k.last, k.has = m.(protocol.Info), true
	return nil
}

// result parses the newest unparsed line, if any, and returns a compact
// copy of the last well-formed info line, nil if there was none. The error
// is that of a malformed newest line.
func (k *infoKeeper) result() (*protocol.Info, error) {
	var err error
	if k.newest != "" {
		err = k.parse(k.newest)
		k.newest = ""
	}
	if !k.has {
		return nil, err
	}
	return compactInfo(k.last), err
}

// compactInfo returns a copy of in that shares no memory with the line it
// was parsed from, its texts cut to MaxInfoText bytes.
func compactInfo(in protocol.Info) *protocol.Info {
	out := in
	out.Raw = strings.Clone(clipText(in.Raw, MaxInfoText))
	out.String = strings.Clone(clipText(in.String, MaxInfoText))
	out.PV = nil
	n, size := 0, 0
	for n < len(in.PV) && size+len(in.PV[n]) <= MaxInfoText {
		size += len(in.PV[n]) + 1
		n++
	}
	if n > 0 {
		out.PV = strings.Fields(strings.Join(in.PV[:n], " "))
	}
	return &out
}

// clipText cuts s to at most n bytes without splitting a UTF-8 sequence.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// firstWord returns the first word of line (words are separated by spaces
// and tabs), "" for a blank line.
func firstWord(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	for j < len(line) && line[j] != ' ' && line[j] != '\t' {
		j++
	}
	return line[i:j]
}

// drain handles the lines the bot wrote since the last exchange, as far as
// they have reached the pipe, without waiting: info lines and stale pongs
// are dropped, pings answered, and a move or any other message nobody
// asked for is a protocol violation. A bot whose output has ended fails
// here, before anything is sent.
func (e *Engine) drain(ctx context.Context, op string) error {
	const what = "the next request"
	e.src.poll = true
	defer func() { e.src.poll = false }()
	unknown := 0
	for {
		line, err := e.lr.ReadLine()
		switch {
		case errors.Is(err, errNoOutput):
			return nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			if err := e.interrupted(ctx, op, what, time.Time{}, time.Time{}); err != nil {
				return err
			}
			return nil // a cut meant for an earlier call
		case err != nil:
			return e.readFailure(op, what, err)
		}
		if _, err := e.handleLine(ctx, op, "nothing", line, time.Time{}, nil, nil, &unknown); err != nil {
			return err
		}
	}
}

// await reads the bot's lines, passing each message to handle, until
// handle reports done, the deadline passes (zero: no deadline), ctx is
// done, the Engine is closed, or the bot exits, closes its output or
// breaks the protocol. Info lines go to keep (nil: they are dropped
// unparsed). what names the awaited answer in errors; began is when the
// exchange started, for the timeout message.
func (e *Engine) await(ctx context.Context, op, what string, began, deadline time.Time,
	keep *infoKeeper, handle func(protocol.Message) (bool, error)) error {
	e.gate.setRead(deadline)
	unknown := 0
	for {
		line, err := e.lr.ReadLine()
		if err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				return e.readFailure(op, what, err)
			}
			if err := e.interrupted(ctx, op, what, began, deadline); err != nil {
				return err
			}
			e.gate.setRead(deadline) // a cut meant for an earlier call: go on
			continue
		}
		done, err := e.handleLine(ctx, op, what, line, deadline, keep, handle, &unknown)
		if err != nil || done {
			return err
		}
	}
}

// interrupted explains a read cut short by the gate: the Engine closed,
// ctx done, the bot exited (and exitDrain has passed), or the deadline
// passed. It returns nil for a cut that concerns none of these (one meant
// for an earlier call).
func (e *Engine) interrupted(ctx context.Context, op, what string, began, deadline time.Time) error {
	switch {
	case isClosed(e.closing):
		return e.closedErr(op)
	case ctx.Err() != nil:
		return e.fail(KindCanceled, op, ctx.Err())
	}
	if at, ok := e.gate.exitTime(); ok && time.Since(at) >= exitDrain {
		return e.fail(KindCrash, op, fmt.Errorf("%s while awaiting %s", e.proc.exitStatus(), what))
	}
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		return e.fail(KindTimeout, op, fmt.Errorf("no %s within %v", what, deadline.Sub(began).Round(time.Millisecond)))
	}
	return nil
}

// handleLine deals with one line of the bot's output and reports whether
// handle declared the exchange done. Blank lines are skipped; info lines go
// to keep, or are dropped unparsed when keep is nil. Lines the protocol
// says to ignore are counted in *unknown (too many is a violation); pings
// are answered by the deadline (zero: within the handshake timeout); every
// other message goes to handle, or, when handle is nil (between
// exchanges), must be a stale pong.
func (e *Engine) handleLine(ctx context.Context, op, what, line string, deadline time.Time,
	keep *infoKeeper, handle func(protocol.Message) (bool, error), unknown *int) (bool, error) {
	switch firstWord(line) {
	case "":
		return false, nil
	case "info":
		if keep == nil {
			return false, nil
		}
		if err := keep.add(line); err != nil {
			return false, e.ignore(op, what, err, unknown)
		}
		return false, nil
	}
	m, err := protocol.Parse(line)
	if err != nil {
		if !ignorable(err) {
			return false, e.fail(KindProtocol, op, err)
		}
		return false, e.ignore(op, what, err, unknown)
	}
	if p, ok := m.(protocol.Ping); ok {
		if deadline.IsZero() {
			deadline = time.Now().Add(e.handshake)
		}
		return false, e.send(ctx, op, deadline, protocol.Pong{Token: p.Token})
	}
	if handle == nil {
		switch m.(type) {
		case protocol.Pong:
			return false, nil
		case protocol.Move:
			return false, e.fail(KindProtocol, op, fmt.Errorf("%w: a move nobody asked for: %q",
				protocol.ErrUnexpected, formatMessage(m)))
		}
		return false, e.fail(KindProtocol, op, unexpected(m, what))
	}
	done, err := handle(m)
	if err != nil {
		return false, e.fail(KindProtocol, op, err)
	}
	return done, nil
}

// ignore counts an ignored line, notes it in the log, and fails when too
// many have come while awaiting one answer.
func (e *Engine) ignore(op, what string, err error, unknown *int) error {
	e.unknown.Add(1)
	var pe *protocol.ProtocolError
	if errors.As(err, &pe) {
		e.proc.log.Notef("ignored output line %q", clipText(pe.Line, MaxInfoText))
	}
	if *unknown++; *unknown > MaxUnknownLines {
		return e.fail(KindProtocol, op, fmt.Errorf("more than %d unknown lines while awaiting %s", MaxUnknownLines, what))
	}
	return nil
}

// ignorable reports whether a parse error concerns a line the protocol
// says to ignore: an unknown command, or an info line with bad fields.
func ignorable(err error) bool {
	if errors.Is(err, protocol.ErrUnknownCommand) {
		return true
	}
	var pe *protocol.ProtocolError
	return errors.As(err, &pe) && errors.Is(err, protocol.ErrSyntax) && firstWord(pe.Line) == "info"
}

// readFailure turns the end of the bot's output, or a read error, into an
// *Error.
func (e *Engine) readFailure(op, what string, err error) error {
	switch {
	case isClosed(e.closing):
		return e.closedErr(op)
	case errors.Is(err, protocol.ErrLineTooLong), errors.Is(err, protocol.ErrNotUTF8):
		return e.fail(KindProtocol, op, err)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return e.fail(KindCrash, op, fmt.Errorf("%s while awaiting %s", e.gone("closed its output"), what))
	}
	return e.fail(KindCrash, op, fmt.Errorf("read from the bot: %w", err))
}
