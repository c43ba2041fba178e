package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/sandbox"
	"github.com/arena-games/arena/protocol"
)

func TestGoodBot(t *testing.T) {
	checkNoLeaks(t)
	spec := botSpec(t, modeGood)
	spec.Dir = t.TempDir()
	spec.Env = append(spec.Env, envEcho+"=hello from the arena")
	spec.Options = map[string]string{"Hash": "64", "Style": "risky", "Book": "my book.txt"}
	spec.QuitGrace = patient // the bot quits at once; it must not need the kill
	ctx := t.Context()
	e := mustStart(t, spec)

	id := e.ID()
	if id.Name != "fake good" || id.Author != "arena tests" {
		t.Errorf("ID name/author = %q/%q, want %q/%q", id.Name, id.Author, "fake good", "arena tests")
	}
	if !id.Plays("cheversi") || !id.Plays("checkers") {
		t.Errorf("ID games = %v, want cheversi and checkers", id.Games)
	}
	if len(id.Options) != 4 {
		t.Errorf("ID has %d options, want 4: %v", len(id.Options), id.Options)
	}
	if !e.WantsLegalMoves() {
		t.Error("WantsLegalMoves() = false, want true")
	}
	if err := e.Ping(ctx, patient); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := e.NewGame(ctx, NewGame{Rules: cheversiRules, Color: game.Black}); err != nil {
		t.Fatalf("NewGame: %v", err)
	}

	tests := []struct {
		req       MoveRequest
		wantMove  string
		wantInfos map[string]string // info string prefix -> rest
	}{
		{
			req: MoveRequest{
				Moves: []string{"K@e4"}, Legal: []string{"Q@d5", "Q@e5"},
				Clock:    protocol.Clock{MoveTime: 500 * time.Millisecond},
				Deadline: time.Now().Add(patient),
			},
			wantMove: "Q@d5",
			wantInfos: map[string]string{
				"pos=":     "startpos moves K@e4",
				"legal=":   "Q@d5,Q@e5",
				"opts=":    "Book=my book.txt,Hash=64,Style=risky",
				"newgame=": "game cheversi preset cheversi rules opening=king-first scoring=attacks color black",
				"env=":     "hello from the arena",
				"dir=":     spec.Dir,
			},
		},
		{
			req: MoveRequest{
				StartText: "8/8/8/8/4K3/8/8/8 b 1 e4", Moves: []string{"Q@d5", "R@a1"}, Legal: []string{"N@c3"},
				Clock: protocol.Clock{WTime: time.Minute, BTime: 59 * time.Second, WInc: time.Second, BInc: time.Second},
			},
			wantMove: "N@c3",
			wantInfos: map[string]string{
				"pos=":   "text 8/8/8/8/4K3/8/8/8 b 1 e4 moves Q@d5 R@a1",
				"legal=": "N@c3",
			},
		},
	}
	for i, tt := range tests {
		began := time.Now()
		r, err := e.Move(ctx, tt.req)
		took := time.Since(began)
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if r.Move != tt.wantMove {
			t.Errorf("move %d: Move = %q, want %q", i, r.Move, tt.wantMove)
		}
		if r.Elapsed <= 0 || r.Elapsed > took {
			t.Errorf("move %d: Elapsed = %v, want in (0, %v], the time Move took", i, r.Elapsed, took)
		}
		got := seen(r.Info)
		for k, want := range tt.wantInfos {
			if got[k] != want {
				t.Errorf("move %d: bot saw %s%q, want %q", i, k, got[k], want)
			}
		}
		// The last info line is malformed: Info is the one before.
		if in := r.Info; in == nil || in.Depth != 3 || !in.HasScore || in.Score != -5 || in.Nodes != 100 ||
			strings.Join(in.PV, " ") != tt.wantMove+" Q@d5" || !strings.HasPrefix(in.Raw, "info depth 3 ") {
			t.Errorf("move %d: Info = %+v, want depth 3 score -5 nodes 100 pv %s Q@d5", i, in, tt.wantMove)
		}
	}
	// Each move request carried one ignored chatter line and one malformed info line.
	if got := e.UnknownLines(); got != 4 {
		t.Errorf("UnknownLines() = %d, want 4", got)
	}
	if err := e.GameOver(ctx, game.BlackWins, game.ReasonScore); err != nil {
		t.Fatalf("GameOver: %v", err)
	}
	began := time.Now()
	if err := e.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d := time.Since(began); d >= spec.QuitGrace {
		t.Errorf("Close of a bot that quits took %v, want less than the grace period %v", d, spec.QuitGrace)
	}
	select {
	case <-e.Exited():
	default:
		t.Error("Exited() not closed after Close")
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if !processGone(e.Pid(), false) {
		t.Errorf("bot process %d still there", e.Pid())
	}
	log, err := os.ReadFile(spec.StderrPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fake bot: game over: result 0-1 reason score", `ignored output line "chatter that the arena ignores"`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("stderr log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(string(log), "killing process group") {
		t.Errorf("a bot that quits was killed:\n%s", log)
	}
	_, err = e.Move(ctx, MoveRequest{})
	if ee := asError(t, err); ee.Kind != KindClosed || !errors.Is(err, ErrClosed) {
		t.Errorf("Move after Close: %v, want KindClosed wrapping ErrClosed", err)
	}
}

// seen decodes the good bot's report of what it received, which it sends
// as the string of its last well-formed info line: "key=value;...".
func seen(in *protocol.Info) map[string]string {
	got := map[string]string{}
	if in == nil {
		return got
	}
	for _, kv := range strings.Split(in.String, ";") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			got[k+"="] = v
		}
	}
	return got
}

