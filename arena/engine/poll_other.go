//go:build unix && !linux

package engine

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// plainPipe returns a pipe whose ends are blocking, closed on exec, and
// outside the Go runtime's network poller (see the reply path in read.go).
func plainPipe() (r, w *os.File, err error) {
	p, err := cloexecPipe()
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}

// cloexecPipe returns the descriptors of a new pipe, both closed on exec
// (set under syscall.ForkLock, so that no process started meanwhile
// inherits them).
func cloexecPipe() (p [2]int, err error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(p[:]); err != nil {
		return p, os.NewSyscallError("pipe", err)
	}
	syscall.CloseOnExec(p[0])
	syscall.CloseOnExec(p[1])
	return p, nil
}

// newWakeFD returns the descriptor a waker polls, and the one it writes
// to wake the poll: the two ends of a pipe in non-blocking mode.
func newWakeFD() (pollFD, writeFD int, err error) {
	p, err := cloexecPipe()
	if err != nil {
		return -1, -1, err
	}
	for _, fd := range p {
		if err := syscall.SetNonblock(fd, true); err != nil {
			closeWakeFD(p[0], p[1])
			return -1, -1, os.NewSyscallError("fcntl", err)
		}
	}
	return p[0], p[1], nil
}

// closeWakeFD closes what newWakeFD returned.
func closeWakeFD(pollFD, writeFD int) {
	_ = syscall.Close(pollFD)
	_ = syscall.Close(writeFD)
}

// wakeWrite makes the wake descriptor readable (a full pipe is readable
// already).
func wakeWrite(fd int) { _, _ = rawWrite(fd, []byte{1}) }

// wakeClear makes the wake descriptor unreadable again.
func wakeClear(fd int) {
	var buf [64]byte
	for {
		if n, errno := rawRead(fd, buf[:]); errno != 0 || n < len(buf) {
			return
		}
	}
}

// poll is poll(2) on fds with a timeout (negative: none), rounded up to
// the millisecond.
func poll(fds []unix.PollFd, timeout time.Duration) error {
	ms := -1
	if timeout >= 0 {
		ms = int((timeout + time.Millisecond - 1) / time.Millisecond)
	}
	_, err := unix.Poll(fds, ms)
	return err
}

// rawRead and rawWrite are read(2) and write(2) on descriptors in
// non-blocking mode, which never wait.
func rawRead(fd int, p []byte) (int, syscall.Errno) {
	n, err := syscall.Read(fd, p)
	return n, errnoOf(err)
}

func rawWrite(fd int, p []byte) (int, syscall.Errno) {
	n, err := syscall.Write(fd, p)
	return n, errnoOf(err)
}

func errnoOf(err error) syscall.Errno {
	if err == nil {
		return 0
	}
	if errno, ok := err.(syscall.Errno); ok {
		return errno
	}
	return syscall.EIO
}
