package engine

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/sandbox"
)

// The supervisor. On Linux a bot runs under a small supervisor process,
// the arena's own executable started in supervisor mode (see Supervise),
// so that no process a bot starts outlives the arena:
//
//   - the supervisor is a child subreaper: every descendant of the bot
//     that loses its parent, even one that left the bot's process group or
//     session, becomes the supervisor's child;
//   - it gets SIGTERM when the arena dies (its parent-death signal) and
//     when the arena closes the bot; either way it kills the bot's process
//     group and then every descendant it has, reaps them all and exits;
//   - the bot itself gets SIGKILL if the supervisor dies.
//
// The bot inherits the arena's pipes directly (the supervisor keeps no
// copy), so replies cost nothing extra. The supervisor reports on a pipe
// of its own (its file descriptor 3): "pid N" once the bot runs (or
// "error TEXT"), then "exit STATUS" when the bot exits, which it leaves a
// zombie until it is told to stop, so that the bot's process group id
// stays reserved for the arena's kill.

// envSupervise marks a process started as a supervisor.
const envSupervise = "ARENA_ENGINE_SUPERVISE"

// supervisorFD is the supervisor's report pipe.
const supervisorFD = 3

// supervisorSelf is the executable started as the supervisor; "" when
// Supervise has not been called, and bots are started directly.
var supervisorSelf string

// Supervise must be called first thing in main by a program that starts
// bots (and in TestMain by tests that do). In a process the engine started
// as a bot supervisor it runs the supervisor and exits; otherwise it
// returns at once, having enabled supervision for the bots this process
// starts. Without it bots are started directly, and a bot's descendants
// that leave its process group may outlive an arena killed outright.
//
// It also sets up the processes of bots with limits or a sandbox (see
// sandbox.Main) before they become the bot.
func Supervise() {
	if os.Getenv(envSupervise) == "" {
		sandbox.Main() // returns unless this process is a bot's, to set up
		if exe, err := os.Executable(); err == nil {
			supervisorSelf = exe
		}
		return
	}
	os.Exit(supervise(os.Args[1:]))
}

// supervised reports whether bots are started under a supervisor.
func supervised() bool { return supervisorSelf != "" }

// supervise is the supervisor's main: args are the resolved path of what
// it starts (the bot, or the arena's executable to set the bot up) and
// its arguments, the first included.
func supervise(args []string) int {
	report := os.NewFile(supervisorFD, "report")
	syscall.CloseOnExec(supervisorFD)
	say := func(format string, a ...any) {
		_, _ = fmt.Fprintf(report, format+"\n", a...)
	}
	signal.Ignore(syscall.SIGPIPE, syscall.SIGINT, syscall.SIGHUP)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	if len(args) < 2 {
		say("error supervisor: no command")
		return 1
	}
	if err := setChildSubreaper(); err != nil {
		say("error supervisor: %v", err)
		return 1
	}
	env := os.Environ()
	for i := 0; i < len(env); i++ {
		if strings.HasPrefix(env[i], envSupervise+"=") {
			env = append(env[:i], env[i+1:]...)
			i--
		}
	}
	proc, err := os.StartProcess(args[0], args[1:], &os.ProcAttr{
		Env:   env,
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		say("error %v", err)
		return 1
	}
	pid := proc.Pid
	// Let go of the bot's pipes: they are the bot's alone.
	if devnull, err := os.Open(os.DevNull); err == nil {
		for fd := 0; fd <= 2; fd++ {
			_ = syscall.Dup3(int(devnull.Fd()), fd, 0)
		}
		devnull.Close()
	}
	say("pid %d", pid)
	go func() { // ends when the bot exits (or the process does)
		status, err := waitExited(pid)
		if err != nil {
			status = err.Error()
		}
		say("exit %s", status)
	}()
	<-stop
	killDescendants(pid, time.Now().Add(reapTimeout))
	return 0
}

// setChildSubreaper makes orphaned descendants this process's children.
func setChildSubreaper() error {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_CHILD_SUBREAPER): %w", errno)
	}
	return nil
}

// killDescendants kills the process group of the bot (pid), then every
// child this process has and the process group each leads, over and over,
// reaping them, until none is left or the deadline passes.
func killDescendants(pid int, deadline time.Time) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	self := os.Getpid()
	for {
		for _, kid := range childrenOf(self) {
			if pg, err := syscall.Getpgid(kid); err == nil && pg == kid {
				_ = syscall.Kill(-kid, syscall.SIGKILL)
			}
			_ = syscall.Kill(kid, syscall.SIGKILL)
		}
		for {
			var ws syscall.WaitStatus
			got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if err == syscall.ECHILD {
				return // nobody left
			}
			if got <= 0 || err != nil {
				break
			}
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// childrenOf returns the pids of the processes whose parent is pid.
func childrenOf(pid int) []int {
	want := []byte(" " + strconv.Itoa(pid) + " ")
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold anything; the fields
		// after the last ')' are plain.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || len(b) < i+3 {
			continue
		}
		rest := b[i+2:] // "S ppid ..."
		if j := bytes.IndexByte(rest, ' '); j >= 0 && bytes.HasPrefix(rest[j:], want) {
			if kid, err := strconv.Atoi(filepath.Base(filepath.Dir(path))); err == nil {
				kids = append(kids, kid)
			}
		}
	}
	return kids
}