func TestNoLegalMoves(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeNoLegal))
	if e.WantsLegalMoves() {
		t.Error("WantsLegalMoves() = true, want false")
	}
	r, err := e.Move(t.Context(), MoveRequest{Moves: []string{"K@e4"}, Legal: []string{"Q@d5"}, Deadline: time.Now().Add(patient)})
	if err != nil {
		t.Fatal(err)
	}
	if legal, ok := seen(r.Info)["legal="]; !ok || legal != "" {
		t.Errorf("bot without legalmoves request received legal moves %q", legal)
	}
}

// TestMoveFailures drives bots that misbehave on go and checks the Kind,
// that the failure does not wait for the deadline (or, for a timeout,
// respects it), and that the whole process tree is gone after Close.
func TestMoveFailures(t *testing.T) {
	tests := []struct {
		mode     string
		deadline time.Duration
		kind     Kind
		is       error  // errors.Is target, if any
		contains string // in the error message
		maxTime  time.Duration
	}{
		{mode: modeCrash, deadline: patient, kind: KindCrash, contains: "exit status 3", maxTime: prompt},
		// The message gives the time from the request to the deadline, a
		// little less than the test's.
		{mode: modeMuteMove, deadline: time.Second, kind: KindTimeout, contains: "no move within", maxTime: time.Second + prompt},
		{mode: modeGarbage, deadline: patient, kind: KindProtocol, is: protocol.ErrNotUTF8, maxTime: prompt},
		{mode: modeBadMove, deadline: patient, kind: KindProtocol, is: protocol.ErrSyntax, maxTime: prompt},
		{mode: modeLongLine, deadline: patient, kind: KindProtocol, is: protocol.ErrLineTooLong, maxTime: prompt},
		{mode: modeCloseStdout, deadline: patient, kind: KindCrash, contains: "closed its output", maxTime: prompt},
		{mode: modeGrandchild, deadline: patient, kind: KindCrash, contains: "exit status 4", maxTime: prompt},
		{mode: modeUnknownFlood, deadline: patient, kind: KindProtocol, contains: "unknown lines", maxTime: prompt},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			checkNoLeaks(t)
			spec := botSpec(t, tt.mode)
			e := mustStart(t, spec)
			grandchild := 0
			if tt.mode == modeGrandchild {
				grandchild = grandchildPid(t, spec)
			}
			began := time.Now()
			r, err := e.Move(t.Context(), MoveRequest{Deadline: began.Add(tt.deadline)})
			took := time.Since(began)
			if err == nil {
				t.Fatalf("Move = %+v, want an error", r)
			}
			ee := asError(t, err)
			if ee.Kind != tt.kind || ee.Op != "move" || ee.Bot != tt.mode {
				t.Errorf("error %v: Kind %v Op %q Bot %q, want %v %q %q", err, ee.Kind, ee.Op, ee.Bot, tt.kind, "move", tt.mode)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not contain %q", err, tt.contains)
			}
			if took > tt.maxTime {
				t.Errorf("Move took %v, want at most %v", took, tt.maxTime)
			}
			if tt.kind == KindTimeout && took < tt.deadline {
				t.Errorf("timeout after %v, before the deadline %v", took, tt.deadline)
			}
			// The Engine is unusable now: the same error again.
			if _, err2 := e.Move(t.Context(), MoveRequest{}); err2 != err {
				t.Errorf("second Move: %v, want the first error %v", err2, err)
			}
			if err := e.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if !processGone(e.Pid(), false) {
				t.Errorf("bot process %d still there", e.Pid())
			}
			if grandchild != 0 && !processGone(grandchild, true) {
				t.Errorf("grandchild %d still there", grandchild)
			}
		})
	}
}

