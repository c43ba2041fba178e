package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
)

// solveRootMoves is a cheversi game eight plies in, whose solve in units
// cut at ply 11 takes a few seconds.
const solveRootMoves = "K@d4 N@e5 Q@f6 Q@e7 B@d6 N@c5 B@c6 B@c7"

func TestSolvePosition(t *testing.T) {
	code, stdout, stderr := runArena(t, "solve", "--moves", solveRootMoves, "--margin", "--all", "--memory", "64MiB")
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := rules.StartPosition()
	for _, m := range strings.Fields(solveRootMoves) {
		mv, err := p.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(mv)
	}
	s := solve.NewSolver(solve.SolverOptions{TableBytes: 16 << 20})
	r, err := s.Solve(t.Context(), &p)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Margin(t.Context(), &p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"value     " + verdict(&p, r.Value),
		"margin    " + signed(m) + " for white",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// The move printed with the margin reaches it.
	var text string
	for _, line := range strings.Split(stdout, "\n") {
		if rest, ok := strings.CutPrefix(line, "best move "); ok && strings.HasSuffix(rest, "(for the largest margin)") {
			text = strings.Fields(rest)[0]
		}
	}
	mv, err := p.ParseMove(text)
	if err != nil {
		t.Fatalf("no move for the margin (%v):\n%s", err, stdout)
	}
	q := p
	q.Play(mv)
	if after, err := s.Margin(t.Context(), &q); err != nil || -after != m {
		t.Errorf("%s reaches %+d, not the margin %+d (%v)", mv, -after, m, err)
	}
	// --all lists every move once.
	listed := 0
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "wins ") || strings.HasPrefix(line, "draws ") || strings.HasPrefix(line, "losses ") || strings.HasPrefix(line, "          ") {
			listed += len(strings.Fields(line))
			if f := strings.Fields(line); f[0] == "wins" || f[0] == "draws" || f[0] == "losses" {
				listed--
			}
		}
	}
	if n := p.CountMoves(); listed != n {
		t.Errorf("--all lists %d moves, want %d:\n%s", listed, n, stdout)
	}
}

func signed(m int) string { return fmt.Sprintf("%+d", m) }

// TestSolveFromBook: the value of a position the shipped proofs hold comes
// from them at once, with a move that achieves it: the proofs of the same
// rules under other komi answer too (after White's King on d4 the reply of
// the komi -1 proof, which wins by two, is preferred to the cheversi
// proof's; under komi -2, where each proof gives a bound, the two make a
// draw), and a bound they show is said before a search.
func TestSolveFromBook(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"value     black wins (loss for white, to move)", "best move none: every move loses", "proved by the proofs shipped"}},
		{[]string{"--moves", "K@d4"}, []string{"value     black wins (win for black, to move)", "best move Q@c3", "proved by the proofs shipped"}},
		{[]string{"--moves", "K@a1"}, []string{"value     black wins (win for black, to move)", "best move Q@b2"}},
		{[]string{"--set", "komi=-2"}, []string{"value     draw (draw for white, to move)", "best move K@c2"}},
		{[]string{"--set", "komi=-2", "--moves", "K@c2"}, []string{"value     draw (draw for black, to move)", "best move Q@c3"}},
	} {
		code, stdout, stderr := runArena(t, append([]string{"solve"}, c.args...)...)
		if code != 0 {
			t.Fatalf("arena solve %q: exit status %d: %s", c.args, code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("arena solve %q: output lacks %q:\n%s", c.args, w, stdout)
			}
		}
	}
	// Under komi -2 after White's King on d4 the proofs show a bound only,
	// and the reply that holds it.
	cmd, sc := startArenaStdout(t, "solve", "--set", "komi=-2", "--moves", "K@d4")
	var lines []string
	for len(lines) < 2 && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	if want := "proved    at least a draw for black (a win not known yet) with Q@c3, by the proofs shipped with the solver; searching for the value"; len(lines) < 2 || lines[1] != want {
		t.Errorf("arena solve --set komi=-2 --moves K@d4 begins %q, want its second line %q", lines, want)
	}
}

