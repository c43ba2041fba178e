package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/sandbox"
)

// process is a started bot: its own process group (under a supervisor when
// Supervise enabled them), three pipes (the arena's ends of stdin and
// stdout outside the runtime's poller, for the reply path of read.go; that
// of stderr in it), a goroutine that learns of its exit and reaps it (or
// its supervisor), and a goroutine that copies its stderr into a capped
// log.
type process struct {
	pid    int
	stdin  *os.File // arena's write end of the bot's stdin
	stdout *os.File // arena's read end of the bot's stdout
	stderr *os.File // arena's read end of the bot's stderr; nil when discarded

	log    *Log // nil when stderr is discarded
	ownLog bool // log was opened for this process: shutdown closes it

	// exited is closed once the process has exited. The process is left
	// a zombie until shutdown has killed its group, so that neither its
	// pid nor its process group id can be reused by an unrelated process
	// before kill(-pgid) is sent.
	exited chan struct{}
	status string        // how it ended; read only after exited is closed
	reap   chan struct{} // closed by shutdown: the reaper may reap now

	stderrDone chan struct{} // closed when the stderr copier has returned
	wg         sync.WaitGroup

	super *os.Process // the bot's supervisor; nil when the bot is the arena's child

	box    *sandbox.Box // the bot's namespaces, cgroup and limits
	tmpDir string       // the bot's own working directory, made for it; removed at shutdown
	tail   tailWriter   // the end of its stderr
}

// live holds the processes started and not yet shut down, for Exit.
var live struct {
	sync.Mutex
	m map[*process]struct{}
}

// exiting is set once Exit has begun: a bot that fails from then on was
// killed by the arena, not by its own doing.
var exiting atomic.Bool

// Exit ends the program at once with the given status, and every bot this
// process started with it. It is for a program that has no time to Close
// its engines (on a second interrupt, say). The program does nothing per
// bot that has a PID namespace of its own: such a bot dies with the
// program, killed by the parent-death signal the kernel sends it as the
// program's threads end, after the last of the program's code has run,
// and everything it started dies with it. Only a bot without a namespace
// has its process group killed here first (its supervisor, if it has
// one, gets its own parent-death signal and kills what left the group);
// from the start of Exit on, a call that fails says the program is
// exiting (KindClosed), so that such a kill is not taken for the bot's
// fault and recorded.
func Exit(code int) {
	exiting.Store(true)
	live.Lock() // held to the end: no bot is forgotten while the kills go out
	for p := range live.m {
		if !p.box.Namespaced() {
			_ = p.killGroup()
		}
	}
	os.Exit(code)
}

// startProcess launches spec's command in a new process group, in its
// sandbox.Box: in a PID namespace of its own where the kernel allows it,
// else under a supervisor when Supervise enabled them; onExit (which may
// be nil) is called with the time the process exited. On error nothing is
// left running and every file it opened is closed.
func startProcess(spec *Spec, onExit func(time.Time)) (_ *process, err error) {
	p := &process{exited: make(chan struct{}), reap: make(chan struct{}), stderrDone: make(chan struct{})}
	var f fileSet
	defer func() { f.done(err != nil) }()
	defer func() {
		if err != nil {
			p.releaseBox()
		}
	}()
	if err := p.prepareBox(spec); err != nil {
		return nil, err
	}
	cmd, report, err := p.command(spec, &f)
	if err != nil {
		return nil, err
	}
	if err := p.openLog(spec); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && p.ownLog {
			p.log.Close()
		}
	}()
	if err := p.pipes(cmd, &f); err != nil {
		return nil, err
	}
	err = cmd.Start()
	sandbox.CloseAfterStart(cmd)
	if err != nil {
		return nil, err
	}
	if report != nil {
		err = p.superviseStart(cmd, report, onExit)
	} else {
		err = p.directStart(cmd, onExit)
	}
	if err != nil {
		return nil, err
	}
	live.Lock()
	if live.m == nil {
		live.m = map[*process]struct{}{}
	}
	live.m[p] = struct{}{}
	live.Unlock()
	p.copyStderr()
	return p, nil
}

// fileSet holds the files startProcess opens: those closed once the
// process is started, and those closed only if it fails.
type fileSet struct {
	afterStart, onErr []*os.File
}

func (f *fileSet) done(failed bool) {
	for _, x := range f.afterStart {
		x.Close()
	}
	if failed {
		for _, x := range f.onErr {
			x.Close()
		}
	}
}

