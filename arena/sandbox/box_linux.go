package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// envExec carries the set-up of a bot's process (a childConfig in JSON)
// to Main, in the arena's executable started in its place.
const envExec = "ARENA_SANDBOX_EXEC"

// reportFD is the descriptor on which Main reports a failed set-up; it is
// closed by the bot's exec, which tells the arena that all went well.
const reportFD = 3

// Box is the confinement of one bot process: its namespaces, its cgroup
// and what its process sets up before it becomes the bot. Prepare makes
// it, Wrap fits an exec.Cmd into it, Started waits for the set-up, and
// Close removes what it made once the bot is gone.
type Box struct {
	policy  Policy
	feat    Features
	cg      *botCgroup
	exec    bool     // Main sets the process up before the bot's command runs
	report  *os.File // the arena's end of the set-up report; nil without one
	applied []string // what the bot runs under, for Describe
}

// Prepare makes the box of one bot process under policy p (name tells
// its cgroup apart). Unless p is Optional, it fails when the machine
// cannot give what p asks (see Check). A Box is for one process: make a
// new one for the next.
func Prepare(p Policy, name string) (*Box, error) {
	if err := Check(&p); err != nil {
		return nil, err
	}
	f := Probe()
	b := &Box{policy: p, feat: f, exec: p.needsExec() && f.Exec}
	if p.Isolate && p.Dir == "" {
		return nil, errors.New("sandbox: no working directory for the bot")
	}
	if b.exec && (p.Memory > 0 && f.Memory || p.Processes > 0 && f.Pids || p.CPUTime > 0 && f.CPU) {
		cg, err := newCgroup(p.Limits, sanitize(name))
		if err != nil {
			if !p.Optional {
				return nil, fmt.Errorf("sandbox: %w", err)
			}
		} else {
			b.cg = cg
		}
	}
	b.applied = b.describe()
	return b, nil
}

// sanitize keeps the letters, digits, '-' and '_' of a bot's name, for a
// cgroup's name.
func sanitize(name string) string {
	s := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

// Namespaced reports whether the bot runs in a PID namespace of its own:
// when its first process ends, every process it started ends with it.
func (b *Box) Namespaced() bool { return b.feat.PIDNamespace }

// Wrap fits cmd, made to run the bot's command (path, the resolved
// executable, and cmd.Args), into the box: its namespaces, and, when the
// policy needs it, this program started first to set the process up
// (Main). direct tells that cmd starts the bot itself, so that a set-up
// report can be read (Started); the caller closes nothing Wrap adds.
func (b *Box) Wrap(cmd *exec.Cmd, path string, direct bool) error {
	attr := cmd.SysProcAttr
	if attr == nil {
		attr = &syscall.SysProcAttr{}
		cmd.SysProcAttr = attr
	}
	if b.feat.PIDNamespace && direct {
		attr.Cloneflags |= syscall.CLONE_NEWPID
		if b.policy.Isolate {
			if b.feat.NetNamespace {
				attr.Cloneflags |= syscall.CLONE_NEWNET
			}
			if b.feat.MountNamespace {
				attr.Cloneflags |= syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC
			}
		}
		addUserNamespace(attr, attr.Cloneflags&syscall.CLONE_NEWNS != 0)
	}
	if !b.exec {
		return nil
	}
	cfg, err := b.childConfig(path, cmd.Args, direct)
	if err != nil {
		return err
	}
	enc, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	if cfg.TmpDir != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+cfg.TmpDir)
	}
	cmd.Env = append(cmd.Env, envExec+"="+string(enc))
	cmd.Path = self
	if direct {
		r, w, err := os.Pipe()
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		b.report = r
		if len(cmd.ExtraFiles) != 0 {
			return errors.New("sandbox: the command has extra files already")
		}
		cmd.ExtraFiles = []*os.File{w}
	}
	return nil
}

// childConfig is what Main sets up in the bot's process.
type childConfig struct {
	Path     string   // the bot's executable
	Args     []string // its arguments, Args[0] included
	Report   bool     // report a failed set-up on reportFD
	Cgroup   []string // cgroup.procs files to join
	Rlimits  []rlimit // set just before the exec
	CPUs     []int    // the CPUs it may run on
	Isolate  bool     // Landlock, and mounts in a mount namespace
	Mounts   bool     // a mount namespace: a tmpfs on /tmp, a /proc
	Dir      string   // its working directory (read and write)
	Read     []string // what it may read and execute besides the system
	TmpDir   string   // TMPDIR without a private /tmp
	TmpBytes int64    // the size of the private /tmp
	Landlock bool     // restrict with Landlock
	Scoped   bool     // Landlock's scoping of signals and abstract sockets
	NoTCP    bool     // no network namespace: Landlock forbids TCP
}

