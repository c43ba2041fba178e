package tournament

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrMerge is wrapped by errors about directories that cannot be merged.
var ErrMerge = errors.New("cannot merge")

// ErrIncomplete is wrapped by the error Merge returns when games of the
// schedule are in none of the inputs (and MergeOptions.Partial is not set).
var ErrIncomplete = errors.New("incomplete tournament")

// MergeOptions adjusts Merge.
type MergeOptions struct {
	// Partial writes the merged directory even when games are missing;
	// running the tournament on it later plays them.
	Partial bool
}

// MergeSummary is what Merge found.
type MergeSummary struct {
	Manifest *Manifest // of the merged directory: the whole tournament
	Games    int       // games in the merged journal
	// Missing lists, for every slice that lacks games, how many; it is
	// empty when the merged tournament is complete.
	Missing []SliceMissing
}

// SliceMissing counts the games of one slice that no input holds.
type SliceMissing struct {
	Shard   Shard
	Missing int  // games of the slice in no input
	Games   int  // games of the slice
	Given   bool // a directory of this slice was among the inputs
}

// String describes the slice's gap, e.g. "slice 2/4: 3 of 12 games missing".
func (s SliceMissing) String() string {
	if !s.Given {
		return fmt.Sprintf("slice %s: not given (%d games)", s.Shard, s.Games)
	}
	return fmt.Sprintf("slice %s: %d of %d games missing", s.Shard, s.Missing, s.Games)
}

// MissingText describes the missing games in one line, "" when none are.
func (s *MergeSummary) MissingText() string {
	if len(s.Missing) == 0 {
		return ""
	}
	n := 0
	parts := make([]string, len(s.Missing))
	for i, m := range s.Missing {
		n += m.Missing
		parts[i] = m.String()
	}
	return fmt.Sprintf("%d of %d games are missing: %s", n, s.Manifest.Games, strings.Join(parts, "; "))
}

// mergeInput is one slice directory given to Merge.
type mergeInput struct {
	dir  string
	m    *Manifest
	recs []Record
}

