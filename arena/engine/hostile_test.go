package engine

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/sandbox"
)

// Hostile fake bots: each misbehaves when asked for its first move.
const (
	modeAllocate      = "allocate"        // allocates memory until it dies
	modeForkBomb      = "fork-bomb"       // starts copies of itself that do the same, forever
	modeForkBombChild = "fork-bomb-child" // a copy started by the fork bomb
	modeConnect       = "connect"         // connects to envAddr; answers if it could
	modeTrespass      = "trespass"        // writes next to its executable, reads envSecret; answers if it could
	modeOpenFiles     = "open-files"      // opens files until it cannot
	modeBigFile       = "big-file"        // writes a 4 MiB file in its directory
	modeSleepChild    = "sleep-child"     // starts a child holding its pipes, and sleeps
	modeSnoop         = "snoop"           // reads envSecret, another bot's file; answers if it could
	modeBurnCPU       = "burn-cpu"        // spins for 3 s of CPU time, then answers
)

const (
	envAddr    = "ARENA_ENGINE_FAKE_ADDR"    // a TCP address for "connect"
	envOutside = "ARENA_ENGINE_FAKE_OUTSIDE" // a file "trespass" writes
	envSecret  = "ARENA_ENGINE_FAKE_SECRET"  // a file "trespass" reads
)

// hoard keeps what the allocating bot allocates, out of the collector's
// reach.
var hoard [][]byte

// hostile misbehaves in mode; ok means the bot goes on to answer, else it
// exits with code.
func hostile(mode string) (code int, ok bool) {
	fail := func(err error) (int, bool) {
		fmt.Fprintln(os.Stderr, "fake bot:", err)
		return 1, false
	}
	switch mode {
	case modeAllocate:
		for {
			b := make([]byte, 8<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			hoard = append(hoard, b)
		}
	case modeForkBomb:
		forkBomb()
	case modeConnect:
		c, err := net.DialTimeout("tcp", os.Getenv(envAddr), 5*time.Second)
		if err != nil {
			return fail(err)
		}
		c.Close()
	case modeTrespass:
		exe, _ := os.Executable()
		if err := os.WriteFile(filepath.Join(filepath.Dir(exe), "planted"), []byte("was here"), 0o644); err != nil {
			return fail(err)
		}
		if _, err := os.ReadFile(os.Getenv(envSecret)); err != nil {
			return fail(err)
		}
	case modeSnoop:
		if _, err := os.ReadFile(os.Getenv(envSecret)); err != nil {
			return fail(err)
		}
	case modeOpenFiles:
		for {
			if _, err := os.Open(os.DevNull); err != nil {
				return fail(err)
			}
		}
	case modeBigFile:
		if err := os.WriteFile("big", make([]byte, 4<<20), 0o644); err != nil {
			return fail(err)
		}
	case modeSleepChild:
		if err := spawnGrandchild(); err != nil {
			return fail(err)
		}
		time.Sleep(time.Hour)
	case modeBurnCPU:
		for cpuTime() < 3*time.Second {
		}
	}
	return 0, true
}

// cpuTime returns the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// forkBomb starts copies of the test binary that do the same, for ever.
func forkBomb() {
	exe, _ := os.Executable()
	for {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), envBotMode+"="+modeForkBombChild)
		_ = cmd.Start()
	}
}

