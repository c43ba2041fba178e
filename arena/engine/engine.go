package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/sandbox"
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
	// exitDrain is how long the arena keeps waiting for a bot's output
	// after the bot has exited, to take the last lines it wrote (a move,
	// say) before calling it a crash. Past it, a read still takes what the
	// pipe holds without waiting (see lastLook), so that an arena slow to
	// come to the lines does not lose them.
	exitDrain = 100 * time.Millisecond
	// exitStatusWait is how long the arena waits, once a bot's output has
	// ended (or its input is closed), to learn its exit status for the
	// error: a dying bot's exit reaches the arena through its supervisor,
	// which a busy machine may take a while to schedule.
	exitStatusWait = time.Second
	// lastWordsWait bounds the wait for the end of a dead bot's stderr,
	// whose last line its error quotes.
	lastWordsWait = 100 * time.Millisecond
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
	// Log receives the bot's stderr and the arena's notes about it (ignored
	// output lines, a kill after quit); the caller opens it (OpenLog),
	// may share it between the processes of one bot, and closes it. The
	// Engine flushes it when the process ends. nil means StderrPath.
	Log *Log
	// StderrPath is the file the bot's stderr and the notes are appended
	// to when Log is nil (created if needed, capped at StderrLimit bytes
	// as a Log is); "" discards them.
	StderrPath string
	// StderrLimit caps StderrPath: 0 means DefaultLogLimit; a negative
	// value means no limit.
	StderrLimit int64
	// Transcript adds every line the arena and the bot exchange to the
	// log, as it crossed the pipe, stamped with the time, the process id
	// and its direction (→ arena to bot, ← bot to arena). Without a log it
	// has no effect; off, it costs nothing.
	Transcript bool
	// HandshakeTimeout bounds Start and NewGame; 0 means
	// DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// QuitGrace is how long Close waits for the bot to exit after quit
	// before it kills it; 0 means DefaultQuitGrace.
	QuitGrace time.Duration
	// Policy sets the bot's limits, its sandbox and its CPUs (see package
	// sandbox); the zero Policy sets none. A sandboxed bot with no Dir
	// gets a fresh directory of its own, removed when it is closed; it
	// may also read the directories of its command and of the arguments
	// that name files. A bot that reaches a limit fails with KindLimit.
	Policy sandbox.Policy
}

// NewGame describes the game an Engine is about to play.
type NewGame struct {
	Rules game.Rules
	Color game.Color // the side the bot plays
	// Opponent and Opening, the opponent's name and the opening's, are
	// sent to a bot that asked for them (protocol.FeatureGameInfo).
	Opponent, Opening string
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
	// FEN is the position text of the position the bot is to move in; it
	// is sent only to bots that asked for it during the handshake.
	FEN string
	// Clock is what the go line tells the bot. Its MovesToGo is sent only
	// to bots that asked for it during the handshake.
	Clock protocol.Clock
	// Nodes and Depth, when positive, limit the bot's search for this
	// move. Only a bot that declared it obeys the limit may be sent one:
	// a limit the bot did not declare is an *Error of KindUnsupported.
	Nodes int64
	Depth int
	// Deadline is the hard deadline: no move by then is an *Error of
	// KindTimeout. The zero time means no deadline other than the
	// context's.
	Deadline time.Time
	// Watch, if not nil, is another Engine, such as the opponent, that is
	// idle while this bot thinks. The wait for the move then also looks
	// at Watch's output, at no extra cost, and when it sees none Watch's
	// next call skips its check for stray output (a read system call):
	// what Watch writes after that look is taken as the answer to its
	// next request. Watch is only looked at, never read, and may be in a
	// call of its own (then it is not looked at) or closed.
	Watch *Engine
}

