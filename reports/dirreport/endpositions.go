package dirreport

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"
)

// endPositions writes the position every game ended in to the end
// positions file of a directory (journal.EndPositionsFile), one line per
// game in the journal's order: the position text, a tab and the game's
// ID, result and how it ended. The lines are those of an opening file, so
// that the positions can open other tournaments (those not over). The file
// is written whole to a temporary file and renamed into place by commit.
type endPositions struct {
	dir   string
	rules game.Rules
	f     *os.File
	w     *bufio.Writer
}

func newEndPositions(dir string, m *journal.Manifest) (*endPositions, error) {
	rules, err := games.New(m.Game, m.Preset, m.Rules)
	if err != nil {
		return nil, fmt.Errorf("end positions: %w", err)
	}
	f, err := os.CreateTemp(dir, ".end-positions-*")
	if err != nil {
		return nil, fmt.Errorf("end positions: %w", err)
	}
	return &endPositions{dir: dir, rules: rules, f: f, w: bufio.NewWriter(f)}, nil
}

// add writes the end position of rec.
func (e *endPositions) add(rec *journal.Record) error {
	st, err := journal.Replay(e.rules, rec)
	if err != nil {
		return fmt.Errorf("end positions: %w", err)
	}
	_, err = fmt.Fprintf(e.w, "%s\tgame %d, %s %s\n", st.Text(), rec.ID, rec.Result, rec.Reason)
	return err
}

// commit puts the file in place.
func (e *endPositions) commit() error {
	err := e.w.Flush()
	if err == nil {
		err = e.f.Sync()
	}
	if cerr := e.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(e.f.Name(), filepath.Join(e.dir, journal.EndPositionsFile))
	}
	if err != nil {
		os.Remove(e.f.Name())
		return fmt.Errorf("end positions: %w", err)
	}
	return nil
}

// abort removes the temporary file, unless commit put it in place.
func (e *endPositions) abort() {
	e.f.Close()
	os.Remove(e.f.Name())
}
