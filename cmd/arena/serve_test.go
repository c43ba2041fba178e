package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports/browsertest"
	"github.com/arena-games/arena/reports/live"
)

// arenaProcess is the test binary running as the arena in the background,
// with its standard error collected line by line.
type arenaProcess struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	done  chan error
}

func startArena(t *testing.T, args ...string) *arenaProcess {
	t.Helper()
	p := &arenaProcess{cmd: arenaCommand(t, args...), done: make(chan error, 1)}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	scanned := make(chan struct{})
	go func() { // ends when the process closes its stderr
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
		}
	}()
	go func() { // ends when the process does
		<-scanned
		p.done <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

// waitLine waits for a line of standard error matching re and returns its
// submatches.
func (p *arenaProcess) waitLine(t *testing.T, re string) []string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		for _, l := range p.lines {
			if m := rx.FindStringSubmatch(l); m != nil {
				p.mu.Unlock()
				return m
			}
		}
		p.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no line matching %q; stderr:\n%s", re, p.stderr())
	return nil
}

func (p *arenaProcess) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// stop interrupts the process and returns its exit status.
func (p *arenaProcess) stop(t *testing.T) int {
	t.Helper()
	p.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(time.Minute):
		t.Fatalf("the arena did not stop after an interrupt:\n%s", p.stderr())
	}
	return -1
}

const liveConfig = `name = "live"
concurrency = 2
[game]
name = "cheversi"
[openings]
plies = 2
count = 2
[time]
move = "2s"
[[bots]]
name = "alphabeta"
builtin = "alphabeta"
args = ["--movetime", "60ms"]
[[bots]]
name = "greedy"
builtin = "greedy"
[[bots]]
name = "slow-random"
builtin = "alphabeta"
args = ["--movetime", "40ms", "--depth", "1"]
`

