package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arena-games/arena/protocol"
)

// The reply path. A call reads the bot's answer itself, in the caller's
// goroutine, straight from the pipe. The arena's ends of the bot's stdin
// and stdout are outside the Go runtime's network poller, in non-blocking
// mode: a call that must wait blocks in poll(2) on the pipe and on the
// Engine's wake-up descriptor, so that the kernel wakes the calling thread
// itself when the bot writes, and the reply costs one poll and one read:
// no goroutine parks and no other thread is woken to hand it over, and no
// timer is set for the deadline (it is the poll's timeout). The gate holds
// what may cut a wait short: Close, the end of the call's context and the
// bot's exit change its state and wake the poll, and the waiting call then
// sees why and stops.

// gate holds the state that bounds the reads and writes of the arena's
// ends of a bot's pipes: the current call's read deadline and context, the
// write deadline, whether the Engine is closing, and when the bot exited
// (reads end exitDrain later, after taking the last lines the bot wrote).
// Its methods are safe for concurrent use; only the Engine's calls, and
// Close's drainer, wait on it, one at a time.
type gate struct {
	mu        sync.Mutex
	ctx       context.Context // the current call's context; nil between calls
	read      time.Time       // the current call's read deadline; zero: none
	write     time.Time       // the deadline of the next write; zero: none
	quitting  bool            // Close is writing quit: the call's context and closed do not apply to that write
	closed    bool            // the Engine is closing: reads and writes stop now
	discarded bool            // Close's drainer stops
	exitedAt  time.Time       // when the bot exited; zero while it runs

	wakeR, wakeW int  // the wake-up descriptor: polled, and written to wake the poll
	wakeOff      bool // the wake-up descriptor is closed

	yielded atomic.Int64 // when a wait last passed through Go's scheduler (Unix nanoseconds)

	// The context whose end wakes the poll: registered once and kept
	// while calls come with contexts of the same Done channel.
	watched <-chan struct{}
	unwatch func() bool
}

// errCut is the error of a read or write cut short by the gate: the
// Engine closed, the call's context ended, the deadline passed or the bot
// exited. The caller asks the Engine which (see interrupted).
var errCut = os.ErrDeadlineExceeded

// newGate returns a gate with its wake-up descriptor; release closes it.
func newGate() (*gate, error) {
	r, w, err := newWakeFD()
	if err != nil {
		return nil, err
	}
	return &gate{wakeR: r, wakeW: w}, nil
}

// wake makes a wait in progress, or the next one, return; g.mu is held.
func (g *gate) wake() {
	if !g.wakeOff {
		wakeWrite(g.wakeW)
	}
}

// begin starts a call under ctx, with no deadline yet; end ends it.
func (g *gate) begin(ctx context.Context) {
	g.mu.Lock()
	g.ctx, g.read = ctx, time.Time{}
	g.mu.Unlock()
}

// watch makes the end of the current call's context wake the gate's
// waits. It is called before a wait, so that a call that never waits (as
// most writes do not) costs no watch, and it asks the context to tell the
// gate only if an earlier call's context with the same Done channel is
// not watched already (the calls of one game share one).
func (g *gate) watch() {
	g.mu.Lock()
	ctx := g.ctx
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	if done == nil || done == g.watched {
		g.mu.Unlock()
		return
	}
	g.mu.Unlock()
	unwatch := context.AfterFunc(ctx, g.wakeUp)
	g.mu.Lock()
	old := g.unwatch
	g.watched, g.unwatch = done, unwatch
	g.mu.Unlock()
	if old != nil {
		old()
	}
}

// end ends a call.
func (g *gate) end() {
	g.mu.Lock()
	g.ctx = nil
	g.mu.Unlock()
}

// wakeUp wakes a wait in progress, or the next one.
func (g *gate) wakeUp() {
	g.mu.Lock()
	g.wake()
	g.mu.Unlock()
}

// setRead sets the current call's read deadline (zero: none).
func (g *gate) setRead(d time.Time) {
	g.mu.Lock()
	g.read = d
	g.mu.Unlock()
}

// setWrite sets the deadline of the next write (zero: none). That write
// is a call's: Close's leave to write quit does not extend to it.
func (g *gate) setWrite(d time.Time) {
	g.mu.Lock()
	g.write, g.quitting = d, false
	g.mu.Unlock()
}

// quit lets Close write quit by deadline d, whatever the call's context.
func (g *gate) quit(d time.Time) {
	g.mu.Lock()
	g.write, g.quitting = d, true
	g.mu.Unlock()
}

