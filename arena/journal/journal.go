package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/arena-games/arena/arena/schedule"
)

// File is the journal's file name in a tournament's output directory.
const File = "games.jsonl"

// ErrDamaged is wrapped by errors about a damaged journal.
var ErrDamaged = errors.New("damaged journal")

// SyncInterval is the longest a game appended to a journal waits
// before the journal is flushed to stable storage.
const SyncInterval = 100 * time.Millisecond

// Journal appends finished games to games.jsonl, one JSON line each. Each
// line is written with one write, so that once Append returns the game is
// in the file whatever happens to the process; the file is flushed to
// stable storage (fsync) in groups, at most SyncInterval after a
// game is appended, and by Close. A power loss can thus cost the games of
// the last SyncInterval (a resume plays them again). It is safe for
// concurrent use.
type Journal struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	buf     []byte
	dirty   bool        // appended since the last sync
	timer   *time.Timer // the pending sync; nil when none
	syncErr error       // a failed background sync, returned by the next call

	smu  sync.Mutex   // serialises syncs and Close, so that mu is not held during an fsync
	sync func() error // f.Sync; replaced by tests
}

// Open opens (creating if needed) the journal at path for appending
// and returns the games it already holds. A torn last line, left by a crash
// in the middle of a write, is cut off the file; any other damage is an
// error wrapping ErrDamaged. It holds every game in memory: OpenFunc
// passes them one at a time instead.
func Open(path string) (*Journal, []Record, error) {
	var recs []Record
	j, err := OpenFunc(path, func(rec *Record) error {
		recs = append(recs, *rec)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return j, recs, nil
}

// OpenFunc is Open calling fn with each game the journal holds, in the
// order of the file, instead of returning them; an error of fn is returned
// as it is, before anything is changed. It holds one game at a time in
// memory.
func OpenFunc(path string, fn func(rec *Record) error) (*Journal, error) {
	size, created := int64(0), false
	good, err := scanJournalFile(path, func(rec *Record, _ int64, _ int) error { return fn(rec) })
	switch {
	case errors.Is(err, os.ErrNotExist):
		created = true
	case err != nil:
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	if !created {
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("open journal: %w", err)
		}
		size = fi.Size()
	}
	if good < size {
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, fmt.Errorf("cut the torn last line of %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, fmt.Errorf("cut the torn last line of %s: %w", path, err)
		}
	}
	if created {
		if err := syncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, fmt.Errorf("open journal: %w", err)
		}
	}
	j := &Journal{f: f, path: path}
	j.sync = f.Sync
	return j, nil
}

// Append writes rec as one line and makes sure the file is synced within
// SyncInterval. It returns the error of a failed earlier sync, if
// any.
func (j *Journal) Append(rec *Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return fmt.Errorf("journal %s: %w", j.path, os.ErrClosed)
	}
	if err := j.syncErr; err != nil {
		return err
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("journal: encode game %d: %w", rec.ID, err)
	}
	j.buf = append(append(j.buf[:0], line...), '\n')
	// One write per line: a crash leaves at most one torn line at the end.
	if _, err := j.f.Write(j.buf); err != nil {
		return fmt.Errorf("journal: write game %d: %w", rec.ID, err)
	}
	j.dirty = true
	if j.timer == nil {
		j.timer = time.AfterFunc(SyncInterval, j.background)
	}
	return nil
}

// background is the pending sync.
func (j *Journal) background() {
	j.smu.Lock()
	defer j.smu.Unlock()
	j.mu.Lock()
	j.timer = nil
	if j.f == nil || !j.dirty {
		j.mu.Unlock()
		return
	}
	j.dirty = false
	j.mu.Unlock()
	if err := j.sync(); err != nil {
		j.mu.Lock()
		if j.syncErr == nil {
			j.syncErr = fmt.Errorf("journal: sync %s: %w", j.path, err)
		}
		j.mu.Unlock()
	}
}

// Close syncs what was appended since the last sync and closes the file.
// It is safe to call more than once.
func (j *Journal) Close() error {
	j.smu.Lock()
	defer j.smu.Unlock()
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	if j.timer != nil {
		j.timer.Stop()
		j.timer = nil
	}
	err := j.syncErr
	if j.dirty {
		if serr := j.sync(); serr != nil && err == nil {
			err = fmt.Errorf("journal: sync %s: %w", j.path, serr)
		}
		j.dirty = false
	}
	if cerr := j.f.Close(); cerr != nil && err == nil {
		err = cerr
	}
	j.f = nil
	return err
}