// TestRunServeInChromium runs a tournament with --serve and follows its
// live page in Chromium: the boards of games in flight move, the
// standings change as games finish, and at the end every game is listed
// and opens on the board; the page stays up until an interrupt.
func TestRunServeInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a tournament and drives Chromium")
	}
	ctx := browsertest.Start(t)
	out := filepath.Join(t.TempDir(), "out")
	p := startArena(t, "run", "--serve", "127.0.0.1:0", "--quiet", "--out", out, writeTemp(t, "live.toml", liveConfig))
	url := p.waitLine(t, `^live page: (http://127\.0\.0\.1:\d+/)$`)[1]
	browsertest.Open(t, ctx, url)
	browsertest.WaitFor(t, ctx, "the state stream", `document.getElementById("connection").getAttribute("data-state") === "live"`)

	// A board in flight moves.
	browsertest.WaitFor(t, ctx, "a game in flight", `document.querySelector("#flights .flight svg")`)
	first := browsertest.Eval[[]string](t, ctx, `[document.querySelector("#flights .flight").getAttribute("data-id"), document.querySelector("#flights .flight svg").getAttribute("data-text")]`)
	browsertest.WaitFor(t, ctx, "the board of game "+first[0]+" to move", fmt.Sprintf(`(function () {
		const f = document.querySelector('#flights .flight[data-id="%s"] svg');
		return !f || f.getAttribute("data-text") !== %q;
	})()`, first[0], first[1]))
	// At 1280 px a board in flight is large enough to read, and its
	// players are named with their colours, the first mover first: both
	// read in one turn of the page's script, before the screenshots, as
	// the games are short and one that ends between two reads has no
	// board.
	flight := browsertest.Eval[[]any](t, ctx, `(function () {
		const svg = document.querySelector("#flights .flight svg"), names = document.querySelector("#flights .flight .names");
		return svg && names ? [svg.getBoundingClientRect().width, names.textContent] : [0, "no game in flight"];
	})()`)
	if w, _ := flight[0].(float64); w < 300 {
		t.Errorf("a board in flight is %v px wide at 1280 px, want 300 or more", flight[0])
	}
	if names, _ := flight[1].(string); !regexp.MustCompile(`^\S+ \(White\) – \S+ \(Black\)$`).MatchString(names) {
		t.Errorf("a game in flight is labelled %q, want WHITE (White) – BLACK (Black)", names)
	}
	for _, w := range browsertest.Widths {
		browsertest.Screenshot(t, ctx, "live", w)
	}

	// The standings change as games finish.
	games := `Array.from(document.querySelectorAll("#standings tbody tr td:nth-child(5)")).reduce(function (n, td) { return n + Number(td.textContent); }, 0)`
	before := browsertest.Eval[int](t, ctx, games)
	browsertest.WaitFor(t, ctx, "the standings to change", fmt.Sprintf(`%s > %d`, games, before))
	browsertest.WaitFor(t, ctx, "the end of the tournament", `document.getElementById("progress").textContent.indexOf("complete") >= 0`)
	p.waitLine(t, `the live page stays up`)
	m, recs, err := journal.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != m.Games || m.Games != 12 {
		t.Fatalf("%d of %d games recorded", len(recs), m.Games)
	}
	browsertest.WaitFor(t, ctx, "the final standings", fmt.Sprintf(`%s === %d`, games, 2*len(recs)))
	browsertest.WaitFor(t, ctx, "every game listed", fmt.Sprintf(`document.getElementById("game-viewer").getAttribute("data-rows") === "%d"`, len(recs)))
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("#flights .flight").length`); n != 0 {
		t.Errorf("%d games in flight after the end", n)
	}
	// Every game opens from the list, ending where the rules say.
	for i := range recs {
		r := &recs[i]
		browsertest.Click(t, ctx, fmt.Sprintf(`table.av-list tr[data-id="%d"]`, r.ID))
		browsertest.WaitForExplained(t, ctx, fmt.Sprintf("game %d", r.ID),
			fmt.Sprintf(`document.querySelector("#av-game").getAttribute("data-id") === "%d" && document.querySelector("#av-game svg.av-board")`, r.ID),
			`"game " + document.querySelector("#av-game").getAttribute("data-id") + ": " + document.querySelector("#av-game").textContent.slice(0, 200)`)
		rules, err := journal.RulesOf(r)
		if err != nil {
			t.Fatal(err)
		}
		st, err := journal.Replay(rules, r)
		if err != nil {
			t.Fatal(err)
		}
		if got := browsertest.Eval[string](t, ctx, `document.querySelector("#av-game svg.av-board").getAttribute("data-text")`); got != st.Text() {
			t.Errorf("game %d ends on %q, want %q", r.ID, got, st.Text())
		}
	}
	if code := p.stop(t); code != 0 {
		t.Errorf("exit status %d after the interrupt, want 0:\n%s", code, p.stderr())
	}
}

// TestServeDirectory serves a finished tournament's directory with arena
// serve and checks the state it gives, then a directory that holds no
// tournament yet.
func TestServeDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a tournament")
	}
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runArena(t, "run", "--quiet", "--out", out, writeTemp(t, "live.toml", strings.ReplaceAll(liveConfig, "60ms", "5ms")))
	if code != 0 {
		t.Fatalf("arena run: %d\n%s", code, stderr)
	}
	p := startArena(t, "serve", "--addr", "127.0.0.1:0", out)
	url := p.waitLine(t, `^serving .* on (http://127\.0\.0\.1:\d+/) `)[1]
	var st live.State
	deadline := time.Now().Add(time.Minute)
	for st.Finished != 12 || st.Analyzed != 12 {
		if time.Now().After(deadline) {
			t.Fatalf("state %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
		resp, err := http.Get(url + "api/state")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		st = live.State{}
		json.Unmarshal(body, &st)
	}
	if st.InRun || st.Total != 12 || len(st.Standings) != 3 || st.Side == nil {
		t.Errorf("served state %+v", st)
	}
	if code := p.stop(t); code != 130 {
		t.Errorf("arena serve: exit status %d after an interrupt, want 130", code)
	}

	empty := t.TempDir()
	p = startArena(t, "serve", "--addr", "127.0.0.1:0", empty)
	p.waitLine(t, `holds no tournament yet`)
	p.stop(t)
	if code, _, stderr := runArena(t, "serve", filepath.Join(empty, "missing")); code != 1 || !strings.Contains(stderr, "is not a directory") {
		t.Errorf("arena serve on a missing directory: %d %q", code, stderr)
	}
	if code, _, stderr := runArena(t, "serve", "--addr", "127.0.0.1:99999", empty); code != 1 || stderr != "arena serve: --addr: listen tcp: address 99999: invalid port\n" {
		t.Errorf("arena serve on a bad port: %d %q", code, stderr)
	}
}