func TestStartFailures(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-bot")
	tests := []struct {
		name     string
		spec     func(Spec) Spec
		kind     Kind
		op       string
		is       error
		contains string
		maxTime  time.Duration
	}{
		{
			name: "missing command",
			spec: func(s Spec) Spec { s.Command = missing; return s },
			kind: KindStart, op: "start", is: fs.ErrNotExist, maxTime: prompt,
		},
		{
			name: "command not in PATH",
			spec: func(s Spec) Spec { s.Command = "arena-no-such-bot-in-path"; return s },
			kind: KindStart, op: "start", contains: "executable file not found", maxTime: prompt,
		},
		{
			name: "missing dir",
			spec: func(s Spec) Spec { s.Dir = missing; return s },
			kind: KindStart, op: "start", is: fs.ErrNotExist, maxTime: prompt,
		},
		{
			name: "missing log dir",
			spec: func(s Spec) Spec { s.StderrPath = filepath.Join(missing, "log"); return s },
			kind: KindStart, op: "start", is: fs.ErrNotExist, maxTime: prompt,
		},
		{
			name: "no command",
			spec: func(s Spec) Spec { s.Command = ""; return s },
			kind: KindInvalid, op: "start", maxTime: prompt,
		},
		{
			name: "exits at once",
			spec: func(s Spec) Spec { s.Env[0] = envBotMode + "=" + modeExitAtStart; return s },
			kind: KindCrash, op: "handshake", contains: "exit status 2", maxTime: prompt,
		},
		{
			name: "never answers",
			spec: func(s Spec) Spec {
				s.Env[0] = envBotMode + "=" + modeMuteHandshake
				s.HandshakeTimeout = 300 * time.Millisecond
				return s
			},
			kind: KindTimeout, op: "handshake", contains: "no handshake within 300ms", maxTime: 300*time.Millisecond + prompt,
		},
		{
			name: "undeclared option",
			spec: func(s Spec) Spec { s.Options = map[string]string{"Hash": "32", "Threads": "2"}; return s },
			kind: KindHandshake, op: "handshake", contains: `option "Threads" is not declared`, maxTime: prompt,
		},
		{
			name: "bad option value",
			spec: func(s Spec) Spec { s.Options = map[string]string{"Hash": "4096"}; return s },
			kind: KindHandshake, op: "handshake", is: protocol.ErrOptionValue, maxTime: prompt,
		},
		{
			name: "no games",
			spec: func(s Spec) Spec { s.Env[0] = envBotMode + "=" + modeNoGames; return s },
			kind: KindHandshake, op: "handshake", contains: "no games", maxTime: prompt,
		},
		{
			name: "move during handshake",
			spec: func(s Spec) Spec { s.Env[0] = envBotMode + "=" + modeHandshakeMove; return s },
			kind: KindProtocol, op: "handshake", is: protocol.ErrUnexpected, maxTime: prompt,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkNoLeaks(t)
			spec := tt.spec(botSpec(t, modeGood))
			began := time.Now()
			e, err := Start(t.Context(), spec)
			took := time.Since(began)
			if err == nil {
				e.Close()
				t.Fatal("Start succeeded, want an error")
			}
			if e != nil {
				t.Errorf("Start returned an Engine with error %v", err)
			}
			ee := asError(t, err)
			if ee.Kind != tt.kind || ee.Op != tt.op {
				t.Errorf("error %v: Kind %v Op %q, want %v %q", err, ee.Kind, ee.Op, tt.kind, tt.op)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not contain %q", err, tt.contains)
			}
			if took > tt.maxTime {
				t.Errorf("Start took %v, want at most %v", took, tt.maxTime)
			}
		})
	}
}

func TestStartCanceled(t *testing.T) {
	checkNoLeaks(t)
	spec := botSpec(t, modeMuteHandshake)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := Start(ctx, spec)
	if ee := asError(t, err); ee.Kind != KindCanceled || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Start: %v, want KindCanceled wrapping context.DeadlineExceeded", err)
	}
	if took := time.Since(began); took > 200*time.Millisecond+prompt {
		t.Errorf("Start took %v after its context expired at 200ms", took)
	}
}

