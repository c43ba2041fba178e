package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/sweep"
)

// sweepConfig writes a sweep of komi values played by expert against
// itself at 100 nodes a move, whose games are the same on any run, into
// out.
func sweepConfig(t *testing.T, out string, openings int) string {
	t.Helper()
	return writeTemp(t, "sweep.toml", fmt.Sprintf(`name = "komi"
output = %q
seed = 9
concurrency = 2

[game]
name = "cheversi"
preset = "cheversi"

[openings]
plies = 4
count = %d

[time]
move = "30s"
margin = "10s"
nodes = 100

[[bots]]
name = "e1"
builtin = "expert"
args = ["--seed", "1"]

[[bots]]
name = "e2"
builtin = "expert"
args = ["--seed", "2"]

[sweep]
precision = 0.05
batch = 50

[sweep.grid]
komi = [0, 0.5, 3, 8]
`, out, openings))
}

// sweepOpenings is the length of the test sweeps: fewer with -short.
func sweepOpenings() int {
	if testing.Short() {
		return 150
	}
	return 400
}

// readStatus reads a sweep's sweep.json.
func readStatus(t *testing.T, dir string) *sweep.Status {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st sweep.Status
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return &st
}

// sameRace compares two sweeps' results: every variant's race, games and
// metrics (not the directories they are in).
func sameRace(t *testing.T, what string, got, want *sweep.Status) {
	t.Helper()
	if got.Looks != want.Looks || got.Done != want.Done || got.Key != want.Key || len(got.Variants) != len(want.Variants) {
		t.Fatalf("%s: %d looks (done %v, key %.12s, %d variants), want %d (done %v, key %.12s, %d variants)", what,
			got.Looks, got.Done, got.Key, len(got.Variants), want.Looks, want.Done, want.Key, len(want.Variants))
	}
	for i := range got.Variants {
		g, w := got.Variants[i], want.Variants[i]
		g.Dir, w.Dir = "", ""
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if !bytes.Equal(gj, wj) {
			t.Errorf("%s: variant %s differs:\n got %s\nwant %s", what, w.Name, gj, wj)
		}
	}
}

// sweepReference plays the test sweep once, uninterrupted, and returns its
// status.
func sweepReference(t *testing.T) *sweep.Status {
	t.Helper()
	out := filepath.Join(t.TempDir(), "ref")
	code, stdout, stderr := runArena(t, "sweep", "--quiet", sweepConfig(t, out, sweepOpenings()))
	if code != 0 {
		t.Fatalf("arena sweep: exit %d\n%s", code, stderr)
	}
	st := readStatus(t, out)
	if !st.Done || len(st.Variants) != 4 {
		t.Fatalf("the reference sweep: done %v, %d variants", st.Done, len(st.Variants))
	}
	if !strings.Contains(stdout, "Sweep komi") || !strings.Contains(stdout, "komi=0.5") {
		t.Errorf("no race on stdout:\n%s", stdout)
	}
	// Black wins cheversi under perfect play, and more so given points:
	// every variant says it, beside the bots' scores.
	for _, v := range st.Variants {
		if v.Proved == nil || v.Proved.Result != "black wins" {
			t.Errorf("%s: proved %+v, want black wins", v.Name, v.Proved)
		}
	}
	if !strings.Contains(stdout, "Perfect play") || !strings.Contains(stdout, "black wins") {
		t.Errorf("the race on stdout does not say what is proved of each variant:\n%s", stdout)
	}
	return st
}

// armGames counts the games in the journals under a sweep's output.
func armGames(out string) int {
	n := 0
	paths, _ := filepath.Glob(filepath.Join(out, "arms", "*", "*", journal.File))
	more, _ := filepath.Glob(filepath.Join(out, "arms", "*", "*", "slice-*", journal.File))
	for _, p := range append(paths, more...) {
		data, _ := os.ReadFile(p)
		n += bytes.Count(data, []byte("\n"))
	}
	return n
}

