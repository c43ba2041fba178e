package engine

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// waitExited blocks until the child process pid has exited and describes
// how it ended ("exit status 3", "signal: killed"), without reaping it:
// waitid with WNOWAIT, as os/exec does internally before signaling. The
// zombie keeps the pid and the process group id reserved until it is
// reaped.
func waitExited(pid int) (string, error) {
	status, _, err := waitid(pPID, pid, 0)
	return status, err
}

const (
	pPID      = 1          // idtype_t P_PID
	pPIDFD    = 3          // idtype_t P_PIDFD
	wEXITED   = 0x4        // WEXITED
	wNOHANG   = 0x1        // WNOHANG
	wNOWAIT   = 0x01000000 // WNOWAIT
	cldExited = 1          // si_code values for SIGCHLD
	cldKilled = 2
	cldDumped = 3
)

// waitid waits (or, with wNOHANG in flags, looks) for the exit of the
// process id names (a pid, or a pidfd with pPIDFD), without reaping it,
// and describes how it ended; exited is false when wNOHANG found it
// running.
func waitid(idtype, id int, flags uintptr) (status string, exited bool, err error) {
	// siginfo_t is 128 bytes; a uint64 array keeps it aligned.
	var buf [16]uint64
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, uintptr(idtype), uintptr(id),
			uintptr(unsafe.Pointer(&buf)), wEXITED|wNOWAIT|flags, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return "", false, fmt.Errorf("waitid: %w", errno)
		}
		break
	}
	if buf == [16]uint64{} {
		return "", false, nil // WNOHANG: still running
	}
	// si_signo, si_errno and si_code are the first three ints; the
	// SIGCHLD fields (si_pid, si_uid, si_status) follow at the start of
	// the union, which is pointer-aligned.
	words := (*[32]int32)(unsafe.Pointer(&buf))
	union := 12 / 4
	if unsafe.Sizeof(uintptr(0)) == 8 {
		union = 16 / 4
	}
	code, st := words[2], words[union+2]
	switch code {
	case cldExited:
		return fmt.Sprintf("exit status %d", st), true, nil
	case cldKilled:
		return "signal: " + syscall.Signal(st).String(), true, nil
	case cldDumped:
		return "signal: " + syscall.Signal(st).String() + " (core dumped)", true, nil
	}
	return fmt.Sprintf("exited (code %d, status %d)", code, st), true, nil
}

// pidfdWorks reports whether processes can be started with a pidfd that
// waitid accepts (Linux 5.4).
var pidfdWorks = sync.OnceValue(func() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	_, _, err = waitid(pPIDFD, fd, wNOHANG)
	// Waiting for oneself is ECHILD; an old kernel says EINVAL.
	return err == nil || errors.Is(err, syscall.ECHILD)
})

// askPidfd asks, where the kernel has them, for a pidfd of the process
// attr starts.
func askPidfd(attr *syscall.SysProcAttr) {
	if pidfdWorks() {
		attr.PidFD = new(int)
	}
}

// takePidfd returns the pidfd askPidfd asked for, in the runtime's poller
// so that a goroutine can wait for the child's exit without holding a
// thread; nil without one.
func takePidfd(attr *syscall.SysProcAttr) *os.File {
	if attr.PidFD == nil || *attr.PidFD <= 0 {
		return nil
	}
	fd := *attr.PidFD
	if err := syscall.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil
	}
	return os.NewFile(uintptr(fd), "pidfd")
}

// waitExitedFD is waitExited through a pidfd in the runtime's poller: the
// goroutine parks until the process exits, with no thread held. It
// leaves the process a zombie.
func waitExitedFD(f *os.File) (string, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return "", err
	}
	var (
		status string
		werr   error
	)
	err = rc.Read(func(fd uintptr) bool {
		var exited bool
		status, exited, werr = waitid(pPIDFD, int(fd), wNOHANG)
		return exited || werr != nil
	})
	if err != nil {
		return "", err
	}
	return status, werr
}