// close stops every read and write for good.
func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.wake()
	g.mu.Unlock()
}

// exited records that the bot exited at t: reads end exitDrain later.
func (g *gate) exited(t time.Time) {
	g.mu.Lock()
	g.exitedAt = t
	g.wake()
	g.mu.Unlock()
}

// exitTime returns when the bot exited, if it has.
func (g *gate) exitTime() (time.Time, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.exitedAt, !g.exitedAt.IsZero()
}

// stopDiscard ends Close's drainer.
func (g *gate) stopDiscard() {
	g.mu.Lock()
	g.discarded = true
	g.wake()
	g.mu.Unlock()
}

// release closes the wake-up descriptor, once nothing waits on the gate
// any more, and stops watching the last call's context; a later exit is
// still recorded.
func (g *gate) release() {
	g.mu.Lock()
	if !g.wakeOff {
		g.wakeOff = true
		closeWakeFD(g.wakeR, g.wakeW)
	}
	unwatch := g.unwatch
	g.watched, g.unwatch = nil, nil
	g.mu.Unlock()
	if unwatch != nil {
		unwatch()
	}
}

// exitCut reports whether the bot's exit is all that cuts a read short:
// the bot has exited, the Engine is not closing, the call's context has
// not ended and its read deadline has not passed.
func (g *gate) exitCut() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.exitedAt.IsZero() && !g.closed && (g.ctx == nil || g.ctx.Err() == nil) &&
		(g.read.IsZero() || time.Now().Before(g.read))
}

// readLimit returns until when a read may wait (zero: no limit), or errCut
// if it must stop now.
func (g *gate) readLimit() (time.Time, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.ctx != nil && g.ctx.Err() != nil {
		return time.Time{}, errCut
	}
	d := g.read
	if !g.exitedAt.IsZero() {
		if cut := g.exitedAt.Add(exitDrain); d.IsZero() || cut.Before(d) {
			d = cut
		}
	}
	if !d.IsZero() && !time.Now().Before(d) {
		return time.Time{}, errCut
	}
	return d, nil
}

// writeLimit returns until when a write may wait (zero: no limit), or
// errCut if it must stop now.
func (g *gate) writeLimit() (time.Time, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.quitting {
		if !g.write.IsZero() && !time.Now().Before(g.write) {
			return time.Time{}, errCut
		}
		return g.write, nil
	}
	if g.closed || g.ctx != nil && g.ctx.Err() != nil {
		return time.Time{}, errCut
	}
	if !g.write.IsZero() && !time.Now().Before(g.write) {
		return time.Time{}, errCut
	}
	return g.write, nil
}

// discardStopped reports whether Close's drainer should stop.
func (g *gate) discardStopped() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.discarded
}

// wait blocks until fd is ready for events (unix.POLLIN or unix.POLLOUT),
// the gate wakes it, a signal arrives, or limit passes (zero: no limit).
// It reports whether fd is ready; if not, the caller checks the gate again.
// When w is not nil the same poll(2) looks at the output w watches, at no
// extra system call, and tells w what it saw (see idleWatch).
func (g *gate) wait(fd int, events int16, limit time.Time, w *idleWatch) (bool, error) {
	g.watch()
	g.yield()
	fds := [3]unix.PollFd{{Fd: int32(fd), Events: events}, {Fd: int32(g.wakeR), Events: unix.POLLIN}, {Fd: -1}}
	n := 2
	if w.active() {
		fds[2] = unix.PollFd{Fd: w.out.fd, Events: unix.POLLIN}
		n = 3
	}
	if err := pollFDs(fds[:n], limit); err != nil {
		return false, err
	}
	if fds[1].Revents != 0 {
		wakeClear(g.wakeR)
	}
	if n == 3 {
		w.saw(fds[2].Revents != 0)
	}
	return fds[0].Revents != 0, nil
}

// yieldInterval is how often the waits on a gate pass through Go's
// scheduler (see yield): well within the 10 ms after which the runtime
// preempts a goroutine that has not.
const yieldInterval = 5 * time.Millisecond

// yield passes through Go's scheduler if the waits on g have not for
// yieldInterval. A goroutine that plays games with quick bots waits for
// every reply in poll(2), a system call, and so never passes through the
// scheduler by itself. After 10 ms the runtime takes it for one that hogs
// its processor: it interrupts its wait with a signal, takes its processor
// away and then checks every 20 µs for a while, which costs the arena more
// CPU than the games. A yield every few milliseconds, at the cost of one
// wake-up of another thread, prevents that.
func (g *gate) yield() {
	now := time.Now().UnixNano()
	if last := g.yielded.Load(); now-last >= int64(yieldInterval) && g.yielded.CompareAndSwap(last, now) {
		runtime.Gosched()
	}
}

