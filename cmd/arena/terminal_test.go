package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// tmux runs tmux on a server of its own, at socket.
func tmux(t *testing.T, socket string, args ...string) string {
	t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestTerminal80Columns plays a tournament in a real terminal of 80
// columns (tmux) and reads the screen: the progress line is redrawn in
// place without wrapping, the tables fit, and the fit's details stay in
// the report files.
func TestTerminal80Columns(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("ARENA_REQUIRE_TMUX") == "1" {
			t.Fatal("tmux is not installed, and ARENA_REQUIRE_TMUX=1 requires this test")
		}
		t.Skip("tmux is not installed")
	}
	// A short directory keeps the arena's own lines short.
	dir, err := os.MkdirTemp("", "tw")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	const long = "alphabeta-with-a-name-long-enough-to-matter"
	config := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(config, []byte(`name = "tw"
[game]
name = "cheversi"
[openings]
plies = 2
count = 8
[time]
move = "20ms"
margin = "500ms"
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "greedy"
builtin = "greedy"
[[bots]]
name = "`+long+`"
builtin = "alphabeta"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	socket := filepath.Join(dir, "tmux.sock")
	const done = "arena-exit-status"
	script := strings.Join([]string{"env", asArenaEnv + "=1", shellQuote(exe), "run", "--concurrency", "2", "--out", shellQuote(out), shellQuote(config)}, " ") +
		"; echo " + done + "=$?; exec sleep 600"
	tmux(t, socket, "new-session", "-d", "-x", "80", "-y", "100", "sh", "-c", script)
	defer exec.Command("tmux", "-S", socket, "kill-server").Run()
	if w := strings.TrimSpace(tmux(t, socket, "display-message", "-p", "#{pane_width}")); w != "80" {
		t.Fatalf("the pane is %s columns wide, want 80", w)
	}

	var screen string
	for deadline := time.Now().Add(2 * time.Minute); ; {
		// -J joins lines the terminal wrapped: a line too long shows as
		// one line of more than 80 characters.
		screen = tmux(t, socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "0")
		if strings.Contains(screen, done+"=") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish within 2 minutes; the screen:\n%s", screen)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the screen:\n%s", screen)
	if !strings.Contains(screen, done+"=0") {
		t.Fatalf("the arena failed")
	}
	progress := regexp.MustCompile(`^tw: \d+/48 games`)
	var progressLines int
	for _, line := range strings.Split(screen, "\n") {
		line = strings.TrimRight(line, " ")
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("a line of %d columns wrapped: %q", n, line)
		}
		if progress.MatchString(line) {
			progressLines++
		}
	}
	if progressLines != 1 {
		t.Errorf("%d progress lines on the screen, want the one redrawn in place", progressLines)
	}
	for _, want := range []string{"played 48 games", long, "first-mover advantage"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen does not show %q", want)
		}
	}
	for _, jargon := range []string{"drawElo", "display scale", "Score 1st"} {
		if strings.Contains(screen, jargon) {
			t.Errorf("the screen shows %q, which belongs in the report files", jargon)
		}
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"drawElo", "Score 1st"} {
		if !bytes.Contains(report, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}
