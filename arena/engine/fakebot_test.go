package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the bots the tests drive: when envBotMode is
// set, TestMain runs fakeBot in that mode instead of the tests, as os/exec's
// own tests do.
const (
	envBotMode   = "ARENA_ENGINE_FAKE_BOT"
	envFakeArena = "ARENA_ENGINE_FAKE_ARENA"   // a directory: run fakeArena instead
	envPidFile   = "ARENA_ENGINE_FAKE_PIDFILE" // where "grandchild" writes its child's pid
	envSelfPid   = "ARENA_ENGINE_FAKE_SELFPID" // where a sleeper writes its own pid
	envEcho      = "ARENA_ENGINE_FAKE_ECHO"    // reported back by "good"
	envSignals   = "ARENA_ENGINE_FAKE_SIGNALS" // a directory of files by which "late-move" and "await-late" take turns
)

func TestMain(m *testing.M) {
	Supervise()
	if mode, ok := os.LookupEnv(envBotMode); ok {
		os.Exit(fakeBot(mode))
	}
	if dir, ok := os.LookupEnv(envFakeArena); ok {
		os.Exit(fakeArena(dir))
	}
	os.Exit(m.Run())
}

// Fake bot modes. Unless said otherwise a mode plays like "good" apart from
// its one misbehaviour.
const (
	modeGood          = "good"           // full handshake, reports what it received in its last info line
	modeInstant       = "instant"        // answers go with a bare move, no info
	modeNoLegal       = "nolegal"        // does not request legal moves
	modeCrash         = "crash"          // exits with status 3 on go
	modeExitAtStart   = "exit-at-start"  // exits with status 2 before reading anything
	modeMuteHandshake = "mute-handshake" // never answers anything; sleeps after EOF
	modeMuteMove      = "mute-move"      // never answers go
	modeNoPong        = "no-pong"        // never answers ping
	modeGarbage       = "garbage"        // answers go with bytes that are not UTF-8
	modeBadMove       = "bad-move"       // answers go with "move" and no move
	modeLongLine      = "long-line"      // answers go with 10 MB without a newline
	modeCloseStdout   = "close-stdout"   // closes stdout on go and keeps running
	modeIgnoreQuit    = "ignore-quit"    // ignores quit and EOF on stdin
	modeGrandchild    = "grandchild"     // spawns a child holding stdout/stderr; exits with status 4 on go
	modeGrandchildOK  = "grandchild-ok"  // spawns a child holding stdout/stderr; quits politely
	modeFloodStderr   = "flood-stderr"   // writes 4 MB to stderr before every move
	modeUnasked       = "unasked"        // sends a move right after newgame
	modeUnknownFlood  = "unknown-flood"  // answers go with endless unknown lines
	modeHandshakeMove = "handshake-move" // sends a move during the handshake
	modeNoGames       = "no-games"       // declares no games
	modePinger        = "pinger"         // pings the arena before each move and waits for the pong
	modeDeaf          = "deaf"           // stops reading its input after the handshake
	modeSleeper       = "sleeper"        // the grandchild: sleeps
	modeInfoFlood     = "info-flood"     // writes 96 MB of info lines before each move
	modeDoubleMove    = "double-move"    // answers go with two moves in one write
	modeFloodCrash    = "flood-crash"    // writes 2 MB to stderr on go, then its last words, and exits with status 3
	modeEscapers      = "escapers"       // spawns two sleepers, one in its process group and one in a session of its own
	modeLateMove      = "late-move"      // answers go, then writes a move nobody asked for once the file "stray" exists, then creates "strayed"
	modeAwaitLate     = "await-late"     // answers go once the file "strayed" exists
)

