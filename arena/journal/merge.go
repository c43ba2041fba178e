package journal

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/tempfile"
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
	Shard   schedule.Shard
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
	dir string
	m   *Manifest
}

// Merge combines the output directories of the slices of one tournament
// (each played with Options.Shard) into out, an ordinary output directory
// of the whole tournament: manifest and journal sorted by game ID (its
// PGN/PDN file and reports are written from them, as for any directory:
// see packages pgn and dirreport). The inputs must hold slices of the same schedule with the
// same slice count, each slice at most once, and only games of their own
// slice. out may be new, empty, or the output directory of the whole
// tournament (an earlier merge, or a run on one): the games it holds are
// kept, and a game both in it and in an input must be recorded
// identically. The result depends only on the games, not on the order of
// the inputs: merging the same games again gives the same bytes.
//
// Merge reads the journals one game at a time: its memory does not grow
// with the number of games beyond a bit per game, nor with the number of
// slices beyond their manifests, which name the openings by digest (the
// openings are read once). Where each game is
// (which journal, where in it) is kept in a temporary file, a fixed-size
// entry per game ID, from which the games are read again in the order of
// their IDs to be written.
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
	// The slices' manifests name the openings by digest: they are read
	// once, from the first slice.
	first := ins[0].m
	if err := first.loadOpenings(ins[0].dir); err != nil {
		return nil, err
	}
	sched, err := first.Schedule(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ins[0].dir, err)
	}

	merged := mergedManifest(first, sched, ins)
	// The games out already holds, if it holds this tournament; it stays
	// locked until the merge is written.
	lock, old, err := readMergeOutput(out, &merged)
	if err != nil {
		return nil, err
	}
	if lock != nil {
		defer lock.Close()
	}
	tmpDir := out
	if lock == nil {
		// out does not exist, and is created only when the merge is
		// written: keep the index next to it meanwhile.
		tmpDir = filepath.Dir(out)
	}
	idx, err := newMergeIndex(tmpDir, first.Shard.Count)
	if err != nil {
		return nil, err
	}
	defer idx.close()
	if old != nil {
		if old.Created.Before(merged.Created) {
			merged.Created = old.Created
		}
		if err := idx.scan(sched, out, nil); err != nil {
			return nil, err
		}
	}
	for _, in := range ins {
		if err := idx.scan(sched, in.dir, in.m.Shard); err != nil {
			return nil, err
		}
	}

	sum := &MergeSummary{Manifest: &merged, Games: idx.ids.Len(), Missing: missing(sched, ins, idx.have)}
	if len(sum.Missing) > 0 && !opts.Partial {
		return sum, fmt.Errorf("%w: %s", ErrIncomplete, sum.MissingText())
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := writeMerged(ctx, out, lock, &merged, idx); err != nil {
		return nil, err
	}
	return sum, nil
}

// mergedManifest is the manifest of the whole tournament whose slices
// ins hold, first's: created when the first of them was.
func mergedManifest(first *Manifest, sched *schedule.Schedule, ins []mergeInput) Manifest {
	merged := *first
	merged.Shard, merged.Games, merged.Version = nil, sched.Len(), ManifestVersion
	merged.OpeningsDigest = "" // the whole tournament's manifest holds its openings
	for _, in := range ins {
		if in.m.Created.Before(merged.Created) {
			merged.Created = in.m.Created
		}
	}
	return merged
}

// missing counts, for every slice of sched, the games the merge lacks:
// the slice has have[i] games of its own.
func missing(sched *schedule.Schedule, ins []mergeInput, have []int) []SliceMissing {
	count := len(have)
	given := make([]bool, count)
	for _, in := range ins {
		given[in.m.Shard.Index] = true
	}
	var out []SliceMissing
	for i := range count {
		sh := schedule.Shard{Index: i, Count: count}
		if n := sched.SliceLen(&sh); have[i] < n {
			out = append(out, SliceMissing{Shard: sh, Missing: n - have[i], Games: n, Given: given[i]})
		}
	}
	return out
}

