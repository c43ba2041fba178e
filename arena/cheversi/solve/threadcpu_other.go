//go:build !linux

package solve

import "time"

var processStart = time.Now()

// lockThread does nothing where threads' CPU time cannot be read.
func lockThread() func() { return func() {} }

// threadCPU returns the time since the process started: where a thread's
// CPU time cannot be read, a unit's time is its wall-clock time.
func threadCPU() time.Duration { return time.Since(processStart) }
