//go:build unix && !linux

package engine

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr starts a bot in a process group of its own, so that the bot
// and everything it spawns can be killed with one kill(-pgid) and a
// terminal's Ctrl-C does not reach it directly. Without Linux's
// parent-death signal, a bot whose arena is killed outright sees its stdin
// close instead (protocol bots exit at end of input).
func sysProcAttr(bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// waitExited is not available without Linux's waitid(WNOWAIT): the caller
// falls back to reaping the bot as soon as it exits.
func waitExited(pid int) (string, error) {
	return "", errors.New("waiting without reaping is not supported on this system")
}

// Supervise does nothing on this system: bots are started directly (see
// the package documentation).
func Supervise() {}

// supervised reports whether bots are started under a supervisor: never
// on this system.
func supervised() bool { return false }

// envSupervise and supervisorSelf exist only with supervisors.
const envSupervise = ""

var supervisorSelf string

// askPidfd does nothing: there are no pidfds on this system.
func askPidfd(*syscall.SysProcAttr) {}

// takePidfd returns nil: there are no pidfds on this system.
func takePidfd(*syscall.SysProcAttr) *os.File { return nil }

// waitExitedFD is not reached without pidfds.
func waitExitedFD(*os.File) (string, error) {
	return "", errors.New("no pidfds on this system")
}
