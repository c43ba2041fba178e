package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
)

// TestMergeCommand plays three slices of a tournament of built-in bots
// with arena run --shard, merges them with arena merge (first without one
// slice, then with --partial, then all) and checks the exit statuses and
// that arena run on a partial merge plays the rest.
func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	config := writeTemp(t, "sliced.toml", `name = "sliced"
seed = 3
[game]
name = "cheversi"
[openings]
plies = 2
count = 2
[time]
move = "1s"
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "greedy"
builtin = "greedy"
[[bots]]
name = "first"
builtin = "random"
args = ["--seed", "9"]
`)
	// 3 pairings × 2 openings: 6 colour-reversed pairs, 2 per slice.
	var slices []string
	for i := range 3 {
		out := filepath.Join(dir, "slice-"+strconv.Itoa(i))
		if code, _, stderr := runArena(t, "run", "--quiet", "--shard", strconv.Itoa(i)+"/3", "--out", out, config); code != 0 {
			t.Fatalf("slice %d: exit status %d:\n%s", i, code, stderr)
		}
		slices = append(slices, out)
	}
	merged := filepath.Join(dir, "merged")
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"merge", slices[0]}, 2, "--out is required"},
		{[]string{"merge", "--out", merged}, 2, "missing the slice directories"},
		{[]string{"merge", "--out", merged, slices[0], slices[1]}, 1, "4 of 12 games are missing: slice 2/3: not given (4 games)"},
		{[]string{"merge", slices[1], "--out", merged, "--partial", slices[0]}, 0, "to play them: arena run --out " + merged},
	} {
		code, _, stderr := runArena(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.stderr) {
			t.Errorf("arena %q: exit status %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.stderr)
		}
	}
	// arena run on the partial merge plays the missing slice's games.
	code, stdout, stderr := runArena(t, "run", "--quiet", "--out", merged, config)
	if code != 0 || !strings.Contains(stdout, "sliced: 12 of 12 games") {
		t.Fatalf("run on the partial merge: exit status %d:\n%s\n%s", code, stdout, stderr)
	}
	// Every slice merged into a new directory.
	merged = filepath.Join(dir, "all")
	code, stdout, stderr = runArena(t, "merge", "--out", merged, slices[2], slices[0], slices[1])
	if code != 0 || !strings.Contains(stdout, "sliced: 12 of 12 games") || !strings.Contains(stderr, "merged 12 of 12 games from 3 slice directories") {
		t.Errorf("merge of every slice: exit status %d:\n%s\n%s", code, stdout, stderr)
	}
	recs, err := journal.Read(filepath.Join(merged, journal.File))
	if err != nil || len(recs) != 12 {
		t.Fatalf("merged journal: %d games, %v", len(recs), err)
	}
	for i := range recs {
		if recs[i].ID != i+1 {
			t.Errorf("merged journal line %d holds game %d", i+1, recs[i].ID)
		}
	}
}
