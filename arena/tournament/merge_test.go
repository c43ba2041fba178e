package tournament_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/tournament"
)

// playSlices plays the n slices of the configuration at path, slice i
// into root/sI, and returns the directories.
func playSlices(t *testing.T, path, root string, n int) []string {
	t.Helper()
	dirs := make([]string, n)
	for i := range n {
		dirs[i] = playSlice(t, path, filepath.Join(root, "s"+strconv.Itoa(i)), i, n)
	}
	return dirs
}

// playSlice plays slice i/n of the configuration at path into dir.
func playSlice(t *testing.T, path, dir string, i, n int) string {
	t.Helper()
	opts := tournament.Options{Out: dir, Shard: &schedule.Shard{Index: i, Count: n}}
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), opts); err != nil {
		t.Fatalf("slice %d/%d: %v", i, n, err)
	}
	return dir
}

// dirFiles reads every regular file of a merged directory but its lock.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.Type().IsRegular() && e.Name() != ".lock" {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = data
		}
	}
	return out
}

// TestMerge plays the 4 slices of a tournament once; each subtest merges
// copies of them.
func TestMerge(t *testing.T) {
	path := shardConfig(t)
	played := playSlices(t, path, t.TempDir(), 4)
	copies := func(t *testing.T) (root string, dirs []string) {
		root = t.TempDir()
		for i, d := range played {
			dirs = append(dirs, filepath.Join(root, "s"+strconv.Itoa(i)))
			copyDir(t, d, dirs[i])
		}
		return root, dirs
	}
	t.Run("complete", func(t *testing.T) { root, dirs := copies(t); testMergeComplete(t, path, root, dirs) })
	t.Run("partial", func(t *testing.T) { root, dirs := copies(t); testMergePartial(t, path, root, dirs) })
	t.Run("refusals", func(t *testing.T) { root, dirs := copies(t); testMergeRefusals(t, path, root, dirs) })
	t.Run("openings by digest", func(t *testing.T) { root, dirs := copies(t); testMergeOpeningsDigest(t, root, dirs) })
}

