package journal

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/protocol"
)

// Reasons a game ends that the arena adds to the rules' own reasons
// (game.ReasonScore, game.ReasonNoMoves, ...).
const (
	ReasonForfeit = "forfeit" // one bot lost by breaking a tournament rule; see Record.Forfeit
	// ReasonAdjudication: the bots' reported scores agreed that the game
	// was decided or even (see Config.Adjudication and
	// Record.Adjudication). The result is a real result, by agreement.
	ReasonAdjudication = "adjudication"
)

// Adjudication rules, the Rule of a Record's Adjudicated.
const (
	AdjudicatedResign = "resign" // a win: both bots' scores agreed the game was decided
	AdjudicatedDraw   = "draw"   // a draw: both bots' scores agreed the game was even
)

// Forfeit kinds: why a bot lost a game it did not lose on the board. The
// first four are the protocol's game-over reasons, which the bots are told.
const (
	ForfeitIllegalMove = protocol.ReasonIllegalMove // a move that is not legal, or not in the game's notation
	ForfeitTime        = protocol.ReasonTimeout     // no move within the time allowed (clock plus margin)
	ForfeitCrash       = protocol.ReasonCrash       // the bot exited or closed its output
	ForfeitProtocol    = protocol.ReasonProtocol    // the bot broke the protocol (garbage, over-long or unexpected lines)
	ForfeitStart       = "start"                    // the bot could not be (re)started or failed its handshake
	ForfeitUnsupported = "unsupported"              // the bot refused the game or its rules
	ForfeitLimit       = "limit"                    // the bot reached one of its limits (memory, processes, file size, CPU time)
	ForfeitError       = "error"                    // any other failure of the bot's process
)

// Record is one finished game as stored in the journal (games.jsonl), one
// JSON object per line.
type Record struct {
	ID      int           `json:"id"`    // schedule ID
	Round   int           `json:"round"` // 1-based
	PairKey string        `json:"pair"`  // shared by the two colour assignments of one opening in one round
	Opening RecordOpening `json:"opening"`

	Game   string         `json:"game"`
	Preset string         `json:"preset"`
	Rules  []game.Setting `json:"rules"` // every switch with its value

	White      string `json:"white"`
	Black      string `json:"black"`
	FirstMover string `json:"first_mover"` // "white" or "black": the colour that moved first
	// Time is the time control of a game not played under the bots' own:
	// a knockout's tiebreak game under the format's tiebreak_time.
	Time string `json:"time,omitempty"`

	Moves []MoveRecord `json:"moves"` // the moves after the opening, as played by the bots

	Result  string   `json:"result"`           // "1-0", "0-1" or "1/2-1/2", from White's side
	Winner  string   `json:"winner,omitempty"` // name of the winning bot; empty for a draw
	Reason  string   `json:"reason"`           // a game.Reason* constant, ReasonForfeit or ReasonAdjudication
	Forfeit *Forfeit `json:"forfeit,omitempty"`
	// Adjudication says why an adjudicated game (ReasonAdjudication) ended.
	Adjudication *Adjudicated `json:"adjudication,omitempty"`
	Scores       *Scores      `json:"scores,omitempty"` // final scores, for games that keep score

	Start      time.Time `json:"start"`
	DurationMS float64   `json:"duration_ms"`
}

// RecordOpening identifies the opening a game started with.
type RecordOpening struct {
	Index int    `json:"index"` // 1-based position in the tournament's opening list
	Name  string `json:"name,omitempty"`
	// Position is the position text the game started from; "" for the
	// game's start position.
	Position string   `json:"position,omitempty"`
	Moves    []string `json:"moves"`
}

// MoveRecord is one move played by a bot and the time it took (measured by
// the arena, from sending the position to reading the move), with the last
// info line the bot wrote before it, if any.
type MoveRecord struct {
	Move string      `json:"move"`
	MS   float64     `json:"ms"`
	Info *SearchInfo `json:"info,omitempty"`
	// Random is set for a ply the arena played at random, of an opening
	// drawn in play (openings.Opening.Random), not one the bot chose.
	Random bool `json:"random,omitempty"`
}

// SearchInfo is what a bot reported about its search for one move: the
// fields of its last info line, as the bot sent them. Score is from the
// point of view of the bot that moved, in the bot's own unit (checkers
// bots commonly report hundredths of a man). TimeMS is the time the bot
// reported, not the time the arena measured (MoveRecord.MS).
type SearchInfo struct {
	Depth  int      `json:"depth,omitempty"`
	Score  *int     `json:"score,omitempty"`
	Nodes  int64    `json:"nodes,omitempty"`
	TimeMS int64    `json:"time_ms,omitempty"`
	PV     []string `json:"pv,omitempty"`
	Text   string   `json:"text,omitempty"` // the info line's free text ("info string ...")
}

