package tournament

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// JournalFile is the journal's file name in a tournament's output directory.
const JournalFile = "games.jsonl"

// ErrJournal is wrapped by errors about a damaged journal.
var ErrJournal = errors.New("damaged journal")

// JournalSyncInterval is the longest a game appended to a journal waits
// before the journal is flushed to stable storage.
const JournalSyncInterval = 100 * time.Millisecond

// Journal appends finished games to games.jsonl, one JSON line each. Each
// line is written with one write, so that once Append returns the game is
// in the file whatever happens to the process; the file is flushed to
// stable storage (fsync) in groups, at most JournalSyncInterval after a
// game is appended, and by Close. A power loss can thus cost the games of
// the last JournalSyncInterval (a resume plays them again). It is safe for
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

// OpenJournal opens (creating if needed) the journal at path for appending
// and returns the games it already holds. A torn last line, left by a crash
// in the middle of a write, is cut off the file; any other damage is an
// error wrapping ErrJournal.
func OpenJournal(path string) (*Journal, []Record, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("open journal: %w", err)
	}
	created := errors.Is(err, os.ErrNotExist)
	recs, good, err := DecodeJournal(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("open journal: %w", err)
	}
	if good < len(data) {
		if err := f.Truncate(int64(good)); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("cut the torn last line of %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("cut the torn last line of %s: %w", path, err)
		}
	}
	if created {
		if err := syncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("open journal: %w", err)
		}
	}
	j := &Journal{f: f, path: path}
	j.sync = f.Sync
	return j, recs, nil
}

// Append writes rec as one line and makes sure the file is synced within
// JournalSyncInterval. It returns the error of a failed earlier sync, if
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
		j.timer = time.AfterFunc(JournalSyncInterval, j.background)
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

// ReadJournal reads the games of a journal without changing the file; a
// torn last line is ignored.
func ReadJournal(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	recs, _, err := DecodeJournal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}

// DecodeJournal decodes journal data. good is the length of the prefix made
// of complete, valid lines: anything after it is a torn last line (bytes
// without a final newline, or a final line that does not decode), which a
// crash during a write can leave. A bad line before the last one, or a game
// ID recorded twice, is an error wrapping ErrJournal.
func DecodeJournal(data []byte) (recs []Record, good int, err error) {
	seen := map[int]int{}
	for lineNo := 1; good < len(data); lineNo++ {
		nl := bytes.IndexByte(data[good:], '\n')
		if nl < 0 {
			return recs, good, nil // torn: no line end
		}
		line := data[good : good+nl]
		last := good+nl+1 == len(data)
		if len(bytes.TrimSpace(line)) == 0 {
			if last {
				return recs, good, nil
			}
			return nil, 0, fmt.Errorf("%w: line %d is empty", ErrJournal, lineNo)
		}
		var rec Record
		if err := decodeRecord(line, &rec); err != nil {
			if last {
				return recs, good, nil
			}
			return nil, 0, fmt.Errorf("%w: line %d: %w", ErrJournal, lineNo, err)
		}
		if prev, dup := seen[rec.ID]; dup {
			return nil, 0, fmt.Errorf("%w: line %d: game %d already recorded on line %d", ErrJournal, lineNo, rec.ID, prev)
		}
		seen[rec.ID] = lineNo
		recs = append(recs, rec)
		good += nl + 1
	}
	return recs, good, nil
}

func decodeRecord(line []byte, rec *Record) error {
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
