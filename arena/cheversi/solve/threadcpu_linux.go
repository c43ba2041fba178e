package solve

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// lockThread ties the calling goroutine to its thread, so that threadCPU
// measures its work alone.
func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}

// threadCPU returns the CPU time the calling thread has used.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
