package engine

import "syscall"

// sysProcAttr starts a bot in a process group of its own, so that the bot
// and everything it spawns can be killed with one kill(-pgid) and a
// terminal's Ctrl-C does not reach it directly. If the arena dies without
// closing, the parent-death signal kills the bot rather than orphaning it.
// (Go never ends the threads that start processes unless they are locked
// with runtime.LockOSThread.)
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