// readMergeInputs reads the manifests of the slice directories, checks
// that they are slices of one schedule with one slice count, each given
// once, and returns them ordered by slice.
func readMergeInputs(out string, dirs []string) ([]mergeInput, error) {
	outAbs, _ := filepath.Abs(out)
	ins := make([]mergeInput, 0, len(dirs))
	for _, dir := range dirs {
		if abs, _ := filepath.Abs(dir); abs == outAbs {
			return nil, fmt.Errorf("%w: %s is both an input and the output", ErrMerge, dir)
		}
		m, err := readManifestHead(dir)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a tournament output directory (it has no %s): %w", dir, ManifestFile, err)
		}
		if err != nil {
			return nil, err
		}
		if m.Shard == nil {
			return nil, fmt.Errorf("%w: %s holds a whole tournament, not a slice of one (give it as --out to merge the slices into it)", ErrMerge, dir)
		}
		ins = append(ins, mergeInput{dir: dir, m: m})
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
		case in.m.OpeningsDigest != first.m.OpeningsDigest && in.m.OpeningsDigest != "" && first.m.OpeningsDigest != "":
			return nil, fmt.Errorf("%w: %s and %s hold slices with different openings (digests %.12s and %.12s)",
				ErrMerge, first.dir, in.dir, first.m.OpeningsDigest, in.m.OpeningsDigest)
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
// of the tournament out already holds (nil when it holds none).
func readMergeOutput(out string, m *Manifest) (lock *os.File, old *Manifest, err error) {
	entries, err := os.ReadDir(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("output directory: %w", err)
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
		return nil, nil, fmt.Errorf("%w: %s is not empty and holds no tournament (it holds %s); merge into a new or empty directory", ErrMerge, out, stranger)
	}
	if lock, err = lockDir(out); err != nil {
		return nil, nil, err
	}
	if !tournament {
		return lock, nil, nil
	}
	if old, err = ReadDirManifest(out); err == nil {
		if err = old.Compatible(m); err != nil {
			err = fmt.Errorf("%w: %s: %w; merge into a new or empty directory", ErrMerge, out, err)
		}
	}
	if err != nil {
		lock.Close()
		return nil, nil, err
	}
	return lock, old, nil
}

// mergeIndex says, for every game of a merge, which journal holds it and
// where: a fixed-size entry per game ID in a temporary file (the
// journal's number plus one, 0 for no game, the line's length and its
// offset), so that the games can be read in the order of their IDs.
type mergeIndex struct {
	f       *os.File
	ids     IDs
	lo, hi  int
	have    []int // games per slice
	sources []mergeSource
	buf     [mergeEntry]byte
}

// mergeEntry is the size of a mergeIndex entry.
const mergeEntry = 4 + 4 + 8

// mergeSource is a journal read by a merge.
type mergeSource struct {
	dir string
	f   *os.File
}

// newMergeIndex returns an empty index, in a temporary file in dir, of
// the games of a tournament played in slices slices.
func newMergeIndex(dir string, slices int) (*mergeIndex, error) {
	f, err := tempfile.New(dir, ".merge-*")
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return &mergeIndex{f: f, have: make([]int, slices)}, nil
}

// close closes the index and the journals.
func (x *mergeIndex) close() {
	x.f.Close()
	for _, s := range x.sources {
		s.f.Close()
	}
}

// scan takes in the games of the journal of dir, which holds the slice sh
// of sched (nil: any game). A game already taken in from another journal
// must be recorded there identically.
func (x *mergeIndex) scan(sched *schedule.Schedule, dir string, sh *schedule.Shard) error {
	path := filepath.Join(dir, File)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	src := len(x.sources)
	x.sources = append(x.sources, mergeSource{dir: dir, f: f})
	_, err = ScanLines(f, path, func(rec *Record, off int64, n int) error {
		if err := CheckScheduled(sched, rec, sh); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrMerge, dir, err)
		}
		if x.ids.Has(rec.ID) {
			prev, from, err := x.record(rec.ID)
			if err != nil {
				return err
			}
			if err := sameRecord(prev, rec); err != nil {
				return fmt.Errorf("%w: game %d is recorded differently in %s and %s: %w", ErrMerge, rec.ID, from, dir, err)
			}
			return nil
		}
		x.ids.Add(rec.ID)
		x.have[schedule.SliceOf(rec.ID, len(x.have))]++
		if x.lo == 0 || rec.ID < x.lo {
			x.lo = rec.ID
		}
		x.hi = max(x.hi, rec.ID)
		e := x.buf[:]
		binary.LittleEndian.PutUint32(e, uint32(src+1))
		binary.LittleEndian.PutUint32(e[4:], uint32(n))
		binary.LittleEndian.PutUint64(e[8:], uint64(off))
		if _, err := x.f.WriteAt(e, int64(rec.ID-1)*mergeEntry); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		return nil
	})
	return err
}

// record reads game id back from the journal the index has it from.
func (x *mergeIndex) record(id int) (*Record, string, error) {
	e := x.buf[:]
	if _, err := x.f.ReadAt(e, int64(id-1)*mergeEntry); err != nil {
		return nil, "", fmt.Errorf("merge: %w", err)
	}
	return x.read(e)
}

// read reads the game of an index entry from its journal.
func (x *mergeIndex) read(e []byte) (*Record, string, error) {
	src := x.sources[binary.LittleEndian.Uint32(e)-1]
	n, off := binary.LittleEndian.Uint32(e[4:]), int64(binary.LittleEndian.Uint64(e[8:]))
	line := make([]byte, n)
	if _, err := src.f.ReadAt(line, off); err != nil {
		return nil, "", fmt.Errorf("read journal of %s: %w", src.dir, err)
	}
	rec := new(Record)
	if err := DecodeRecord(bytes.TrimSuffix(line, []byte("\n")), rec); err != nil {
		return nil, "", fmt.Errorf("%w: %s: the line at offset %d changed during the merge: %w", ErrDamaged, src.dir, off, err)
	}
	return rec, src.dir, nil
}

// each calls fn with every game in the order of their IDs.
func (x *mergeIndex) each(ctx context.Context, fn func(rec *Record) error) error {
	if x.ids.Len() == 0 {
		return nil
	}
	in := bufio.NewReaderSize(io.NewSectionReader(x.f, int64(x.lo-1)*mergeEntry, int64(x.hi-x.lo+1)*mergeEntry), 256<<10)
	var e [mergeEntry]byte
	for id := x.lo; id <= x.hi; id++ {
		if _, err := io.ReadFull(in, e[:]); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if binary.LittleEndian.Uint32(e[:]) == 0 {
			continue
		}
		if id%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rec, _, err := x.read(e[:])
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
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
// here when lock is nil): manifest and journal, each file replaced
// atomically. The games are read from the index in the
// order of their IDs, one at a time.
func writeMerged(ctx context.Context, out string, lock *os.File, m *Manifest, idx *mergeIndex) error {
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
	path := filepath.Join(out, File)
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	defer f.Close()
	defer os.Remove(tmp) // a no-op once renamed
	w := bufio.NewWriterSize(f, 256<<10)
	err = idx.each(ctx, func(rec *Record) error {
		line, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("write journal: game %d: %w", rec.ID, err)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return fmt.Errorf("write journal: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := errors.Join(w.Flush(), f.Sync()); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	return syncDir(out)
}