// Read reads the games of a journal without changing the file; a
// torn last line is ignored. It holds every game in memory: Scan
// reads them one at a time.
func Read(path string) ([]Record, error) {
	var recs []Record
	err := Scan(path, func(rec *Record) error {
		recs = append(recs, *rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return recs, nil
}

// Scan reads the journal at path without changing the file and
// calls fn with each game, in the order of the file; fn may keep rec. The
// journal is checked as Open checks it: a torn last line is
// ignored, any other damage is an error wrapping ErrDamaged (and is found
// only when the scan gets there, after fn has seen the games before it).
// An error of fn stops the scan and is returned as it is. Scan
// holds one game at a time in memory, and a bit per game ID.
func Scan(path string, fn func(rec *Record) error) error {
	_, err := scanJournalFile(path, func(rec *Record, _ int64, _ int) error { return fn(rec) })
	if err != nil && errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read journal: %w", err)
	}
	return err
}

// Decode decodes journal data. good is the length of the prefix made
// of complete, valid lines: anything after it is a torn last line (bytes
// without a final newline, or a final line that does not decode), which a
// crash during a write can leave. A bad line before the last one, or a game
// ID recorded twice, is an error wrapping ErrDamaged.
func Decode(data []byte) (recs []Record, good int, err error) {
	n, err := scanJournal(bytes.NewReader(data), int64(len(data)), func(rec *Record, _ int64, _ int) error {
		recs = append(recs, *rec)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return recs, int(n), nil
}

// maxJournalLine bounds the journal lines a reader takes in. A longer
// line is treated as one that does not decode; the arena writes none
// nearly as long.
const maxJournalLine = 256 << 20

// errLongLine is what readJournalLine returns for a line longer than
// maxJournalLine.
var errLongLine = errors.New("line too long")

// scanJournalFile scans the journal at path (see scanJournal) as it is
// when opened: what a run appends meanwhile is not read. Errors about
// the journal's content are prefixed with path.
func scanJournalFile(path string, fn func(rec *Record, off int64, n int) error) (good int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return 0, err
		}
		return 0, fmt.Errorf("read journal: %w", err)
	}
	defer f.Close()
	return ScanLines(f, path, fn)
}

// ScanLines reads the journal f, opened from path, as Scan
// reads a journal, and calls fn with each game and the offset and length
// (newline included) of its line. It returns the length of the prefix of
// the file made of complete, valid lines.
func ScanLines(f *os.File, path string, fn func(rec *Record, off int64, n int) error) (good int64, err error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("read journal: %w", err)
	}
	var fnErr error
	good, err = scanJournal(f, fi.Size(), func(rec *Record, off int64, n int) error {
		fnErr = fn(rec, off, n)
		return fnErr
	})
	switch {
	case err == nil, fnErr != nil:
		return good, err
	case errors.Is(err, ErrDamaged):
		return good, fmt.Errorf("%s: %w", path, err)
	}
	return good, fmt.Errorf("read journal %s: %w", path, err)
}

// scanJournal reads the first size bytes of ra as journal data, line by
// line, and calls fn with each game and the offset and length (newline
// included) of its line. It returns the length of the prefix made of
// complete, valid lines (see Decode). An error of fn stops it and
// is returned as it is. It holds one line at a time in memory, and a bit
// per game ID.
func scanJournal(ra io.ReaderAt, size int64, fn func(rec *Record, off int64, n int) error) (good int64, err error) {
	// The buffer need not be larger than the data: Decode is given
	// single lines (the live page decodes the journal line by line).
	br := bufio.NewReaderSize(io.NewSectionReader(ra, 0, size), int(min(size, 64<<10)))
	var (
		seen IDs
		buf  []byte
	)
	for lineNo := 1; ; lineNo++ {
		line, n, err := readJournalLine(br, &buf)
		switch {
		case errors.Is(err, io.EOF):
			return good, nil // the end, or a torn last line without its line end
		case err != nil && !errors.Is(err, errLongLine):
			return good, err
		}
		rec := new(Record)
		bad := err
		if bad == nil && len(bytes.TrimSpace(line)) == 0 {
			bad = errEmptyLine
		}
		if bad == nil {
			bad = DecodeRecord(line[:len(line)-1], rec)
		}
		if bad != nil {
			if _, err := br.Peek(1); errors.Is(err, io.EOF) {
				return good, nil // a torn last line
			}
			if bad == errEmptyLine {
				return good, fmt.Errorf("%w: line %d is empty", ErrDamaged, lineNo)
			}
			return good, fmt.Errorf("%w: line %d: %w", ErrDamaged, lineNo, bad)
		}
		if !seen.Add(rec.ID) {
			return good, fmt.Errorf("%w: line %d: game %d already recorded on line %d", ErrDamaged, lineNo, rec.ID, firstLineOf(ra, good, rec.ID))
		}
		if err := fn(rec, good, int(n)); err != nil {
			return good, err
		}
		good += n
	}
}

// errEmptyLine marks an empty journal line.
var errEmptyLine = errors.New("empty line")

// readJournalLine reads the next line, its newline included, into *buf
// and returns it with the bytes it took. At the end of the data it
// returns io.EOF (with what there was of a last line without a newline);
// a line longer than maxJournalLine is skipped, newline included, and
// reported with errLongLine.
func readJournalLine(br *bufio.Reader, buf *[]byte) (line []byte, n int64, err error) {
	*buf = (*buf)[:0]
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if !long && len(*buf)+len(chunk) > maxJournalLine {
			long, *buf = true, (*buf)[:0]
		}
		if !long {
			*buf = append(*buf, chunk...)
		}
		switch {
		case err == nil && long:
			return nil, n, errLongLine
		case err == nil:
			return *buf, n, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return *buf, n, err
		}
	}
}

// firstLineOf returns the number of the first line among the first size
// bytes of ra that records game id (0 when none does), for the message
// about a game recorded twice.
func firstLineOf(ra io.ReaderAt, size int64, id int) int {
	lineNo, found := 0, 0
	errFound := errors.New("found")
	scanJournal(ra, size, func(rec *Record, _ int64, _ int) error {
		lineNo++
		if rec.ID == id {
			found = lineNo
			return errFound
		}
		return nil
	})
	return found
}

// DecodeRecord decodes one journal line, without its newline, into rec
// and checks it as the journal readers do.
func DecodeRecord(line []byte, rec *Record) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(rec); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("extra data after the record")
	}
	if rec.ID < 1 {
		return fmt.Errorf("game id %d is not positive", rec.ID)
	}
	if rec.ID > schedule.MaxGames {
		return fmt.Errorf("game id %d is beyond the largest schedule (%d games)", rec.ID, schedule.MaxGames)
	}
	if _, err := rec.GameResult(); err != nil {
		return err
	}
	if _, err := rec.FirstMoverColor(); err != nil {
		return err
	}
	return nil
}

// syncDir flushes a directory entry (a file just created in it).
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
