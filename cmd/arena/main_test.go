package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/engine"
)

// asArenaEnv makes the test binary act as the arena command (see
// TestMain): tests run it as a real child process without building it,
// and the built-in bots it starts (itself, with "bot NAME") inherit the
// variable.
const asArenaEnv = "ARENA_TEST_AS_ARENA"

func TestMain(m *testing.M) {
	engine.Supervise()
	if os.Getenv(asArenaEnv) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// arenaCommand returns the test binary set up to run as "arena args...".
func arenaCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asArenaEnv+"=1")
	return cmd
}

// runArena runs the test binary as "arena args..." and returns its exit
// status and output.
func runArena(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := arenaCommand(t, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

func TestHelpCommand(t *testing.T) {
	for _, c := range []struct {
		args       []string
		code       int
		wantStdout string // a line of the output
		wantStderr string
	}{
		{[]string{"help"}, 0, "  run      play (or resume) a tournament described by a TOML configuration", ""},
		{[]string{"help", "run"}, 0, "usage: arena run ", ""},
		{[]string{"run", "-h"}, 0, "usage: arena run ", ""},
		{[]string{"help", "perft"}, 0, "usage: arena perft ", ""},
		{[]string{"rate", "-h"}, 0, "usage: arena rate ", ""},
		{[]string{"help", "nosuch"}, 2, "", `arena: unknown command "nosuch"`},
		{[]string{}, 2, "", "usage: arena <command>"},
	} {
		code, stdout, stderr := runArena(t, c.args...)
		if code != c.code {
			t.Errorf("arena %q: exit status %d, want %d", c.args, code, c.code)
		}
		if !strings.Contains(stdout, c.wantStdout) || !strings.Contains(stderr, c.wantStderr) {
			t.Errorf("arena %q:\nstdout %q\nstderr %q\nwant %q on stdout and %q on stderr", c.args, stdout, stderr, c.wantStdout, c.wantStderr)
		}
		if c.wantStdout == "usage: arena run " && !strings.Contains(stdout, "-concurrency") {
			t.Errorf("arena %q does not list the flags:\n%s", c.args, stdout)
		}
	}
}

// TestFlagErrorOnce checks that a bad flag is reported once, with a pointer
// to the usage rather than the whole flag list.
func TestFlagErrorOnce(t *testing.T) {
	code, stdout, stderr := runArena(t, "run", "--bogus", "x.toml")
	if code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	if n := strings.Count(stderr, "flag provided but not defined: -bogus"); n != 1 {
		t.Errorf("the error is printed %d times, want once:\n%s", n, stderr)
	}
	if strings.Contains(stderr, "-concurrency") || stdout != "" {
		t.Errorf("a flag error prints the flag list:\nstdout %q\nstderr %q", stdout, stderr)
	}
	if !strings.Contains(stderr, `"arena help run"`) {
		t.Errorf("stderr does not say where the flags are listed:\n%s", stderr)
	}
}

func TestWriteVersion(t *testing.T) {
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		want []string
	}{
		{"release", &debug.BuildInfo{GoVersion: "go1.25.1", Main: debug.Module{Path: "github.com/arena-games/arena", Version: "v1.2.0", Sum: "h1:abc="}},
			[]string{"arena v1.2.0 h1:abc= (github.com/arena-games/arena)", "revision unknown", "built with go1.25.1 for "}},
		{"checkout", &debug.BuildInfo{GoVersion: "go1.25.1", Main: debug.Module{Path: "github.com/arena-games/arena", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2025-01-31T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			[]string{"arena (development build) (github.com/arena-games/arena)", "revision 0123456789abcdef (2025-01-31T10:00:00Z), with uncommitted changes"}},
		{"clean checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "false"}}},
			[]string{"revision 0123456789abcdef\n"}},
		{"no build info", nil, []string{"arena (unknown) (github.com/arena-games/arena)", "revision unknown"}},
	} {
		var b bytes.Buffer
		writeVersion(&b, c.info)
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: version text\n%s\ndoes not contain %q", c.name, b.String(), w)
			}
		}
	}
}

// TestVersionFromCheckout builds the arena from this checkout with version
// control stamping and checks that "arena --version" names the commit.
func TestVersionFromCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || !fi.IsDir() {
		// The go command stamps builds from a repository's own .git
		// directory only, not from a linked worktree's .git file.
		t.Skip("a linked git worktree: the go command records no revision")
	}
	exe := filepath.Join(t.TempDir(), "arena")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", exe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, arg := range []string{"version", "--version"} {
		out, err := exec.Command(exe, arg).Output()
		if err != nil {
			t.Fatalf("arena %s: %v", arg, err)
		}
		if want := "revision " + strings.TrimSpace(string(head)); !strings.Contains(string(out), want) {
			t.Errorf("arena %s says\n%s\nwant %q", arg, out, want)
		}
	}
}

// readmeBuildRE finds the build commands the README gives.
var readmeBuildRE = regexp.MustCompile("`(go (?:build|install) [^`]*\\./cmd/arena)`")

// TestReadmeBuildCommands runs the README's build commands as written, from
// the repository root, and the binaries they make. A binary the command
// writes into the checkout (go build -o bin/arena) goes to a temporary
// directory instead, so that the test neither refuses nor replaces the
// one the reader built by following the README.
func TestReadmeBuildCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeBuildRE.FindAllStringSubmatch(string(readme), -1)
	if len(cmds) == 0 {
		t.Fatal("the README gives no command that builds the arena")
	}
	for _, m := range cmds {
		gobin := t.TempDir()
		args, exe := readmeBuildCommand(m[1], gobin)
		build := exec.Command(args[0], args[1:]...)
		build.Dir = root
		build.Env = append(os.Environ(), "GOBIN="+gobin)
		if out, err := build.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", m[1], err, out)
			continue
		}
		if out, err := exec.Command(exe, "version").Output(); err != nil || !strings.HasPrefix(string(out), "arena ") {
			t.Errorf("%s: the binary says %q, %v", m[1], out, err)
		}
	}
}

// readmeBuildCommand returns the arguments of a build command of the
// README, its output (-o) moved under dir, and the binary it makes
// (installed in dir, as GOBIN, without -o).
func readmeBuildCommand(line, dir string) (args []string, exe string) {
	args = strings.Fields(line)
	exe = filepath.Join(dir, "arena")
	if i := slices.Index(args, "-o"); i >= 0 && i+1 < len(args) {
		exe = filepath.Join(dir, filepath.Base(args[i+1]))
		args[i+1] = exe
	}
	return args, exe
}

// TestReadmeBuildLeavesTheCheckout checks that the build commands of the
// README, as the test runs them, write nothing where the reader's own
// build goes: a bin/arena already there (go test ./... after the
// README's go build) is left alone.
func TestReadmeBuildLeavesTheCheckout(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	for _, line := range []string{"go build -o bin/arena ./cmd/arena", "go install ./cmd/arena"} {
		args, exe := readmeBuildCommand(line, dir)
		if !strings.HasPrefix(exe, dir+string(filepath.Separator)) || slices.ContainsFunc(args, func(a string) bool {
			return a == "bin/arena" || strings.HasPrefix(a, root)
		}) {
			t.Errorf("%s: runs %q making %s, want a binary under %s only", line, args, exe, dir)
		}
	}
}
