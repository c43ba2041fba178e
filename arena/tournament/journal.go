package tournament

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// JournalFile is the journal's file name in a tournament's output directory.
const JournalFile = "games.jsonl"

// ErrJournal is wrapped by errors about a damaged journal.
var ErrJournal = errors.New("damaged journal")

// Journal appends finished games to games.jsonl, one JSON line each,
// flushed to stable storage before Append returns. It is safe for
// concurrent use.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
	buf  []byte
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
	return &Journal{f: f, path: path}, recs, nil
}

// Append writes rec as one line and syncs the file.
func (j *Journal) Append(rec *Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return fmt.Errorf("journal %s: %w", j.path, os.ErrClosed)
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
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: sync game %d: %w", rec.ID, err)
	}
	return nil
}

// Close closes the journal file. It is safe to call more than once.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
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