// pollFDs waits until one of fds is ready, or until the time limit (zero:
// none). A signal ends the wait early with no descriptor ready.
func pollFDs(fds []unix.PollFd, limit time.Time) error {
	timeout := time.Duration(-1)
	if !limit.IsZero() {
		timeout = max(time.Until(limit), 0)
	}
	switch err := poll(fds, timeout); err {
	case nil, unix.EINTR:
		return nil
	default:
		return os.NewSyscallError("poll", err)
	}
}

// errWouldBlock is the error of a read or write that would have to wait.
var errWouldBlock = syscall.EAGAIN

// pipeEnd is one of the arena's ends of a bot's pipes: a file outside the
// runtime's poller whose descriptor is in non-blocking mode, used through
// its RawConn so that closing it while a call uses it is safe.
type pipeEnd struct {
	f  *os.File
	rc syscall.RawConn
}

// newPipeEnd puts f's descriptor in non-blocking mode for the reply path.
func newPipeEnd(f *os.File) (pipeEnd, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return pipeEnd{}, err
	}
	var errno error
	if err := rc.Control(func(fd uintptr) { errno = syscall.SetNonblock(int(fd), true) }); err != nil {
		return pipeEnd{}, err
	}
	if errno != nil {
		return pipeEnd{}, os.NewSyscallError("fcntl", errno)
	}
	return pipeEnd{f: f, rc: rc}, nil
}

// readOnce reads what the pipe holds, waiting for it (on s.g, until
// limit) unless noWait: then an empty pipe is errWouldBlock. The read's
// arguments and results pass through s, to a function made once, so that a
// read allocates nothing.
func (s *pipeSource) readOnce(b []byte, noWait bool, limit func() (time.Time, error)) (int, error) {
	s.rb, s.noWait, s.limit = b, noWait, limit
	cerr := s.p.rc.Read(s.readFD)
	n, err := s.rn, s.rerr
	s.rb, s.limit, s.rn, s.rerr = nil, nil, 0, nil
	if cerr != nil {
		return 0, cerr
	}
	return n, err
}

// readFromFD is readOnce on the pipe's descriptor.
func (s *pipeSource) readFromFD(fd uintptr) bool {
	for {
		if s.noWait {
			s.rn, s.rerr = s.p.sysRead(int(fd), s.rb)
			return true
		}
		var lim time.Time
		if lim, s.rerr = s.limit(); s.rerr != nil {
			s.lastLook(fd)
			return true
		}
		ready, err := s.g.wait(int(fd), unix.POLLIN, lim, &s.watch)
		if err != nil {
			s.rerr = err
			return true
		}
		if !ready {
			continue // woken, interrupted or timed out: check the limit again
		}
		if s.rn, s.rerr = s.p.sysRead(int(fd), s.rb); s.rerr != errWouldBlock {
			return true
		}
	}
}

// lastLookMax bounds what the reads cut short by the bot's exit still take
// from the pipe (see lastLook): what a pipe holds.
const lastLookMax = 64 << 10

// lastLook takes, when the bot's exit alone has cut a read short, what the
// pipe still holds, without waiting: the lines the bot wrote before it
// exited are its answer even when the arena, not scheduled for a while,
// comes to read them after exitDrain. At most lastLookMax bytes in all are
// taken so, so that a process the bot left behind cannot keep the call
// reading.
func (s *pipeSource) lastLook(fd uintptr) {
	if s.looked >= lastLookMax || !s.g.exitCut() {
		return
	}
	b := s.rb[:min(len(s.rb), lastLookMax-s.looked)]
	if n, err := s.p.sysRead(int(fd), b); err == nil && n > 0 {
		s.looked += n
		s.rn, s.rerr = n, nil
	}
}