// Merge combines the output directories of the slices of one tournament
// (each played with Options.Shard) into out, an ordinary output directory
// of the whole tournament: manifest, journal sorted by game ID, PGN/PDN and
// every report. The inputs must hold slices of the same schedule with the
// same slice count, each slice at most once, and only games of their own
// slice. out may be new, empty, or the output directory of the whole
// tournament (an earlier merge, or a run on one): the games it holds are
// kept, and a game both in it and in an input must be recorded
// identically. The result depends only on the games, not on the order of
// the inputs: merging the same games again gives the same bytes.
//
// When games of the schedule are in no input, Merge writes nothing and
// returns the summary with an error wrapping ErrIncomplete, unless
// opts.Partial is set.
func Merge(ctx context.Context, out string, inputs []string, opts MergeOptions) (*MergeSummary, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("%w: no slice directories given", ErrMerge)
	}
	ins, err := readMergeInputs(out, inputs)
	if err != nil {
		return nil, err
	}
	first := ins[0].m
	sched, err := first.Schedule(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ins[0].dir, err)
	}

	merged := *first
	merged.Shard, merged.Games, merged.Version = nil, sched.Len(), manifestVersion
	for _, in := range ins {
		if in.m.Created.Before(merged.Created) {
			merged.Created = in.m.Created
		}
	}
	type origin struct {
		i   int // index in recs
		dir string
	}
	var (
		recs []Record
		seen = map[int]origin{} // by game ID
	)
	add := func(dir string, sh *Shard, rs []Record) error {
		for i := range rs {
			if err := sched.match(&rs[i], sh); err != nil {
				return fmt.Errorf("%w: %s: %w", ErrMerge, dir, err)
			}
			if prev, dup := seen[rs[i].ID]; dup {
				if err := sameRecord(&recs[prev.i], &rs[i]); err != nil {
					return fmt.Errorf("%w: game %d is recorded differently in %s and %s: %w", ErrMerge, rs[i].ID, prev.dir, dir, err)
				}
				continue
			}
			seen[rs[i].ID] = origin{len(recs), dir}
			recs = append(recs, rs[i])
		}
		return nil
	}
	// The games out already holds, if it holds this tournament; it stays
	// locked until the merge is written.
	lock, old, oldRecs, err := readMergeOutput(out, &merged)
	if err != nil {
		return nil, err
	}
	if lock != nil {
		defer lock.Close()
	}
	if old != nil {
		if old.Created.Before(merged.Created) {
			merged.Created = old.Created
		}
		if err := add(out, nil, oldRecs); err != nil {
			return nil, err
		}
	}
	for _, in := range ins {
		if err := add(in.dir, in.m.Shard, in.recs); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(recs, func(a, b Record) int { return cmp.Compare(a.ID, b.ID) })

	sum := &MergeSummary{Manifest: &merged, Games: len(recs)}
	count := first.Shard.Count
	have := make([]int, count)
	for _, r := range recs {
		have[sliceOf(r.ID, count)]++
	}
	given := make([]bool, count)
	for _, in := range ins {
		given[in.m.Shard.Index] = true
	}
	for i := range count {
		sh := Shard{Index: i, Count: count}
		if n := sched.SliceLen(&sh); have[i] < n {
			sum.Missing = append(sum.Missing, SliceMissing{Shard: sh, Missing: n - have[i], Games: n, Given: given[i]})
		}
	}
	if len(sum.Missing) > 0 && !opts.Partial {
		return sum, fmt.Errorf("%w: %s", ErrIncomplete, sum.MissingText())
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return sum, writeMerged(out, lock, &merged, recs)
}

// readMergeInputs reads the manifests and journals of the slice
// directories, checks that they are slices of one schedule with one slice
// count, each given once, and returns them ordered by slice.
func readMergeInputs(out string, dirs []string) ([]mergeInput, error) {
	outAbs, _ := filepath.Abs(out)
	ins := make([]mergeInput, 0, len(dirs))
	for _, dir := range dirs {
		if abs, _ := filepath.Abs(dir); abs == outAbs {
			return nil, fmt.Errorf("%w: %s is both an input and the output", ErrMerge, dir)
		}
		m, recs, err := LoadDir(dir)
		if err != nil {
			return nil, err
		}
		if m.Shard == nil {
			return nil, fmt.Errorf("%w: %s holds a whole tournament, not a slice of one (give it as --out to merge the slices into it)", ErrMerge, dir)
		}
		ins = append(ins, mergeInput{dir: dir, m: m, recs: recs})
	}
	slices.SortStableFunc(ins, func(a, b mergeInput) int {
		return cmp.Or(cmp.Compare(a.m.Shard.Count, b.m.Shard.Count), cmp.Compare(a.m.Shard.Index, b.m.Shard.Index), strings.Compare(a.dir, b.dir))
	})
	first := ins[0]
	for i, in := range ins[1:] {
		switch {
		case in.m.Fingerprint != first.m.Fingerprint:
			return nil, fmt.Errorf("%w: %s and %s hold slices of different tournaments (schedule fingerprints %.12s and %.12s)",
				ErrMerge, first.dir, in.dir, first.m.Fingerprint, in.m.Fingerprint)
		case in.m.Shard.Count != first.m.Shard.Count:
			return nil, fmt.Errorf("%w: %s holds slice %s but %s holds slice %s: the slices must come from one split (the same N of --shard I/N)",
				ErrMerge, first.dir, first.m.Shard, in.dir, in.m.Shard)
		case *in.m.Shard == *ins[i].m.Shard:
			return nil, fmt.Errorf("%w: slice %s is given twice: %s and %s", ErrMerge, in.m.Shard, ins[i].dir, in.dir)
		}
	}
	return ins, nil
}

// readMergeOutput checks that out may receive the merge of the tournament
// m. When out exists it locks it and returns the lock with the manifest
// and games out already holds (nil when it holds no tournament).
func readMergeOutput(out string, m *Manifest) (lock *os.File, old *Manifest, recs []Record, err error) {
	entries, err := os.ReadDir(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("output directory: %w", err)
	}
	tournament, stranger := false, ""
	for _, e := range entries {
		switch {
		case e.Name() == ManifestFile:
			tournament = true
		case !ownFiles[e.Name()] && stranger == "":
			stranger = e.Name()
		}
	}
	if !tournament && stranger != "" {
		return nil, nil, nil, fmt.Errorf("%w: %s is not empty and holds no tournament (it holds %s); merge into a new or empty directory", ErrMerge, out, stranger)
	}
	if lock, err = lockDir(out); err != nil {
		return nil, nil, nil, err
	}
	if !tournament {
		return lock, nil, nil, nil
	}
	if old, recs, err = LoadDir(out); err == nil {
		if err = old.Compatible(m); err != nil {
			err = fmt.Errorf("%w: %s: %w; merge into a new or empty directory", ErrMerge, out, err)
		}
	}
	if err != nil {
		lock.Close()
		return nil, nil, nil, err
	}
	return lock, old, recs, nil
}

// sameRecord reports whether two records of a game are equal as the
// journal stores them.
func sameRecord(a, b *Record) error {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	if !bytes.Equal(x, y) {
		return errors.New("the records differ")
	}
	return nil
}

// writeMerged writes the merged tournament into out under its lock (taken
// here when lock is nil): manifest, journal, PGN/PDN and reports, each
// file replaced atomically.
func writeMerged(out string, lock *os.File, m *Manifest, recs []Record) error {
	if err := os.MkdirAll(filepath.Join(out, "logs"), 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	if lock == nil {
		var err error
		if lock, err = lockDir(out); err != nil {
			return err
		}
		defer lock.Close()
	}
	if err := m.Write(out); err != nil {
		return err
	}
	if err := writeJournalFile(filepath.Join(out, JournalFile), recs); err != nil {
		return err
	}
	if err := RewriteGameText(out, m.Game, recs, m.Name); err != nil {
		return err
	}
	_, err := WriteReports(out, m, recs)
	return err
}

// writeJournalFile replaces the journal at path with recs, one line each,
// synced before it takes the old file's place.
func writeJournalFile(path string, recs []Record) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	defer os.Remove(tmp)
	w := bufio.NewWriter(f)
	for i := range recs {
		line, err := json.Marshal(&recs[i])
		if err != nil {
			f.Close()
			return fmt.Errorf("write journal: game %d: %w", recs[i].ID, err)
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	err = errors.Join(w.Flush(), f.Sync())
	if err := errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	return syncDir(filepath.Dir(path))
}
