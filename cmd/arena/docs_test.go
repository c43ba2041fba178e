package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/sweep"
)

// docExample is a code block of a document, or one command of one.
type docExample struct {
	doc   string // README.md, configs/README.md
	lang  string // sh, toml, or "" for other text
	line  int    // where it starts in the document
	text  string // a command (continuation lines joined), or the whole block
	block int    // the block's number in the document
}

// docExamples returns the examples of the READMEs: each command of their
// sh blocks, and each other block whole.
func docExamples(t *testing.T, root string) []docExample {
	t.Helper()
	var out []docExample
	fence := regexp.MustCompile("(?s)```(\\w*)\n(.*?)```")
	for _, doc := range []string{"README.md", filepath.Join("configs", "README.md")} {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for n, m := range fence.FindAllSubmatchIndex(data, -1) {
			lang, body := string(data[m[2]:m[3]]), string(data[m[4]:m[5]])
			start := 1 + bytes.Count(data[:m[4]], []byte("\n"))
			if lang != "sh" {
				out = append(out, docExample{doc: doc, lang: lang, line: start, text: body, block: n})
				continue
			}
			cmd, at := "", 0
			for i, l := range strings.Split(body, "\n") {
				if cmd == "" {
					at = start + i
				}
				if strings.HasSuffix(l, "\\") {
					cmd += strings.TrimSuffix(l, "\\")
					continue
				}
				if cmd += l; strings.TrimSpace(cmd) != "" {
					out = append(out, docExample{doc: doc, lang: "sh", line: at, text: strings.TrimSpace(cmd), block: n})
				}
				cmd = ""
			}
		}
	}
	return out
}

// elsewhere lists the commands of the READMEs that this test does not run,
// by their first words, with the test that runs them or why none can.
var elsewhere = map[string]string{
	"go test":             "the test command itself: .ci/run runs it (and this test is part of it)",
	".ci/run":             "CI",
	"arena run --workers": "TestWorkersSurvive and TestWorkersSPRTStops (ARENA_WORKERS=1, as .ci/run sets)",
	"arena worker":        "TestWorkersSurvive and TestWorkersSPRTStops (ARENA_WORKERS=1, as .ci/run sets), and TestSolveWorkersCommand",
	"arena solve --dir solve/cheversi --workers": "TestSolveWorkersCommand: a solve on a worker process (the whole game would take hours)",
	"configs/cluster/slurm-submit.sh":            "TestSlurm on a one-node Slurm cluster (ARENA_SLURM=1, as .ci/run sets)",
	"squeue":                                     "TestSlurm (ARENA_SLURM=1)",
	"ARENA_CONFIG=$PWD/study.toml":               "TestSlurm (ARENA_SLURM=1)",
	"ARENA_OUT=/shared/results/study":            "TestSlurm (ARENA_SLURM=1)",
	"ARENA_CONFIG=$PWD/configs/study":            "TestSlurm (ARENA_SLURM=1) runs the sweep's array script",
	"arena report /shared/results/study":         "a Slurm cluster's shared directory: TestSlurm; arena report itself runs in configs/README.md's first block",
	"kubectl":                                    "no Kubernetes cluster here: configs/cluster's own module checks the manifests against the Kubernetes API types",
	"docker build":                               "TestDocker builds the image (ARENA_DOCKER=1, as .ci/run sets)",
	"ARENA_CONFIG_DIR=":                          "TestDocker plays a tournament with configs/cluster/compose.yaml (ARENA_DOCKER=1)",
	"ARENA_NATS=":                                "TestSlurm runs slurm-workers.sbatch as an array (ARENA_SLURM=1)",
}

