package engine

import (
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// plainPipe returns a pipe whose ends are blocking, closed on exec, and
// outside the Go runtime's network poller (see the reply path in read.go).
func plainPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}

// newWakeFD returns the descriptor a waker polls, and the one it writes
// to wake the poll: the same eventfd.
func newWakeFD() (pollFD, writeFD int, err error) {
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return -1, -1, os.NewSyscallError("eventfd", err)
	}
	return fd, fd, nil
}

// closeWakeFD closes what newWakeFD returned.
func closeWakeFD(pollFD, writeFD int) { _ = unix.Close(pollFD) }

// wakeWrite makes the wake descriptor readable (a full counter is readable
// already).
func wakeWrite(fd int) {
	one := uint64(1)
	_, _ = rawWrite(fd, (*[8]byte)(unsafe.Pointer(&one))[:])
}

// wakeClear makes the wake descriptor unreadable again.
func wakeClear(fd int) {
	var buf [8]byte
	_, _ = rawRead(fd, buf[:])
}

// poll is poll(2) on fds with a timeout (negative: none), to the
// nanosecond: ppoll(2).
func poll(fds []unix.PollFd, timeout time.Duration) error {
	var ts *unix.Timespec
	if timeout >= 0 {
		t := unix.NsecToTimespec(int64(timeout))
		ts = &t
	}
	_, err := unix.Ppoll(fds, ts, nil)
	return err
}

// rawRead and rawWrite are read(2) and write(2) on descriptors in
// non-blocking mode, which never wait: without the Go scheduler's
// bookkeeping for a call that may block.
func rawRead(fd int, p []byte) (int, syscall.Errno) { return rawIO(syscall.SYS_READ, fd, p) }

func rawWrite(fd int, p []byte) (int, syscall.Errno) { return rawIO(syscall.SYS_WRITE, fd, p) }

// rawIO is the system call trap (read or write) on fd and p.
func rawIO(trap uintptr, fd int, p []byte) (int, syscall.Errno) {
	n, _, errno := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	return int(n), errno
}
