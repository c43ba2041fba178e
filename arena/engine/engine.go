package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/protocol"
)

// Defaults for the zero values of Spec's durations, and fixed limits.
const (
	// DefaultHandshakeTimeout bounds Start (handshake, options and the
	// first readyok), NewGame's readyok and a Ping without a timeout.
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultQuitGrace is how long Close lets a bot exit by itself after
	// quit before it kills the bot's process group.
	DefaultQuitGrace = time.Second
	// MaxUnknownLines is how many ignored lines (unknown commands and
	// malformed info lines) a bot may write while the arena waits for one
	// answer; one more is a protocol violation.
	MaxUnknownLines = 1000
)

const (
	// exitDrain is how long the arena keeps reading a bot's output after
	// the bot has exited, to take the last lines it wrote (a move, say)
	// before calling it a crash, and how long it waits after EOF on the
	// bot's output to learn its exit status.
	exitDrain = 100 * time.Millisecond
	// quitWriteTimeout bounds writing quit in Close.
	quitWriteTimeout = 100 * time.Millisecond
	// reapTimeout bounds the wait for the kernel to report a killed bot.
	reapTimeout = 5 * time.Second
)

// Spec says how to start a bot.
type Spec struct {
	// Name is the bot's display name in logs and errors; "" means the
	// base name of Command.
	Name string
	// Command is the executable: a path, or a name looked up in PATH. A
	// relative path is taken relative to Dir.
	Command string
	Args    []string
	// Dir is the working directory; "" means the arena's.
	Dir string
	// Env holds extra "KEY=VALUE" entries added to the arena's
	// environment; they override variables of the same name.
	Env []string
	// Options are set with setoption after the handshake. Every name must
	// be an option the bot declared, and every value must fit the
	// declaration, or Start fails with KindHandshake.
	Options map[string]string
	// StderrPath is the file the bot's stderr is appended to (created if
	// needed); "" discards it. Arena notes (ignored stdout lines, a kill
	// after quit) go there too, each on a line starting with "[arena: ".
	StderrPath string
	// StderrLimit caps how many bytes one bot process may add to
	// StderrPath; the rest is dropped and a truncation note written.
	// 0 means DefaultStderrLimit; a negative value means no limit.
	StderrLimit int64
	// HandshakeTimeout bounds Start and NewGame; 0 means
	// DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// QuitGrace is how long Close waits for the bot to exit after quit
	// before it kills it; 0 means DefaultQuitGrace.
	QuitGrace time.Duration
}

// NewGame describes the game an Engine is about to play.
type NewGame struct {
	Rules game.Rules
	Color game.Color // the side the bot plays
}

// MoveRequest asks a bot for a move.
type MoveRequest struct {
	// StartText is the position text the game started from; "" means the
	// game's start position.
	StartText string
	// Moves are the moves played since then, in the game's notation.
	Moves []string
	// Legal lists the legal moves; it is sent only to bots that asked for
	// legal moves during the handshake.
	Legal []string
	// Clock is what the go line tells the bot.
	Clock protocol.Clock
	// Deadline is the hard deadline: no move by then is an *Error of
	// KindTimeout. The zero time means no deadline other than the
	// context's.
	Deadline time.Time
}

// Reply is a bot's answer to a MoveRequest.
type Reply struct {
	// Move is the raw move text; the caller decodes and referees it.
	Move string
	// Info holds the info lines the bot wrote before the move.
	Info []protocol.Info
	// Elapsed is the time from just before the request was written until
	// the move line was read.
	Elapsed time.Duration
}