func TestStderrLog(t *testing.T) {
	checkNoLeaks(t)
	spec := botSpec(t, modeExitAtStart)
	if _, err := Start(t.Context(), spec); err == nil {
		t.Fatal("Start succeeded, want an error")
	}
	log, err := os.ReadFile(spec.StderrPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := "fake bot: giving up at once\n"; string(log) != want {
		t.Errorf("stderr log = %q, want %q", log, want)
	}
	// A second bot appends to the same file.
	if _, err := Start(t.Context(), spec); err == nil {
		t.Fatal("Start succeeded, want an error")
	}
	if log, _ = os.ReadFile(spec.StderrPath); strings.Count(string(log), "giving up") != 2 {
		t.Errorf("stderr log after two bots = %q, want two messages", log)
	}
}

func TestFloodedStderr(t *testing.T) {
	checkNoLeaks(t)
	spec := botSpec(t, modeFloodStderr)
	spec.StderrLimit = 1 << 20
	e := mustStart(t, spec)
	// The bot writes 4 MB to stderr before each move: it would block on a
	// full pipe unless the arena drains stderr while it waits.
	for i := range 5 {
		began := time.Now()
		r, err := e.Move(t.Context(), MoveRequest{Legal: []string{"K@e4"}, Deadline: began.Add(patient)})
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if r.Move != "K@e4" {
			t.Errorf("move %d = %q, want K@e4", i, r.Move)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(spec.StderrPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := int64(len(log)); n > spec.StderrLimit+200 {
		t.Errorf("log size %d, want at most the limit %d plus a short note", n, spec.StderrLimit)
	}
	if !strings.Contains(string(log), "[arena: log capped at 1048576 bytes") {
		t.Errorf("log lacks the cap note")
	}
}

// TestLogPerBot checks that processes of one bot share one capped log,
// which keeps the last words of the last one to crash.
func TestLogPerBot(t *testing.T) {
	checkNoLeaks(t)
	spec := botSpec(t, modeFloodCrash)
	path := spec.StderrPath
	const limit = 1 << 20
	log, err := OpenLog(path, limit)
	if err != nil {
		t.Fatal(err)
	}
	spec.Log = log
	var last int
	for i := range 4 {
		e := mustStart(t, spec)
		_, err := e.Move(t.Context(), MoveRequest{Legal: []string{"K@e4"}, Deadline: time.Now().Add(patient)})
		if ee := asError(t, err); ee.Kind != KindCrash {
			t.Fatalf("process %d: Move: %v, want a crash", i, err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		last = e.Pid()
		// Flushed at the end of each process: the last words are there.
		data, _ := os.ReadFile(path)
		if want := fmt.Sprintf("fake bot: last words of %d", last); !strings.Contains(string(data), want) {
			t.Errorf("process %d: log lacks %q", i, want)
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > limit+200 {
		t.Errorf("log of 4 processes writing 2 MB each: %d bytes, want at most %d and a note", len(data), limit)
	}
	for _, want := range []string{"[arena: log capped at 1048576 bytes", fmt.Sprintf("fake bot: last words of %d", last)} {
		if !strings.Contains(string(data), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

func TestIgnoresQuit(t *testing.T) {
	checkNoLeaks(t)
	spec := botSpec(t, modeIgnoreQuit)
	e := mustStart(t, spec)
	began := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	if took < spec.QuitGrace || took > spec.QuitGrace+prompt {
		t.Errorf("Close took %v, want the grace period %v and at most %v more", took, spec.QuitGrace, prompt)
	}
	if !processGone(e.Pid(), false) {
		t.Errorf("bot process %d still there", e.Pid())
	}
	log, _ := os.ReadFile(spec.StderrPath)
	if !strings.Contains(string(log), "no exit within 300ms of quit") {
		t.Errorf("stderr log %q lacks the kill note", log)
	}
}

// TestGrandchildAfterQuit checks that Close removes a child the bot left
// running in its process group although the bot itself quit politely.
func TestGrandchildAfterQuit(t *testing.T) {
	checkNoLeaks(t)
	spec := botSpec(t, modeGrandchildOK)
	e := mustStart(t, spec)
	gc := grandchildPid(t, spec)
	if err := syscall.Kill(gc, 0); err != nil {
		t.Fatalf("grandchild %d not running before Close: %v", gc, err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if !processGone(e.Pid(), false) {
		t.Errorf("bot process %d still there", e.Pid())
	}
	if !processGone(gc, true) {
		t.Errorf("grandchild %d still there", gc)
	}
}

func TestUnaskedMove(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeUnasked))
	err := e.NewGame(t.Context(), NewGame{Rules: cheversiRules, Color: game.White})
	if ee := asError(t, err); ee.Kind != KindProtocol || ee.Op != "newgame" || !errors.Is(err, protocol.ErrUnexpected) {
		t.Errorf("NewGame: %v, want KindProtocol in newgame wrapping ErrUnexpected", err)
	}
}

func TestUnsupportedGame(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeGood))
	err := e.NewGame(t.Context(), NewGame{Rules: testRules{game: "go", preset: "19x19"}})
	if ee := asError(t, err); ee.Kind != KindUnsupported {
		t.Errorf("NewGame(go): %v, want KindUnsupported", err)
	}
	// Still usable.
	if err := e.NewGame(t.Context(), NewGame{Rules: cheversiRules}); err != nil {
		t.Errorf("NewGame(cheversi) after an unsupported game: %v", err)
	}
}

func TestInvalidRequest(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeGood))
	deadline := time.Now().Add(patient)
	_, err := e.Move(t.Context(), MoveRequest{Moves: []string{"K@e4", "two words"}, Deadline: deadline})
	if ee := asError(t, err); ee.Kind != KindInvalid || !errors.Is(err, protocol.ErrInvalid) {
		t.Errorf("Move with a bad move text: %v, want KindInvalid wrapping ErrInvalid", err)
	}
	// Nothing was sent: the Engine is still in sync.
	r, err := e.Move(t.Context(), MoveRequest{Legal: []string{"B@c1"}, Deadline: deadline})
	if err != nil || r.Move != "B@c1" {
		t.Errorf("Move after an invalid request = %q, %v; want B@c1", r.Move, err)
	}
}

func TestDeafBot(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeDeaf))
	// Position and legal moves of 60 KB each exceed the pipe's buffer, so
	// the write blocks on a bot that does not read.
	var moves, legal []string
	for i := range 10000 {
		moves = append(moves, fmt.Sprintf("m%04d", i))
		legal = append(legal, fmt.Sprintf("l%04d", i))
	}
	began := time.Now()
	_, err := e.Move(t.Context(), MoveRequest{Moves: moves, Legal: legal, Deadline: began.Add(time.Second)})
	took := time.Since(began)
	if ee := asError(t, err); ee.Kind != KindTimeout || !strings.Contains(err.Error(), "did not read the move request") {
		t.Errorf("Move: %v, want KindTimeout: did not read the move request", err)
	}
	if took < time.Second || took > time.Second+prompt {
		t.Errorf("Move took %v, want the deadline 1s and at most %v more", took, prompt)
	}
}

// fakeProcessEngine returns an Engine over pipes whose bot is no process:
// the test writes the bot's output to outW and reports the bot's end
// through p and g. The pipes and the gate are closed when the test ends.
func fakeProcessEngine(t *testing.T, name string) (e *Engine, p *process, g *gate, outW *os.File) {
	t.Helper()
	inR, inW, outR, outW, g := botPipes(t)
	t.Cleanup(func() {
		g.release()
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
	})
	p = &process{stdin: inW, stdout: outR, exited: make(chan struct{}), stderrDone: make(chan struct{}), pid: 4242}
	e, err := newEngine(name, Spec{}, p, g)
	if err != nil {
		t.Fatal(err)
	}
	return e, p, g, outW
}

// TestDeathNoticedLate checks the verdict when a move's deadline passes
// before the arena has read the end of the bot's output or heard of its
// exit, as happens to an arena that is not scheduled for a while: a bot
// that died in time crashed; only one still alive ran out of time.
func TestDeathNoticedLate(t *testing.T) {
	tests := []struct {
		name     string
		bot      func(out *os.File, p *process, g *gate, deadline time.Time)
		kind     Kind
		contains string
	}{
		{
			name:     "output ended, exit not reported",
			bot:      func(out *os.File, p *process, g *gate, deadline time.Time) { out.Close() },
			kind:     KindCrash,
			contains: "closed its output while awaiting move",
		},
		{
			name: "exited before the deadline, output held by its child",
			bot: func(out *os.File, p *process, g *gate, deadline time.Time) {
				p.status = "exit status 4"
				close(p.exited)
				g.exited(deadline.Add(-time.Millisecond))
			},
			kind:     KindCrash,
			contains: "exited (exit status 4) while awaiting move",
		},
		{
			name:     "alive",
			bot:      func(out *os.File, p *process, g *gate, deadline time.Time) {},
			kind:     KindTimeout,
			contains: "no move within 1s",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, p, g, outW := fakeProcessEngine(t, "late")
			// The bot has written part of a line; the deadline has passed
			// by the time the arena reads.
			if _, err := outW.WriteString("info string thinking\ninfo dep"); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(-time.Millisecond)
			tt.bot(outW, p, g, deadline)
			err := e.await(t.Context(), &exchange{op: "move", what: "move", began: deadline.Add(-time.Second), deadline: deadline},
				answer{keep: &infoKeeper{}, handle: func(protocol.Message) (bool, error) { return true, nil }})
			if ee := asError(t, err); ee.Kind != tt.kind || !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("await: %v, want %v saying %q", err, tt.kind, tt.contains)
			}
		})
	}
}

// TestLastLinesAfterExit checks a bot that wrote its move and exited, read
// by an arena that comes to it only after exitDrain (as one not scheduled
// for a while does): the move is its answer. A bot that wrote nothing
// crashed, and a process it left behind that keeps writing cannot keep
// the call reading.
func TestLastLinesAfterExit(t *testing.T) {
	tests := []struct {
		name     string
		output   string
		flood    bool   // a process left behind writes info lines without end
		want     string // the move; "" for a crash
		contains string
	}{
		{name: "move in the pipe", output: "info depth 3 score 1\nmove K@e4\n", want: "K@e4"},
		{name: "nothing written", contains: "exited (exit status 4) while awaiting move"},
		{name: "flood after the exit", flood: true, contains: "exited (exit status 4) while awaiting move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, p, g, outW := fakeProcessEngine(t, "gone")
			if _, err := outW.WriteString(tt.output); err != nil {
				t.Fatal(err)
			}
			stop := make(chan struct{})
			flooded := make(chan struct{})
			if tt.flood {
				go func() { // exits when the pipe is closed or stop is
					defer close(flooded)
					line := []byte("info string still here\n")
					for {
						select {
						case <-stop:
							return
						default:
						}
						if _, err := outW.Write(line); err != nil {
							return
						}
					}
				}()
			} else {
				close(flooded)
			}
			defer func() { close(stop); p.stdout.Close(); <-flooded }()
			// The bot exited a second ago: exitDrain is long past.
			p.status = "exit status 4"
			close(p.exited)
			g.exited(time.Now().Add(-time.Second))
			var got string
			err := e.await(t.Context(), &exchange{op: "move", what: "move", began: time.Now(), deadline: time.Now().Add(time.Minute)},
				answer{keep: &infoKeeper{}, handle: func(m protocol.Message) (bool, error) {
					if mv, ok := m.(protocol.Move); ok {
						got = mv.Move
						return true, nil
					}
					return false, nil
				}})
			if tt.want != "" {
				if err != nil || got != tt.want {
					t.Errorf("await: move %q, %v; want move %q", got, err, tt.want)
				}
				return
			}
			if ee := asError(t, err); ee.Kind != KindCrash || !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("await: %v, want a crash saying %q", err, tt.contains)
			}
		})
	}
}

func TestDeadlinePassed(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeGood))
	_, err := e.Move(t.Context(), MoveRequest{Deadline: time.Now().Add(-time.Millisecond)})
	if ee := asError(t, err); ee.Kind != KindTimeout || !strings.Contains(err.Error(), "deadline passed before") {
		t.Errorf("Move: %v, want KindTimeout: deadline passed before", err)
	}
}