// TestDocExamples runs every command of the sh blocks of README.md and
// configs/README.md with the arena as built for this test (go run
// ./cmd/arena and arena both stand for it), in reading order, each
// document in a fresh directory that has the repository's configs and
// bots, a stand-in ./mybot and the study.toml the cluster examples name.
// What a command must do depends on what it is: perft prints the count
// its comment gives; check passes; a tournament records games (one still
// going after 15 s is stopped with Ctrl-C, which finishes its games in
// flight); a page (serve, run --serve, play) answers at its address
// before Ctrl-C stops it. Commands that write to /tmp write under the
// test's directory instead, and the pages listen on a free port. The
// commands run elsewhere (clusters, workers, the tests themselves) are
// listed in elsewhere. Every toml block is checked as the arena checks a
// configuration, on top of a game and bots, with the files it names, and
// the opening file's lines are read as openings of one of the games.
func TestDocExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example of the READMEs")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	examples := docExamples(t, root)
	used := map[string]bool{}
	dirs := map[string]string{}
	for _, ex := range examples {
		name := fmt.Sprintf("%s:%d", ex.doc, ex.line)
		switch ex.lang {
		case "toml":
			t.Run(name, func(t *testing.T) { checkTOMLExample(t, ex.text) })
			continue
		case "sh":
		default:
			if strings.HasPrefix(ex.text, "# my openings") {
				t.Run(name, func(t *testing.T) { checkOpeningsExample(t, ex.text) })
			}
			continue
		}
		if key := elsewhereKey(ex.text); key != "" {
			used[key] = true
			t.Logf("%s: %s: run by %s", name, ex.text, elsewhere[key])
			continue
		}
		if dirs[ex.doc] == "" {
			dirs[ex.doc] = docWorkDir(t, root, exe)
		}
		t.Run(name, func(t *testing.T) { runShellExample(t, dirs[ex.doc], ex.text) })
	}
	for key := range elsewhere {
		if !used[key] {
			t.Errorf("elsewhere lists %q, which no README example starts with any more", key)
		}
	}
}

func elsewhereKey(cmd string) string {
	for key := range elsewhere {
		if strings.HasPrefix(cmd, key) {
			return key
		}
	}
	return ""
}

