package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"
)

// slurmEnv asks for TestSlurm, which needs root and Debian's slurm-wlm and
// munge packages (.ci/run installs them).
const slurmEnv = "ARENA_SLURM"

// slurmGames is the number of games of slurmConfig, slurmPerSlice those of
// each of the 4 slices it is played in.
const (
	slurmGames    = 64
	slurmPerSlice = slurmGames / 4
)

// slurmConfig is a short tournament of two deterministic bots (alphabeta
// searching a fixed number of nodes whatever the clock says): 32 openings,
// 32 colour-reversed pairs, 64 games of a fifth to half a second, 16 a
// slice of 4 (so that a slice cancelled after its first game still has
// games to play when the cancel reaches it, however fast the machine).
const slurmConfig = `name = "slurm"
seed = 7
concurrency = 1
[game]
name = "cheversi"
[openings]
plies = 2
count = 32
[time]
move = "30s"
[[bots]]
name = "shallow"
builtin = "alphabeta"
args = ["--nodes", "10000"]
[[bots]]
name = "deep"
builtin = "alphabeta"
args = ["--nodes", "40000"]
`

// TestSlurm runs the scripts of configs/cluster on a real one-node Slurm
// cluster on localhost (.ci/slurm/up.sh): slurm-submit.sh refuses more
// slices than the cluster's MaxArraySize before submitting anything, then
// submits a tournament as an array of 4 slices, 2 at a time, and the merge
// as a dependent job; one task is cancelled mid-run, so the merge fails
// naming that slice; the task is resubmitted alone, keeping the first
// attempt's log, and the merge run again. Every game of the schedule must
// be in the merged journal exactly once, the reports written, and the
// games the same as an unsharded run's but for their timing. Then the
// same tournament is played by workers, a Slurm array of two tasks
// (slurm-workers.sbatch), against a coordinator on this machine: the
// same games again.
func TestSlurm(t *testing.T) {
	if os.Getenv(slurmEnv) == "" {
		t.Skipf("set %s=1 to run against a one-node Slurm cluster on localhost", slurmEnv)
	}
	for _, tool := range []string{"sbatch", "scancel", "squeue", "scontrol", "sinfo", "munged", "slurmctld", "slurmd"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s=1 but %s is not installed (apt-get install slurm-wlm munge): %v", slurmEnv, tool, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	began := time.Now()
	root := t.TempDir()
	repo, _ := filepath.Abs(filepath.Join("..", ".."))
	cluster := filepath.Join(root, "cluster")
	down := func() ([]byte, error) {
		return exec.Command(filepath.Join(repo, ".ci", "slurm", "down.sh"), cluster).CombinedOutput()
	}
	if out, err := exec.CommandContext(ctx, filepath.Join(repo, ".ci", "slurm", "up.sh"), cluster).CombinedOutput(); err != nil {
		down()
		t.Fatalf("up.sh: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := down(); err != nil {
			t.Errorf("down.sh: %v\n%s", err, out)
		}
	})
	t.Logf("cluster up in %v", time.Since(began).Round(time.Millisecond))

	exe := buildArena(t)
	config := filepath.Join(root, "slurm.toml")
	if err := os.WriteFile(config, []byte(slurmConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(root, "results")
	scripts := filepath.Join(repo, "configs", "cluster")
	env := append(os.Environ(), "SLURM_CONF="+filepath.Join(cluster, "slurm.conf"), "ARENA="+exe)
	command := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %q: %v\n%s", name, args, err, stderr.String())
		}
		return strings.TrimSpace(string(out))
	}
	// wait waits until a job (or array task) has ended and returns its
	// state and exit code, e.g. "COMPLETED 0:0".
	wait := func(job string) string {
		t.Helper()
		for command("squeue", "-h", "-j", job, "-o", "%T") != "" {
			if ctx.Err() != nil {
				t.Fatalf("job %s still in the queue: %v", job, ctx.Err())
			}
			time.Sleep(100 * time.Millisecond)
		}
		fields := map[string]string{}
		for _, f := range strings.Fields(command("scontrol", "-o", "show", "job", job)) {
			k, v, _ := strings.Cut(f, "=")
			fields[k] = v
		}
		return fields["JobState"] + " " + fields["ExitCode"]
	}
	logOf := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(results, name))
		return string(data)
	}

	// More slices than MaxArraySize (1001 by default): refused, nothing
	// submitted.
	tooMany := exec.CommandContext(ctx, filepath.Join(scripts, "slurm-submit.sh"), config, results, "1002")
	tooMany.Env = env
	if out, err := tooMany.CombinedOutput(); err == nil || !strings.Contains(string(out), "MaxArraySize is 1001") {
		t.Errorf("slurm-submit.sh with 1002 slices: %v\n%s", err, out)
	}
	if queued := command("squeue", "-h", "-o", "%i"); queued != "" {
		t.Errorf("jobs submitted for 1002 slices: %s", queued)
	}

	submitted := command(filepath.Join(scripts, "slurm-submit.sh"), "-k", "2", config, results, "4")
	m := regexp.MustCompile(`^array job (\d+) .*; job (\d+) merges`).FindStringSubmatch(submitted)
	if m == nil {
		t.Fatalf("slurm-submit.sh said %q", submitted)
	}
	array, merge := m[1], m[2]
	if show := command("scontrol", "-o", "show", "job", array); !strings.Contains(show, "ArrayTaskThrottle=2") {
		t.Errorf("-k 2 did not throttle the array to 2 tasks at a time:\n%s", show)
	}
	mergeLog := "slurm-merge-" + merge + ".log"
	firstLog := "slurm-slice-2-" + array + ".log"

	// Cancel task 2 once it has recorded a game.
	journalPath := filepath.Join(results, "slice-2", journal.File)
	for {
		if data, _ := os.ReadFile(journalPath); bytes.Count(data, []byte("\n")) >= 1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("slice 2 recorded no game: %v\n%s", ctx.Err(), logOf(firstLog))
		}
		time.Sleep(20 * time.Millisecond)
	}
	command("scancel", array+"_2")
	if state := wait(array + "_2"); !strings.HasPrefix(state, "CANCELLED") {
		t.Errorf("task 2 ended %s after scancel, want CANCELLED", state)
	}
	recs, err := journal.Read(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) >= slurmPerSlice {
		t.Fatalf("slice 2 finished its %d games before it was cancelled; make the games longer", slurmPerSlice)
	}
	t.Logf("task 2 cancelled with %d of %d games recorded", len(recs), slurmPerSlice)

	// The merge runs once the array has ended, and fails on the gap.
	if state := wait(merge); state != "FAILED 1:0" {
		t.Errorf("merge with slice 2 incomplete ended %s, want FAILED 1:0\n%s", state, logOf(mergeLog))
	}
	if want := fmt.Sprintf("slice 2/4: %d of %d games missing", slurmPerSlice-len(recs), slurmPerSlice); !strings.Contains(logOf(mergeLog), want) {
		t.Errorf("merge log %s does not say %q:\n%s", mergeLog, want, logOf(mergeLog))
	}
	for _, task := range []string{"_0", "_1", "_3"} {
		if state := wait(array + task); state != "COMPLETED 0:0" {
			t.Errorf("task %s ended %s", task, state)
		}
	}

	// Task 2 alone, then the merge again, as slurm-submit.sh says.
	env = append(env, "ARENA_CONFIG="+config, "ARENA_OUT="+results, "ARENA_SLICES=4")
	lines := strings.Split(submitted, "\n")
	again := command("sh", "-c", "set -e; cd /; "+strings.Replace(strings.TrimPrefix(lines[1], "to play slice I again: "), "--array=I", "--array=2 --parsable", 1))
	again, _, _ = strings.Cut(again, ";")
	merge = command("sh", "-c", "set -e; cd /; "+strings.Replace(strings.TrimPrefix(lines[2], "then merge again: "), "JOBID", again+" --parsable", 1))
	merge, _, _ = strings.Cut(merge, ";")
	againLog, mergeLog := "slurm-slice-2-"+again+".log", "slurm-merge-"+merge+".log"
	if state := wait(merge); state != "COMPLETED 0:0" {
		t.Fatalf("merge ended %s\n%s\nslice 2:\n%s", state, logOf(mergeLog), logOf(againLog))
	}
	if logOf(firstLog) == "" || !strings.Contains(logOf(againLog), "games") {
		t.Errorf("slice 2's logs: the first attempt's %s:\n%s\nthe second's %s:\n%s", firstLog, logOf(firstLog), againLog, logOf(againLog))
	}
	t.Logf("array, resubmission and merges done %v after start", time.Since(began).Round(time.Millisecond))

	merged := filepath.Join(results, "merged")
	recs, err = journal.Read(filepath.Join(merged, journal.File))
	if err != nil {
		t.Fatalf("merged journal: %v", err)
	}
	ids := map[int]int{}
	for _, r := range recs {
		ids[r.ID]++
	}
	for id := 1; id <= slurmGames; id++ {
		if ids[id] != 1 {
			t.Errorf("game %d is %d times in the merged journal, want once", id, ids[id])
		}
	}
	if len(recs) != slurmGames {
		t.Errorf("merged journal has %d games, want %d", len(recs), slurmGames)
	}
	for _, f := range []string{journal.ManifestFile, "games.pgn", "report.md", "report.html", "report.json", "standings.csv"} {
		if fi, err := os.Stat(filepath.Join(merged, f)); err != nil || fi.Size() == 0 {
			t.Errorf("merged directory: %s not written (%v)", f, err)
		}
	}

	// The same tournament unsharded, on this machine.
	whole := filepath.Join(root, "whole")
	if out, err := exec.CommandContext(ctx, exe, "run", "--quiet", "--out", whole, config).CombinedOutput(); err != nil {
		t.Fatalf("unsharded run: %v\n%s", err, out)
	}
	got, want := untimedJournal(t, merged), untimedJournal(t, whole)
	if len(got) != len(want) {
		t.Fatalf("merged journal has %d games, the unsharded one %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			a, _ := json.Marshal(got[i])
			b, _ := json.Marshal(want[i])
			t.Errorf("game %d differs from the unsharded run's:\n%s\n%s", i+1, a, b)
		}
	}
	t.Logf("Slurm cycle took %v", time.Since(began).Round(time.Millisecond))

	// Workers: a Slurm array against a coordinator on this machine.
	byWorkers := filepath.Join(root, "workers")
	coord := start(t, exe, "coordinator", "run", "--quiet", "--out", byWorkers, "--workers", "listen://127.0.0.1:0", config)
	url := workerURL(t, byWorkers)
	env = append(env, "ARENA_NATS="+url)
	workers := command("sbatch", "--parsable", "--array=0-1", "--output="+filepath.Join(results, "slurm-worker-%a-%A.log"), filepath.Join(scripts, "slurm-workers.sbatch"))
	workers, _, _ = strings.Cut(workers, ";")
	if code := coord.wait(t, 3*time.Minute); code != 0 {
		t.Fatalf("coordinator exit status %d:\n%s", code, coord.stderr)
	}
	for _, task := range []string{"_0", "_1"} {
		if state := wait(workers + task); state != "COMPLETED 0:0" {
			t.Errorf("worker task %s ended %s:\n%s", task, state, logOf("slurm-worker"+strings.ReplaceAll(task, "_", "-")+"-"+workers+".log"))
		}
	}
	if got := untimedJournal(t, byWorkers); !reflect.DeepEqual(got, want) {
		t.Errorf("the workers' journal differs from the unsharded run's")
	}
	if log, _ := os.ReadFile(filepath.Join(byWorkers, "arena.log")); !bytes.Contains(log, []byte("slurm-"+workers+"-0 ready")) {
		t.Errorf("the coordinator's log names no Slurm worker:\n%s", log)
	}
	t.Logf("Slurm cycle and workers took %v", time.Since(began).Round(time.Millisecond))
}

// untimedJournal reads the journal of dir as generic JSON, ordered by game
// ID, without the fields that depend on timing: when a game started, how
// long it and each move took, and a move's search time.
func untimedJournal(t *testing.T, dir string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for line := range bytes.Lines(data) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		delete(rec, "start")
		delete(rec, "duration_ms")
		moves, _ := rec["moves"].([]any)
		for _, m := range moves {
			mv, _ := m.(map[string]any)
			delete(mv, "ms")
			if info, ok := mv["info"].(map[string]any); ok {
				delete(info, "time_ms")
			}
		}
		out = append(out, rec)
	}
	byID := make([]map[string]any, len(out))
	for _, rec := range out {
		id, _ := rec["id"].(float64)
		if i := int(id) - 1; i >= 0 && i < len(byID) && byID[i] == nil {
			byID[i] = rec
		} else {
			t.Fatalf("%s: game id %v out of place", dir, rec["id"])
		}
	}
	return byID
}