// TestSweepKillAndResume kills a sweep (kill -9, bots and all) in the
// middle, resumes it, and finds the same race as a sweep played in one go:
// the same games, the same looks, the same decisions.
func TestSweepKillAndResume(t *testing.T) {
	ref := sweepReference(t)
	out := filepath.Join(t.TempDir(), "killed")
	path := sweepConfig(t, out, sweepOpenings())
	cmd := arenaCommand(t, "sweep", "--quiet", path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for armGames(out) < 120 {
		if time.Now().After(deadline) {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
			t.Fatalf("no 120 games within 2 minutes:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	killedAt := armGames(out)
	code, _, errText := runArena(t, "sweep", "--quiet", path)
	if code != 0 {
		t.Fatalf("resumed sweep: exit %d\n%s", code, errText)
	}
	t.Logf("killed after %d games, resumed to the end", killedAt)
	got := readStatus(t, out)
	sameRace(t, "killed and resumed", got, ref)

	// The race replayed from the games' results alone is the same.
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := sweep.FromConfig(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []sweep.Recorded
	for _, v := range got.Variants {
		recs, err := journal.Read(filepath.Join(v.Dir, journal.File))
		if err != nil {
			t.Fatal(err)
		}
		points := make([]float64, v.Arm.Openings)
		for _, r := range recs {
			if r.ID <= v.Arm.Openings {
				points[r.ID-1] = map[string]float64{"1-0": 1, "1/2-1/2": 0.5, "0-1": 0}[r.Result] // White moves first
			}
		}
		recorded = append(recorded, sweep.Recorded{Points: points, Metrics: v.Metrics})
	}
	replayed, err := sweep.Replay(context.Background(), sc, recorded)
	if err != nil {
		t.Fatal(err)
	}
	sameRace(t, "replayed from the results", replayed, ref)
}

// TestSweepShards plays the sweep in two slices at once, as the two tasks
// of an array job running configs/cluster/slurm-sweep.sbatch, sharing the
// output directory as a cluster's jobs share a file system: each waits
// for the other's games at every look, and both reach the race of the
// sweep played in one go; --report reads it back without playing.
func TestSweepShards(t *testing.T) {
	ref := sweepReference(t)
	out := filepath.Join(t.TempDir(), "sliced")
	config := sweepConfig(t, filepath.Join(t.TempDir(), "not-this"), sweepOpenings())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	var errs []*bytes.Buffer
	for i := range 2 {
		cmd := exec.Command("bash", filepath.Join("..", "..", "configs", "cluster", "slurm-sweep.sbatch"))
		cmd.Env = append(os.Environ(), asArenaEnv+"=1", "ARENA="+exe, "ARENA_CONFIG="+config, "ARENA_OUT="+out,
			"ARENA_SLICES=2", fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, errs = append(cmds, cmd), append(errs, &stderr)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("slice %d: %v\n%s", i, err, errs[i])
		}
	}
	sameRace(t, "in two slices", readStatus(t, out), ref)
	os.Remove(filepath.Join(out, "sweep.json"))
	code, _, stderr := runArena(t, "sweep", "--report", "--quiet", "--set", "output="+out, config)
	if code != 0 {
		t.Fatalf("arena sweep --report: exit %d\n%s", code, stderr)
	}
	sameRace(t, "read back", readStatus(t, out), ref)
	// Going on without slices would play their games again.
	code, _, stderr = runArena(t, "sweep", "--quiet", "--set", "output="+out, config)
	if code == 0 || !strings.Contains(stderr, "was played in slices") {
		t.Errorf("the sliced sweep without --shard: exit %d\n%s", code, stderr)
	}
}

func TestSweepErrors(t *testing.T) {
	dir := t.TempDir()
	base := `name = "bad"
output = "out"
[game]
name = "cheversi"
[openings]
plies = 2
count = 20
[[bots]]
name = "a"
builtin = "random"
[[bots]]
name = "b"
builtin = "random"
`
	for _, c := range []struct {
		name, sweepTOML, want string
	}{
		{"unknown key", "[sweep]\nprecison = 0.1\n", "t.toml:15: sweep.precison: unknown key"},
		{"bad precision", "[sweep]\nprecision = 2\n", "t.toml:15: sweep.precision: want a number strictly between 0 and 1, got 2"},
		{"bad komi", "[sweep]\n[sweep.grid]\nkomi = [0, 0.25]\n", "variant 2 (komi=0.25): bad rules: komi = \"0.25\": want a whole or half number of points"},
		{"empty grid key", "[sweep]\n[sweep.grid]\nkomi = []\n", "t.toml:16: sweep.grid.komi: want a list of values to try"},
		{"same rules twice", "[sweep]\n[[sweep.variants]]\n[[sweep.variants]]\ntouch = \"opponent\"\n", "variants 1 (base) and 2 (touch=opponent) have the same rules"},
		{"too few openings", "[sweep]\nbatch = 50\n", "sweep.min_openings: 50 is more than the 20 openings a variant plays"},
		{"no sweep", "", "has no [sweep] table: it is a tournament"},
		{"rounds", "[format]\nrounds = 2\n[sweep]\n", "format.rounds: a sweep plays one round"},
		{"three bots", "[[bots]]\nname = \"c\"\nbuiltin = \"random\"\n[sweep]\n", "a sweep's games are between two bots"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, "t.toml")
			if err := os.WriteFile(path, []byte(base+c.sweepTOML), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runArena(t, "sweep", "--quiet", path)
			if code == 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, c.want)
			}
		})
	}
	// arena run refuses a sweep.
	path := filepath.Join(dir, "sweep.toml")
	os.WriteFile(path, []byte(base+"[sweep]\n"), 0o644)
	if code, _, stderr := runArena(t, "run", path); code != 2 || !strings.Contains(stderr, "arena sweep") {
		t.Errorf("arena run of a sweep: exit %d\n%s", code, stderr)
	}
}