type rlimit struct {
	Resource int
	Value    uint64
}

func (b *Box) childConfig(path string, args []string, direct bool) (*childConfig, error) {
	p := &b.policy
	cfg := &childConfig{Path: path, Args: args, Report: direct, CPUs: p.CPUs, Rlimits: b.rlimits()}
	if b.cg != nil {
		cfg.Cgroup = b.cg.procsFiles()
	}
	if !p.Isolate {
		return cfg, nil
	}
	return cfg, b.isolate(cfg, path, direct)
}

// rlimits returns the rlimits of the policy: those a cgroup does not
// enforce instead.
func (b *Box) rlimits() []rlimit {
	p := &b.policy
	var out []rlimit
	if p.Memory > 0 && (b.cg == nil || b.cg.dirs["memory"] == "") {
		out = append(out, rlimit{unix.RLIMIT_AS, uint64(p.Memory)})
	}
	if p.Processes > 0 && (b.cg == nil || b.cg.dirs["pids"] == "") {
		out = append(out, rlimit{unix.RLIMIT_NPROC, uint64(p.Processes)})
	}
	if p.OpenFiles > 0 {
		out = append(out, rlimit{unix.RLIMIT_NOFILE, uint64(p.OpenFiles)})
	}
	if p.FileSize > 0 {
		out = append(out, rlimit{unix.RLIMIT_FSIZE, uint64(p.FileSize)})
	}
	if p.needsExec() {
		// A bot that runs out of memory leaves no core file behind.
		out = append(out, rlimit{unix.RLIMIT_CORE, 0})
	}
	return out
}

// isolate sets the sandbox up in cfg: what the bot may read and write,
// and how it gets a private /tmp.
func (b *Box) isolate(cfg *childConfig, path string, direct bool) error {
	p := &b.policy
	dir, err := filepath.Abs(p.Dir)
	if err != nil {
		return err
	}
	cfg.Isolate, cfg.Dir = true, dir
	cfg.Landlock = b.feat.Landlock > 0
	cfg.Scoped = b.feat.Landlock >= 6
	cfg.NoTCP = !b.feat.NetNamespace
	cfg.Mounts = b.feat.MountNamespace && direct && b.feat.PIDNamespace
	cfg.TmpBytes = 256 << 20
	if p.Memory > 0 && p.Memory < cfg.TmpBytes {
		cfg.TmpBytes = p.Memory
	}
	for _, r := range append([]string{filepath.Dir(path)}, p.Read...) {
		if a, err := filepath.Abs(r); err == nil {
			cfg.Read = append(cfg.Read, a)
		}
	}
	if !cfg.Mounts {
		cfg.TmpDir = filepath.Join(dir, ".tmp")
		if err := os.MkdirAll(cfg.TmpDir, 0o700); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	return nil
}

// setupTimeout bounds the wait for a bot's process to be set up.
const setupTimeout = 30 * time.Second

// Started waits until the bot's process, just started by Wrap's command,
// has been set up and runs the bot's command, and returns why not if it
// could not be. Without a set-up report it returns at once.
func (b *Box) Started() error {
	if b.report == nil {
		return nil
	}
	r := b.report
	b.report = nil
	defer r.Close()
	_ = r.SetReadDeadline(time.Now().Add(setupTimeout))
	msg, err := io.ReadAll(io.LimitReader(r, 4096))
	if len(msg) > 0 {
		return fmt.Errorf("sandbox: %s", strings.TrimSpace(string(msg)))
	}
	if err != nil {
		return fmt.Errorf("sandbox: the bot's process was not set up within %v: %w", setupTimeout, err)
	}
	return nil
}

// CloseAfterStart closes the process's end of the set-up report in the
// arena, once the process has been started (or failed to).
func CloseAfterStart(cmd *exec.Cmd) {
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
}

// Explain names the limit that explains how the bot ended, such as
// "memory limit 512 MiB", or returns "" when none does. status is how it
// ended ("signal: killed", "exit status 1"; "" while it runs), last the
// last line it wrote on stderr: the system's words for a file too large
// or too many open files there name those limits (a bot that does not
// die of SIGXFSZ says "file too large" at best).
func (b *Box) Explain(status, last string) string {
	p := &b.policy
	if b.cg != nil {
		mem, pids := b.cg.events()
		switch {
		case mem && p.Memory > 0:
			return "memory limit " + FormatBytes(p.Memory)
		case pids && p.Processes > 0:
			return fmt.Sprintf("process limit %d", p.Processes)
		}
	}
	words := strings.ToLower(last)
	if p.FileSize > 0 && (strings.Contains(status, "file size limit exceeded") || status != "" && strings.Contains(words, "file too large")) {
		return "file size limit " + FormatBytes(p.FileSize)
	}
	if p.OpenFiles > 0 && status != "" && strings.Contains(words, "too many open files") {
		return fmt.Sprintf("open files limit %d", p.OpenFiles)
	}
	if p.CPUTime > 0 && strings.Contains(status, "CPU time limit exceeded") {
		return "CPU time limit " + p.CPUTime.String() + " per game"
	}
	return ""
}

// CPUTime returns the CPU time used so far by the bot (pid) and
// everything it started: as its cgroup counts it, or else the bot's own
// and that of the children it waited for.
func (b *Box) CPUTime(pid int) (time.Duration, bool) {
	if b.cg != nil {
		if d, ok := b.cg.cpuTime(); ok {
			return d, true
		}
	}
	return procCPUTime(pid)
}

// procCPUTime reads utime, stime, cutime and cstime from /proc/pid/stat.
func procCPUTime(pid int) (time.Duration, bool) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// pid (comm) state ppid ...: comm may hold anything; the fields after
	// the last ')' are plain. utime is the 14th field, the 12th after it.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 15 {
		return 0, false
	}
	var ticks int64
	for _, s := range f[11:15] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += n
	}
	const clockTicks = 100 // USER_HZ, 100 on every Linux
	return time.Duration(ticks) * time.Second / clockTicks, true
}

