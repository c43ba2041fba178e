package engine

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
)

// Timing bounds. The tests run on small shared machines, often under
// -race, where starting a bot alone can take seconds, so no test asserts
// how fast anything is (the benchmarks measure that). A test checks only
// what tells right from wrong by a wide margin: a failure that must not
// wait for a deadline is given a patient one and must come within prompt,
// half of it; a timeout must come no sooner than its deadline and at the
// latest prompt after it (the failure being that it never comes).
const (
	patient = time.Minute
	prompt  = patient / 2
)

// botSpec returns a Spec that runs the test binary as a fake bot in mode,
// logging its stderr to a file in a fresh temporary directory.
func botSpec(t testing.TB, mode string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	return Spec{
		Name:    mode,
		Command: exe,
		Env: []string{
			envBotMode + "=" + mode,
			envPidFile + "=" + filepath.Join(dir, "grandchild.pid"),
			// With -race, a bot would otherwise linger 1s at exit.
			"GORACE=atexit_sleep_ms=0",
		},
		StderrPath:       filepath.Join(dir, "stderr.log"),
		HandshakeTimeout: patient,
		QuitGrace:        300 * time.Millisecond,
	}
}

// mustStart starts spec and registers a Close; it fails the test on error.
func mustStart(t testing.TB, spec Spec) *Engine {
	t.Helper()
	e, err := Start(t.Context(), spec)
	if err != nil {
		t.Fatalf("Start(%s): %v", spec.Name, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// checkNoLeaks fails the test if, at its end, more goroutines run than at
// its start (after waiting up to prompt for them to end), or if the test
// process has any child process left, reaped or not.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		if kids := children(); len(kids) > 0 {
			t.Errorf("child processes left: %v", kids)
		}
		var now int
		for deadline := time.Now().Add(prompt); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if now = runtime.NumGoroutine(); now <= before {
				return
			}
		}
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("goroutines: %d before, %d after\n%s", before, now, buf)
	})
}

// processGone waits up to prompt for pid to be gone. For the bot itself, a
// child of the test, that means reaped: no such process. For a grandchild,
// a zombie also counts: it is dead, waiting for its new parent (init) to
// reap it.
func processGone(pid int, zombieOK bool) bool {
	for deadline := time.Now().Add(prompt); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if zombieOK && processState(pid) == 'Z' {
			return true
		}
	}
	return false
}

// children returns the pids of the test process's children.
func children() []int {
	me := os.Getpid()
	dirs, _ := os.ReadDir("/proc")
	var kids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(me) {
			kids = append(kids, pid)
		}
	}
	return kids
}

// processState returns the state letter of /proc/<pid>/stat, or 0.
func processState(pid int) byte {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) S ...: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return 0
	}
	return b[i+2]
}

// grandchildPid reads the pid the "grandchild" modes wrote.
func grandchildPid(t *testing.T, spec Spec) int {
	t.Helper()
	for _, kv := range spec.Env {
		if path, ok := strings.CutPrefix(kv, envPidFile+"="); ok {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("grandchild pid: %v", err)
			}
			pid, err := strconv.Atoi(string(b))
			if err != nil {
				t.Fatalf("grandchild pid: %v", err)
			}
			return pid
		}
	}
	t.Fatal("no pid file in spec")
	return 0
}

// asError returns err as an *Error or fails the test.
func asError(t *testing.T, err error) *Error {
	t.Helper()
	var ee *Error
	if !errors.As(err, &ee) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	return ee
}

// testRules is a minimal game.Rules for NewGame.
type testRules struct {
	game, preset string
	settings     []game.Setting
}

func (r testRules) Game() string                          { return r.game }
func (r testRules) Preset() string                        { return r.preset }
func (r testRules) Settings() []game.Setting              { return r.settings }
func (r testRules) FirstMover() game.Color                { return game.White }
func (r testRules) Start() game.State                     { return nil }
func (r testRules) ParseState(string) (game.State, error) { return nil, game.ErrBadPosition }

var cheversiRules = testRules{
	game:     "cheversi",
	preset:   "cheversi",
	settings: []game.Setting{{Key: "opening", Value: "king-first"}, {Key: "scoring", Value: "attacks"}},
}
