package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"
)

// workersEnv asks for the tests that kill workers and the coordinator
// and cut a worker off the network (.ci/run sets it).
const workersEnv = "ARENA_WORKERS"

// workersConfig is a match of two deterministic bots (alphabeta searching
// a fixed number of nodes), so that a game is the same whoever plays it.
const workersConfig = `name = "workers"
seed = 7
concurrency = 2
[game]
name = "cheversi"
[openings]
plies = 2
count = %d
[time]
move = "30s"
[[bots]]
name = "shallow"
builtin = "alphabeta"
args = ["--nodes", "10000"]
[[bots]]
name = "deep"
builtin = "alphabeta"
args = ["--nodes", "40000"]
`

// proc is an arena process of a test.
type proc struct {
	name   string
	cmd    *exec.Cmd
	out    bytes.Buffer
	done   chan struct{}
	err    error
	stderr *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// start starts the arena with args; the test ends it if it still runs.
func start(t testing.TB, exe, name string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(exe, args...), done: make(chan struct{}), stderr: &lockedBuffer{}}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(20 * time.Second):
			p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("%s's stderr:\n%s", p.name, p.stderr)
		}
	})
	return p
}

// wait waits for the process to end, and returns its exit status.
func (p *proc) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(within):
		t.Fatalf("%s still running after %v:\n%s", p.name, within, p.stderr)
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	if p.err != nil {
		t.Fatalf("%s: %v", p.name, p.err)
	}
	return 0
}

// waitFor waits until cond holds, checking every 50 ms.
func waitFor(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", within, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// journalGames counts the games of dir's journal.
func journalGames(dir string) int {
	data, _ := os.ReadFile(filepath.Join(dir, journal.File))
	return bytes.Count(data, []byte("\n"))
}

// workerURL waits for the coordinator's log to name the URL workers
// connect to.
func workerURL(t testing.TB, dir string) string {
	t.Helper()
	re := regexp.MustCompile(`arena worker (nats://\S+)`)
	var url string
	waitFor(t, 2*time.Minute, "the coordinator to start", func() bool {
		data, _ := os.ReadFile(filepath.Join(dir, "arena.log"))
		if m := re.FindSubmatch(data); m != nil {
			url = string(m[1])
		}
		return url != ""
	})
	return url
}

// untimedGames is untimedJournal keyed by game ID, each game once.
func untimedGames(t *testing.T, dir string) map[float64]map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	out := map[float64]map[string]any{}
	for line := range bytes.Lines(data) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		delete(rec, "start")
		delete(rec, "duration_ms")
		moves, _ := rec["moves"].([]any)
		for _, m := range moves {
			mv, _ := m.(map[string]any)
			delete(mv, "ms")
			if info, ok := mv["info"].(map[string]any); ok {
				delete(info, "time_ms")
			}
		}
		id, _ := rec["id"].(float64)
		if _, dup := out[id]; dup {
			t.Errorf("%s: game %v recorded twice", dir, id)
		}
		out[id] = rec
	}
	return out
}

// checkSameGames checks that every game of dir is the local run's game of
// the same ID, and returns how many there are.
func checkSameGames(t *testing.T, dir string, local map[float64]map[string]any) int {
	t.Helper()
	got := untimedGames(t, dir)
	for id, g := range got {
		if !reflect.DeepEqual(g, local[id]) {
			a, _ := json.Marshal(g)
			b, _ := json.Marshal(local[id])
			t.Errorf("game %v differs from the local run's:\n%s\n%s", id, a, b)
		}
	}
	return len(got)
}

// cutProxy forwards TCP connections to target until cut, when it stops
// forwarding anything either way (the connections stay open and silent,
// as across a network cut), until healed.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	healed *sync.Cond
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	p.healed = sync.NewCond(&p.mu)
	t.Cleanup(func() { ln.Close(); p.setCut(false) })
	go func() { // ends when the listener is closed
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *cutProxy) setCut(cut bool) {
	p.mu.Lock()
	p.cut = cut
	p.mu.Unlock()
	p.healed.Broadcast()
}

