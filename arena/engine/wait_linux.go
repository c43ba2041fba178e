package engine

import (
	"fmt"
	"syscall"
	"unsafe"
)

// waitExited blocks until the child process pid has exited and describes
// how it ended ("exit status 3", "signal: killed"), without reaping it:
// waitid with WNOWAIT, as os/exec does internally before signaling. The
// zombie keeps the pid and the process group id reserved until it is
// reaped.
func waitExited(pid int) (string, error) {
	const (
		pPID      = 1          // idtype_t P_PID
		wEXITED   = 0x4        // WEXITED
		wNOWAIT   = 0x01000000 // WNOWAIT
		cldExited = 1          // si_code values for SIGCHLD
		cldKilled = 2
		cldDumped = 3
	)
	// siginfo_t is 128 bytes; a uint64 array keeps it aligned.
	var buf [16]uint64
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&buf)), wEXITED|wNOWAIT, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return "", fmt.Errorf("waitid: %w", errno)
		}
		break
	}
	// si_signo, si_errno and si_code are the first three ints; the
	// SIGCHLD fields (si_pid, si_uid, si_status) follow at the start of
	// the union, which is pointer-aligned.
	words := (*[32]int32)(unsafe.Pointer(&buf))
	union := 12 / 4
	if unsafe.Sizeof(uintptr(0)) == 8 {
		union = 16 / 4
	}
	code, status := words[2], words[union+2]
	switch code {
	case cldExited:
		return fmt.Sprintf("exit status %d", status), nil
	case cldKilled:
		return "signal: " + syscall.Signal(status).String(), nil
	case cldDumped:
		return "signal: " + syscall.Signal(status).String() + " (core dumped)", nil
	}
	return fmt.Sprintf("exited (code %d, status %d)", code, status), nil
}
