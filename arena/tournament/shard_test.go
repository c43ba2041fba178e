package tournament_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/tournament"
)

// shardBody is a round-robin of three bots on two random openings: 3
// pairings × 2 openings = 6 colour-reversed pairs, 12 games.
const shardBody = `
name = "sharded"
seed = 4
concurrency = 2
[game]
name = "cheversi"
[openings]
plies = 2
count = 2
[time]
move = "2s"
margin = "1s"
`

func shardConfig(t *testing.T) string {
	t.Helper()
	return writeConfig(t, shardBody, "shard", testBot{"a", "first"}, testBot{"b", "random:1"}, testBot{"c", "legal"})
}

func TestShardedRuns(t *testing.T) {
	path := shardConfig(t)
	root := t.TempDir()
	const total, n = 12, 4
	owner := map[int]int{}
	for i := range n {
		sh := &schedule.Shard{Index: i, Count: n}
		cfg := loadConfig(t, path)
		cfg.Output = root
		// Without --out, slice I goes to OUTPUT/slice-I.
		out := filepath.Join(root, "slice-"+sh.String()[:1])
		sum, err := tournament.Run(context.Background(), cfg, tournament.Options{Shard: sh})
		if err != nil {
			t.Fatalf("slice %s: %v", sh, err)
		}
		if sum.Dir != out {
			t.Errorf("slice %s went to %s, want %s", sh, sum.Dir, out)
		}
		// Pairs 0..5 go to slices 0,1,2,3,0,1: 4, 4, 2 and 2 games.
		want := []int{4, 4, 2, 2}[i]
		if sum.Total != want || sum.Recorded != want || !sum.Complete {
			t.Errorf("slice %s: total %d, recorded %d, complete %v; want %d games", sh, sum.Total, sum.Recorded, sum.Complete, want)
		}
		m, err := journal.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Shard == nil || *m.Shard != *sh || m.Games != want {
			t.Errorf("slice %s: manifest shard %v, games %d", sh, m.Shard, m.Games)
		}
		for _, r := range readRecords(t, out) {
			if prev, dup := owner[r.ID]; dup {
				t.Errorf("game %d played in slices %d and %d", r.ID, prev, i)
			}
			owner[r.ID] = i
			if (r.ID-1)/2%n != i {
				t.Errorf("slice %s played game %d", sh, r.ID)
			}
		}
	}
	for id := 1; id <= total; id++ {
		if _, ok := owner[id]; !ok {
			t.Errorf("game %d played in no slice", id)
		}
	}
}