// sysRead reads once from fd without waiting: an empty pipe is
// errWouldBlock, the end of the output io.EOF.
func (p pipeEnd) sysRead(fd int, b []byte) (int, error) {
	for {
		n, errno := rawRead(fd, b)
		switch {
		case errno == syscall.EINTR:
			continue
		case errno == syscall.EAGAIN:
			return 0, errWouldBlock
		case errno != 0:
			return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: errno}
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// pipeSource is the bot's stdout as the line reader's source. A read waits
// for output (under the gate's limits); in poll mode a read takes only
// what the pipe holds and fails with errNoOutput when it is empty. Reads
// are made one at a time: by the Engine's calls, which hold callMu, then
// by Close's drainer.
type pipeSource struct {
	g      *gate
	p      pipeEnd
	poll   bool
	looked int       // bytes taken by lastLook
	watch  idleWatch // another bot's output the waits look at too, if any

	readFD    func(fd uintptr) bool     // s.readFromFD, bound once
	readLimit func() (time.Time, error) // s.g.readLimit, bound once

	// The read in progress (see readOnce).
	rb     []byte
	noWait bool
	limit  func() (time.Time, error)
	rn     int
	rerr   error
}

// newPipeSource returns the bot's stdout p as a source under g.
func newPipeSource(g *gate, p pipeEnd) *pipeSource {
	s := &pipeSource{g: g, p: p, readLimit: g.readLimit}
	s.readFD = s.readFromFD
	return s
}

// errNoOutput is a poll-mode read's error for an empty pipe.
var errNoOutput = errors.New("no output waiting")

func (s *pipeSource) Read(b []byte) (int, error) {
	if s.poll {
		if _, err := s.g.readLimit(); err != nil {
			return 0, err
		}
		n, err := s.readOnce(b, true, nil)
		if err == errWouldBlock {
			return 0, errNoOutput
		}
		return n, err
	}
	return s.readOnce(b, false, s.readLimit)
}

// discard reads and drops the bot's output until it ends or the gate's
// stopDiscard, so that a quitting bot cannot block on a full pipe.
func (s *pipeSource) discard() {
	var buf [4096]byte
	limit := func() (time.Time, error) {
		if s.g.discardStopped() {
			return time.Time{}, errCut
		}
		return time.Time{}, nil
	}
	for {
		if _, err := s.readOnce(buf[:], false, limit); err != nil {
			return
		}
	}
}

// pipeSink is the bot's stdin as the protocol writer's destination: a
// write waits for room in the pipe under the gate's limits. Writes are
// made one at a time (the Engine's wmu); like a pipeSource's reads, their
// arguments and results pass through the sink to a function made once.
type pipeSink struct {
	g       *gate
	p       pipeEnd
	writeFD func(fd uintptr) bool // s.writeToFD, bound once

	// The write in progress.
	wb      []byte
	written int
	werr    error
}

// newPipeSink returns the bot's stdin p as a destination under g.
func newPipeSink(g *gate, p pipeEnd) *pipeSink {
	s := &pipeSink{g: g, p: p}
	s.writeFD = s.writeToFD
	return s
}

func (s *pipeSink) Write(b []byte) (int, error) {
	s.wb, s.written, s.werr = b, 0, nil
	cerr := s.p.rc.Write(s.writeFD)
	written, err := s.written, s.werr
	s.wb, s.werr = nil, nil
	if cerr != nil {
		return written, cerr
	}
	return written, err
}

// writeToFD is Write on the pipe's descriptor.
func (s *pipeSink) writeToFD(fd uintptr) bool {
	for s.written < len(s.wb) {
		limit, err := s.g.writeLimit()
		if err != nil {
			s.werr = err
			return true
		}
		n, errno := rawWrite(int(fd), s.wb[s.written:])
		switch {
		case errno == syscall.EINTR:
			continue
		case errno == syscall.EAGAIN:
			// Ready or not, check the limits and try again.
			if _, err := s.g.wait(int(fd), unix.POLLOUT, limit, nil); err != nil {
				s.werr = err
				return true
			}
			continue
		case errno != 0:
			s.werr = &os.PathError{Op: "write", Path: s.p.f.Name(), Err: errno}
			return true
		}
		s.written += n
	}
	return true
}

// endedLimit bounds what ended reads: a bot that keeps writing has not
// ended its output.
const endedLimit = 1 << 20

// ended reports, without waiting, whether the bot's output has ended: it
// reads what the pipe holds up to the end (or up to endedLimit bytes),
// whatever the gate's limits, and throws it away. It is for an exchange
// that has failed: what it reads is lost.
func (s *pipeSource) ended() bool {
	buf := make([]byte, 16<<10)
	for n := 0; n < endedLimit; {
		k, err := s.readOnce(buf, true, nil)
		switch {
		case err == io.EOF:
			return true
		case err != nil: // errWouldBlock: the bot may write more
			return false
		}
		n += k
	}
	return false
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
// here, before anything is sent. A call whose bot a watching wait saw
// idle and silent skips it (see idle.go).
func (e *Engine) drain(ctx context.Context, op string) error {
	const what = "the next request"
	if e.skipDrain {
		return nil // a watching wait saw nothing (see idle.go)
	}
	e.src.poll = true
	defer func() { e.src.poll = false }()
	x := exchange{op: op, what: "nothing"}
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
		if _, err := e.handleLine(ctx, &x, &answer{}, line); err != nil {
			return err
		}
	}
}

// exchange is one request's wait for its answer, as await and
// handleLine see it.
type exchange struct {
	op, what        string    // the operation, and the awaited answer as errors name it
	began, deadline time.Time // when the exchange started; its deadline (zero: none)
	unknown         int       // ignored lines so far
}

// answer is what an exchange does with the bot's lines. (It is apart from
// exchange so that neither it nor what it points to need be on the heap.)
type answer struct {
	// keep takes the info lines (nil: they are dropped unparsed).
	keep *infoKeeper
	// handle takes every other message and reports whether the exchange
	// is done; nil between exchanges, where only stale pongs may come.
	handle func(protocol.Message) (bool, error)
}

// await reads the bot's lines, passing each message to a.handle, until it
// reports done, the deadline passes, ctx is done, the Engine is closed, or
// the bot exits, closes its output or breaks the protocol.
func (e *Engine) await(ctx context.Context, x *exchange, a answer) error {
	e.gate.setRead(x.deadline)
	for {
		line, err := e.lr.ReadLine()
		if err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				return e.readFailure(x.op, x.what, err)
			}
			if err := e.interrupted(ctx, x.op, x.what, x.began, x.deadline); err != nil {
				return err
			}
			e.gate.setRead(x.deadline) // a cut meant for an earlier call: go on
			continue
		}
		done, err := e.handleLine(ctx, x, &a, line)
		if err != nil || done {
			return err
		}
	}
}

