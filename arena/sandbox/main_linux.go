package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
)

// mainCalled is set by Main in a program that calls it: such a program can
// set bot processes up.
var mainCalled bool

// Main must be called first thing in main by a program that starts bots
// with a Policy (engine.Supervise calls it). In a process the arena
// started to set up a bot, it sets the process up (the cgroup, the
// mounts, the rlimits, the CPUs, no_new_privs, Landlock) and executes the
// bot's command in its place; it returns only in other processes.
func Main() {
	v, ok := os.LookupEnv(envExec)
	if !ok {
		mainCalled = true
		return
	}
	runtime.LockOSThread() // the CPU affinity and the exec are this thread's
	var cfg childConfig
	err := json.Unmarshal([]byte(v), &cfg)
	if err == nil {
		err = cfg.run()
	}
	// run returns only on failure.
	msg := fmt.Sprintf("setting up the bot's process: %v", err)
	if cfg.Report {
		_, _ = unix.Write(reportFD, []byte(msg))
	}
	fmt.Fprintln(os.Stderr, "arena:", msg)
	os.Exit(127)
}

// run sets the process up and executes the bot; it returns only on
// failure.
func (cfg *childConfig) run() error {
	if cfg.Report {
		syscall.CloseOnExec(reportFD)
	}
	// The bot dies with the arena, as a bot started directly would.
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("parent-death signal: %w", err)
	}
	for _, f := range cfg.Cgroup {
		if err := os.WriteFile(f, []byte("0"), 0); err != nil {
			return fmt.Errorf("join cgroup: %w", err)
		}
	}
	if cfg.Mounts {
		if err := cfg.mount(); err != nil {
			return err
		}
	}
	if len(cfg.CPUs) > 0 {
		var set unix.CPUSet
		for _, c := range cfg.CPUs {
			set.Set(c)
		}
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			return fmt.Errorf("CPU affinity %s: %w", FormatCPUs(cfg.CPUs), err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if cfg.Isolate && cfg.Landlock {
		if err := cfg.landlock(); err != nil {
			return err
		}
	}
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envExec+"=") {
			env = append(env, kv)
		}
	}
	// The limits come last: the set-up itself is not bound by them.
	for _, r := range cfg.Rlimits {
		lim := unix.Rlimit{Cur: r.Value, Max: r.Value}
		if err := unix.Setrlimit(r.Resource, &lim); err != nil {
			return fmt.Errorf("rlimit %d: %w", r.Resource, err)
		}
	}
	err := syscall.Exec(cfg.Path, cfg.Args, env)
	return fmt.Errorf("exec %s: %w", cfg.Path, err)
}

// mount gives the process, in its own mount namespace, a private tmpfs on
// /tmp and a /proc of its own PID namespace. What the bot needs under
// /tmp (its directory, its command) is bound into the new /tmp at the
// same place.
func (cfg *childConfig) mount() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %w", err)
	}
	var keep []string
	for _, p := range append([]string{cfg.Dir}, cfg.Read...) {
		if p == "/tmp" || strings.HasPrefix(p, "/tmp/") {
			keep = append(keep, p)
		}
	}
	fds := make([]int, len(keep))
	for i, p := range keep {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open %s: %w", p, err)
		}
		fds[i] = fd
	}
	opts := fmt.Sprintf("mode=1777,size=%d", cfg.TmpBytes)
	if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("private /tmp: %w", err)
	}
	for i, p := range keep {
		if p == "/tmp" {
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstat(fds[i], &st); err != nil {
			return err
		}
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		} else {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return err
			}
		}
		src := fmt.Sprintf("/proc/self/fd/%d", fds[i])
		if err := unix.Mount(src, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s into the private /tmp: %w", p, err)
		}
		unix.Close(fds[i])
		// Landlock grants what it grants on the new /tmp to what lies
		// under it too: all but the bot's directory is bound read-only.
		if p != cfg.Dir {
			if err := unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_REC, ""); err != nil {
				return fmt.Errorf("bind %s read-only: %w", p, err)
			}
		}
	}
	if err := os.Chdir(cfg.Dir); err != nil {
		return err
	}
	// A /proc of the bot's PID namespace: it sees no other process. A
	// kernel that refuses it (a /proc with hidden parts, in a container)
	// leaves the arena's, whose other processes Landlock keeps out of
	// reach.
	_ = unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	return nil
}

// systemDirs may be read and executed in the sandbox.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc", "/sys"}

// landlock restricts the process's view of the file system and, without
// a network namespace, its TCP.
func (cfg *childConfig) landlock() error {
	rules := []landlock.Rule{
		landlock.RODirs(systemDirs...).IgnoreIfMissing(),
		landlock.RWDirs(cfg.Dir),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/tty").IgnoreIfMissing(),
		landlock.ROFiles("/dev/urandom", "/dev/random").IgnoreIfMissing(),
	}
	for _, p := range cfg.Read {
		st, err := os.Stat(p)
		switch {
		case err != nil:
			continue
		case st.IsDir():
			rules = append(rules, landlock.RODirs(p))
		default:
			rules = append(rules, landlock.ROFiles(p))
		}
	}
	if cfg.Mounts {
		rules = append(rules, landlock.RWDirs("/tmp"))
	}
	c := landlockConfig
	if !cfg.Scoped {
		c = landlock.V5.BestEffort()
	}
	// Without rules for it, TCP bind and connect are forbidden (ABI 4 and
	// later); the network namespace makes it moot otherwise.
	if err := c.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}