// prepareBox makes the process's sandbox.Box from spec's Policy, with a
// working directory of its own when a sandboxed bot has none.
func (p *process) prepareBox(spec *Spec) error {
	pol := spec.Policy
	pol.Read = slices.Clone(pol.Read)
	if pol.Isolate {
		if spec.Dir == "" {
			dir, err := os.MkdirTemp("", "arena-bot-")
			if err != nil {
				return fmt.Errorf("bot directory: %w", err)
			}
			p.tmpDir, spec.Dir = dir, dir
		}
		pol.Dir = spec.Dir
		pol.Read = append(pol.Read, argPaths(spec)...)
	}
	box, err := sandbox.Prepare(pol, spec.Name)
	if err != nil {
		return err
	}
	p.box = box
	return nil
}

// argPaths returns the directories of spec's arguments that name existing
// files (a script, say), which a sandboxed bot may then read.
func argPaths(spec *Spec) []string {
	var dirs []string
	for _, a := range spec.Args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		path := a
		if !filepath.IsAbs(path) {
			path = filepath.Join(spec.Dir, path)
		}
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			dirs = append(dirs, filepath.Dir(path))
		}
	}
	return dirs
}

// command builds the command that starts the bot: the bot itself, in its
// box, or its supervisor, which starts it. report is the arena's end of a
// supervisor's report pipe, nil without a supervisor.
func (p *process) command(spec *Spec, f *fileSet) (cmd *exec.Cmd, report *os.File, err error) {
	path, err := resolveCommand(spec)
	if err != nil {
		return nil, nil, err
	}
	cmd = exec.Command(path, spec.Args...)
	cmd.Args[0] = spec.Command
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), spec.Env...)
	direct := !supervised() || p.box.Namespaced()
	cmd.SysProcAttr = sysProcAttr(!direct)
	if err := p.box.Wrap(cmd, path, direct); err != nil {
		return nil, nil, err
	}
	if direct {
		askPidfd(cmd.SysProcAttr)
		return cmd, nil, nil
	}
	// Under a supervisor: it starts what the box would have started.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("supervisor pipe: %w", err)
	}
	f.afterStart = append(f.afterStart, w)
	f.onErr = append(f.onErr, r)
	sup := exec.Command(supervisorSelf, cmd.Path)
	sup.Args = append([]string{supervisorSelf, cmd.Path}, cmd.Args...)
	sup.Dir = cmd.Dir
	sup.Env = append(cmd.Env, envSupervise+"=1")
	sup.SysProcAttr = cmd.SysProcAttr
	sup.ExtraFiles = []*os.File{w}
	return sup, r, nil
}

// openLog opens the log the bot's stderr goes to, if any.
func (p *process) openLog(spec *Spec) error {
	switch {
	case spec.Log != nil:
		p.log = spec.Log
	case spec.StderrPath != "":
		l, err := OpenLog(spec.StderrPath, spec.StderrLimit)
		if err != nil {
			return fmt.Errorf("open stderr log: %w", err)
		}
		p.log, p.ownLog = l, true
	}
	return nil
}

// pipes gives cmd the bot's stdin, stdout and stderr (when there is a
// log) and keeps the arena's ends.
func (p *process) pipes(cmd *exec.Cmd, f *fileSet) error {
	inR, inW, err := plainPipe()
	if err != nil {
		return fmt.Errorf("stdin pipe: %w", err)
	}
	f.afterStart = append(f.afterStart, inR)
	f.onErr = append(f.onErr, inW)
	outR, outW, err := plainPipe()
	if err != nil {
		return fmt.Errorf("stdout pipe: %w", err)
	}
	f.afterStart = append(f.afterStart, outW)
	f.onErr = append(f.onErr, outR)
	cmd.Stdin, cmd.Stdout = inR, outW
	p.stdin, p.stdout = inW, outR
	if p.log != nil {
		errR, errW, err := os.Pipe()
		if err != nil {
			return fmt.Errorf("stderr pipe: %w", err)
		}
		f.afterStart = append(f.afterStart, errW)
		f.onErr = append(f.onErr, errR)
		cmd.Stderr = errW
		p.stderr = errR
	} // else cmd.Stderr is nil: the bot's stderr is /dev/null.
	return nil
}