// Kill kills every process of the box's cgroup, if it has one.
func (b *Box) Kill() {
	if b.cg != nil {
		b.cg.kill()
	}
}

// Close removes the box's cgroup, killing what is left in it, and closes
// the set-up report if Started was not called.
func (b *Box) Close() error {
	if b.report != nil {
		b.report.Close()
		b.report = nil
	}
	if b.cg == nil {
		return nil
	}
	b.cg.kill()
	err := b.cg.remove()
	b.cg = nil
	return err
}

// Describe says what the bot runs under, such as "PID namespace; memory
// 512 MiB (cgroup v1); sandbox: network namespace, files: Landlock ABI 7,
// private /tmp, no new privileges".
func (b *Box) Describe() string { return strings.Join(b.applied, "; ") }

func (b *Box) describe() []string {
	cg := b.cg != nil
	return b.feat.describe(&b.policy, cg && b.cg.dirs["memory"] != "", cg && b.cg.dirs["pids"] != "")
}

// Describe says what a bot run under policy p gets on this machine (see
// Box.Describe).
func (f Features) Describe(p *Policy) string {
	return strings.Join(f.describe(p, f.Memory && f.Exec, f.Pids && f.Exec), "; ")
}

func (f Features) describe(p *Policy, cgMemory, cgPids bool) []string {
	var out []string
	if f.PIDNamespace {
		out = append(out, "PID namespace")
	}
	if p.Memory > 0 {
		if cgMemory {
			out = append(out, "memory "+FormatBytes(p.Memory)+" (cgroup "+f.Cgroup+")")
		} else {
			out = append(out, "memory "+FormatBytes(p.Memory)+" (address space per process)")
		}
	}
	if p.Processes > 0 {
		if cgPids {
			out = append(out, fmt.Sprintf("processes %d (cgroup %s)", p.Processes, f.Cgroup))
		} else {
			out = append(out, fmt.Sprintf("processes %d (per user)", p.Processes))
		}
	}
	if p.OpenFiles > 0 {
		out = append(out, fmt.Sprintf("open files %d", p.OpenFiles))
	}
	if p.FileSize > 0 {
		out = append(out, "file size "+FormatBytes(p.FileSize))
	}
	if p.CPUTime > 0 {
		out = append(out, "CPU time "+p.CPUTime.String()+" per game")
	}
	if len(p.CPUs) > 0 {
		out = append(out, "CPUs "+FormatCPUs(p.CPUs))
	}
	if p.Isolate {
		var s []string
		if f.NetNamespace {
			s = append(s, "network namespace")
		} else if f.Landlock >= 4 {
			s = append(s, "TCP forbidden (Landlock)")
		}
		if f.Landlock > 0 {
			s = append(s, fmt.Sprintf("files: Landlock ABI %d", f.Landlock))
		}
		if f.MountNamespace {
			s = append(s, "private /tmp")
		}
		s = append(s, "no new privileges")
		out = append(out, "sandbox: "+strings.Join(s, ", "))
	}
	if len(out) == 0 {
		return []string{"no limits"}
	}
	return out
}