// fakeBot plays the arena protocol on stdin/stdout in the given mode and
// returns the exit status.
func fakeBot(mode string) int {
	switch mode {
	case modeForkBombChild:
		forkBomb()
		return 0
	case modeSleeper:
		if path := os.Getenv(envSelfPid); path != "" {
			self, _ := os.Readlink("/proc/self") // the pid in /proc's namespace
			os.WriteFile(path, []byte(self), 0o644)
		}
		time.Sleep(time.Hour)
		return 0
	case modeExitAtStart:
		fmt.Fprintln(os.Stderr, "fake bot: giving up at once")
		return 2
	case modeMuteHandshake:
		_, _ = io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour)
		return 0
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<16), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	say := func(lines ...string) {
		for _, l := range lines {
			out.WriteString(l)
			out.WriteByte('\n')
		}
		out.Flush()
	}
	opts := map[string]string{}
	var newgame, pos string
	var legal []string
	for in.Scan() {
		line := in.Text()
		cmd, rest, _ := strings.Cut(line, " ")
		switch cmd {
		case "arena":
			if rest != "1" {
				fmt.Fprintf(os.Stderr, "fake bot: unsupported %q\n", line)
				return 1
			}
			if mode == modeEscapers {
				if err := spawnEscapers(); err != nil {
					fmt.Fprintln(os.Stderr, "fake bot:", err)
					return 1
				}
			}
			if mode == modeGrandchild || mode == modeGrandchildOK {
				if err := spawnGrandchild(); err != nil {
					fmt.Fprintln(os.Stderr, "fake bot:", err)
					return 1
				}
			}
			say("id name fake "+mode, "id author arena tests",
				"option name Hash type spin default 16 min 1 max 1024",
				"option name Style type combo default normal var normal var risky",
				"option name Ponder type check default false",
				"option name Book type string default")
			if mode == modeHandshakeMove {
				say("move K@e4")
			}
			if mode != modeNoGames {
				say("games cheversi checkers")
			}
			if mode != modeNoLegal {
				say("request legalmoves")
			}
			say("arenaok")
		case "setoption":
			// setoption name <n> value <v>
			f := strings.SplitN(rest, " ", 4)
			if len(f) >= 3 {
				opts[f[1]] = strings.Join(f[3:], " ")
			}
		case "isready":
			say("readyok")
			if mode == modeDeaf {
				time.Sleep(time.Hour)
			}
		case "newgame":
			newgame = rest
			if mode == modeUnasked {
				say("move K@e4")
			}
		case "position":
			pos, legal = rest, nil
		case "legalmoves":
			legal = strings.Fields(rest)
		case "go":
			move := "K@e4"
			if len(legal) > 0 {
				move = legal[0]
			}
			switch mode {
			case modeInstant:
				say("move " + move)
			case modeLateMove:
				say("move " + move)
				// The arena asks nothing more until the stray move is out,
				// and the goroutine writes to the file, not through out.
				go func() {
					dir := os.Getenv(envSignals)
					awaitFile(filepath.Join(dir, "stray"))
					os.Stdout.WriteString("move K@h8\n")
					os.WriteFile(filepath.Join(dir, "strayed"), nil, 0o644)
				}()
			case modeAwaitLate:
				awaitFile(filepath.Join(os.Getenv(envSignals), "strayed"))
				say("move " + move)
			case modeCrash:
				say("info string about to crash")
				return 3
			case modeMuteMove:
			case modeGarbage:
				out.WriteString("\xff\xfe garbage \xc0\n")
				out.Flush()
			case modeBadMove:
				say("move")
			case modeInfoFlood:
				line := "info depth 1 nodes 5 string " + strings.Repeat("x", 8<<10)
				for range 96 << 20 / len(line) {
					say(line)
				}
				say("info depth 7 score 12 pv "+move+" string last", "move "+move)
			case modeAllocate, modeForkBomb, modeConnect, modeTrespass, modeSnoop, modeOpenFiles, modeBigFile, modeSleepChild, modeBurnCPU:
				if code, ok := hostile(mode); !ok {
					return code
				}
				say("move " + move)
			case modeFloodCrash:
				chunk := bytes.Repeat([]byte("flood "), 1<<10)
				for n := 0; n < 2<<20; n += len(chunk) {
					os.Stderr.Write(chunk)
				}
				self, _ := os.Readlink("/proc/self") // its pid as the arena sees it
				fmt.Fprintf(os.Stderr, "\nfake bot: last words of %s\n", self)
				return 3
			case modeDoubleMove:
				say("move "+move, "move "+move)
			case modeLongLine:
				out.Write(bytes.Repeat([]byte("x"), 10<<20))
				out.Flush()
			case modeCloseStdout:
				os.Stdout.Close()
			case modeGrandchild:
				return 4
			case modeUnknownFlood:
				for i := 0; ; i++ {
					if _, err := fmt.Fprintf(out, "chatter %d\n", i); err != nil {
						return 1
					}
				}
			case modeFloodStderr:
				chunk := bytes.Repeat([]byte("flood "), 1<<10)
				for n := 0; n < 4<<20; n += len(chunk) {
					os.Stderr.Write(chunk)
				}
				say("move " + move)
			case modePinger:
				say("ping check-1")
				if !in.Scan() || in.Text() != "pong check-1" {
					fmt.Fprintf(os.Stderr, "fake bot: want pong check-1, got %q\n", in.Text())
					return 1
				}
				say("move " + move)
			default:
				report := strings.Join([]string{"pos=" + pos, "legal=" + strings.Join(legal, ","),
					"opts=" + formatOpts(opts), "newgame=" + newgame, "env=" + os.Getenv(envEcho), "dir=" + mustGetwd()}, ";")
				say("info string thinking",
					"info depth 1 string shallow",
					"chatter that the arena ignores",
					"info depth 3 score -5 nodes 100 pv "+move+" Q@d5 string "+report,
					"info bogus fields here",
					"move "+move)
			}
		case "ping":
			if mode != modeNoPong {
				say("pong " + rest)
			}
		case "gameover":
			fmt.Fprintln(os.Stderr, "fake bot: game over:", rest)
		case "quit":
			if mode == modeIgnoreQuit {
				continue
			}
			return 0
		}
	}
	if mode == modeIgnoreQuit || mode == modeCloseStdout || mode == modeLongLine {
		time.Sleep(time.Hour)
	}
	return 0
}