func TestPing(t *testing.T) {
	t.Run("bot pings the arena", func(t *testing.T) {
		checkNoLeaks(t)
		e := mustStart(t, botSpec(t, modePinger))
		r, err := e.Move(t.Context(), MoveRequest{Legal: []string{"N@b1"}, Deadline: time.Now().Add(patient)})
		if err != nil || r.Move != "N@b1" {
			t.Errorf("Move = %q, %v; want N@b1", r.Move, err)
		}
	})
	t.Run("no pong", func(t *testing.T) {
		checkNoLeaks(t)
		e := mustStart(t, botSpec(t, modeNoPong))
		began := time.Now()
		err := e.Ping(t.Context(), time.Second)
		if ee := asError(t, err); ee.Kind != KindTimeout || ee.Op != "ping" {
			t.Errorf("Ping: %v, want KindTimeout in ping", err)
		}
		if took := time.Since(began); took < time.Second || took > time.Second+prompt {
			t.Errorf("Ping took %v, want its timeout 1s and at most %v more", took, prompt)
		}
	})
}

// awaiting waits until a call of e is waiting for the bot's answer under
// a deadline, and reports whether one was within prompt.
func awaiting(e *Engine) bool {
	for deadline := time.Now().Add(prompt); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		e.gate.mu.Lock()
		waiting := !e.gate.read.IsZero()
		e.gate.mu.Unlock()
		if waiting {
			return true
		}
	}
	return false
}

