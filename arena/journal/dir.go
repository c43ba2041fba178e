package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// LoadDir reads the manifest and the journal of an output directory. It
// holds every game in memory: ScanDir reads them one at a time.
func LoadDir(dir string) (*Manifest, []Record, error) {
	var recs []Record
	m, err := ScanDir(dir, func(rec *Record) error {
		recs = append(recs, *rec)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return m, recs, nil
}

// ScanDir reads the manifest of an output directory, then calls fn with
// each game of its journal, one at a time, as Scan does.
func ScanDir(dir string, fn func(rec *Record) error) (*Manifest, error) {
	m, err := ReadDirManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := Scan(filepath.Join(dir, File), fn); err != nil {
		return nil, err
	}
	return m, nil
}

// ReadDirManifest reads the manifest of the output directory dir, as
// ReadManifest does, saying so when there is none.
func ReadDirManifest(dir string) (*Manifest, error) {
	m, err := ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s is not a tournament output directory (it has no %s): %w", dir, ManifestFile, err)
	}
	return m, err
}