func (p *cutProxy) serve(c net.Conn) {
	defer c.Close()
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		defer func() { done <- struct{}{} }()
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			p.mu.Lock()
			for p.cut {
				p.healed.Wait()
			}
			p.mu.Unlock()
			if n > 0 {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done
}

func (p *cutProxy) url() string { return "nats://" + p.ln.Addr().String() }

// TestWorkersCommand: arena run --workers with a NATS server of its own,
// and two arena worker processes that end with the tournament.
func TestWorkersCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena and plays a tournament on two worker processes")
	}
	exe := buildArena(t)
	root := t.TempDir()
	config := filepath.Join(root, "w.toml")
	os.WriteFile(config, []byte(strings.ReplaceAll(fmt.Sprintf(workersConfig, 6), `"10000"`, `"1000"`)), 0o644)
	out := filepath.Join(root, "out")
	coord := start(t, exe, "coordinator", "run", "--quiet", "--out", out, "--workers", "listen://127.0.0.1:0", config)
	url := workerURL(t, out)
	w1 := start(t, exe, "w1", "worker", "--once", "--name", "w1", url)
	w2 := start(t, exe, "w2", "worker", "--once", "--name", "w2", "--concurrency", "1", url)
	if code := coord.wait(t, 3*time.Minute); code != 0 {
		t.Fatalf("coordinator exit status %d:\n%s", code, coord.stderr)
	}
	for _, w := range []*proc{w1, w2} {
		if code := w.wait(t, time.Minute); code != 0 {
			t.Errorf("%s exit status %d:\n%s", w.name, code, w.stderr)
		}
	}
	if n := journalGames(out); n != 12 {
		t.Errorf("journal has %d games, want 12", n)
	}
	log, _ := os.ReadFile(filepath.Join(out, "arena.log"))
	for _, want := range []string{"w1 ready", "w2 ready, 1 games at a time", "w1 played", "w2 played"} {
		if !bytes.Contains(log, []byte(want)) {
			t.Errorf("arena.log lacks %q:\n%s", want, log)
		}
	}
	if !strings.Contains(coord.out.String(), "12 of 12 scheduled games played") {
		t.Errorf("standings:\n%s", coord.out.String())
	}
}

// TestWorkersSurvive plays a tournament on three worker processes while
// one is killed (kill -9) holding a batch, another is cut off the network
// for longer than the batch deadline and comes back, and the coordinator,
// with the NATS server it runs, is killed (kill -9) and started again:
// every game of the schedule is in the journal once, the same game as in
// a local run.
func TestWorkersSurvive(t *testing.T) {
	if os.Getenv(workersEnv) == "" {
		t.Skipf("set %s=1 to kill workers and the coordinator of a tournament", workersEnv)
	}
	exe := buildArena(t)
	root := t.TempDir()
	config := filepath.Join(root, "w.toml")
	os.WriteFile(config, []byte(fmt.Sprintf(workersConfig, 30)), 0o644)
	whole := filepath.Join(root, "whole")
	if out, err := exec.Command(exe, "run", "--quiet", "--out", whole, config).CombinedOutput(); err != nil {
		t.Fatalf("local run: %v\n%s", err, out)
	}
	local := untimedGames(t, whole)

	out := filepath.Join(root, "out")
	run := []string{"run", "--quiet", "--out", out, "--worker-timeout", "3s", "--batch", "1"}
	coord := start(t, exe, "coordinator", append(run, "--workers", "listen://127.0.0.1:0", config)...)
	url := workerURL(t, out)
	port := url[strings.LastIndex(url, ":")+1:]
	proxy := newCutProxy(t, strings.TrimPrefix(url, "nats://"))
	w1 := start(t, exe, "w1", "worker", "--name", "w1", "--concurrency", "2", url)
	w2 := start(t, exe, "w2", "worker", "--name", "w2", "--concurrency", "1", proxy.url())
	w3 := start(t, exe, "w3", "worker", "--name", "w3", "--concurrency", "1", url)

	waitFor(t, 2*time.Minute, "w3 to play", func() bool { return strings.Contains(w3.stderr.String(), "playing workers") })
	waitFor(t, 2*time.Minute, "10 games", func() bool { return journalGames(out) >= 10 })
	w3.cmd.Process.Kill() // holding a batch: its games go to another after the deadline
	w3.wait(t, 10*time.Second)
	proxy.setCut(true)
	t.Logf("w3 killed and w2 cut off at %d games", journalGames(out))
	waitFor(t, 2*time.Minute, "20 games", func() bool { return journalGames(out) >= 20 })
	coord.cmd.Process.Kill()
	coord.wait(t, 10*time.Second)
	atKill := journalGames(out)
	time.Sleep(2 * time.Second)
	proxy.setCut(false)
	coord2 := start(t, exe, "coordinator 2", append(run, "--workers", "listen://127.0.0.1:"+port, config)...)
	t.Logf("coordinator killed at %d games and started again; w2 back", atKill)
	if code := coord2.wait(t, 5*time.Minute); code != 0 {
		t.Fatalf("coordinator 2 exit status %d:\n%s", code, coord2.stderr)
	}
	if n := checkSameGames(t, out, local); n != len(local) {
		t.Errorf("journal has %d games, the schedule %d", n, len(local))
	}
	if !strings.Contains(w1.stderr.String()+w2.stderr.String(), "again (delivery") {
		t.Errorf("no worker took a batch again after w3 died:\nw1:\n%s\nw2:\n%s", w1.stderr, w2.stderr)
	}
	// The workers keep serving (none has --once) until stopped: they then
	// say they are interrupted.
	for _, w := range []*proc{w1, w2} {
		w.cmd.Process.Signal(syscall.SIGTERM)
		if code := w.wait(t, 30*time.Second); code != 130 {
			t.Errorf("%s exit status %d after SIGTERM, want 130", w.name, code)
		}
	}
}