// Engine is a running bot that has completed the handshake.
//
// Start, NewGame, Move, GameOver and Ping must not be called concurrently
// with each other; Close, Exited, ID, WantsLegalMoves, Pid and UnknownLines
// may be called at any time from any goroutine. Close interrupts a call in
// progress, which then fails with KindClosed.
//
// After an error of any Kind but KindInvalid and KindUnsupported the
// Engine is unusable and every later call returns that same error: the
// caller closes it and starts a new one. A bot that died between games is
// restarted the same way.
type Engine struct {
	name      string
	handshake time.Duration
	quitGrace time.Duration

	proc *process
	wmu  sync.Mutex // serialises writes; Close only tries it
	w    *protocol.Writer

	lines      chan event    // from the stdout reader; closed when it stops
	readErr    error         // why the reader stopped; read after lines is closed
	readerDone chan struct{} // closed when the stdout reader has returned
	done       chan struct{} // closed by Close: the reader discards from then on
	closing    chan struct{} // closed by Close: calls in progress fail
	closeOnce  sync.Once
	closeErr   error

	id      protocol.ID
	broken  error // the error that made the Engine unusable
	pingSeq uint64
	unknown atomic.Int64
}

// event is one non-blank line of the bot's output: a message, or the error
// Parse returned for it.
type event struct {
	msg protocol.Message
	err error
}

// Start launches the bot in its own process group, runs the handshake with
// a deadline of spec.HandshakeTimeout, sets spec.Options (rejecting options
// the bot did not declare or values that do not fit), and waits for
// readyok. Canceling ctx aborts the start; it has no effect on the Engine
// afterwards. On failure the bot's process group is killed and reaped and
// the error is an *Error.
func Start(ctx context.Context, spec Spec) (*Engine, error) {
	name := spec.Name
	if name == "" {
		name = filepath.Base(spec.Command)
	}
	if spec.Command == "" {
		return nil, &Error{Bot: name, Kind: KindInvalid, Op: "start", Err: errors.New("no command")}
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{Bot: name, Kind: KindCanceled, Op: "start", Err: err}
	}
	proc, err := startProcess(&spec)
	if err != nil {
		return nil, &Error{Bot: name, Kind: KindStart, Op: "start", Err: err}
	}
	began := time.Now() // the bot's time starts once it runs
	e := newEngine(name, spec, proc)
	if err := e.start(ctx, began, spec.Options); err != nil {
		e.closeOnce.Do(func() { e.closeErr = e.shutdown(false) })
		return nil, err
	}
	return e, nil
}