func TestMoveCanceled(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeMuteMove))
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := e.Move(ctx, MoveRequest{Deadline: time.Now().Add(patient)})
		errc <- err
	}()
	if !awaiting(e) {
		t.Errorf("Move not waiting for the bot after %v", prompt)
	}
	cancel()
	err := <-errc
	if ee := asError(t, err); ee.Kind != KindCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("Move: %v, want KindCanceled wrapping context.Canceled", err)
	}
}

func TestCloseDuringMove(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeMuteMove))
	errc := make(chan error, 1)
	go func() {
		_, err := e.Move(context.Background(), MoveRequest{Deadline: time.Now().Add(patient)})
		errc <- err
	}()
	if !awaiting(e) {
		t.Errorf("Move not waiting for the bot after %v", prompt)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if ee := asError(t, err); ee.Kind != KindClosed || !errors.Is(err, ErrClosed) {
			t.Errorf("Move: %v, want KindClosed wrapping ErrClosed", err)
		}
	case <-time.After(prompt):
		t.Fatalf("Move still running %v after Close", prompt)
	}
	if !processGone(e.Pid(), false) {
		t.Errorf("bot process %d still there", e.Pid())
	}
}

// TestCrashBetweenMoves checks that a bot that died after answering is
// reported at the next call, before anything is sent.
func TestCrashBetweenMoves(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeGood))
	if err := syscall.Kill(e.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-e.Exited()
	// Not reaped before Close: the pid, and with it the process group id,
	// stay reserved until the group has been killed.
	if st := processState(e.Pid()); st != 'Z' {
		t.Errorf("bot state after exit = %q, want a zombie until Close", st)
	}
	_, err := e.Move(t.Context(), MoveRequest{Deadline: time.Now().Add(patient)})
	if ee := asError(t, err); ee.Kind != KindCrash || !strings.Contains(err.Error(), "exited (signal: killed)") {
		t.Errorf("Move: %v, want KindCrash saying exited (signal: killed)", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if !processGone(e.Pid(), false) {
		t.Errorf("bot process %d still there after Close", e.Pid())
	}
}

// TestFailureWhileExiting checks that once Exit has begun, a bot killed
// while the arena waits for its move, or before a request, is not said to
// have crashed: the program is exiting (KindClosed), which a tournament
// does not count against the bot. Exit itself ends the process; the test
// sets what it sets first.
func TestFailureWhileExiting(t *testing.T) {
	checkNoLeaks(t)
	for _, waiting := range []bool{true, false} {
		e := mustStart(t, botSpec(t, modeMuteMove))
		exiting.Store(true)
		moved := make(chan error, 1)
		if waiting {
			go func() { // ends when the bot dies
				_, err := e.Move(t.Context(), MoveRequest{Deadline: time.Now().Add(patient)})
				moved <- err
			}()
		}
		if err := syscall.Kill(-e.Pid(), syscall.SIGKILL); err != nil {
			exiting.Store(false)
			t.Fatal(err)
		}
		<-e.Exited()
		if !waiting {
			_, err := e.Move(t.Context(), MoveRequest{Deadline: time.Now().Add(patient)})
			moved <- err
		}
		err := <-moved
		exiting.Store(false)
		if ee := asError(t, err); ee.Kind != KindClosed || !errors.Is(err, ErrClosed) {
			t.Errorf("waiting %v: Move: %v (%v), want KindClosed: the program is exiting", waiting, err, ee.Kind)
		}
		e.Close()
	}
}

// TestInfoFlood checks that a bot streaming info lines costs the arena no
// memory: only the last one is kept.
func TestInfoFlood(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeInfoFlood))
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := e.Move(t.Context(), MoveRequest{Legal: []string{"N@b1"}, Deadline: time.Now().Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if r.Move != "N@b1" || r.Info == nil || r.Info.Depth != 7 || r.Info.String != "last" {
		t.Errorf("Move = %q, Info %+v; want N@b1 with the last info line (depth 7)", r.Move, r.Info)
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 8<<20 {
		t.Errorf("live heap grew by %d MiB holding the reply to 96 MB of info lines", grew>>20)
	}
	if in := r.Info; in != nil && len(in.Raw) > MaxInfoText {
		t.Errorf("Info.Raw holds %d bytes, want at most %d", len(in.Raw), MaxInfoText)
	}
}

func TestCompactInfo(t *testing.T) {
	long := strings.Repeat("é", MaxInfoText) // two bytes a letter
	var pv []string
	for range 400 {
		pv = append(pv, "K@e4")
	}
	in := protocol.Info{Depth: 2, PV: pv, String: long, Raw: "info depth 2 pv " + strings.Join(pv, " ") + " string " + long}
	got := compactInfo(in)
	if len(got.Raw) > MaxInfoText || len(got.String) > MaxInfoText || !utf8.ValidString(got.Raw) || !utf8.ValidString(got.String) {
		t.Errorf("Raw %d bytes, String %d bytes (valid UTF-8: %v, %v); want at most %d each",
			len(got.Raw), len(got.String), utf8.ValidString(got.Raw), utf8.ValidString(got.String), MaxInfoText)
	}
	if n := len(strings.Join(got.PV, " ")); n > MaxInfoText || len(got.PV) == 0 {
		t.Errorf("PV of %d moves, %d bytes; want some moves in at most %d bytes", len(got.PV), n, MaxInfoText)
	}
	if got.Depth != 2 || !strings.HasPrefix(in.Raw, got.Raw) || !strings.HasPrefix(in.String, got.String) {
		t.Errorf("compactInfo = %+v, want a prefix of the input", got)
	}
}

// TestDoubleMove checks that a second move for one go is a protocol
// violation, not the answer to the next request.
func TestDoubleMove(t *testing.T) {
	for i := range 5 {
		e := mustStart(t, botSpec(t, modeDoubleMove))
		if _, err := e.Move(t.Context(), MoveRequest{Legal: []string{"N@b1"}, Deadline: time.Now().Add(patient)}); err != nil {
			t.Fatalf("bot %d: first move: %v", i, err)
		}
		r, err := e.Move(t.Context(), MoveRequest{Legal: []string{"N@b2"}, Deadline: time.Now().Add(patient)})
		if err == nil {
			t.Fatalf("bot %d: second Move = %q, want a protocol violation", i, r.Move)
		}
		if ee := asError(t, err); ee.Kind != KindProtocol || !strings.Contains(err.Error(), "a move nobody asked for") {
			t.Errorf("bot %d: second Move: %v, want KindProtocol: a move nobody asked for", i, err)
		}
		e.Close()
	}
}

// TestNoBotOutlivesArena ends an arena, killed outright (kill -9) or by
// Exit, while it runs a bot started through a shell script that does not
// exec it, and whose children stay in its process group or leave it with
// setsid: none of them may survive, whether the bot has a PID namespace
// of its own or, where the machine denies namespaces, a supervisor.
func TestNoBotOutlivesArena(t *testing.T) {
	for _, ns := range []string{"on", "off"} {
		for _, byExit := range []bool{false, true} {
			name := "namespaces " + ns + ", killed"
			if byExit {
				name = "namespaces " + ns + ", Exit"
			}
			t.Run(name, func(t *testing.T) { noBotOutlivesArena(t, ns, byExit) })
		}
	}
}

func noBotOutlivesArena(t *testing.T, namespaces string, byExit bool) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	arena := exec.Command(exe)
	arena.Env = append(os.Environ(), envFakeArena+"="+dir, sandbox.EnvNamespaces+"="+namespaces)
	var stderr strings.Builder
	arena.Stderr = &stderr
	if err := arena.Start(); err != nil {
		t.Fatal(err)
	}
	defer arena.Process.Kill()
	var pgid int
	var escapers []int
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		// The files are read until both hold whole pids: a file may be
		// seen created and still empty, and a pgid of 0 would stand for
		// every kernel thread.
		if g, pids := readPids(filepath.Join(dir, "bot.pid")), readPids(filepath.Join(dir, "escapers.pid")); len(g) == 1 && len(pids) == 2 {
			pgid, escapers = g[0], pids
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fake arena did not start its bot within 30s: %s", stderr.String())
		}
	}
	group := groupMembers(pgid)
	if len(group) < 3 { // bash, the bot and the sleeper that stays
		t.Fatalf("bot process group %d has %v, want bash, the bot and a sleeper", pgid, group)
	}
	t.Cleanup(func() { // whatever the outcome, leave nothing behind
		syscall.Kill(-pgid, syscall.SIGKILL)
		for _, pid := range escapers {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	if byExit {
		if err := os.WriteFile(filepath.Join(dir, "exit"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		var ee *exec.ExitError
		if err := arena.Wait(); !errors.As(err, &ee) || ee.ExitCode() != fakeArenaExit {
			t.Fatalf("the arena ended with %v, want exit status %d from Exit: %s", err, fakeArenaExit, stderr.String())
		}
	} else {
		if err := arena.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		arena.Wait()
	}
	for _, pid := range append(group, escapers...) {
		if !processGone(pid, true) {
			t.Errorf("process %d (%s) outlived the arena", pid, processName(pid))
		}
	}
	if left := groupMembers(pgid); len(left) > 0 {
		t.Errorf("processes of the bot's group left: %v", left)
	}
}

// readPids returns the positive pids written in the file at path, or nil
// if it cannot be read or holds anything else.
func readPids(path string) []int {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil || pid <= 0 {
			return nil
		}
		pids = append(pids, pid)
	}
	return pids
}

// groupMembers returns the live (not zombie) processes of process group
// pgid.
func groupMembers(pgid int) []int {
	dirs, _ := os.ReadDir("/proc")
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if pg, err := syscall.Getpgid(pid); err == nil && pg == pgid && processState(pid) != 'Z' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// processName returns the command name of pid, for messages.
func processName(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}

func TestKindString(t *testing.T) {
	tests := []struct {
		k    Kind
		want string
	}{
		{KindStart, "start"},
		{KindTimeout, "timeout"},
		{KindProtocol, "protocol violation"},
		{KindInvalid, "invalid request"},
		{Kind(0), "Kind(0)"},
		{Kind(99), "Kind(99)"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(tt.k), got, tt.want)
		}
	}
	err := &Error{Bot: "x", Kind: KindTimeout, Op: "move", Err: errors.New("no move within 1.2s")}
	if got, want := err.Error(), `bot "x": timeout: no move within 1.2s`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestNewGames checks that NewGames starts a game on every bot, each with
// its own color, and reports each bot's failure apart.
func TestNewGames(t *testing.T) {
	checkNoLeaks(t)
	ctx := t.Context()
	white, black := mustStart(t, botSpec(t, modeGood)), mustStart(t, botSpec(t, modeGood))
	errs := NewGames(ctx, []*Engine{white, black},
		[]NewGame{{Rules: cheversiRules, Color: game.White}, {Rules: cheversiRules, Color: game.Black}})
	if len(errs) != 2 || errs[0] != nil || errs[1] != nil {
		t.Fatalf("NewGames = %v, want two nil errors", errs)
	}
	for _, tt := range []struct {
		e     *Engine
		color string
	}{{white, "white"}, {black, "black"}} {
		r, err := tt.e.Move(ctx, MoveRequest{Legal: []string{"K@e4"}, Deadline: time.Now().Add(patient)})
		if err != nil {
			t.Fatalf("Move after NewGames: %v", err)
		}
		if got, want := seen(r.Info)["newgame="], "game cheversi preset cheversi rules opening=king-first scoring=attacks color "+tt.color; got != want {
			t.Errorf("bot saw newgame %q, want %q", got, want)
		}
	}

	// A bot that breaks the protocol fails alone; the other is ready.
	bad, good := mustStart(t, botSpec(t, modeUnasked)), mustStart(t, botSpec(t, modeGood))
	errs = NewGames(ctx, []*Engine{bad, good},
		[]NewGame{{Rules: cheversiRules, Color: game.White}, {Rules: cheversiRules, Color: game.Black}})
	if ee := asError(t, errs[0]); ee.Kind != KindProtocol || ee.Op != "newgame" {
		t.Errorf("NewGames: bad bot's error %v, want KindProtocol in newgame", errs[0])
	}
	if errs[1] != nil {
		t.Errorf("NewGames: good bot's error %v, want nil", errs[1])
	}
	if _, err := good.Move(ctx, MoveRequest{Legal: []string{"K@e4"}, Deadline: time.Now().Add(patient)}); err != nil {
		t.Errorf("Move of the good bot: %v", err)
	}

	// An engine given twice, or closed, fails without being waited for.
	closed := mustStart(t, botSpec(t, modeGood))
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	errs = NewGames(ctx, []*Engine{good, good, closed}, []NewGame{{Rules: cheversiRules}, {Rules: cheversiRules}, {Rules: cheversiRules}})
	if errs[0] != nil {
		t.Errorf("NewGames: first engine's error %v, want nil", errs[0])
	}
	if ee := asError(t, errs[1]); ee.Kind != KindInvalid {
		t.Errorf("NewGames: repeated engine's error %v, want KindInvalid", errs[1])
	}
	if ee := asError(t, errs[2]); ee.Kind != KindClosed {
		t.Errorf("NewGames: closed engine's error %v, want KindClosed", errs[2])
	}
}
