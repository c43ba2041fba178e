package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
)

// watchedPair starts the bots of TestWatch: y writes a move nobody asked
// for when the test creates the file "stray" in dir, and x (in mode xMode)
// plays while y is idle.
func watchedPair(t *testing.T, xMode string) (x, y *Engine, dir string) {
	t.Helper()
	dir = t.TempDir()
	withSignals := func(mode string) Spec {
		spec := botSpec(t, mode)
		spec.Env = append(spec.Env, envSignals+"="+dir)
		return spec
	}
	y = mustStart(t, withSignals(modeLateMove))
	x = mustStart(t, withSignals(xMode))
	if r, err := y.Move(t.Context(), MoveRequest{Legal: []string{"N@b1"}, Deadline: time.Now().Add(patient)}); err != nil || r.Move != "N@b1" {
		t.Fatalf("y's first Move = %q, %v; want N@b1", r.Move, err)
	}
	return x, y, dir
}

// TestWatchSeesStrayOutput checks that output an idle bot writes while the
// other bot thinks is seen by the watching wait: the idle bot's next call
// checks it, and a move nobody asked for is still a protocol violation.
func TestWatchSeesStrayOutput(t *testing.T) {
	checkNoLeaks(t)
	x, y, dir := watchedPair(t, modeAwaitLate)
	if err := os.WriteFile(filepath.Join(dir, "stray"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// x answers only once y has written its stray move.
	if r, err := x.Move(t.Context(), MoveRequest{Legal: []string{"N@c3"}, Deadline: time.Now().Add(patient), Watch: y}); err != nil || r.Move != "N@c3" {
		t.Fatalf("x's Move = %q, %v; want N@c3", r.Move, err)
	}
	r, err := y.Move(t.Context(), MoveRequest{Legal: []string{"N@b2"}, Deadline: time.Now().Add(patient)})
	if err == nil {
		t.Fatalf("y's second Move = %q, want a protocol violation", r.Move)
	}
	if ee := asError(t, err); ee.Kind != KindProtocol || !strings.Contains(err.Error(), "a move nobody asked for") {
		t.Errorf("y's second Move: %v, want KindProtocol: a move nobody asked for", err)
	}
}

// TestWatchSkipsCheck checks that a bot whose output the watching wait
// saw empty skips its check for stray output: what it writes after that
// look is its answer, as the documentation of MoveRequest.Watch says. (A
// check before the request would have found the stray move.) Without a
// watch the same bot's stray move is caught.
func TestWatchSkipsCheck(t *testing.T) {
	for _, watch := range []bool{true, false} {
		x, y, dir := watchedPair(t, modeInstant)
		req := MoveRequest{Legal: []string{"N@c3"}, Deadline: time.Now().Add(patient)}
		if watch {
			req.Watch = y
		}
		if r, err := x.Move(t.Context(), req); err != nil || r.Move != "N@c3" {
			t.Fatalf("watch %v: x's Move = %q, %v; want N@c3", watch, r.Move, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stray"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		awaitFile(filepath.Join(dir, "strayed")) // the bot writes the move, then makes the file
		r, err := y.Move(t.Context(), MoveRequest{Legal: []string{"N@b2"}, Deadline: time.Now().Add(patient)})
		switch {
		case watch && (err != nil || r.Move != "K@h8"):
			t.Errorf("watched: y's second Move = %q, %v; want the stray K@h8 taken as the answer", r.Move, err)
		case !watch && err == nil:
			t.Errorf("not watched: y's second Move = %q, want a protocol violation", r.Move)
		}
		x.Close()
		y.Close()
	}
}

// TestHoldGameOver checks that a held gameover reaches the bot exactly
// once and in order: with the next newgame, with a ping after a request
// that was invalid (nothing written), by Flush, and with quit by Close;
// and that a gameover with a bad reason is refused before it is held.
func TestHoldGameOver(t *testing.T) {
	checkNoLeaks(t)
	spec := botSpec(t, modeGood)
	e := mustStart(t, spec)
	ctx := t.Context()
	hold := func(reason string) {
		t.Helper()
		if err := e.HoldGameOver(ctx, game.Win(game.White), reason); err != nil {
			t.Fatalf("HoldGameOver(%s): %v", reason, err)
		}
	}
	if err := e.NewGame(ctx, NewGame{Rules: cheversiRules, Color: game.White}); err != nil {
		t.Fatal(err)
	}
	hold("first")
	if err := e.NewGame(ctx, NewGame{Rules: cheversiRules, Color: game.Black}); err != nil {
		t.Fatalf("NewGame after a held gameover: %v", err)
	}
	hold("second")
	if _, err := e.Move(ctx, MoveRequest{Moves: []string{"two words"}, Deadline: time.Now().Add(patient)}); err == nil {
		t.Fatal("Move with a bad move text: no error")
	}
	if err := e.Ping(ctx, 0); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	hold("third")
	if err := e.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if err := e.Flush(ctx); err != nil {
		t.Fatalf("Flush with nothing held: %v", err)
	}
	if err := e.Ping(ctx, 0); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := e.HoldGameOver(ctx, game.Draw, "two words"); err == nil {
		t.Error("HoldGameOver with a bad reason: no error")
	}
	hold("fourth")
	if err := e.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	log, err := os.ReadFile(spec.StderrPath)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(log), "\n") {
		if _, after, ok := strings.Cut(line, "fake bot: game over: "); ok {
			got = append(got, after)
		}
	}
	want := []string{"result 1-0 reason first", "result 1-0 reason second", "result 1-0 reason third", "result 1-0 reason fourth"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the bot got gameover lines %q, want %q", got, want)
	}
}