// directStart waits for the box's set-up of the bot, just started as the
// arena's child, and starts the goroutine that learns of its exit and,
// once shutdown lets it, reaps it. On error the bot is killed and reaped.
func (p *process) directStart(cmd *exec.Cmd, onExit func(time.Time)) error {
	p.pid = cmd.Process.Pid
	pidfd := takePidfd(cmd.SysProcAttr)
	if err := p.box.Started(); err != nil {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if pidfd != nil {
			pidfd.Close()
		}
		return err
	}
	p.wg.Add(1)
	go func() { // exits when the bot has exited and shutdown has let it be reaped
		defer p.wg.Done()
		status, err := p.awaitExit(pidfd)
		if err != nil {
			// Cannot wait without reaping: reap now, losing only the
			// protection against group id reuse.
			_ = cmd.Wait()
			p.status = cmd.ProcessState.String()
			p.markExited(onExit)
			return
		}
		p.status = status
		p.markExited(onExit)
		<-p.reap
		_ = cmd.Wait() // releases the zombie and the os.Process
	}()
	return nil
}

// awaitExit waits for the bot to exit, without reaping it: through its
// pidfd in the runtime's poller (no thread waits) when there is one.
func (p *process) awaitExit(pidfd *os.File) (string, error) {
	if pidfd == nil {
		return waitExited(p.pid)
	}
	defer pidfd.Close()
	return waitExitedFD(pidfd)
}

// copyStderr starts the goroutine that copies the bot's stderr into its
// log, if it has one.
func (p *process) copyStderr() {
	if p.stderr == nil {
		close(p.stderrDone)
		return
	}
	p.wg.Add(1)
	go func() { // exits at EOF (every writer gone) or when p.stderr is closed
		defer p.wg.Done()
		defer close(p.stderrDone)
		_, _ = io.Copy(io.MultiWriter(p.log, &p.tail), p.stderr)
	}()
}

// tailWriter keeps the end of what is written to it, for the last line
// of a bot's stderr.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
}

// tailKeep is how much of a bot's stderr a tailWriter keeps.
const tailKeep = 512

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(b) >= tailKeep {
		t.buf = append(t.buf[:0], b[len(b)-tailKeep:]...)
	} else {
		t.buf = append(t.buf, b...)
		if len(t.buf) > tailKeep {
			t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailKeep:]...)
		}
	}
	return len(b), nil
}

// lastLine returns the last non-blank line written, without its newline,
// cut to 200 bytes; "" if there is none.
func (t *tailWriter) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(t.buf), "\n \t\r"), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(last) > 200 {
		last = last[:200]
	}
	return strings.ToValidUTF8(last, "?")
}

// releaseBox removes what the box made (its cgroup) and the bot's own
// directory, if the engine made one.
func (p *process) releaseBox() error {
	var err error
	if p.box != nil {
		err = p.box.Close()
	}
	if p.tmpDir != "" {
		if rerr := os.RemoveAll(p.tmpDir); rerr != nil && err == nil {
			err = rerr
		}
		p.tmpDir = ""
	}
	return err
}

// superviseStart takes the bot's pid from the report of its supervisor
// (cmd, just started) and starts the goroutine that learns of the bot's
// exit and, once shutdown lets it, stops the supervisor and reaps it. On
// error the supervisor is killed and reaped.
func (p *process) superviseStart(cmd *exec.Cmd, report *os.File, onExit func(time.Time)) error {
	br := bufio.NewReader(report)
	_ = report.SetReadDeadline(time.Now().Add(supervisorStartTimeout))
	pid, err := readReport(br)
	_ = report.SetReadDeadline(time.Time{})
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		report.Close()
		return err
	}
	p.pid, p.super = pid, cmd.Process
	p.wg.Add(1)
	go func() { // exits once shutdown has let the supervisor go and it has
		defer p.wg.Done()
		line, err := br.ReadString('\n')
		if status, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "exit "); ok && err == nil {
			p.status = status
		} else {
			p.status = "its supervisor is gone" // and with it the bot (parent-death signal)
		}
		p.markExited(onExit)
		<-p.reap
		// The supervisor kills what is left, reaps the bot and exits.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		t := time.AfterFunc(reapTimeout, func() { _ = cmd.Process.Kill() })
		_ = cmd.Wait()
		t.Stop()
		report.Close()
	}()
	return nil
}

// supervisorStartTimeout bounds the wait for a supervisor to report the
// bot it started.
const supervisorStartTimeout = 30 * time.Second