// TestHostileBots runs each hostile bot under the policy meant to stop it,
// beside a well-behaved bot that must not notice: each fails with its
// reason, and nothing of it is left once it is closed.
func TestHostileBots(t *testing.T) {
	feat := sandbox.Probe()
	t.Logf("this machine: %v", feat)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	var accepted sync.WaitGroup
	connected := make(chan struct{}, 1)
	accepted.Add(1)
	go func() {
		defer accepted.Done()
		for {
			c, err := listener.Accept()
			if err != nil {
				return
			}
			c.Close()
			select {
			case connected <- struct{}{}:
			default:
			}
		}
	}()
	defer accepted.Wait()
	defer listener.Close()

	// Another bot's directory: outside /tmp if it can be, where a
	// sandboxed bot sees it (the sandbox hides the rest of /tmp).
	other, err := os.MkdirTemp("/var/tmp", "arena-test-")
	if err != nil {
		other = t.TempDir()
	} else {
		defer os.RemoveAll(other)
	}
	secret := filepath.Join(other, "secret")
	if err := os.WriteFile(secret, []byte("another bot's book"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(other, "planted")

	tests := []struct {
		name, mode string
		policy     sandbox.Policy
		needs      string // what of the machine the test needs, checked by skip
		deadline   time.Duration
		kind       Kind
		contains   []string
	}{
		{name: "memory", mode: modeAllocate, policy: sandbox.Policy{Limits: sandbox.Limits{Memory: 96 << 20}},
			needs: "memory", deadline: patient, kind: KindLimit, contains: []string{"memory limit 96 MiB"}},
		{name: "fork bomb", mode: modeForkBomb, policy: sandbox.Policy{Limits: sandbox.Limits{Processes: 48}},
			needs: "pids", deadline: 3 * time.Second, kind: KindLimit, contains: []string{"process limit 48"}},
		{name: "network", mode: modeConnect, policy: sandbox.Policy{Isolate: true},
			needs: "sandbox", deadline: patient, kind: KindCrash, contains: []string{"exit status 1", "connect: "}},
		{name: "files", mode: modeTrespass, policy: sandbox.Policy{Isolate: true},
			needs: "sandbox", deadline: patient, kind: KindCrash, contains: []string{"exit status 1", "planted: read-only file system|planted: permission denied"}},
		{name: "another bot's files", mode: modeSnoop, policy: sandbox.Policy{Isolate: true},
			needs: "sandbox", deadline: patient, kind: KindCrash, contains: []string{"exit status 1", "secret: permission denied|secret: no such file"}},
		{name: "open files", mode: modeOpenFiles, policy: sandbox.Policy{Limits: sandbox.Limits{OpenFiles: 32}},
			needs: "exec", deadline: patient, kind: KindLimit, contains: []string{"open files limit 32", "too many open files"}},
		{name: "file size", mode: modeBigFile, policy: sandbox.Policy{Limits: sandbox.Limits{FileSize: 1 << 20}},
			needs: "exec", deadline: patient, kind: KindLimit, contains: []string{"file size limit 1 MiB"}},
		{name: "CPU time", mode: modeBurnCPU, policy: sandbox.Policy{Limits: sandbox.Limits{CPUTime: time.Second}},
			needs: "exec", deadline: patient, kind: KindLimit, contains: []string{"CPU time limit 1s per game"}},
		{name: "child holding the pipes", mode: modeSleepChild, policy: sandbox.Policy{Isolate: true},
			needs: "sandbox", deadline: time.Second, kind: KindTimeout, contains: []string{"no move within"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if why := missingFeature(feat, tt.needs); why != "" {
				skipOrFail(t, why)
			}
			checkNoLeaks(t)
			good := mustStart(t, botSpec(t, modeGood))
			spec := botSpec(t, tt.mode)
			spec.Policy = tt.policy
			spec.Env = append(spec.Env, envAddr+"="+listener.Addr().String(), envOutside+"="+outside, envSecret+"="+secret)
			spec.Dir = t.TempDir() // where it may write
			if tt.policy.Isolate {
				for i, kv := range spec.Env { // where the sandboxed bot can write
					if strings.HasPrefix(kv, envPidFile+"=") {
						spec.Env[i] = envPidFile + "=" + filepath.Join(spec.Dir, "grandchild.pid")
					}
				}
			}
			e := mustStart(t, spec)
			ctx := t.Context()
			for _, x := range []*Engine{e, good} {
				if err := x.NewGame(ctx, NewGame{Rules: cheversiRules}); err != nil {
					t.Fatal(err)
				}
			}
			// The good bot plays on while the hostile one misbehaves.
			stop := make(chan struct{})
			goodErr := make(chan error, 1)
			go func() {
				for {
					select {
					case <-stop:
						goodErr <- nil
						return
					default:
					}
					if _, err := good.Move(ctx, MoveRequest{Deadline: time.Now().Add(patient)}); err != nil {
						goodErr <- err
						return
					}
				}
			}()
			_, err := e.Move(ctx, MoveRequest{Deadline: time.Now().Add(tt.deadline)})
			close(stop)
			if err := <-goodErr; err != nil {
				t.Errorf("the good bot beside it: %v", err)
			}
			if err == nil {
				log, _ := os.ReadFile(spec.StderrPath)
				t.Fatalf("the hostile bot played a move; its log:\n%s", log)
			}
			ee := asError(t, err)
			if ee.Kind != tt.kind {
				t.Errorf("kind %v, want %v (%v)", ee.Kind, tt.kind, err)
			}
			for _, c := range tt.contains {
				if !containsAny(strings.ToLower(err.Error()), strings.Split(strings.ToLower(c), "|")) {
					t.Errorf("error %q lacks %q", err, c)
				}
			}
			pid := e.Pid()
			if err := e.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if !processGone(pid, false) {
				t.Errorf("bot %d still there", pid)
			}
			// Every process it started carries its environment (pids
			// inside its PID namespace differ from the arena's).
			if left := processesWith(spec.Env[1]); len(left) > 0 {
				t.Errorf("processes of the bot left: %v", left)
			}
			if left := arenaCgroups(); len(left) > 0 {
				t.Errorf("cgroups left: %v", left)
			}
			select {
			case <-connected:
				t.Errorf("the bot reached 127.0.0.1")
			default:
			}
			exe, _ := os.Executable()
			for _, path := range []string{outside, filepath.Join(filepath.Dir(exe), "planted")} {
				if _, err := os.Stat(path); err == nil {
					t.Errorf("the bot wrote %s outside its directory", path)
					os.Remove(path)
				}
			}
		})
	}
}

// processesWith waits up to prompt for every live process whose
// environment holds kv to be gone, and returns those that are not.
func processesWith(kv string) []int {
	want := []byte(kv + "\x00")
	var left []int
	for deadline := time.Now().Add(prompt); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		left = left[:0]
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil {
				continue
			}
			env, err := os.ReadFile("/proc/" + d.Name() + "/environ")
			if err == nil && bytes.Contains(env, want) && processState(pid) != 'Z' {
				left = append(left, pid)
			}
		}
		if len(left) == 0 {
			return nil
		}
	}
	return left
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestSandboxedBotPlays plays a well-behaved bot under every limit and in
// the sandbox: it plays as it would without them.
func TestSandboxedBotPlays(t *testing.T) {
	if why := missingFeature(sandbox.Probe(), "sandbox"); why != "" {
		skipOrFail(t, why)
	}
	checkNoLeaks(t)
	spec := botSpec(t, modeGood)
	// Without cgroups memory is the address space, of which a Go program
	// reserves more than a gigabyte.
	spec.Policy = sandbox.Policy{Isolate: true, Optional: true, Limits: sandbox.Limits{
		Memory: 8 << 30, Processes: 256, OpenFiles: 64, FileSize: 1 << 20, CPUTime: 10 * time.Second}}
	e := mustStart(t, spec)
	for range 2 {
		if err := e.NewGame(t.Context(), NewGame{Rules: cheversiRules}); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := e.Move(t.Context(), MoveRequest{Legal: []string{"K@e4"}, Deadline: time.Now().Add(patient)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if left := arenaCgroups(); len(left) > 0 {
		t.Errorf("cgroups left: %v", left)
	}
}

// skipOrFail skips a test the machine lacks a feature for, saying which,
// or fails it where ARENA_REQUIRE_SANDBOX is set (CI, whose machine has
// them all).
func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("ARENA_REQUIRE_SANDBOX") != "" {
		t.Fatalf("this machine lacks %s (ARENA_REQUIRE_SANDBOX is set)", why)
	}
	t.Skipf("this machine lacks %s", why)
}

// missingFeature says what of need the machine lacks, "" if nothing.
func missingFeature(f sandbox.Features, need string) string {
	switch need {
	case "memory", "pids":
		if !f.Exec {
			return "bot process set-up"
		}
		if need == "memory" && !f.Memory || need == "pids" && !f.Pids {
			return "a cgroup " + need + " controller the arena may use"
		}
	case "exec":
		if !f.Exec {
			return "bot process set-up"
		}
	case "sandbox":
		if err := sandbox.Check(&sandbox.Policy{Isolate: true, Dir: "/"}); err != nil {
			return err.Error()
		}
	}
	return ""
}

// arenaCgroups returns the cgroups this test process made that are still
// there.
func arenaCgroups() []string {
	pattern := fmt.Sprintf("arena-%d-*", os.Getpid())
	var left []string
	for _, root := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids", "/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/cpu,cpuacct"} {
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if ok, _ := filepath.Match(pattern, d.Name()); ok {
				left = append(left, path)
				return filepath.SkipDir
			}
			if strings.Count(strings.TrimPrefix(path, root), "/") > 4 {
				return filepath.SkipDir
			}
			return nil
		})
	}
	return left
}

// TestPin pins a bot to one CPU and back to all: every thread of its
// process follows.
func TestPin(t *testing.T) {
	checkNoLeaks(t)
	e := mustStart(t, botSpec(t, modeGood))
	allowed := func() string {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(e.Pid()) + "/status")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "Cpus_allowed_list:"); ok {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	all := allowed()
	if err := e.Pin([]int{0}); err != nil {
		t.Fatal(err)
	}
	if got := allowed(); got != "0" {
		t.Errorf("pinned to CPU 0: allowed %q", got)
	}
	if err := e.Pin(nil); err != nil {
		t.Fatal(err)
	}
	if got := allowed(); got != all {
		t.Errorf("unpinned: allowed %q, want %q", got, all)
	}
}
