package reports

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"net/url"
	"strconv"
	"strings"

	"github.com/arena-games/arena/reports/viewer"
)

// Games are a tournament's games for report.html's game list and viewer.
type Games struct {
	// List summarises every game, in the order the list shows them. With
	// Rows set, its Rows are left empty.
	List *viewer.List
	// Rows, when set, gives the list's rows in place of List.Rows, for a
	// list too long to hold in memory: they are read one at a time from
	// where they are kept.
	Rows Rows
	// Load replays the game of row i.
	Load func(i int) (*viewer.Game, error)
	// Dir is the tournament's output directory, named in the page when it
	// holds a sample of the games' moves ("" to leave it out).
	Dir string
}

// Rows are the rows of a game list kept out of memory, in the list's
// order; a row is as in viewer.List.
type Rows interface {
	// Len returns the number of rows.
	Len() int
	// Row returns row i.
	Row(i int) (viewer.Row, error)
	// Each calls fn with every row in order until fn returns an error,
	// which it returns.
	Each(fn func(i int, row viewer.Row) error) error
}

// sliceRows are rows held in memory.
type sliceRows []viewer.Row

func (r sliceRows) Len() int                      { return len(r) }
func (r sliceRows) Row(i int) (viewer.Row, error) { return r[i], nil }

func (r sliceRows) Each(fn func(i int, row viewer.Row) error) error {
	for i, row := range r {
		if err := fn(i, row); err != nil {
			return err
		}
	}
	return nil
}

// rows returns the rows of g's list.
func (g *Games) rows() Rows {
	if g.Rows != nil {
		return g.Rows
	}
	return sliceRows(g.List.Rows)
}

// MaxGameBytes bounds the moves report.html embeds: the page holds the
// summary of every game (about 30 bytes each) and the moves of as many
// games as fit in MaxGameBytes of JSON, so with 100,000 games it stays
// under about 8 MB. Forfeits are included first (up to a quarter of the
// budget), then games spread evenly over the tournament.
const MaxGameBytes = 4 << 20

// viewerPage is the data report.html embeds for the game viewer.
type viewerPage struct {
	List    *viewer.List               `json:"list"`
	Games   map[string]json.RawMessage `json:"games"`
	Note    string                     `json:"note"`
	Missing string                     `json:"missing,omitempty"`
}

// writeViewerData writes the JSON report.html embeds for g (a viewerPage),
// holding the moves of at most budget bytes of games. The rows are
// written as they are read, so that only the sample of games is held in
// memory.
func writeViewerData(w io.Writer, g *Games, budget int) error {
	page, err := viewerSample(g, budget)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := writeList(bw, g.List, g.rows()); err != nil {
		return fmt.Errorf("game viewer data: %w", err)
	}
	// The rest is as json.Marshal writes a viewerPage, after its list.
	for _, f := range []struct {
		key   string
		value any
	}{{"games", page.Games}, {"note", page.Note}, {"missing", page.Missing}} {
		if f.key == "missing" && page.Missing == "" {
			continue
		}
		data, err := json.Marshal(f.value)
		if err != nil {
			return fmt.Errorf("game viewer data: %w", err)
		}
		bw.WriteString(`,"` + f.key + `":`)
		bw.Write(data)
	}
	bw.WriteByte('}')
	return bw.Flush()
}

// WriteList writes a game list as JSON, exactly as json.Marshal writes a
// viewer.List, taking its rows from rows instead of l.Rows: a row at a
// time.
func WriteList(w io.Writer, l *viewer.List, rows Rows) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := writeListJSON(bw, l, rows); err != nil {
		return err
	}
	return bw.Flush()
}

// writeList writes the start of a viewerPage's JSON, its list.
func writeList(w *bufio.Writer, l *viewer.List, rows Rows) error {
	w.WriteString(`{"list":`)
	return writeListJSON(w, l, rows)
}

