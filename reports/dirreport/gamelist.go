package dirreport

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/tempfile"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/reports"
	"github.com/arena-games/arena/reports/viewer"
)

// GameList is the list of a journal's games that the game viewers show,
// kept out of memory: for every game, where its journal line is and its
// line in the list (viewer.Summary, names given by number) are kept at the
// game's place in a temporary file, a fixed-size entry per game ID, so
// that the games come out in the order of their IDs however the journal
// holds them. Memory holds the names (bots, openings, reasons) and a bit
// per game. It is not safe for concurrent use.
type GameList struct {
	f      *os.File // listEntry bytes at (id-1)*listEntry
	ids    journal.IDs
	lo, hi int // smallest and largest ID
	names  [3]nameTable
	buf    [listEntry]byte
}

// The names a list entry numbers.
const (
	nameBot = iota
	nameOpening
	nameReason
)

// listEntry is the size of a GameList entry: the line's offset plus one
// (0 for no game), its length, then the round, White, Black, opening,
// reason, plies and result, each a little-endian uint32 (names numbered
// in the order they came).
const listEntry = 8 + 4 + 7*4

// nameTable numbers names in the order they come.
type nameTable struct {
	index map[string]uint32
	list  []string
}

func (t *nameTable) number(name string) uint32 {
	if i, ok := t.index[name]; ok {
		return i
	}
	if t.index == nil {
		t.index = map[string]uint32{}
	}
	i := uint32(len(t.list))
	t.index[name] = i
	t.list = append(t.list, name)
	return i
}

// NewGameList returns an empty list, kept in a temporary file in dir (in
// the system's temporary directory when dir cannot hold one) that is
// removed at once and freed by Close.
func NewGameList(dir string) (*GameList, error) {
	f, err := tempfile.New(dir, ".gamelist-*")
	if err != nil {
		return nil, fmt.Errorf("game list: %w", err)
	}
	return &GameList{f: f}, nil
}

// Close frees the list's file.
func (l *GameList) Close() error { return l.f.Close() }

// Len returns the number of games in the list.
func (l *GameList) Len() int { return l.ids.Len() }

// Has reports whether game id is in the list.
func (l *GameList) Has(id int) bool { return l.ids.Has(id) }

// Add adds the game of rec, whose journal line is n bytes long at offset
// off. A game already in the list is not added again; a game Add failed
// to add is not in the list, and may be added again.
func (l *GameList) Add(rec *journal.Record, off int64, n int) error {
	if rec.ID < 1 || rec.ID > schedule.MaxGames {
		return fmt.Errorf("game list: game id %d out of range", rec.ID)
	}
	if l.ids.Has(rec.ID) {
		return nil
	}
	s := ViewSummary(rec)
	result := uint32(viewer.Draw)
	switch s.Result {
	case game.WhiteWins.String():
		result = viewer.WhiteWins
	case game.BlackWins.String():
		result = viewer.BlackWins
	}
	e := l.buf[:]
	binary.LittleEndian.PutUint64(e[0:], uint64(off)+1)
	binary.LittleEndian.PutUint32(e[8:], uint32(n))
	for i, v := range []uint32{
		uint32(s.Round), l.names[nameBot].number(s.White), l.names[nameBot].number(s.Black),
		l.names[nameOpening].number(s.Opening), l.names[nameReason].number(s.Reason), uint32(s.Plies), result,
	} {
		binary.LittleEndian.PutUint32(e[12+4*i:], v)
	}
	if _, err := l.f.WriteAt(e, int64(rec.ID-1)*listEntry); err != nil {
		return fmt.Errorf("game list: %w", err)
	}
	l.ids.Add(rec.ID)
	if l.lo == 0 || rec.ID < l.lo {
		l.lo = rec.ID
	}
	l.hi = max(l.hi, rec.ID)
	return nil
}

// Line returns where the journal line of game id is; ok is false when the
// list does not hold the game.
func (l *GameList) Line(id int) (off int64, n int, ok bool, err error) {
	if !l.ids.Has(id) {
		return 0, 0, false, nil
	}
	e := l.buf[:]
	if _, err := l.f.ReadAt(e, int64(id-1)*listEntry); err != nil {
		return 0, 0, false, fmt.Errorf("game list: %w", err)
	}
	return int64(binary.LittleEndian.Uint64(e)) - 1, int(binary.LittleEndian.Uint32(e[8:])), true, nil
}

// WriteJSON writes the list as JSON, exactly as json.Marshal writes the
// viewer.List of its games added in the order of their IDs (names
// numbered in that order too), without holding the list in memory.
func (l *GameList) WriteJSON(w io.Writer, gameName string) error {
	header, rows, err := l.rows(gameName)
	if err != nil {
		return err
	}
	defer rows.close()
	return reports.WriteList(w, header, rows)
}