// testMergeOpeningsDigest: a slice's manifest names the openings by
// digest, which its openings file must match; the merged manifest holds
// the openings themselves.
func testMergeOpeningsDigest(t *testing.T, root string, dirs []string) {
	ctx := context.Background()
	var head struct {
		Openings       json.RawMessage `json:"openings"`
		OpeningsDigest string          `json:"openings_digest"`
	}
	data, err := os.ReadFile(filepath.Join(dirs[0], journal.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &head); err != nil || head.Openings != nil || len(head.OpeningsDigest) != 64 {
		t.Fatalf("slice manifest: openings %s, digest %q (%v); want no copy of the openings and their digest", head.Openings, head.OpeningsDigest, err)
	}
	ops, err := os.ReadFile(filepath.Join(dirs[0], journal.OpeningsFile))
	if err != nil {
		t.Fatal(err)
	}
	m, err := journal.ReadManifest(dirs[0])
	if err != nil || len(m.Openings) != 2 {
		t.Fatalf("ReadManifest of a slice: %d openings, %v; want the 2 of its openings file", len(m.Openings), err)
	}

	merged := filepath.Join(root, "merged")
	if _, err := journal.Merge(ctx, merged, dirs, journal.MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	whole, err := journal.ReadManifest(merged)
	if err != nil || whole.OpeningsDigest != "" || !reflect.DeepEqual(whole.Openings, m.Openings) {
		t.Errorf("merged manifest: openings %v, digest %q, %v; want the slices' openings, held in the manifest", whole.Openings, whole.OpeningsDigest, err)
	}
	if _, err := os.Stat(filepath.Join(merged, journal.OpeningsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the merged directory has an openings file (%v)", err)
	}

	// An openings file changed behind the manifest's back is refused.
	changed := bytes.Replace(ops, []byte(`"moves":["`), []byte(`"moves":["x`), 1)
	if bytes.Equal(changed, ops) {
		t.Fatalf("no opening moves in %s", ops)
	}
	os.WriteFile(filepath.Join(dirs[0], journal.OpeningsFile), changed, 0o644)
	if _, err := journal.ReadManifest(dirs[0]); err == nil || !strings.Contains(err.Error(), "digest") {
		t.Errorf("ReadManifest with a changed openings file: %v, want its digest refused", err)
	}
	if _, err := journal.Merge(ctx, filepath.Join(root, "merged2"), dirs, journal.MergeOptions{}); err == nil || !strings.Contains(err.Error(), "digest") {
		t.Errorf("Merge with a changed openings file: %v, want its digest refused", err)
	}
}

func testMergeComplete(t *testing.T, path, root string, dirs []string) {
	ctx := context.Background()

	a := filepath.Join(root, "merged-a")
	sum, err := journal.Merge(ctx, a, dirs, journal.MergeOptions{})
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	if sum.Games != 12 || len(sum.Missing) != 0 || sum.Manifest.Games != 12 || sum.Manifest.Shard != nil {
		t.Errorf("summary: %d games, missing %v, manifest %d games shard %v; want 12 games, none missing, the whole tournament",
			sum.Games, sum.Missing, sum.Manifest.Games, sum.Manifest.Shard)
	}
	recs := readRecords(t, a)
	checkComplete(t, recs, 12)
	for i, r := range recs {
		if r.ID != i+1 {
			t.Errorf("merged journal line %d holds game %d, want the journal sorted by ID", i+1, r.ID)
		}
	}
	files := dirFiles(t, a)
	for _, f := range []string{journal.ManifestFile, journal.File} {
		if len(files[f]) == 0 {
			t.Errorf("merged directory lacks %s", f)
		}
	}

	// The standings are those of all the slices' games together.
	var all []journal.Record
	for _, d := range dirs {
		all = append(all, readRecords(t, d)...)
	}
	m, _ := journal.ReadManifest(a)
	if got, want := journal.Standings(recs, m.Bots), journal.Standings(all, m.Bots); !reflect.DeepEqual(got, want) {
		t.Errorf("merged standings %+v, want %+v", got, want)
	}

	// Another order of the inputs, into another directory, and again into
	// the first: the same bytes.
	b := filepath.Join(root, "merged-b")
	if _, err := journal.Merge(ctx, b, []string{dirs[2], dirs[0], dirs[3], dirs[1]}, journal.MergeOptions{}); err != nil {
		t.Fatalf("Merge in another order: %v", err)
	}
	if _, err := journal.Merge(ctx, a, []string{dirs[3], dirs[1], dirs[0], dirs[2]}, journal.MergeOptions{}); err != nil {
		t.Fatalf("Merge again into %s: %v", a, err)
	}
	for name, want := range files {
		if got := dirFiles(t, b)[name]; !bytes.Equal(got, want) {
			t.Errorf("%s differs when the inputs come in another order", name)
		}
		if got := dirFiles(t, a)[name]; !bytes.Equal(got, want) {
			t.Errorf("%s differs after merging again", name)
		}
	}

	// The merged directory is an ordinary tournament: a run finds it complete.
	run, err := tournament.Run(ctx, loadConfig(t, path), tournament.Options{Out: a})
	if err != nil || !run.Complete || run.Played != 0 {
		t.Errorf("Run on the merged directory: %+v, %v; want it complete with nothing to play", run, err)
	}
}

func testMergePartial(t *testing.T, path, root string, dirs []string) {
	ctx := context.Background()

	// Slice 0 lost its last game; slice 3 is not given.
	journalPath := filepath.Join(dirs[0], journal.File)
	data, _ := os.ReadFile(journalPath)
	lines := bytes.SplitAfter(data, []byte("\n"))
	os.WriteFile(journalPath, bytes.Join(lines[:3], nil), 0o644)

	out := filepath.Join(root, "merged")
	sum, err := journal.Merge(ctx, out, dirs[:3], journal.MergeOptions{})
	if !errors.Is(err, journal.ErrIncomplete) {
		t.Fatalf("Merge with games missing: err = %v, want ErrIncomplete", err)
	}
	want := "3 of 12 games are missing: slice 0/4: 1 of 4 games missing; slice 3/4: not given (2 games)"
	if !strings.Contains(err.Error(), want) || sum == nil || sum.MissingText() != want {
		t.Errorf("Merge error %q; want it to say %q", err, want)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an incomplete merge wrote %s (%v)", out, err)
	}

	sum, err = journal.Merge(ctx, out, dirs[:3], journal.MergeOptions{Partial: true})
	if err != nil || sum.Games != 9 || sum.MissingText() != want {
		t.Fatalf("partial Merge = %+v, %v; want 9 games and %q", sum, err, want)
	}
	// Running the tournament on the merge plays what is missing.
	run, err := tournament.Run(ctx, loadConfig(t, path), tournament.Options{Out: out})
	if err != nil || run.Played != 3 || !run.Complete {
		t.Fatalf("Run on the partial merge: %+v, %v; want the 3 missing games played", run, err)
	}
	checkComplete(t, readRecords(t, out), 12)
	// Merging the same slices into it again keeps those games.
	if sum, err := journal.Merge(ctx, out, dirs[:3], journal.MergeOptions{}); err != nil || sum.Games != 12 {
		t.Errorf("Merge into the completed directory = %+v, %v; want 12 games", sum, err)
	}
	checkComplete(t, readRecords(t, out), 12)
}

func testMergeRefusals(t *testing.T, path, root string, dirs []string) {
	ctx := context.Background()

	// Slices of another schedule, of another split, and the whole tournament.
	other := writeConfig(t, strings.Replace(shardBody, "seed = 4", "seed = 5", 1), "shard",
		testBot{"a", "first"}, testBot{"b", "random:1"}, testBot{"c", "legal"})
	otherSlice := playSlice(t, other, filepath.Join(root, "other"), 1, 4)
	half := playSlice(t, path, filepath.Join(root, "half"), 1, 2)
	whole := filepath.Join(root, "whole") // a merge is a whole tournament
	if _, err := journal.Merge(ctx, whole, dirs, journal.MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	// A copy of slice 1, and slice 2 with a game of slice 0 added.
	dup := filepath.Join(root, "dup")
	copyDir(t, dirs[1], dup)
	wrong := filepath.Join(root, "wrong")
	copyDir(t, dirs[2], wrong)
	s0, _ := os.ReadFile(filepath.Join(dirs[0], journal.File))
	f, _ := os.OpenFile(filepath.Join(wrong, journal.File), os.O_WRONLY|os.O_APPEND, 0)
	f.Write(bytes.SplitAfter(s0, []byte("\n"))[0])
	f.Close()
	stranger := filepath.Join(root, "stranger")
	os.MkdirAll(stranger, 0o755)
	os.WriteFile(filepath.Join(stranger, "notes.txt"), []byte("mine"), 0o644)

	for _, c := range []struct {
		name   string
		out    string
		inputs []string
		want   string
	}{
		{"another schedule", "", []string{dirs[0], otherSlice, dirs[2], dirs[3]}, "hold slices of different tournaments"},
		{"mixed N", "", []string{dirs[0], half}, "the slices must come from one split (the same N of --shard I/N)"},
		{"duplicate slice", "", []string{dirs[0], dirs[1], dup, dirs[2], dirs[3]}, "slice 1/4 is given twice"},
		{"game in the wrong slice", "", []string{dirs[0], dirs[1], wrong, dirs[3]}, "which belongs to slice 0/4, not to slice 2/4"},
		{"whole tournament as input", "", []string{dirs[0], whole}, "holds a whole tournament, not a slice of one"},
		{"output is an input", dirs[0], dirs, "is both an input and the output"},
		{"output holds other files", stranger, dirs, "is not empty and holds no tournament (it holds notes.txt)"},
		{"output holds another tournament", otherSlice, dirs, "merge into a new or empty directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := c.out
			if out == "" {
				out = filepath.Join(t.TempDir(), "merged")
			}
			_, err := journal.Merge(ctx, out, c.inputs, journal.MergeOptions{Partial: true})
			if !errors.Is(err, journal.ErrMerge) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Merge: err = %v; want ErrMerge saying %q", err, c.want)
			}
		})
	}

	// A game recorded differently in the output and in a slice.
	out := filepath.Join(root, "merged")
	if _, err := journal.Merge(ctx, out, dirs, journal.MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	j := filepath.Join(out, journal.File)
	data, _ := os.ReadFile(j)
	os.WriteFile(j, bytes.Replace(data, []byte(`"duration_ms":`), []byte(`"duration_ms":1`), 1), 0o644)
	if _, err := journal.Merge(ctx, out, dirs, journal.MergeOptions{}); !errors.Is(err, journal.ErrMerge) || !strings.Contains(err.Error(), "game 1 is recorded differently") {
		t.Errorf("Merge over a changed game: err = %v; want ErrMerge naming game 1", err)
	}
}

// copyDir copies the regular files of a tournament directory.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range dirFiles(t, from) {
		if err := os.WriteFile(filepath.Join(to, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