// newEngine wraps a started process and starts its stdout reader.
func newEngine(name string, spec Spec, proc *process) *Engine {
	e := &Engine{
		name:       name,
		handshake:  orDefault(spec.HandshakeTimeout, DefaultHandshakeTimeout),
		quitGrace:  orDefault(spec.QuitGrace, DefaultQuitGrace),
		proc:       proc,
		w:          protocol.NewWriter(proc.stdin),
		lines:      make(chan event),
		readerDone: make(chan struct{}),
		done:       make(chan struct{}),
		closing:    make(chan struct{}),
	}
	go e.readLoop()
	return e
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// start runs the handshake, sets the options and waits for readyok.
func (e *Engine) start(ctx context.Context, began time.Time, options map[string]string) error {
	const op = "handshake"
	deadline := began.Add(e.handshake)
	// The first line goes into an empty pipe and cannot block: no write
	// deadline, so that a slow start shows as "no handshake within".
	if err := e.send(ctx, op, time.Time{}, protocol.Hello{Version: protocol.Version}); err != nil {
		return err
	}
	var id protocol.ID
	err := e.await(ctx, op, "handshake", began, deadline, func(m protocol.Message) (bool, error) {
		return id.Apply(m)
	})
	if err != nil {
		return err
	}
	if len(id.Games) == 0 {
		return e.fail(KindHandshake, op, errors.New("the bot declares no games"))
	}
	names := make([]string, 0, len(options))
	for name := range options {
		names = append(names, name)
	}
	slices.Sort(names)
	msgs := make([]protocol.Message, 0, len(names)+1)
	for _, name := range names {
		opt, ok := id.Option(name)
		if !ok {
			return e.fail(KindHandshake, op, fmt.Errorf("option %q is not declared by the bot (declared: %s)",
				name, optionNames(id.Options)))
		}
		if err := opt.Check(options[name]); err != nil {
			return e.fail(KindHandshake, op, err)
		}
		msgs = append(msgs, protocol.SetOption{Name: name, Value: options[name]})
	}
	msgs = append(msgs, protocol.IsReady{})
	if err := e.send(ctx, op, deadline, msgs...); err != nil {
		return err
	}
	if err := e.awaitReady(ctx, op, began, deadline); err != nil {
		return err
	}
	e.id = id
	return nil
}

func optionNames(opts []protocol.Option) string {
	if len(opts) == 0 {
		return "none"
	}
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// awaitReady waits for readyok, ignoring info lines and stale pongs.
func (e *Engine) awaitReady(ctx context.Context, op string, began, deadline time.Time) error {
	return e.await(ctx, op, "readyok", began, deadline, func(m protocol.Message) (bool, error) {
		switch m.(type) {
		case protocol.ReadyOK:
			return true, nil
		case protocol.Info, protocol.Pong:
			return false, nil
		}
		return false, unexpected(m, "readyok")
	})
}

// ID returns what the bot said about itself in the handshake: name,
// author, options, games and whether it wants legal moves.
func (e *Engine) ID() protocol.ID {
	id := e.id
	id.Games = slices.Clone(id.Games)
	id.Options = slices.Clone(id.Options)
	for i := range id.Options {
		id.Options[i].Vars = slices.Clone(id.Options[i].Vars)
	}
	return id
}

// WantsLegalMoves reports whether the bot asked for the legal moves before
// every go.
func (e *Engine) WantsLegalMoves() bool { return e.id.LegalMoves }

// Pid returns the bot's process id, which is also its process group id.
func (e *Engine) Pid() int { return e.proc.pid }

// UnknownLines returns how many lines the bot wrote that the arena ignored
// (unknown commands and malformed info lines). Each is also noted in the
// stderr log.
func (e *Engine) UnknownLines() int64 { return e.unknown.Load() }

// Exited returns a channel that is closed when the bot process has
// exited. (Close reaps it.)
func (e *Engine) Exited() <-chan struct{} { return e.proc.exited }

// NewGame tells the bot a game starts: the game, its preset and every rule
// setting, and the bot's color. It then sends isready and waits for
// readyok, giving the bot time to prepare off the clock, within the
// handshake timeout (or ctx's deadline, if sooner). A game the bot did not
// declare is an *Error of KindUnsupported.
func (e *Engine) NewGame(ctx context.Context, g NewGame) error {
	const op = "newgame"
	if err := e.usable(op); err != nil {
		return err
	}
	if g.Rules == nil {
		return &Error{Bot: e.name, Kind: KindInvalid, Op: op, Err: errors.New("no rules")}
	}
	name := g.Rules.Game()
	if !e.id.Plays(name) {
		return &Error{Bot: e.name, Kind: KindUnsupported, Op: op,
			Err: fmt.Errorf("the bot does not play %s (it plays %s)", name, strings.Join(e.id.Games, ", "))}
	}
	if err := e.drain(ctx, op); err != nil {
		return err
	}
	began := time.Now()
	deadline := began.Add(e.handshake)
	msg := protocol.NewGame{Game: name, Preset: g.Rules.Preset(), Settings: g.Rules.Settings(), Color: g.Color}
	if err := e.send(ctx, op, deadline, msg, protocol.IsReady{}); err != nil {
		return err
	}
	return e.awaitReady(ctx, op, began, deadline)
}

// Move sends the position (the start text, or startpos, and the moves
// since), the legal moves if the bot wants them, and go with the clock,
// all in one write, then waits for the bot's move until req.Deadline or
// until ctx is done. It returns the raw move text with the info lines that
// preceded it; the caller referees the move.
//
// A move the bot wrote before it was asked is a protocol violation when
// the arena sees it first; a bot writing two moves in a row may instead
// have its second taken as the answer to the next request.
func (e *Engine) Move(ctx context.Context, req MoveRequest) (Reply, error) {
	const op = "move"
	if err := e.usable(op); err != nil {
		return Reply{}, err
	}
	msgs := make([]protocol.Message, 0, 3)
	msgs = append(msgs, protocol.Position{Text: req.StartText, Moves: req.Moves})
	if e.id.LegalMoves {
		msgs = append(msgs, protocol.LegalMoves{Moves: req.Legal})
	}
	msgs = append(msgs, protocol.Go{Clock: req.Clock})
	if err := e.drain(ctx, op); err != nil {
		return Reply{}, err
	}
	began := time.Now()
	if err := e.send(ctx, op, req.Deadline, msgs...); err != nil {
		return Reply{}, err
	}
	var r Reply
	err := e.await(ctx, op, "move", began, req.Deadline, func(m protocol.Message) (bool, error) {
		switch m := m.(type) {
		case protocol.Move:
			r.Move = m.Move
			return true, nil
		case protocol.Info:
			r.Info = append(r.Info, m)
			return false, nil
		case protocol.Pong:
			return false, nil
		}
		return false, unexpected(m, "move")
	})
	if err != nil {
		return Reply{}, err
	}
	r.Elapsed = time.Since(began)
	return r, nil
}

// GameOver tells the bot how the game ended. It does not wait for an
// answer, but it reports a bot that has died or broken the protocol since
// its last move.
func (e *Engine) GameOver(ctx context.Context, r game.Result, reason string) error {
	const op = "gameover"
	if err := e.usable(op); err != nil {
		return err
	}
	if err := e.drain(ctx, op); err != nil {
		return err
	}
	return e.send(ctx, op, time.Now().Add(e.handshake), protocol.GameOver{Result: r, Reason: reason})
}

// Ping checks that the bot is alive and in sync: it sends ping with a
// fresh token and waits up to timeout (0 means the handshake timeout) for
// the matching pong.
func (e *Engine) Ping(ctx context.Context, timeout time.Duration) error {
	const op = "ping"
	if err := e.usable(op); err != nil {
		return err
	}
	if err := e.drain(ctx, op); err != nil {
		return err
	}
	e.pingSeq++
	token := "p" + strconv.FormatUint(e.pingSeq, 10)
	began := time.Now()
	deadline := began.Add(orDefault(timeout, e.handshake))
	if err := e.send(ctx, op, deadline, protocol.Ping{Token: token}); err != nil {
		return err
	}
	return e.await(ctx, op, "pong", began, deadline, func(m protocol.Message) (bool, error) {
		switch m := m.(type) {
		case protocol.Pong:
			return m.Token == token, nil // older tokens are stale answers
		case protocol.Info:
			return false, nil
		}
		return false, unexpected(m, "pong")
	})
}

// Close stops the bot: it sends quit and closes the bot's input, waits up
// to the quit grace period for the bot to exit, then kills the bot's whole
// process group (which also removes any processes the bot left behind in
// it) and reaps the bot. It always reaps and releases every resource
// unless the kernel does not let a killed process go; then the error says
// so. Close is idempotent and safe to call concurrently with other calls.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() { e.closeErr = e.shutdown(true) })
	return e.closeErr
}

// shutdown stops everything; polite sends quit and grants the grace period.
func (e *Engine) shutdown(polite bool) error {
	close(e.closing)
	close(e.done)
	grace := time.Duration(0)
	if polite && !e.proc.hasExited() {
		grace = e.quitGrace
		// A write stuck on a bot that does not read holds the lock;
		// closing stdin in shutdown releases it.
		if e.wmu.TryLock() {
			_ = e.proc.stdin.SetWriteDeadline(time.Now().Add(quitWriteTimeout))
			_ = e.w.WriteMessage(protocol.Quit{})
			e.wmu.Unlock()
		}
	}
	err := e.proc.shutdown(grace, reapTimeout)
	<-e.readerDone
	if err != nil {
		return &Error{Bot: e.name, Kind: KindClosed, Op: "close", Err: err}
	}
	return nil
}

// readLoop reads the bot's stdout line by line and hands each parsed line
// to the caller waiting in await or drain. It returns when the output ends
// or fails (EOF, a line that breaks the protocol, or Close closing the
// pipe). Once Close has closed done it keeps reading and discards, so that
// a bot writing while it quits cannot block on a full pipe.
func (e *Engine) readLoop() {
	defer close(e.readerDone)
	defer close(e.lines)
	r := protocol.NewReader(e.proc.stdout)
	for {
		line, err := r.ReadLine()
		if err != nil {
			e.readErr = err
			return
		}
		if strings.TrimLeft(line, " \t") == "" {
			continue
		}
		m, err := protocol.Parse(line)
		select {
		case e.lines <- event{msg: m, err: err}:
		case <-e.done:
		}
	}
}

// usable returns the error that made the Engine unusable, if any.
func (e *Engine) usable(op string) error {
	if e.broken != nil {
		return e.broken
	}
	select {
	case <-e.closing:
		return e.closedErr(op)
	default:
	}
	return nil
}

func (e *Engine) closedErr(op string) error {
	return e.fail(KindClosed, op, ErrClosed)
}

// fail builds an *Error and, unless the request was merely invalid or
// unsupported, marks the Engine unusable with it.
func (e *Engine) fail(kind Kind, op string, err error) error {
	ee := &Error{Bot: e.name, Kind: kind, Op: op, Err: err}
	if kind != KindInvalid && kind != KindUnsupported && e.broken == nil {
		e.broken = ee
	}
	return ee
}

// send writes msgs in one write, with a write deadline (zero: none) that
// ctx can cut short.
func (e *Engine) send(ctx context.Context, op string, deadline time.Time, msgs ...protocol.Message) error {
	if err := ctx.Err(); err != nil {
		return e.fail(KindCanceled, op, err)
	}
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		return e.fail(KindTimeout, op, fmt.Errorf("the deadline passed before the %s request was sent", op))
	}
	e.wmu.Lock()
	defer e.wmu.Unlock()
	stdin := e.proc.stdin
	_ = stdin.SetWriteDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = stdin.SetWriteDeadline(time.Now()) })
	err := e.w.WriteMessage(msgs...)
	stop()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, protocol.ErrInvalid), errors.Is(err, protocol.ErrLineTooLong):
		// Nothing was written: the request, not the bot, is at fault.
		return e.fail(KindInvalid, op, err)
	case isClosed(e.closing):
		return e.closedErr(op)
	case ctx.Err() != nil:
		return e.fail(KindCanceled, op, ctx.Err())
	case errors.Is(err, os.ErrDeadlineExceeded):
		return e.fail(KindTimeout, op, fmt.Errorf("the bot did not read the %s request before the deadline", op))
	case errors.Is(err, syscall.EPIPE):
		return e.fail(KindCrash, op, fmt.Errorf("%s before the %s request", e.gone("closed its input"), op))
	}
	return e.fail(KindCrash, op, fmt.Errorf("write to the bot: %w", err))
}

