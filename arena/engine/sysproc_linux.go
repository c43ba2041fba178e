package engine

import "syscall"

// sysProcAttr starts a bot, or its supervisor, in a process group of its
// own, so that the bot and everything it spawns can be killed with one
// kill(-pgid) and a terminal's Ctrl-C does not reach it directly. If the
// arena dies without closing, the parent-death signal kills a bot started
// directly, and tells a supervisor to kill its bot and everything the bot
// started. (Go never ends the threads that start processes unless they are
// locked with runtime.LockOSThread.)
func sysProcAttr(supervisor bool) *syscall.SysProcAttr {
	sig := syscall.SIGKILL
	if supervisor {
		sig = syscall.SIGTERM
	}
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: sig}
}
