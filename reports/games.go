package reports

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math/bits"
	"net/url"
	"strings"

	"github.com/arena-games/arena/reports/viewer"
)

// Games are a tournament's games for report.html's game list and viewer.
type Games struct {
	// List summarises every game, in the order the list shows them.
	List *viewer.List
	// Load replays the game of List.Rows[i].
	Load func(i int) (*viewer.Game, error)
	// Dir is the tournament's output directory, named in the page when it
	// holds a sample of the games' moves ("" to leave it out).
	Dir string
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

// viewerData returns the JSON report.html embeds for g, holding the moves
// of at most budget bytes of games.
func viewerData(g *Games, budget int) (template.JS, error) {
	page := viewerPage{List: g.List, Games: map[string]json.RawMessage{}}
	rows := g.List.Rows
	used, included, failed := 0, 0, 0
	// add includes game i if it fits; it reports false once the budget is
	// spent (after enough misses that the rest will not fit either).
	misses := 0
	add := func(i, limit int) bool {
		key := fmt.Sprint(rows[i][0])
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
	for i, r := range rows {
		if strings.HasPrefix(g.List.Reasons[r[6]], "forfeit") && !add(i, budget/4) {
			break
		}
	}
	misses = 0
	for i := range spread(len(rows)) {
		if !add(i, budget) {
			break
		}
	}
	switch {
	case included == len(rows):
		page.Note = fmt.Sprintf("The moves of all %d games are in this page.", included)
	default:
		page.Note = fmt.Sprintf("The moves of %d of the %d games are in this page (every forfeit first, then games spread over the tournament; a report holds at most %d MiB of moves). The others are listed in grey.",
			included, len(rows), budget>>20)
		page.Missing = "A report holds a sample of the games' moves."
		if g.Dir != "" {
			page.Missing += " Every game can be viewed with: arena serve " + g.Dir
		}
	}
	if failed > 0 {
		page.Note += fmt.Sprintf(" %d games could not be replayed under their rules and are left out.", failed)
	}
	data, err := json.Marshal(page)
	if err != nil {
		return "", fmt.Errorf("game viewer data: %w", err)
	}
	return template.JS(data), nil
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