func TestShardRefusals(t *testing.T) {
	path := shardConfig(t)
	root := t.TempDir()
	run := func(dir string, sh *schedule.Shard) error {
		_, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: filepath.Join(root, dir), Shard: sh})
		return err
	}
	if err := run("slice1", &schedule.Shard{Index: 1, Count: 4}); err != nil {
		t.Fatal(err)
	}
	if err := run("whole", nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir  string
		sh   *schedule.Shard
		want string
	}{
		{"slice1", &schedule.Shard{Index: 2, Count: 4}, "it holds slice 1/4, not slice 2/4"},
		{"slice1", &schedule.Shard{Index: 1, Count: 3}, "it holds slice 1/4, not slice 1/3"},
		{"slice1", nil, "it holds slice 1/4, not the whole tournament (resume it with --shard 1/4)"},
		{"whole", &schedule.Shard{Index: 0, Count: 4}, "it holds the whole tournament, not slice 0/4"},
	} {
		err := run(c.dir, c.sh)
		if !errors.Is(err, journal.ErrOtherShard) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with shard %v: err = %v; want ErrOtherShard saying %q", c.dir, c.sh, err, c.want)
		}
	}
	// The same slice resumes (and finds nothing to play).
	if err := run("slice1", &schedule.Shard{Index: 1, Count: 4}); err != nil {
		t.Errorf("resume slice 1/4: %v", err)
	}

	// A journal holding a game of another slice is refused.
	whole, err := os.ReadFile(filepath.Join(root, "whole", journal.File))
	if err != nil {
		t.Fatal(err)
	}
	var foreign []byte
	for line := range bytes.Lines(whole) {
		if bytes.HasPrefix(line, []byte(`{"id":1,`)) {
			foreign = line
		}
	}
	f, err := os.OpenFile(filepath.Join(root, "slice1", journal.File), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(foreign)
	f.Close()
	err = run("slice1", &schedule.Shard{Index: 1, Count: 4})
	if !errors.Is(err, journal.ErrOtherShard) || !strings.Contains(err.Error(), "game 1, which belongs to slice 0/4") {
		t.Errorf("journal with a game of slice 0: err = %v; want ErrOtherShard naming game 1", err)
	}

	// A malformed shard, and a shard of a sequential test.
	if err := run("bad", &schedule.Shard{Index: 4, Count: 4}); !errors.Is(err, schedule.ErrShard) {
		t.Errorf("shard 4/4: err = %v, want ErrShard", err)
	}
	sprt := writeConfig(t, shardBody+"\n[sprt]\nelo0 = 0\nelo1 = 10\n", "shard", testBot{"a", "first"}, testBot{"b", "random:1"})
	_, err = tournament.Run(context.Background(), loadConfig(t, sprt), tournament.Options{Out: filepath.Join(root, "sprt"), Shard: &schedule.Shard{Index: 0, Count: 2}})
	if !errors.Is(err, schedule.ErrShard) || !strings.Contains(err.Error(), "[sprt]") {
		t.Errorf("shard with [sprt]: err = %v, want ErrShard naming [sprt]", err)
	}
	if _, err := os.Stat(filepath.Join(root, "sprt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused run made its output directory (%v)", err)
	}
}

// v1Dir is an output directory written with a version 1 manifest, which
// the journal's tests share.
var v1Dir = filepath.Join("..", "journal", "testdata", "v1")

// TestResumeVersion1 resumes a directory written with a version 1
// manifest (v1Dir, a tournament of two built-in bots): the same
// bot names and openings give the same schedule, so the games the journal
// lacks are played and the manifest is kept as it is.
func TestResumeVersion1(t *testing.T) {
	out := t.TempDir()
	manifest, err := os.ReadFile(filepath.Join(v1Dir, journal.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	journalData, err := os.ReadFile(filepath.Join(v1Dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	lines := slices.Collect(bytes.Lines(journalData))
	kept := bytes.Join(lines[:5], nil)
	os.WriteFile(filepath.Join(out, journal.ManifestFile), manifest, 0o644)
	os.WriteFile(filepath.Join(out, journal.File), kept, 0o644)

	// v1Dir/v1.toml with test bots of the same names.
	body := "name = \"v1\"\nseed = 5\n[game]\nname = \"cheversi\"\npreset = \"cheversi\"\n[format]\nrounds = 2\n" +
		"[openings]\nplies = 2\ncount = 2\n[time]\nmove = \"2s\"\n"
	path := writeConfig(t, body, "v1", testBot{"random", "random:3"}, testBot{"greedy", "first"})
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if sum.Played != 3 || !sum.Complete {
		t.Errorf("resume played %d games (complete %v), want the 3 missing", sum.Played, sum.Complete)
	}
	checkComplete(t, readRecords(t, out), 8)
	if after, _ := os.ReadFile(filepath.Join(out, journal.ManifestFile)); !bytes.Equal(after, manifest) {
		t.Errorf("the manifest changed:\n%s", after)
	}

	// Another schedule is still refused.
	changed := writeConfig(t, strings.Replace(body, "rounds = 2", "rounds = 3", 1), "v1", testBot{"random", "random:3"}, testBot{"greedy", "first"})
	_, err = tournament.Run(context.Background(), loadConfig(t, changed), tournament.Options{Out: out})
	if !errors.Is(err, journal.ErrScheduleChanged) || !strings.Contains(err.Error(), "number of rounds was 2") {
		t.Errorf("resume with 3 rounds: err = %v, want ErrScheduleChanged naming the rounds", err)
	}
}