// docWorkDir makes the directory a document's commands run in: links to
// the repository's configs and bots, the arena as bin/arena, a ./mybot
// (a random mover that takes any flags) and study.toml (a short
// tournament into results/study).
func docWorkDir(t *testing.T, root, exe string) string {
	dir := t.TempDir()
	for _, d := range []string{"configs", "bots"} {
		if err := os.Symlink(filepath.Join(root, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"bin/arena": "#!/bin/sh\n" + asArenaEnv + "=1 exec " + strconv.Quote(exe) + " \"$@\"\n",
		"mybot":     "#!/bin/sh\nexec arena bot random\n",
		"study.toml": `name = "study"
output = "results/study"
[game]
name = "cheversi"
[openings]
plies = 1
count = 16
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "greedy"
builtin = "greedy"
`,
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// shellPrelude makes go run ./cmd/arena the arena; any other go command
// is not one this test runs.
const shellPrelude = `go() {
	if [ "$1" = run ] && [ "$2" = ./cmd/arena ]; then shift 2; arena "$@"; return; fi
	echo "go $*: not run by the examples test" >&2; return 99
}
`

// runShellExample runs one command of a README in dir, as the kind of
// command it is requires.
func runShellExample(t *testing.T, dir, text string) {
	cmd := strings.ReplaceAll(text, "/tmp/", filepath.Join(dir, "tmp")+"/")
	cmd = strings.ReplaceAll(cmd, "127.0.0.1:8080", "127.0.0.1:0")
	words := strings.Fields(strings.TrimPrefix(strings.TrimPrefix(cmd, "go run ./cmd/arena"), "arena"))
	sub := ""
	if len(words) > 0 {
		sub = words[0]
	}
	page := sub == "serve" || sub == "play" || strings.Contains(cmd, "--serve ")
	if sub == "serve" && !strings.Contains(cmd, "--addr") {
		cmd = strings.Replace(cmd, " serve ", " serve --addr 127.0.0.1:0 ", 1)
	}
	if strings.HasPrefix(text, "arena merge --out results/study/merged") {
		// The slices the example merges "once done": the README's own
		// slice 3 ran with the line before; play the others.
		for i := range 16 {
			if i != 3 {
				out, err := shell(dir, fmt.Sprintf("arena run --quiet --shard %d/16 study.toml", i)).CombinedOutput()
				if err != nil {
					t.Fatalf("slice %d: %v\n%s", i, err, out)
				}
			}
		}
	}
	t.Logf("$ %s", cmd)
	before := journalSizes(dir)
	grew := func() bool {
		for path, n := range journalSizes(dir) {
			if n > before[path] {
				return true
			}
		}
		return false
	}
	c := shell(dir, cmd)
	var out lockedBuffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }() // ends with the command
	interrupt := func() { syscall.Kill(-c.Process.Pid, syscall.SIGINT) }
	defer syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	var err error
	switch {
	case page:
		url := waitForText(t, &out, done, regexp.MustCompile(`http://127\.0\.0\.1:\d+/`), 2*time.Minute)
		resp, gerr := http.Get(url)
		if gerr != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("%s: GET %s: %v %v", text, url, resp, gerr)
		}
		if resp != nil {
			resp.Body.Close()
		}
		err = stopWithInterrupts(t, interrupt, done)
	case sub == "run" || sub == "match":
		select {
		case err = <-done:
		case <-time.After(15 * time.Second):
			// A long tournament: stop it once it has recorded a game.
			for deadline := time.Now().Add(3 * time.Minute); !grew() && time.Now().Before(deadline); {
				time.Sleep(100 * time.Millisecond)
			}
			err = stopWithInterrupts(t, interrupt, done)
		}
		if !grew() && !strings.Contains(out.String(), "the tournament is complete") {
			t.Errorf("%s: no game recorded:\n%s", text, out.String())
		}
	default:
		select {
		case err = <-done:
		case <-time.After(3 * time.Minute):
			t.Fatalf("%s: still running after 3 minutes:\n%s", text, out.String())
		}
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 0 && code != 130 {
		t.Errorf("%s: exit status %d:\n%s", text, code, out.String())
	}
	if code == 130 && !strings.Contains(out.String(), "interrupted") {
		t.Errorf("%s: exit status 130 without an interrupt:\n%s", text, out.String())
	}
	switch {
	case sub == "perft":
		if want := regexp.MustCompile(`#\s*(\d+)\s*$`).FindStringSubmatch(text); want != nil {
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if got := lines[len(lines)-1]; got != want[1] {
				t.Errorf("%s: counts %s, the README says %s", text, got, want[1])
			}
		}
	case sub == "check":
		if !strings.Contains(out.String(), " 0 failed") {
			t.Errorf("%s: the check did not pass:\n%s", text, out.String())
		}
	case sub == "merge":
		if !regexp.MustCompile(`merged (\d+) of (\d+) games from 16 slice directories`).MatchString(out.String()) || strings.Contains(out.String(), "missing") {
			t.Errorf("%s:\n%s", text, out.String())
		}
	}
}

// shell returns the command that runs a line of a README in dir, in a
// process group of its own (Ctrl-C reaches every process of it).
func shell(dir, line string) *exec.Cmd {
	c := exec.Command("bash", "-c", shellPrelude+line)
	c.Dir = dir
	c.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return c
}

// stopWithInterrupts sends Ctrl-C, and once more if the command is still
// running 60 s later, and returns how it ended.
func stopWithInterrupts(t *testing.T, interrupt func(), done <-chan error) error {
	t.Helper()
	interrupt()
	select {
	case err := <-done:
		return err
	case <-time.After(60 * time.Second):
	}
	interrupt()
	select {
	case err := <-done:
		return err
	case <-time.After(60 * time.Second):
		t.Fatal("still running after two interrupts")
	}
	return nil
}

// journalSizes returns the size of every journal under dir.
func journalSizes(dir string) map[string]int64 {
	out := map[string]int64{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.IsDir() && (d.Name() == "configs" || d.Name() == "bots") && path != dir:
			return filepath.SkipDir
		case !d.IsDir() && d.Name() == "games.jsonl":
			if fi, err := d.Info(); err == nil {
				out[path] = fi.Size()
			}
		}
		return nil
	})
	return out
}

// waitForText returns the first match of re in out, failing when the command
// ends or the time runs out first.
func waitForText(t *testing.T, out *lockedBuffer, done <-chan error, re *regexp.Regexp, wait time.Duration) string {
	t.Helper()
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := re.FindString(out.String()); m != "" {
			return m
		}
		select {
		case err := <-done:
			t.Fatalf("ended (%v) before saying %s:\n%s", err, re, out.String())
		default:
		}
	}
	t.Fatalf("did not say %s:\n%s", re, out.String())
	return ""
}