// Reply is a bot's answer to a MoveRequest.
type Reply struct {
	// Move is the raw move text; the caller decodes and referees it.
	Move string
	// Info is the last well-formed info line the bot wrote while thinking
	// about this move, nil when there was none. It shares no memory with
	// the bot's output: Raw and String are cut to MaxInfoText bytes and PV
	// keeps the leading moves that fit in as many. However many info lines
	// a bot writes, a move costs the arena the same memory: the first few
	// hundred lines of a move are checked as they come, and beyond them
	// only the newest is kept and checked (if it is malformed, Info is the
	// last well-formed line among those checked).
	Info *protocol.Info
	// Elapsed is the time from just before the request was written until
	// the move line was read.
	Elapsed time.Duration
}

// Engine is a running bot that has completed the handshake.
//
// Start, NewGame, Move, GameOver, HoldGameOver, Flush and Ping must not be
// called concurrently with each other; Close, Exited, ID, WantsLegalMoves,
// Pid, Pin and UnknownLines may be called at any time from any goroutine. Close interrupts a call in
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
	gate *gate
	src  *pipeSource      // the bot's stdout, read by the calls themselves
	lr   *protocol.Reader // lines of src
	wmu  sync.Mutex       // serialises writes; Close only tries it
	w    *protocol.Writer
	held protocol.Message   // written before the next write's messages (HoldGameOver); nil: none; guarded by wmu
	out  []protocol.Message // the messages of a write with held, reused; guarded by wmu

	req moveMessages // a move request's messages, made in place by Move (which holds callMu)

	callMu    sync.Mutex    // held by a call in progress, and by Close once it has interrupted it
	closing   chan struct{} // closed by Close: calls in progress fail
	closeOnce sync.Once
	closeErr  error

	idle      idleOutput // the bot's output as other calls' waits see it
	skipDrain bool       // the current call need not check for stray output (see idle.go)

	pinMu     sync.Mutex
	pinned    []int // the CPUs Pin gave it
	pinnedSet bool  // Pin was called

	cpuLimit time.Duration // the Policy's CPU time per game; 0: none
	cpuBase  time.Duration // the bot's CPU time when its current game began

	id      protocol.ID
	broken  error // the error that made the Engine unusable
	pingSeq uint64
	unknown atomic.Int64
}

// starting holds a slot for each bot being started (its process created,
// its handshake read): at most a few per CPU at once. A thousand bots
// starting together would otherwise keep a thousand goroutines runnable
// for seconds, and every other goroutine of the arena (the one that takes
// Ctrl-C among them) would wait that long for a CPU; the runtime keeps
// one pending signal of each kind, so a second Ctrl-C in that time was
// lost. A bot's handshake time starts once its process runs, after its
// slot is taken.
var starting = make(chan struct{}, max(8, 4*runtime.GOMAXPROCS(0)))

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
	select {
	case starting <- struct{}{}:
		defer func() { <-starting }()
	case <-ctx.Done():
		return nil, &Error{Bot: name, Kind: KindCanceled, Op: "start", Err: ctx.Err()}
	}
	g, err := newGate()
	if err != nil {
		return nil, &Error{Bot: name, Kind: KindStart, Op: "start", Err: err}
	}
	proc, err := startProcess(&spec, g.exited)
	if err != nil {
		g.release()
		return nil, &Error{Bot: name, Kind: KindStart, Op: "start", Err: err}
	}
	began := time.Now() // the bot's time starts once it runs
	e, err := newEngine(name, spec, proc, g)
	if err == nil {
		if err = e.call(ctx, "start"); err == nil {
			err = e.start(ctx, began, spec.Options)
			e.endCall()
		}
	}
	if err != nil {
		if e == nil {
			_ = proc.shutdown(0, reapTimeout)
			g.release()
			return nil, &Error{Bot: name, Kind: KindStart, Op: "start", Err: err}
		}
		e.closeOnce.Do(func() { e.closeErr = e.shutdown(false) })
		return nil, err
	}
	return e, nil
}