// drain handles the lines the bot wrote since the last exchange without
// waiting: info and stale pongs are dropped, pings answered, and a move or
// any other message nobody asked for is a protocol violation. A bot whose
// output has ended fails here, before anything is sent.
func (e *Engine) drain(ctx context.Context, op string) error {
	unknown := 0
	for {
		select {
		case ev, ok := <-e.lines:
			if !ok {
				return e.readFailure(op, "the next request")
			}
			if err := e.handleEvent(ctx, op, ev, nil, "nothing", time.Time{}, &unknown); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// await reads the bot's messages, passing each to handle, until handle
// reports done, the deadline passes (zero: no deadline), ctx is done, the
// Engine is closed, or the bot exits, closes its output or breaks the
// protocol. what names the awaited answer in errors; began is when the
// exchange started, for the timeout message.
func (e *Engine) await(ctx context.Context, op, what string, began, deadline time.Time,
	handle func(protocol.Message) (bool, error)) error {
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	exited := e.proc.exited
	var drained <-chan time.Time
	unknown := 0
	for {
		select {
		case ev, ok := <-e.lines:
			if !ok {
				return e.readFailure(op, what)
			}
			if err := e.handleEvent(ctx, op, ev, handle, what, deadline, &unknown); err != nil {
				if errors.Is(err, errDone) {
					return nil
				}
				return err
			}
		case <-exited:
			// Take what the bot wrote before it died, then report it.
			exited = nil
			t := time.NewTimer(exitDrain)
			defer t.Stop()
			drained = t.C
		case <-drained:
			return e.fail(KindCrash, op, fmt.Errorf("%s while awaiting %s", e.proc.exitStatus(), what))
		case <-timeout:
			return e.fail(KindTimeout, op, fmt.Errorf("no %s within %v", what, deadline.Sub(began).Round(time.Millisecond)))
		case <-ctx.Done():
			return e.fail(KindCanceled, op, ctx.Err())
		case <-e.closing:
			return e.closedErr(op)
		}
	}
}

// errDone is handleEvent's signal that handle reported the exchange done.
var errDone = errors.New("done")

// handleEvent deals with one line of the bot's output. Lines the protocol
// says to ignore are counted in *unknown (too many is a violation); pings
// are answered by the deadline (zero: within the handshake timeout); every
// other message goes to handle, or, when handle is nil (between
// exchanges), must be an info line or a stale pong.
func (e *Engine) handleEvent(ctx context.Context, op string, ev event,
	handle func(protocol.Message) (bool, error), what string, deadline time.Time, unknown *int) error {
	if ev.err != nil {
		if !ignorable(ev.err) {
			return e.fail(KindProtocol, op, ev.err)
		}
		e.ignore(ev.err)
		if *unknown++; *unknown > MaxUnknownLines {
			return e.fail(KindProtocol, op, fmt.Errorf("more than %d unknown lines while awaiting %s",
				MaxUnknownLines, what))
		}
		return nil
	}
	if p, ok := ev.msg.(protocol.Ping); ok {
		if deadline.IsZero() {
			deadline = time.Now().Add(e.handshake)
		}
		return e.send(ctx, op, deadline, protocol.Pong{Token: p.Token})
	}
	if handle == nil {
		switch ev.msg.(type) {
		case protocol.Info, protocol.Pong:
			return nil
		case protocol.Move:
			return e.fail(KindProtocol, op, fmt.Errorf("%w: a move nobody asked for: %q",
				protocol.ErrUnexpected, formatMessage(ev.msg)))
		}
		return e.fail(KindProtocol, op, unexpected(ev.msg, what))
	}
	done, err := handle(ev.msg)
	if err != nil {
		return e.fail(KindProtocol, op, err)
	}
	if done {
		return errDone
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
	if errors.As(err, &pe) && errors.Is(err, protocol.ErrSyntax) {
		first, _, _ := strings.Cut(strings.TrimLeft(pe.Line, " \t"), " ")
		return first == "info"
	}
	return false
}

// ignore counts an ignored line and notes it in the stderr log.
func (e *Engine) ignore(err error) {
	e.unknown.Add(1)
	var pe *protocol.ProtocolError
	if errors.As(err, &pe) {
		e.proc.log.notef("ignored output line %q", pe.Line)
	}
}

// readFailure turns the end of the bot's output into an *Error.
func (e *Engine) readFailure(op, what string) error {
	err := e.readErr
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

// gone describes a bot that stopped talking: its exit status if it exits
// within exitDrain, else how.
func (e *Engine) gone(how string) string {
	if waitFor(e.proc.exited, exitDrain) {
		return e.proc.exitStatus()
	}
	return how
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// unexpected returns the error for a well-formed message out of place.
func unexpected(m protocol.Message, what string) error {
	return fmt.Errorf("%w: %q while awaiting %s", protocol.ErrUnexpected, formatMessage(m), what)
}

func formatMessage(m protocol.Message) string {
	if info, ok := m.(protocol.Info); ok && info.Raw != "" {
		return info.Raw
	}
	s, err := protocol.Format(m)
	if err != nil {
		return m.Command()
	}
	return s
}