// interrupted explains a read cut short by the gate: the Engine closed,
// ctx done, the bot exited (and exitDrain has passed), or the deadline
// passed (a crash if the bot died before it, else a timeout). It returns
// nil for a cut that concerns none of these (one meant for an earlier
// call).
func (e *Engine) interrupted(ctx context.Context, op, what string, began, deadline time.Time) error {
	switch {
	case isClosed(e.closing):
		return e.closedErr(op)
	case ctx.Err() != nil:
		return e.fail(KindCanceled, op, ctx.Err())
	}
	at, exited := e.gate.exitTime()
	if exited && time.Since(at) >= exitDrain {
		return e.fail(KindCrash, op, fmt.Errorf("%s while awaiting %s", e.proc.exitStatus(), what))
	}
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		// A bot whose output has ended, or that exited before the
		// deadline, crashed: a busy arena may hear the deadline's timer
		// before the end of the output or the exit status, however
		// early they came.
		if exited && at.Before(deadline) || e.src.ended() {
			return e.fail(KindCrash, op, fmt.Errorf("%s while awaiting %s", e.gone("closed its output"), what))
		}
		return e.fail(KindTimeout, op, fmt.Errorf("no %s within %v", what, deadline.Sub(began).Round(time.Millisecond)))
	}
	return nil
}

// handleLine deals with one line of the bot's output and reports whether
// a.handle declared the exchange done. Blank lines are skipped; info lines
// go to a.keep, or are dropped unparsed when it is nil. Lines the protocol
// says to ignore are counted in x.unknown (too many is a violation); pings
// are answered by the deadline (zero: within the handshake timeout); every
// other message goes to a.handle, or, when it is nil (between exchanges),
// must be a stale pong.
func (e *Engine) handleLine(ctx context.Context, x *exchange, a *answer, line string) (bool, error) {
	op, what, keep, handle := x.op, x.what, a.keep, a.handle
	switch firstWord(line) {
	case "":
		return false, nil
	case "info":
		if keep == nil {
			return false, nil
		}
		if err := keep.add(line); err != nil {
			return false, e.ignore(op, what, err, &x.unknown)
		}
		return false, nil
	}
	m, err := protocol.Parse(line)
	if err != nil {
		if !ignorable(err) {
			return false, e.fail(KindProtocol, op, err)
		}
		return false, e.ignore(op, what, err, &x.unknown)
	}
	if p, ok := m.(protocol.Ping); ok {
		deadline := x.deadline
		if deadline.IsZero() {
			deadline = time.Now().Add(e.handshake)
		}
		//lint:ignore S1016 a Pong answers a Ping: the literal says so better than a conversion
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