// TestWorkersSPRTStops: a sequential test stops the match on every
// worker, through kill -9 of a worker and of the coordinator, with a NATS
// server of its own (arena nats): the
// coordinator, started again, ends early with the verdict, every game is
// recorded once and is the game a local run of the same configuration
// recorded under its ID, and the workers, still running, hold no batch
// of it.
func TestWorkersSPRTStops(t *testing.T) {
	if os.Getenv(workersEnv) == "" {
		t.Skipf("set %s=1 to stop a match on several workers", workersEnv)
	}
	exe := buildArena(t)
	root := t.TempDir()
	config := filepath.Join(root, "w.toml")
	text := strings.ReplaceAll(fmt.Sprintf(workersConfig, 200), `"40000"`, `"80000"`) + "[sprt]\nelo0 = 0\nelo1 = 100\n"
	os.WriteFile(config, []byte(text), 0o644)
	whole := filepath.Join(root, "whole")
	if out, err := exec.Command(exe, "run", "--quiet", "--out", whole, config).CombinedOutput(); err != nil {
		t.Fatalf("local run: %v\n%s", err, out)
	}
	local := untimedGames(t, whole)

	// A NATS server of its own (arena nats), which outlives the
	// coordinator, as in a cluster.
	nats := start(t, exe, "nats", "nats", "--store", filepath.Join(root, "nats"), "listen://127.0.0.1:0")
	var url string
	re := regexp.MustCompile(`listening on (127\.0\.0\.1:\d+)`)
	waitFor(t, time.Minute, "the NATS server", func() bool {
		if m := re.FindStringSubmatch(nats.stderr.String()); m != nil {
			url = "nats://" + m[1]
		}
		return url != ""
	})
	out := filepath.Join(root, "out")
	run := []string{"run", "--out", out, "--worker-timeout", "3s", "--batch", "1", "--workers", url, config}
	coord := start(t, exe, "coordinator", run...)
	var ws []*proc
	for i := range 3 {
		ws = append(ws, start(t, exe, fmt.Sprint("w", i), "worker", "--concurrency", "1", url))
	}
	waitFor(t, 2*time.Minute, "4 games", func() bool { return journalGames(out) >= 4 })
	ws[2].cmd.Process.Kill() // holding a batch
	ws[2].wait(t, 10*time.Second)
	waitFor(t, 2*time.Minute, "8 games", func() bool { return journalGames(out) >= 8 })
	coord.cmd.Process.Kill()
	coord.wait(t, 10*time.Second)
	if strings.Contains(coord.stderr.String(), "stopping the match") {
		t.Fatalf("the test decided within %d games, before the coordinator was killed: make it longer", journalGames(out))
	}
	t.Logf("w2 killed, then the coordinator at %d games", journalGames(out))
	coord = start(t, exe, "coordinator 2", run...)
	if code := coord.wait(t, 10*time.Minute); code != 0 {
		t.Fatalf("coordinator exit status %d", code)
	}
	if !strings.Contains(coord.out.String(), "SPRT") || !strings.Contains(coord.stderr.String(), "stopping the match") {
		t.Errorf("no verdict:\n%s\n%s", coord.out.String(), coord.stderr)
	}
	n := journalGames(out)
	if n == 0 || n >= 400 {
		t.Fatalf("%d of 400 games recorded; want the match stopped early", n)
	}
	recs, err := journal.Read(filepath.Join(out, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := journal.Verify(&recs[i]); err != nil {
			t.Error(err)
		}
	}
	// The games both runs played are the same games (untimedGames fails on
	// a game recorded twice).
	shared := 0
	for id, g := range untimedGames(t, out) {
		if l, ok := local[id]; ok {
			shared++
			if !reflect.DeepEqual(g, l) {
				t.Errorf("game %v differs from the local run's", id)
			}
		}
	}
	if shared < min(n, len(local))/2 {
		t.Errorf("only %d games in common with the local run (%d and %d games)", shared, n, len(local))
	}
	for _, w := range ws[:2] {
		select {
		case <-w.done:
			t.Errorf("%s ended with the tournament; without --once it waits for the next", w.name)
		default:
		}
		if !strings.Contains(w.stderr.String(), "is over") {
			t.Errorf("%s did not see the tournament end:\n%s", w.name, w.stderr)
		}
	}
	t.Logf("stopped after %d games (the local run after %d, %d in common):\n%s", n, len(local), shared, lastLines(coord.stderr.String(), 12))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestSolveWorkersCommand solves a position in units handed to a worker
// process by arena solve --workers, which starts the NATS server: the
// value is the one solved here, and the worker ends with the solve.
func TestSolveWorkersCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena and solves a position on a worker process")
	}
	exe := buildArena(t)
	dir := filepath.Join(t.TempDir(), "solve")
	const fen = "8/8/5R2/4r3/3Q4/2q5/1K6/r7 w 6 a1"
	coord := start(t, exe, "solve", "solve", "--fen", fen, "--cut", "8", "--dir", dir, "--quiet", "--workers", "listen://127.0.0.1:0")
	re := regexp.MustCompile(`arena worker (nats://\S+)`)
	var url string
	waitFor(t, time.Minute, "the solve to start", func() bool {
		if m := re.FindStringSubmatch(coord.stderr.String()); m != nil {
			url = m[1]
		}
		return url != ""
	})
	w := start(t, exe, "w1", "worker", "--once", "--name", "w1", "--concurrency", "2", "--memory", "64MiB", url)
	if code := coord.wait(t, 3*time.Minute); code != 0 {
		t.Fatalf("solve exit status %d:\n%s", code, coord.stderr)
	}
	if code := w.wait(t, time.Minute); code != 0 {
		t.Errorf("worker exit status %d:\n%s", code, w.stderr)
	}
	if want := fen + ": black wins"; !strings.Contains(coord.out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, coord.out.String())
	}
	if !strings.Contains(coord.stderr.String(), "w1 ready, 2 units at a time") {
		t.Errorf("log:\n%s", coord.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.txt"))
	if err != nil || bytes.Count(data, []byte("\n")) < 10 {
		t.Errorf("results: %v\n%s", err, data)
	}
	if !strings.Contains(w.stderr.String(), "units solved here") {
		t.Errorf("worker log:\n%s", w.stderr)
	}
}
