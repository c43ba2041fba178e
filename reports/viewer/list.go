package viewer

import (
	"encoding/json"
	"strconv"

	"github.com/arena-games/arena/arena/game"
)

// Summary is one game in a game list: enough to filter and label it.
type Summary struct {
	ID      int
	Round   int
	White   string
	Black   string
	Opening string
	Result  string // "1-0", "0-1" or "1/2-1/2"
	Reason  string // how it ended; for a forfeit, "forfeit: " and the kind
	Plies   int    // moves, the opening's included
}

// Result codes in List.Rows.
const (
	WhiteWins = 0
	BlackWins = 1
	Draw      = 2
)

// List is a game list encoded compactly for a page: every name is given
// once and rows refer to names by index (Row). About 30 bytes of JSON a
// game.
type List struct {
	Game     string   `json:"game"`
	Bots     []string `json:"bots"`
	Openings []string `json:"openings"`
	Reasons  []string `json:"reasons"`
	Rows     []Row    `json:"rows"`

	index map[string]int // "b"/"o"/"r" + name -> index
}

// Row is one game of a List, its names given by their index in the list.
// In JSON it is the array the page reads:
//
//	[id, round, white, black, opening, result, reason, plies]
type Row struct {
	ID, Round    int
	White, Black int // indexes in Bots
	Opening      int // index in Openings
	Result       int // WhiteWins, BlackWins or Draw
	Reason       int // index in Reasons
	Plies        int
}

// Fields returns the row's numbers in their JSON order.
func (r Row) Fields() [8]int {
	return [8]int{r.ID, r.Round, r.White, r.Black, r.Opening, r.Result, r.Reason, r.Plies}
}

// RowOf returns the row of the numbers in their JSON order.
func RowOf(f [8]int) Row {
	return Row{ID: f[0], Round: f[1], White: f[2], Black: f[3], Opening: f[4], Result: f[5], Reason: f[6], Plies: f[7]}
}

// AppendJSON appends the row as JSON.
func (r Row) AppendJSON(b []byte) []byte {
	b = append(b, '[')
	for j, v := range r.Fields() {
		if j > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// MarshalJSON returns the row as JSON.
func (r Row) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// UnmarshalJSON decodes a row from JSON.
func (r *Row) UnmarshalJSON(data []byte) error {
	var f [8]int
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	*r = RowOf(f)
	return nil
}

// NewList returns an empty list of games of the named game.
func NewList(gameName string) *List {
	return &List{Game: gameName, Bots: []string{}, Openings: []string{}, Reasons: []string{}, Rows: []Row{}, index: map[string]int{}}
}

// Add appends a game to the list.
func (l *List) Add(s Summary) {
	res := Draw
	switch s.Result {
	case game.WhiteWins.String():
		res = WhiteWins
	case game.BlackWins.String():
		res = BlackWins
	}
	l.Rows = append(l.Rows, Row{
		ID: s.ID, Round: s.Round, White: l.name(&l.Bots, "b", s.White), Black: l.name(&l.Bots, "b", s.Black),
		Opening: l.name(&l.Openings, "o", s.Opening), Result: res, Reason: l.name(&l.Reasons, "r", s.Reason), Plies: s.Plies,
	})
}

func (l *List) name(names *[]string, kind, name string) int {
	if i, ok := l.index[kind+name]; ok {
		return i
	}
	*names = append(*names, name)
	l.index[kind+name] = len(*names) - 1
	return len(*names) - 1
}