// spawnGrandchild starts a sleeping child that inherits stdout and stderr
// and stays in the bot's process group, and writes its pid to envPidFile.
func spawnGrandchild() error {
	pid, err := startSleeper(false, os.Stdout, os.Stderr)
	if err != nil {
		return err
	}
	return os.WriteFile(os.Getenv(envPidFile), []byte(pid), 0o644)
}

// startSleeper starts the test binary as a sleeper, in a session of its
// own if setsid, with the given stdout and stderr, and returns its pid as
// the arena sees it: the bot may run in a PID namespace of its own, where
// pids differ, so the sleeper tells its pid from /proc/self (the arena's
// /proc) in a file, which this waits for.
func startSleeper(setsid bool, stdout, stderr *os.File) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(filepath.Dir(os.Getenv(envPidFile)), "sleeper-*.pid")
	if err != nil {
		return "", err
	}
	f.Close()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envBotMode+"="+modeSleeper, envSelfPid+"="+f.Name())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
	if stdout != nil {
		cmd.Stdout, cmd.Stderr = stdout, stderr
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	for deadline := time.Now().Add(prompt); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if b, err := os.ReadFile(f.Name()); err == nil && len(b) > 0 {
			return string(b), nil
		}
	}
	return "", errors.New("the sleeper did not tell its pid")
}

// spawnEscapers starts two sleepers that hold none of the bot's pipes, one
// in the bot's process group and one that calls setsid, and writes their
// pids to envPidFile.
func spawnEscapers() error {
	var pids []string
	for _, setsid := range []bool{false, true} {
		pid, err := startSleeper(setsid, nil, nil)
		if err != nil {
			return err
		}
		pids = append(pids, pid)
	}
	return os.WriteFile(os.Getenv(envPidFile), []byte(strings.Join(pids, " ")), 0o644)
}

// fakeArena starts a bot as a bash script that does not exec it (so that
// the bot is not the arena's child), in escapers mode, writes the bot's
// process group id to dir/bot.pid and waits to be killed.
func fakeArena(dir string) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	e, err := Start(context.Background(), Spec{
		Name:    "wrapped",
		Command: "bash",
		Args:    []string{"-c", `"$0"; true`, exe},
		Env: []string{envBotMode + "=" + modeEscapers, envPidFile + "=" + filepath.Join(dir, "escapers.pid"),
			"GORACE=atexit_sleep_ms=0"},
		HandshakeTimeout: 30 * time.Second,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.WriteFile(filepath.Join(dir, "bot.pid"), []byte(strconv.Itoa(e.Pid())), 0o644); err != nil {
		return 1
	}
	// Killed outright by the test, or told to Exit by the file "exit".
	for deadline := time.Now().Add(time.Hour); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "exit")); err == nil {
			Exit(fakeArenaExit)
		}
	}
	return 0
}

// fakeArenaExit is the status a fake arena exits with by Exit.
const fakeArenaExit = 7

func formatOpts(opts map[string]string) string {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + opts[k])
	}
	return b.String()
}

func mustGetwd() string {
	d, err := os.Getwd()
	if err != nil {
		return "?"
	}
	return d
}

// awaitFile waits until the file name exists, or for a minute.
func awaitFile(name string) {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(name); err == nil {
			return
		}
	}
}