// Limits on what a SearchInfo keeps of an info line, so that a bot cannot
// bloat the journal: the pv's first maxPVMoves moves and the first
// maxInfoText bytes of the free text.
const (
	maxPVMoves  = 32
	maxInfoText = 256
)

// NewSearchInfo returns the SearchInfo of an info line, or nil when info
// is nil or carries none of its fields.
func NewSearchInfo(info *protocol.Info) *SearchInfo {
	if info == nil {
		return nil
	}
	si := &SearchInfo{Depth: info.Depth, Nodes: info.Nodes, TimeMS: info.Time.Milliseconds()}
	if info.HasScore {
		score := info.Score
		si.Score = &score
	}
	if len(info.PV) > 0 {
		si.PV = slices.Clone(info.PV[:min(len(info.PV), maxPVMoves)])
	}
	si.Text = info.String
	if len(si.Text) > maxInfoText {
		si.Text = strings.ToValidUTF8(si.Text[:maxInfoText], "")
	}
	if si.Depth == 0 && si.Score == nil && si.Nodes == 0 && si.TimeMS == 0 && si.PV == nil && si.Text == "" {
		return nil
	}
	return si
}

// Forfeit says who forfeited a game and why.
type Forfeit struct {
	Kind   string `json:"kind"` // a Forfeit* constant
	Bot    string `json:"bot"`
	Detail string `json:"detail,omitempty"`
}

// Adjudicated says which rule adjudicated a game, and on what scores.
type Adjudicated struct {
	Rule   string `json:"rule"` // AdjudicatedResign or AdjudicatedDraw
	Detail string `json:"detail"`
}

// Scores are the final scores of a game that keeps score.
type Scores struct {
	White int `json:"white"`
	Black int `json:"black"`
}

// GameResult decodes Result.
func (r *Record) GameResult() (game.Result, error) {
	res, err := game.ParseResult(r.Result)
	if err != nil {
		return game.Ongoing, err
	}
	if res == game.Ongoing {
		return game.Ongoing, fmt.Errorf("game %d: result %q is not a final result", r.ID, r.Result)
	}
	return res, nil
}

// FirstMoverColor decodes FirstMover.
func (r *Record) FirstMoverColor() (game.Color, error) { return game.ParseColor(r.FirstMover) }

// Points returns the points the named bot scored: 1, 1/2 or 0.
func (r *Record) Points(bot string) float64 {
	switch {
	case r.Result == game.Draw.String():
		return 0.5
	case r.Winner == bot:
		return 1
	}
	return 0
}

// StartState returns the position the game started from under rules:
// its opening's position, or the start position.
func (r *Record) StartState(rules game.Rules) (game.State, error) {
	if r.Opening.Position == "" {
		return rules.Start(), nil
	}
	st, err := rules.ParseState(r.Opening.Position)
	if err != nil {
		return nil, fmt.Errorf("game %d: opening position %q: %w", r.ID, r.Opening.Position, err)
	}
	return st, nil
}

// StartTurn returns the side to move at the start of the game: the first
// mover of the rules, or the side to move of the opening's position.
func (r *Record) StartTurn() (game.Color, error) {
	if r.Opening.Position == "" {
		return r.FirstMoverColor()
	}
	rules, err := RulesOf(r)
	if err != nil {
		return 0, err
	}
	st, err := r.StartState(rules)
	if err != nil {
		return 0, err
	}
	return st.Turn(), nil
}

// AllMoves returns the opening moves followed by the played moves.
func (r *Record) AllMoves() []string {
	out := make([]string, 0, len(r.Opening.Moves)+len(r.Moves))
	out = append(out, r.Opening.Moves...)
	for _, m := range r.Moves {
		out = append(out, m.Move)
	}
	return out
}

// OpeningLabel names a record's opening as the reports do: its name, or
// "opening N" for an unnamed one.
func OpeningLabel(r *Record) string {
	if r.Opening.Name != "" {
		return r.Opening.Name
	}
	return "opening " + strconv.Itoa(r.Opening.Index)
}

// RulesText writes rule settings as the Rules tag of the PGN/PDN file
// does: "key=value key=value".
func RulesText(rules []game.Setting) string {
	parts := make([]string, len(rules))
	for i, s := range rules {
		parts[i] = s.Key + "=" + s.Value
	}
	return strings.Join(parts, " ")
}