// newEngine wraps a started process whose exits g hears of.
func newEngine(name string, spec Spec, proc *process, g *gate) (*Engine, error) {
	stdout, err := newPipeEnd(proc.stdout)
	if err != nil {
		return nil, err
	}
	stdin, err := newPipeEnd(proc.stdin)
	if err != nil {
		return nil, err
	}
	var outFD int32
	if err := stdout.rc.Control(func(fd uintptr) { outFD = int32(fd) }); err != nil {
		return nil, err
	}
	src := newPipeSource(g, stdout)
	var (
		in  io.Reader = src
		out io.Writer = newPipeSink(g, stdin)
	)
	if spec.Transcript && proc.log != nil {
		proc.log.Notef("protocol transcript of process %d: → arena to bot, ← bot to arena", proc.pid)
		in = transcriptReader{in, newTranscriber(proc.log, proc.pid, "←")}
		out = transcriptWriter{out, newTranscriber(proc.log, proc.pid, "→")}
	}
	e := &Engine{
		name:      name,
		handshake: orDefault(spec.HandshakeTimeout, DefaultHandshakeTimeout),
		quitGrace: orDefault(spec.QuitGrace, DefaultQuitGrace),
		proc:      proc,
		gate:      g,
		src:       src,
		lr:        protocol.NewReader(in),
		w:         protocol.NewWriter(out),
		closing:   make(chan struct{}),
		cpuLimit:  spec.Policy.CPUTime,
	}
	e.idle.fd = outFD
	return e, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// maxDeclarations bounds the option and games lines of a handshake, so
// that a bot cannot make the arena hold an endless list.
const maxDeclarations = 256

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
	declarations := 0
	err := e.await(ctx, &exchange{op: op, what: "handshake", began: began, deadline: deadline}, answer{handle: func(m protocol.Message) (bool, error) {
		switch m.(type) {
		case protocol.Option, protocol.Games:
			if declarations++; declarations > maxDeclarations {
				return false, fmt.Errorf("%w: more than %d option and games lines", protocol.ErrUnexpected, maxDeclarations)
			}
		}
		return id.Apply(m)
	}})
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
	return e.await(ctx, &exchange{op: op, what: "readyok", began: began, deadline: deadline}, answer{handle: func(m protocol.Message) (bool, error) {
		switch m.(type) {
		case protocol.ReadyOK:
			return true, nil
		case protocol.Pong:
			return false, nil
		}
		return false, unexpected(m, "readyok")
	}})
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

// WantsFEN reports whether the bot asked for the current position text
// before every go.
func (e *Engine) WantsFEN() bool { return e.id.FEN }

// Pid returns the bot's process id, which is also its process group id.
func (e *Engine) Pid() int { return e.proc.pid }

// UnknownLines returns how many lines the bot wrote that the arena ignored
// (unknown commands and malformed info lines). Each is also noted in the
// stderr log.
func (e *Engine) UnknownLines() int64 { return e.unknown.Load() }

// Exited returns a channel that is closed when the bot process has
// exited. (Close reaps it.)
func (e *Engine) Exited() <-chan struct{} { return e.proc.exited }

// call starts a call: it waits for Close to finish interrupting an earlier
// one, checks that the Engine is usable, and lets ctx interrupt the call's
// reads and writes. Unless it fails, endCall ends the call.
func (e *Engine) call(ctx context.Context, op string) error {
	e.callMu.Lock()
	if err := e.usable(op); err != nil {
		e.callMu.Unlock()
		return err
	}
	e.gate.begin(ctx)
	if e.skipDrain = e.idle.begin() && !e.lr.Pending(); e.skipDrain {
		_, exited := e.gate.exitTime()
		e.skipDrain = !exited
	}
	return nil
}

// endCall ends a call that call started.
func (e *Engine) endCall() {
	e.src.watch.stop()
	e.skipDrain = false
	e.idle.end()
	e.gate.end()
	e.callMu.Unlock()
}

// NewGame tells the bot a game starts: the game, its preset and every rule
// setting, and the bot's color. It then sends isready and waits for
// readyok, giving the bot time to prepare off the clock, within the
// handshake timeout (or ctx's deadline, if sooner). A game the bot did not
// declare is an *Error of KindUnsupported.
func (e *Engine) NewGame(ctx context.Context, g NewGame) error {
	return NewGames(ctx, []*Engine{e}, []NewGame{g})[0]
}

// NewGames is NewGame for the bots of one game at once: it writes each
// bot its newgame and isready before it waits for the first readyok, so
// that the bots prepare at the same time and the arena waits once. The
// engines must be distinct; games[i] is for engines[i], and so is the
// error errs[i], nil once that bot is ready. A bot whose request could
// not be written is not waited for.
func NewGames(ctx context.Context, engines []*Engine, games []NewGame) (errs []error) {
	errs = make([]error, len(engines))
	began := make([]time.Time, len(engines))
	sent := make([]bool, len(engines))
	for i, e := range engines {
		if slices.Contains(engines[:i], e) {
			errs[i] = &Error{Bot: e.name, Kind: KindInvalid, Op: "newgame", Err: errors.New("the engine is given twice")}
			continue
		}
		if err := e.call(ctx, "newgame"); err != nil {
			errs[i] = err
			continue
		}
		began[i], errs[i] = e.sendNewGame(ctx, games[i])
		if sent[i] = errs[i] == nil; !sent[i] {
			e.endCall()
		}
	}
	var ready *Engine // one that is ready, watched while the next is awaited
	for i, e := range engines {
		if sent[i] {
			if ready != nil {
				e.src.watch.start(&ready.idle)
			}
			errs[i] = e.awaitReady(ctx, "newgame", began[i], began[i].Add(e.handshake))
			e.endCall()
			if errs[i] == nil {
				ready = e
			}
		}
	}
	return errs
}

// sendNewGame writes newgame and isready within a call, and returns when
// the handshake timeout of the readyok began.
func (e *Engine) sendNewGame(ctx context.Context, g NewGame) (time.Time, error) {
	const op = "newgame"
	if g.Rules == nil {
		return time.Time{}, &Error{Bot: e.name, Kind: KindInvalid, Op: op, Err: errors.New("no rules")}
	}
	name := g.Rules.Game()
	if !e.id.Plays(name) {
		return time.Time{}, &Error{Bot: e.name, Kind: KindUnsupported, Op: op,
			Err: fmt.Errorf("the bot does not play %s (it plays %s)", name, strings.Join(e.id.Games, ", "))}
	}
	if err := e.drain(ctx, op); err != nil {
		return time.Time{}, err
	}
	if e.cpuLimit > 0 {
		e.cpuBase, _ = e.proc.box.CPUTime(e.proc.pid)
	}
	began := time.Now()
	msgs := []protocol.Message{protocol.NewGame{Game: name, Preset: g.Rules.Preset(), Settings: g.Rules.Settings(), Color: g.Color}}
	if e.id.GameInfo && g.Opponent != "" {
		msgs = append(msgs, protocol.GameInfo{Opponent: g.Opponent, Opening: g.Opening})
	}
	if err := e.send(ctx, op, began.Add(e.handshake), append(msgs, protocol.IsReady{})...); err != nil {
		return time.Time{}, err
	}
	return began, nil
}

// Move sends the position (the start text, or startpos, and the moves
// since), the current position text and the legal moves if the bot wants
// them, and go with the clock and the search limits, all in one write,
// then waits for the bot's move until req.Deadline or until ctx is done.
// It returns the raw move text with the last info line that preceded it;
// the caller referees the move. A search limit the bot did not declare is
// an *Error of KindUnsupported, and nothing is sent.
//
// A move the bot wrote before it was asked (such as a second move for the
// previous request) is a protocol violation if it has reached the arena
// by the time the arena last looked before the request: as the request is
// written, or, when the bot was idle under another call's Watch, during
// that call's wait. One that arrives later is taken as the answer: the
// arena cannot tell it from one.
func (e *Engine) Move(ctx context.Context, req MoveRequest) (Reply, error) {
	const op = "move"
	if err := e.call(ctx, op); err != nil {
		return Reply{}, err
	}
	defer e.endCall()
	if err := e.checkLimits(req.Nodes, req.Depth); err != nil {
		return Reply{}, &Error{Bot: e.name, Kind: KindUnsupported, Op: op, Err: err}
	}
	q := &e.req
	q.pos = protocol.Position{Text: req.StartText, Moves: req.Moves}
	msgs := append(q.msgs[:0], &q.pos)
	if e.id.FEN {
		q.fen = protocol.FEN{Text: req.FEN}
		msgs = append(msgs, &q.fen)
	}
	if e.id.LegalMoves {
		q.legal = protocol.LegalMoves{Moves: req.Legal}
		msgs = append(msgs, &q.legal)
	}
	clock := req.Clock
	if !e.id.MovesToGo {
		clock.MovesToGo = 0
	}
	q.goes = protocol.Go{Clock: clock, Nodes: req.Nodes, Depth: req.Depth}
	msgs = append(msgs, &q.goes)
	err := e.drain(ctx, op)
	began := time.Now()
	if err == nil {
		err = e.send(ctx, op, req.Deadline, msgs...)
	}
	*q = moveMessages{} // the caller's moves are not kept
	if err != nil {
		return Reply{}, err
	}
	if req.Watch != nil && req.Watch != e {
		e.src.watch.start(&req.Watch.idle)
	}
	var (
		r    Reply
		keep infoKeeper
	)
	err = e.await(ctx, &exchange{op: op, what: "move", began: began, deadline: req.Deadline}, answer{keep: &keep, handle: func(m protocol.Message) (bool, error) {
		switch m := m.(type) {
		case protocol.Move:
			r.Move = m.Move
			return true, nil
		case protocol.Pong:
			return false, nil
		}
		return false, unexpected(m, "move")
	}})
	if err != nil {
		return Reply{}, e.overCPU(op, err)
	}
	r.Elapsed = time.Since(began)
	if err := e.overCPU(op, nil); err != nil {
		return Reply{}, err
	}
	var infoErr error
	if r.Info, infoErr = keep.result(); infoErr != nil {
		unknown := 0
		_ = e.ignore(op, "move", infoErr, &unknown)
	}
	return r, nil
}

// overCPU returns a KindLimit error when the bot has used more CPU time in
// its game than its Policy allows, else err.
func (e *Engine) overCPU(op string, err error) error {
	if e.cpuLimit <= 0 {
		return err
	}
	if ee, ok := err.(*Error); ok && ee.Kind != KindCrash && ee.Kind != KindTimeout && ee.Kind != KindProtocol {
		return err
	}
	now, ok := e.proc.box.CPUTime(e.proc.pid)
	if used := now - e.cpuBase; ok && used > e.cpuLimit {
		e.broken = nil // the limit explains the failure, if any
		return e.fail(KindLimit, op, fmt.Errorf("CPU time limit %v per game: the bot used %v",
			e.cpuLimit, used.Round(time.Millisecond)))
	}
	return err
}

// moveMessages holds the messages of a move request. An Engine makes
// them in place and writes pointers to them, so that a request allocates
// nothing for them.
type moveMessages struct {
	msgs  [4]protocol.Message
	pos   protocol.Position
	fen   protocol.FEN
	legal protocol.LegalMoves
	goes  protocol.Go
}

// checkLimits fails for a search limit the bot did not declare it obeys.
func (e *Engine) checkLimits(nodes int64, depth int) error {
	switch {
	case nodes > 0 && !e.id.Nodes:
		return fmt.Errorf("a node limit for a bot that does not obey one (it sends no %q)", "request "+protocol.FeatureNodes)
	case depth > 0 && !e.id.Depth:
		return fmt.Errorf("a depth limit for a bot that does not obey one (it sends no %q)", "request "+protocol.FeatureDepth)
	}
	return nil
}

// GameOver tells the bot how the game ended. It does not wait for an
// answer, but it reports a bot that has died or broken the protocol since
// its last move.
func (e *Engine) GameOver(ctx context.Context, r game.Result, reason string) error {
	return e.gameOver(ctx, protocol.GameOver{Result: r, Reason: reason}, false)
}

// HoldGameOver is GameOver without the write: it checks the bot as
// GameOver does, but the gameover line waits for the bot's next request
// (NewGame, Move or Ping) and goes out in the same write, before it; or
// for Flush, or for the quit line of Close. A caller that is about to
// start the bot's next game saves the bot a wake-up and itself a system
// call. At most one gameover is held: a second replaces the first.
func (e *Engine) HoldGameOver(ctx context.Context, r game.Result, reason string) error {
	return e.gameOver(ctx, protocol.GameOver{Result: r, Reason: reason}, true)
}

// gameOver is GameOver, or HoldGameOver when hold is set.
func (e *Engine) gameOver(ctx context.Context, msg protocol.GameOver, hold bool) error {
	const op = "gameover"
	if err := e.call(ctx, op); err != nil {
		return err
	}
	defer e.endCall()
	if err := e.drain(ctx, op); err != nil {
		return err
	}
	if !hold {
		return e.send(ctx, op, time.Now().Add(e.handshake), msg)
	}
	if _, err := msg.AppendText(nil); err != nil {
		return e.fail(KindInvalid, op, err) // as send would find
	}
	e.wmu.Lock()
	e.held = msg
	e.wmu.Unlock()
	return nil
}

// Flush writes the gameover line HoldGameOver holds, if any, at once.
func (e *Engine) Flush(ctx context.Context) error {
	const op = "gameover"
	if err := e.call(ctx, op); err != nil {
		return err
	}
	defer e.endCall()
	e.wmu.Lock()
	held := e.held != nil
	e.wmu.Unlock()
	if !held {
		return nil
	}
	return e.send(ctx, op, time.Now().Add(e.handshake))
}

// Ping checks that the bot is alive and in sync: it sends ping with a
// fresh token and waits up to timeout (0 means the handshake timeout) for
// the matching pong.
func (e *Engine) Ping(ctx context.Context, timeout time.Duration) error {
	const op = "ping"
	if err := e.call(ctx, op); err != nil {
		return err
	}
	defer e.endCall()
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
	return e.await(ctx, &exchange{op: op, what: "pong", began: began, deadline: deadline}, answer{handle: func(m protocol.Message) (bool, error) {
		if m, ok := m.(protocol.Pong); ok {
			return m.Token == token, nil // older tokens are stale answers
		}
		return false, unexpected(m, "pong")
	}})
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
	grace := time.Duration(0)
	if polite && !e.proc.hasExited() {
		grace = e.quitGrace
		// A call's write stuck on a bot that does not read holds the
		// lock, and quit is not sent; closing the gate below cuts that
		// write short.
		if e.wmu.TryLock() {
			e.gate.quit(time.Now().Add(quitWriteTimeout))
			_ = e.w.WriteMessage(e.withHeld(protocol.Quit{})...)
			e.held = nil
			e.wmu.Unlock()
		}
	}
	// Interrupt the call in progress, if any, and wait for it to end;
	// from then on no call uses the pipes.
	e.gate.close()
	e.callMu.Lock()
	defer e.callMu.Unlock()
	var discarded chan struct{}
	if grace > 0 {
		// Keep reading the bot's output while it quits, so that it cannot
		// block on a full pipe; the goroutine ends at the end of the
		// output or when told to stop, once the bot is gone.
		discarded = make(chan struct{})
		go func() {
			defer close(discarded)
			e.src.discard()
		}()
	}
	err := e.proc.shutdown(grace, reapTimeout)
	e.gate.stopDiscard()
	if discarded != nil {
		<-discarded
	}
	e.gate.release()
	if err != nil {
		return &Error{Bot: e.name, Kind: KindClosed, Op: "close", Err: err}
	}
	return nil
}

// usable returns the error that made the Engine unusable, if any.
func (e *Engine) usable(op string) error {
	if e.broken != nil {
		return e.broken
	}
	if isClosed(e.closing) {
		return e.closedErr(op)
	}
	return nil
}

func (e *Engine) closedErr(op string) error {
	return e.fail(KindClosed, op, ErrClosed)
}

// fail builds an *Error and, unless the request was merely invalid or
// unsupported, marks the Engine unusable with it. A crash, a timeout or a
// protocol violation of a bot that reached a limit of its Policy is a
// KindLimit that names the limit; once Exit has begun, every failure but
// an invalid or unsupported request is KindClosed.
func (e *Engine) fail(kind Kind, op string, err error) error {
	if exiting.Load() && kind != KindInvalid && kind != KindUnsupported {
		// Exit may have killed the bot: nothing it did is its fault now.
		kind, err = KindClosed, fmt.Errorf("the program is exiting: %w", ErrClosed)
	}
	switch kind {
	case KindCrash, KindTimeout, KindProtocol, KindHandshake, KindLimit:
		if e.proc.hasExited() {
			// The bot's last words on stderr may still be on their way.
			waitFor(e.proc.stderrDone, lastWordsWait)
		}
	}
	switch kind {
	case KindCrash, KindTimeout, KindProtocol:
		if limit := e.proc.limitReached(); limit != "" {
			kind, err = KindLimit, fmt.Errorf("%s: %w", limit, err)
		}
	}
	if kind == KindCrash || kind == KindLimit || kind == KindHandshake {
		if w := e.proc.tail.lastLine(); w != "" && e.proc.hasExited() {
			err = fmt.Errorf("%w; its last words on stderr: %q", err, w)
		}
	}
	ee := &Error{Bot: e.name, Kind: kind, Op: op, Err: err}
	if kind != KindInvalid && kind != KindUnsupported && e.broken == nil {
		e.broken = ee
	}
	return ee
}

// send writes msgs in one write, with a write deadline (zero: none) that
// ctx and Close cut short.
func (e *Engine) send(ctx context.Context, op string, deadline time.Time, msgs ...protocol.Message) error {
	if err := ctx.Err(); err != nil {
		return e.fail(KindCanceled, op, err)
	}
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		return e.fail(KindTimeout, op, fmt.Errorf("the deadline passed before the %s request was sent", op))
	}
	e.wmu.Lock()
	defer e.wmu.Unlock()
	e.gate.setWrite(deadline)
	err := e.w.WriteMessage(e.withHeld(msgs...)...)
	invalid := errors.Is(err, protocol.ErrInvalid) || errors.Is(err, protocol.ErrLineTooLong)
	if !invalid {
		e.held = nil // written, or lost with a broken bot
	}
	clear(e.out)
	switch {
	case err == nil:
		return nil
	case invalid:
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

// withHeld returns msgs after the held gameover, if any. e.wmu is held.
func (e *Engine) withHeld(msgs ...protocol.Message) []protocol.Message {
	if e.held == nil {
		return msgs
	}
	e.out = append(append(e.out[:0], e.held), msgs...)
	return e.out
}

// gone describes a bot that stopped talking: its exit status if it exits
// within exitStatusWait, else how.
func (e *Engine) gone(how string) string {
	if waitFor(e.proc.exited, exitStatusWait) {
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