// startArenaStdout starts the test binary as "arena args..." and returns it
// with a scanner of its standard output; the caller waits for it.
func startArenaStdout(t *testing.T, args ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := arenaCommand(t, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(out)
}

func TestSolveBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--moves", "K@d4 Q@a1"}, `--moves: move 2 "Q@a1": illegal move Q@a1: must touch an opponent piece`},
		{[]string{"--moves", "K@z9"}, `--moves: move 1 "K@z9"`},
		{[]string{"--fen", "8/8 w 0 -"}, "--fen:"},
		{[]string{"--rules", "nosuch"}, `unknown cheversi preset "nosuch"`},
		{[]string{"--set", "touch=sideways"}, `touch = "sideways"`},
		{[]string{"--memory", "lots"}, `--memory: bad size "lots"`},
		{[]string{"--dir", "x", "--cut", "20"}, "--cut 20: want a ply from 0"},
		{[]string{"--shard", "1/2"}, "--shard needs --dir"},
		{[]string{"--dir", "x", "--shard", "3/2"}, "--shard:"},
		{[]string{"--workers", "listen://127.0.0.1:0"}, "--workers hands out work units: give --dir"},
		{[]string{"--dir", "x", "--workers", "http://h"}, "--workers: bad NATS URL"},
		{[]string{"--dir", "x", "--workers", "nats://h:4222", "--jobs", "2"}, "each worker's --concurrency"},
		{[]string{"--dir", "x", "--workers", "nats://h:4222", "--shard", "1/2"}, "leave out --shard"},
		{[]string{"--dir", "x", "--workers", "nats://h:4222", "--worker-timeout", "10ms"}, "--worker-timeout 10ms: must be at least 1s"},
	} {
		code, _, stderr := runArena(t, append([]string{"solve"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("arena solve %q: exit status %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestSolveUnitsResume solves a position in units, kills the solve with
// SIGKILL while it runs, runs it again to the end, and checks the value, the
// results file (each unit once) and the proof written from it.
func TestSolveUnitsResume(t *testing.T) {
	dir := t.TempDir()
	args := []string{"solve", "--moves", solveRootMoves, "--dir", dir, "--cut", "11", "--jobs", "2", "--memory", "64MiB"}
	cmd, sc := startArenaStdout(t, args...)
	// Kill it once it has recorded a few units.
	units := 0
	for sc.Scan() && units < 5 {
		if strings.Contains(sc.Text(), " positions ") {
			units++
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if units < 5 {
		t.Skip("the solve ended before it could be killed")
	}
	before := lines(t, filepath.Join(dir, "results.txt"))

	code, stdout, stderr := runArena(t, args...)
	if code != 0 {
		t.Fatalf("resumed solve: exit status %d: %s", code, stderr)
	}
	after := lines(t, filepath.Join(dir, "results.txt"))
	if len(after) <= len(before) || strings.Join(after[:len(before)], "\n") != strings.Join(before, "\n") {
		t.Fatalf("the resumed solve did not keep the %d lines it found", len(before))
	}
	keys := map[string]bool{}
	for _, l := range after[2:] {
		k := strings.Fields(l)[0]
		if keys[k] {
			t.Fatalf("position %s recorded twice", k)
		}
		keys[k] = true
	}

	rules, _ := cheversi.New("cheversi", nil)
	p := rules.StartPosition()
	for _, m := range strings.Fields(solveRootMoves) {
		mv, _ := p.ParseMove(m)
		p.Play(mv)
	}
	want, err := solve.NewSolver(solve.SolverOptions{TableBytes: 16 << 20}).Solve(t.Context(), &p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, p.Text()+": "+verdict(&p, want.Value)) {
		t.Fatalf("resumed solve says:\n%s\nwant %s", stdout, verdict(&p, want.Value))
	}

	// The proof from the units checks, leaves and all.
	proof := filepath.Join(dir, "proof")
	if code, _, stderr := runArena(t, "solve", "proof", "--moves", solveRootMoves, "--dir", dir, "--cut", "11", "--out", proof); code != 0 {
		t.Fatalf("solve proof: exit status %d: %s", code, stderr)
	}
	code, stdout, stderr = runArena(t, "solve", "check", "--all", proof)
	if code != 0 || !strings.Contains(stdout, "the tree holds") {
		t.Fatalf("solve check: exit status %d: %s%s", code, stdout, stderr)
	}
	// The status reads the same.
	code, stdout, _ = runArena(t, "solve", "--moves", solveRootMoves, "--dir", dir, "--cut", "11", "--status")
	if code != 0 || !strings.Contains(stdout, "value: "+verdict(&p, want.Value)) {
		t.Fatalf("solve --status: exit status %d:\n%s", code, stdout)
	}
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestSolveShards solves a position in two slices writing into one
// directory, as the Slurm array of configs/cluster/slurm-solve.sbatch does,
// then solves what is left above the split and compares the value with a
// whole solve's. Each slice's file holds only its own units.
func TestSolveShards(t *testing.T) {
	dir := t.TempDir()
	base := []string{"solve", "--moves", solveRootMoves, "--dir", dir, "--cut", "11", "--memory", "64MiB", "--quiet"}
	for i := range 2 {
		args := append(append([]string(nil), base...), "--shard", fmt.Sprintf("%d/2", i), "--split", "9")
		if code, _, stderr := runArena(t, args...); code != 0 {
			t.Fatalf("slice %d: exit status %d: %s", i, code, stderr)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) != 2 {
		t.Fatalf("slices wrote %q, want two files", files)
	}
	code, stdout, stderr := runArena(t, base...)
	if code != 0 {
		t.Fatalf("final solve: exit status %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "0 units solved in this run") {
		t.Errorf("the final solve solved units the slices had left:\n%s", stdout)
	}
	rules, _ := cheversi.New("cheversi", nil)
	p := rules.StartPosition()
	for _, m := range strings.Fields(solveRootMoves) {
		mv, _ := p.ParseMove(m)
		p.Play(mv)
	}
	want, err := solve.NewSolver(solve.SolverOptions{TableBytes: 16 << 20}).Solve(t.Context(), &p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, p.Text()+": "+verdict(&p, want.Value)) {
		t.Fatalf("final solve says:\n%s\nwant %s", stdout, verdict(&p, want.Value))
	}
}

// TestSolveStatusEmpty: --status of a directory with nothing solved (a
// typo in --dir, most often) says so instead of showing an empty solve.
func TestSolveStatusEmpty(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "typo")
	code, stdout, stderr := runArena(t, "solve", "--dir", dir, "--status")
	if want := "no results files (*.txt) in " + dir; code != 1 || !strings.Contains(stderr, want) || stdout != "" {
		t.Errorf("arena solve --dir %s --status: exit status %d, stdout %q, stderr %q; want 1 and %q", dir, code, stdout, stderr, want)
	}
}

// TestSolveSharesOpening solves opening=king-queen from the committed
// units of cheversi, which differ from it only in Black's first move: the
// positions from ply 2 on are the same, and cheversi's proof has a Queen
// for Black's first move after every King of White's, so the solve needs
// no unit of its own.
func TestSolveSharesOpening(t *testing.T) {
	dir := t.TempDir()
	zr := openGzip(t, "../../docs/solved/cheversi-results.txt.gz")
	f, err := os.Create(filepath.Join(dir, "cheversi.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(zr).WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, stdout, stderr := runArena(t, "solve", "--dir", dir, "--set", "opening=king-queen", "--quiet")
	if code != 0 || !strings.Contains(stdout, "black wins") {
		t.Fatalf("arena solve --set opening=king-queen: exit status %d, stdout %q, stderr %q; want black wins", code, stdout, stderr)
	}
	code, stdout, _ = runArena(t, "solve", "--dir", dir, "--set", "opening=king-queen", "--status")
	for _, want := range []string{": 0 units solved", "and 37386 positions solved under rules that differ only in the opening", "value: black wins"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("--status: exit status %d, stdout:\n%s\nwant %q", code, stdout, want)
		}
	}
	// The solve wrote its own results file, which holds no unit: the
	// value of the empty board alone, derived (no position searched).
	own, err := os.ReadFile(filepath.Join(dir, "results.txt"))
	if err != nil || strings.Count(string(own), "\n") != 3 || !strings.Contains(string(own), "\n0000000000000000 8/8/8/8/8/8/8/8 w 0 - loss - 0 0.000\n") {
		t.Errorf("results.txt: %v\n%s\nwant the header and the empty board's derived value", err, own)
	}
}