// checkTOMLExample checks a toml block of a README as the arena checks a
// configuration: on top of a game and as many bots as it lacks, with the
// files it names in place. A [sweep] block is checked as arena sweep does.
func checkTOMLExample(t *testing.T, block string) {
	dir := filepath.Join(t.TempDir(), "conf")
	os.MkdirAll(dir, 0o755)
	stub := "#!/bin/sh\nexit 0\n"
	for name, body := range map[string]string{"leaky-engine": stub, "trusted": stub, "../mybot/build/mybot": stub} {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gameName := "cheversi"
	if strings.Contains(block, "[adjudication]") || strings.Contains(block, "book.epd") {
		gameName = "checkers"
	}
	var book strings.Builder
	for i := range 300 {
		fmt.Fprintf(&book, "B:W21-31:B2-12 moves 9-13\t11-man %d\n", i+1)
	}
	os.WriteFile(filepath.Join(dir, "book.epd"), []byte(book.String()), 0o644)
	text := block + "\n[game]\nname = \"" + gameName + "\"\n"
	for range 2 - strings.Count(block, "[[bots]]") {
		text += fmt.Sprintf("\n[[bots]]\nname = \"b%d\"\nbuiltin = \"random\"\n", strings.Count(text, "[[bots]]"))
	}
	path := filepath.Join(dir, "example.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatalf("the example, as a configuration:\n%s\n%v", text, err)
	}
	if cfg.Sweep != nil {
		if _, err := sweep.FromConfig(cfg, nil); err != nil {
			t.Fatalf("the sweep example: %v", err)
		}
		return
	}
	list, err := config.LoadOpenings(context.Background(), cfg)
	if err != nil {
		t.Fatalf("the example's openings: %v", err)
	}
	if cfg.Openings.File != "" && (len(list) != cfg.Openings.Limit || list[0].Name == "11-man 201") {
		t.Errorf("%d openings, the first %q: want %d shuffled ones", len(list), list[0].Name, cfg.Openings.Limit)
	}
}

// checkOpeningsExample reads the opening file of configs/README.md: every
// line is an opening of one of the games.
func checkOpeningsExample(t *testing.T, block string) {
	list, err := openings.Parse(strings.NewReader(block))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(block))
	n := 0
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			n++
		}
	}
	if len(list) != n {
		t.Fatalf("%d openings of %d lines", len(list), n)
	}
	for _, o := range list {
		ok := false
		var errs []string
		for _, name := range games.Names() {
			rules, err := games.Default(name)
			if err != nil {
				t.Fatal(err)
			}
			c := o
			c.Moves = append([]string(nil), o.Moves...)
			if err := openings.Canonicalize(rules, &c); err != nil {
				errs = append(errs, err.Error())
				continue
			}
			ok = true
		}
		if !ok {
			t.Errorf("%q is an opening of no game: %s", o.Moves, strings.Join(errs, "; "))
		}
	}
}

// TestReadmeTwoCommandsInCI checks that CI runs the README's two commands,
// the tournament and the tests, as the README gives them (the first with
// an output directory and --quiet of its own); this test binary runs the
// first through TestDocExamples too.
func TestReadmeTwoCommandsInCI(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var first []string
	for _, ex := range docExamples(t, root) {
		if ex.doc == "README.md" && ex.lang == "sh" && ex.block == 0 {
			cmd, _, _ := strings.Cut(ex.text, "#")
			first = append(first, strings.TrimSpace(cmd))
		}
	}
	if len(first) != 2 || first[0] != "go run ./cmd/arena run configs/quickstart.toml" || first[1] != "go test ./..." {
		t.Fatalf("the README's first block is %q, want the tournament and the tests", first)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^(GOFLAGS=\S+ )?go test \./\.\.\.$`).Match(ci) {
		t.Errorf(".ci/run does not run %q", first[1])
	}
	if !regexp.MustCompile(`(?m)^go run \./cmd/arena run .*configs/quickstart\.toml$`).Match(ci) {
		t.Errorf(".ci/run does not run %q", first[0])
	}
}