// rows writes the list's rows in the order of the games' IDs, names
// numbered as viewer.List numbers them, to a temporary file of their own
// (in the directory of l's file), and returns them with the list's names.
func (l *GameList) rows(gameName string) (*viewer.List, *listRows, error) {
	header := viewer.NewList(gameName)
	f, err := tempfile.New(filepath.Dir(l.f.Name()), ".gamerows-*")
	if err != nil {
		return nil, nil, fmt.Errorf("game list: %w", err)
	}
	rows := &listRows{f: f}
	if l.ids.Len() == 0 {
		return header, rows, nil
	}
	// Names are numbered again as they first come in the order of IDs.
	var renum [3][]int32
	var lists = [3]*[]string{&header.Bots, &header.Openings, &header.Reasons}
	for k := range renum {
		renum[k] = make([]int32, len(l.names[k].list))
		for i := range renum[k] {
			renum[k][i] = -1
		}
	}
	number := func(k int, local uint32) uint32 {
		if renum[k][local] < 0 {
			renum[k][local] = int32(len(*lists[k]))
			*lists[k] = append(*lists[k], l.names[k].list[local])
		}
		return uint32(renum[k][local])
	}
	in := bufio.NewReaderSize(io.NewSectionReader(l.f, int64(l.lo-1)*listEntry, int64(l.hi-l.lo+1)*listEntry), 256<<10)
	out := bufio.NewWriterSize(f, 256<<10)
	var e [listEntry]byte
	var r [rowEntry]byte
	for id := l.lo; id <= l.hi; id++ {
		if _, err := io.ReadFull(in, e[:]); err != nil {
			rows.close()
			return nil, nil, fmt.Errorf("game list: %w", err)
		}
		if !l.ids.Has(id) {
			continue // no game, or one whose entry could not be written
		}
		field := func(i int) uint32 { return binary.LittleEndian.Uint32(e[12+4*i:]) }
		for i, v := range [8]uint32{
			uint32(id), field(0), number(nameBot, field(1)), number(nameBot, field(2)),
			number(nameOpening, field(3)), field(6), number(nameReason, field(4)), field(5),
		} {
			binary.LittleEndian.PutUint32(r[4*i:], v)
		}
		copy(r[32:], e[:12]) // where the line is
		out.Write(r[:])
		rows.n++
	}
	if err := out.Flush(); err != nil {
		rows.close()
		return nil, nil, fmt.Errorf("game list: %w", err)
	}
	return header, rows, nil
}

// rowEntry is the size of a listRows entry: the row's eight numbers as
// little-endian uint32s, then the journal line's offset plus one and
// length as in a GameList entry.
const rowEntry = 8*4 + 8 + 4

// listRows are the rows of a GameList in the order of the games' IDs, in
// a temporary file (reports.Rows).
type listRows struct {
	f *os.File
	n int
}

func (r *listRows) close() { r.f.Close() }

// Len returns the number of rows.
func (r *listRows) Len() int { return r.n }

// Row returns row i.
func (r *listRows) Row(i int) (viewer.Row, error) {
	row, _, _, err := r.entry(i)
	return row, err
}

// line returns where the journal line of row i's game is.
func (r *listRows) line(i int) (off int64, n int, err error) {
	_, off, n, err = r.entry(i)
	return off, n, err
}

func (r *listRows) entry(i int) (row viewer.Row, off int64, n int, err error) {
	if i < 0 || i >= r.n {
		return row, 0, 0, fmt.Errorf("game list: row %d of %d", i, r.n)
	}
	var e [rowEntry]byte
	if _, err := r.f.ReadAt(e[:], int64(i)*rowEntry); err != nil {
		return row, 0, 0, fmt.Errorf("game list: %w", err)
	}
	row, off, n = decodeRow(&e)
	return row, off, n, nil
}

func decodeRow(e *[rowEntry]byte) (row viewer.Row, off int64, n int) {
	var f [8]int
	for j := range f {
		f[j] = int(binary.LittleEndian.Uint32(e[4*j:]))
	}
	return viewer.RowOf(f), int64(binary.LittleEndian.Uint64(e[32:])) - 1, int(binary.LittleEndian.Uint32(e[40:]))
}

// Each calls fn with every row in order.
func (r *listRows) Each(fn func(i int, row viewer.Row) error) error {
	in := bufio.NewReaderSize(io.NewSectionReader(r.f, 0, int64(r.n)*rowEntry), 256<<10)
	var e [rowEntry]byte
	for i := range r.n {
		if _, err := io.ReadFull(in, e[:]); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("game list: %w", err)
		}
		row, _, _ := decodeRow(&e)
		if err := fn(i, row); err != nil {
			return err
		}
	}
	return nil
}