// writeListJSON writes l as json.Marshal does, with rows as its rows.
func writeListJSON(w *bufio.Writer, l *viewer.List, rows Rows) error {
	for i, f := range []struct {
		key   string
		value any
	}{{"game", l.Game}, {"bots", l.Bots}, {"openings", l.Openings}, {"reasons", l.Reasons}} {
		data, err := json.Marshal(f.value)
		if err != nil {
			return err
		}
		if i == 0 {
			w.WriteString(`{"`)
		} else {
			w.WriteString(`,"`)
		}
		w.WriteString(f.key + `":`)
		w.Write(data)
	}
	w.WriteString(`,"rows":[`)
	var num []byte
	err := rows.Each(func(i int, row viewer.Row) error {
		if i > 0 {
			w.WriteByte(',')
		}
		num = row.AppendJSON(num[:0])
		_, err := w.Write(num)
		return err
	})
	if err != nil {
		return err
	}
	_, err = w.WriteString("]}")
	return err
}

// viewerSample chooses the games whose moves report.html embeds and
// returns the page without its list: the moves of at most budget bytes of
// games, every forfeit first (up to a quarter of the budget), then games
// spread over the list.
func viewerSample(g *Games, budget int) (*viewerPage, error) {
	page := viewerPage{Games: map[string]json.RawMessage{}}
	rows := g.rows()
	used, included, failed := 0, 0, 0
	// add includes game i if it fits; it reports false once the budget is
	// spent (after enough misses that the rest will not fit either).
	misses := 0
	add := func(i int, row viewer.Row, limit int) bool {
		key := strconv.Itoa(row.ID)
		if _, ok := page.Games[key]; ok {
			return true
		}
		gm, err := g.Load(i)
		if err != nil {
			failed++
			return true
		}
		data, err := json.Marshal(gm)
		if err != nil {
			failed++
			return true
		}
		if used+len(data) > limit {
			misses++
			return misses < 50
		}
		used += len(data)
		included++
		page.Games[key] = data
		return true
	}
	errSpent := errors.New("budget spent")
	err := rows.Each(func(i int, r viewer.Row) error {
		if strings.HasPrefix(g.List.Reasons[r.Reason], "forfeit") && !add(i, r, budget/4) {
			return errSpent
		}
		return nil
	})
	if err != nil && err != errSpent {
		return nil, fmt.Errorf("game viewer data: %w", err)
	}
	misses = 0
	for i := range spread(rows.Len()) {
		r, err := rows.Row(i)
		if err != nil {
			return nil, fmt.Errorf("game viewer data: %w", err)
		}
		if !add(i, r, budget) {
			break
		}
	}
	n := rows.Len()
	switch {
	case included == n:
		page.Note = fmt.Sprintf("The moves of all %d games are in this page.", included)
	default:
		page.Note = fmt.Sprintf("The moves of %d of the %d games are in this page (every forfeit first, then games spread over the tournament; a report holds at most %d MiB of moves). The others are listed in grey.",
			included, n, budget>>20)
		page.Missing = "A report holds a sample of the games' moves."
		if g.Dir != "" {
			page.Missing += " Every game can be viewed with: arena serve " + g.Dir
		}
	}
	if failed > 0 {
		page.Note += fmt.Sprintf(" %d games could not be replayed under their rules and are left out.", failed)
	}
	return &page, nil
}

// spread yields 0..n-1 in an order that covers the range evenly at every
// prefix: the indices in bit-reversed order of the next power of two.
func spread(n int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		if n <= 0 {
			return
		}
		width := bits.Len(uint(n - 1))
		for k := range 1 << width {
			i := int(bits.Reverse(uint(k)) >> (bits.UintSize - width))
			if i < n && !yield(i) {
				return
			}
		}
	}
}

// gamesLink returns the page fragment that shows the game list filtered by
// the key, value pairs kv (see viewer.js for the keys).
func gamesLink(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return "#games?" + q.Encode()
}
