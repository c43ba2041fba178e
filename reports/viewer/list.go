package viewer

import "github.com/arena-games/arena/arena/game"

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
// once and rows refer to names by index. A row is
//
//	[id, round, white, black, opening, result, reason, plies]
//
// with white and black indexing Bots, opening Openings, reason Reasons,
// and result one of WhiteWins, BlackWins, Draw. About 30 bytes of JSON a
// game.
type List struct {
	Game     string   `json:"game"`
	Bots     []string `json:"bots"`
	Openings []string `json:"openings"`
	Reasons  []string `json:"reasons"`
	Rows     [][8]int `json:"rows"`

	index map[string]int // "b"/"o"/"r" + name -> index
}

// NewList returns an empty list of games of the named game.
func NewList(gameName string) *List {
	return &List{Game: gameName, Bots: []string{}, Openings: []string{}, Reasons: []string{}, Rows: [][8]int{}, index: map[string]int{}}
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
	l.Rows = append(l.Rows, [8]int{
		s.ID, s.Round, l.name(&l.Bots, "b", s.White), l.name(&l.Bots, "b", s.Black),
		l.name(&l.Openings, "o", s.Opening), res, l.name(&l.Reasons, "r", s.Reason), s.Plies,
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
