package engine

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// process is a started bot: its own process group, three pipes whose
// arena-side ends are pollable (so reads and writes take deadlines and are
// interrupted by Close), a goroutine that reaps it, and a goroutine that
// copies its stderr into a capped log.
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
}

// startProcess launches spec's command in a new process group; onExit
// (which may be nil) is called with the time the process exited. On error
// nothing is left running and every file it opened is closed.
func startProcess(spec *Spec, onExit func(time.Time)) (p *process, err error) {
	p = &process{exited: make(chan struct{}), reap: make(chan struct{}), stderrDone: make(chan struct{})}
	var closeOnErr, closeAfterStart []*os.File
	defer func() {
		for _, f := range closeAfterStart {
			f.Close()
		}
		if err != nil {
			for _, f := range closeOnErr {
				f.Close()
			}
		}
	}()

	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), spec.Env...)
	cmd.SysProcAttr = sysProcAttr()

	switch {
	case spec.Log != nil:
		p.log = spec.Log
	case spec.StderrPath != "":
		l, lerr := OpenLog(spec.StderrPath, spec.StderrLimit)
		if lerr != nil {
			return nil, fmt.Errorf("open stderr log: %w", lerr)
		}
		p.log, p.ownLog = l, true
		defer func() {
			if err != nil {
				l.Close()
			}
		}()
	}

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	closeAfterStart = append(closeAfterStart, inR)
	closeOnErr = append(closeOnErr, inW)
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	closeAfterStart = append(closeAfterStart, outW)
	closeOnErr = append(closeOnErr, outR)
	cmd.Stdin, cmd.Stdout = inR, outW
	p.stdin, p.stdout = inW, outR
	if p.log != nil {
		errR, errW, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("stderr pipe: %w", err)
		}
		closeAfterStart = append(closeAfterStart, errW)
		closeOnErr = append(closeOnErr, errR)
		cmd.Stderr = errW
		p.stderr = errR
	} // else cmd.Stderr is nil: the bot's stderr is /dev/null.

	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p.pid = cmd.Process.Pid

	p.wg.Add(1)
	go func() { // exits when the bot has exited and shutdown has let it be reaped
		defer p.wg.Done()
		status, err := waitExited(p.pid)
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
	if p.stderr != nil {
		p.wg.Add(1)
		go func() { // exits at EOF (every writer gone) or when p.stderr is closed
			defer p.wg.Done()
			defer close(p.stderrDone)
			_, _ = io.Copy(p.log, p.stderr)
		}()
	} else {
		close(p.stderrDone)
	}
	return p, nil
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
// little for the bot's last stderr, closes the arena's pipe ends (which
// unblocks any reader still holding them) and waits for its goroutines. The
// caller stops its own stdout reader before or after; shutdown closes the
// stdout file so that reader returns. Only the first call does anything.
func (p *process) shutdown(grace, reapTimeout time.Duration) error {
	p.stdin.Close()
	var errs []error
	if grace > 0 && !waitFor(p.exited, grace) {
		p.log.Notef("no exit within %v of quit; killing process group %d", grace, p.pid)
	}
	if err := p.killGroup(); err != nil {
		errs = append(errs, fmt.Errorf("kill process group %d: %w", p.pid, err))
	}
	exited := waitFor(p.exited, reapTimeout)
	close(p.reap)
	if !exited {
		errs = append(errs, fmt.Errorf("process %d still there %v after SIGKILL", p.pid, reapTimeout))
	}
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