// readReport reads the supervisor's first report line: the bot's pid, or
// why it could not be started.
func readReport(r *bufio.Reader) (int, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("bot supervisor: %w", err)
	}
	line = strings.TrimSuffix(line, "\n")
	if msg, ok := strings.CutPrefix(line, "error "); ok {
		return 0, errors.New(msg)
	}
	if n, ok := strings.CutPrefix(line, "pid "); ok {
		if pid, err := strconv.Atoi(n); err == nil && pid > 1 {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("bot supervisor: unexpected report %q", line)
}

// resolveCommand finds spec's executable as starting it directly would:
// in PATH for a bare name, else relative to spec.Dir.
func resolveCommand(spec *Spec) (string, error) {
	name := spec.Command
	if strings.Contains(name, "/") && spec.Dir != "" && !filepath.IsAbs(name) {
		name = filepath.Join(spec.Dir, name)
	}
	return exec.LookPath(name)
}

// limitReached names the limit of the bot's Policy that it reached, as its
// box tells (a cgroup's counters, the signal it died of), or returns "".
func (p *process) limitReached() string {
	if p.box == nil {
		return ""
	}
	status := ""
	if p.hasExited() {
		status = p.status
	}
	return p.box.Explain(status, p.tail.lastLine())
}

// markExited closes exited and tells onExit (if any).
func (p *process) markExited(onExit func(time.Time)) {
	close(p.exited)
	if onExit != nil {
		onExit(time.Now())
	}
}

// hasExited reports whether the process has exited.
func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// exitStatus describes how the process ended, such as
// "exited (exit status 3)" or "exited (signal: killed)". Call it only after
// exited is closed.
func (p *process) exitStatus() string {
	if p.status == "" {
		return "exited"
	}
	return "exited (" + p.status + ")"
}

// killGroup sends SIGKILL to the bot's whole process group. It is called
// even after the leader has exited, to sweep up children it left behind;
// the leader is not reaped before this, so the group id is still the bot's.
func (p *process) killGroup() error {
	if p.pid <= 1 {
		// kill(0) and kill(-1) would hit the arena's own group or every
		// process it may signal.
		return fmt.Errorf("refusing to kill process group %d", p.pid)
	}
	err := syscall.Kill(-p.pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil // nobody left
	}
	return err
}

// shutdown stops the bot: it closes stdin (after the caller has written
// quit) and waits up to grace for the bot to exit by itself, then kills the
// process group, waits up to reapTimeout for the bot to be gone and lets the
// reaper reap it. It then waits a
// little for the bot's last stderr, closes the arena's pipe ends (a read or
// write still using stdin or stdout keeps its descriptor open until it
// returns; the stderr copier returns at once) and waits for its
// goroutines. The caller stops its own stdout reader before or after.
// Only the first call does anything.
func (p *process) shutdown(grace, reapTimeout time.Duration) error {
	p.stdin.Close()
	var errs []error
	if grace > 0 && !waitFor(p.exited, grace) {
		p.log.Notef("no exit within %v of quit; killing process group %d", grace, p.pid)
	}
	if err := p.killGroup(); err != nil {
		errs = append(errs, fmt.Errorf("kill process group %d: %w", p.pid, err))
	}
	if !p.box.Namespaced() {
		p.box.Kill() // what left the group, if the bot has a cgroup
	}
	exited := waitFor(p.exited, reapTimeout)
	close(p.reap)
	if !exited {
		errs = append(errs, fmt.Errorf("process %d still there %v after SIGKILL", p.pid, reapTimeout))
	}
	live.Lock()
	delete(live.m, p)
	live.Unlock()
	// With the whole group dead the stderr pipe reaches EOF once drained;
	// a process that left the group may still hold it, hence the bound.
	waitFor(p.stderrDone, stderrDrainTimeout)
	p.stdout.Close()
	if p.stderr != nil {
		p.stderr.Close()
	}
	if exited {
		p.wg.Wait()
	} else {
		// The reaper goroutine stays until the kernel lets the process
		// go (uninterruptible sleep), then reaps it; everything else is
		// released.
		<-p.stderrDone
	}
	if exited {
		if err := p.releaseBox(); err != nil {
			errs = append(errs, err)
		}
	}
	if p.log != nil {
		var err error
		if p.ownLog {
			err = p.log.Close()
		} else {
			err = p.log.Flush()
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("stderr log: %w", err))
		}
	}
	return errors.Join(errs...)
}

// stderrDrainTimeout bounds how long shutdown waits for the last of a dead
// bot's stderr before closing the pipe.
const stderrDrainTimeout = 500 * time.Millisecond

// waitFor reports whether ch is closed within d.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
