package viewer

import (
	_ "embed"
	"errors"
	"fmt"

	"github.com/arena-games/arena/arena/game"
)

// Script is the JavaScript that draws boards and game lists (the global
// ArenaViewer); Style is the CSS it relies on. Pages inline them or serve
// them as files.
var (
	//go:embed viewer.js
	Script string
	//go:embed viewer.css
	Style string
)

// Info is the search information a bot reported with a move (the last info
// line it sent while thinking), as the journal records it.
type Info struct {
	Depth  int      `json:"depth,omitempty"`
	Score  *int     `json:"score,omitempty"`
	Nodes  int64    `json:"nodes,omitempty"`
	TimeMS int64    `json:"time_ms,omitempty"`
	PV     []string `json:"pv,omitempty"`
	Text   string   `json:"text,omitempty"`
}

// Move is one move of a recorded game: its text, the time the bot took
// (0 for opening moves, which no bot played) and the search information
// it reported, if any.
type Move struct {
	Text string
	MS   float64
	Info *Info
}

// Ply is a position of a game and the move that led to it. The JSON keys
// are short because a report can hold thousands of games.
type Ply struct {
	// Move is the move that led here, "" for the start position.
	Move string `json:"m,omitempty"`
	// Text is the position text (see each game's package documentation).
	Text string `json:"p"`
	// MS is the time the move took; Info the mover's search information.
	MS   float64 `json:"t,omitempty"`
	Info *Info   `json:"i,omitempty"`
	// Marks are the squares the move touched: the placed square in
	// Cheversi (0 = a1 ... 63 = h8); the from square and every landing
	// square in checkers (1..32).
	Marks []int `json:"h,omitempty"`
	// Captured are the squares of the pieces a checkers move captured.
	Captured []int `json:"x,omitempty"`
	// Scores are Cheversi's scores (White, Black) in this position, and
	// Attacked the empty squares each side attacks, as 16 hex digits of a
	// bitboard with bit 0 = a1.
	Scores   *[2]int    `json:"s,omitempty"`
	Attacked *[2]string `json:"a,omitempty"`
}

// Forfeit says who lost a game by breaking a tournament rule, and why.
type Forfeit struct {
	Kind   string `json:"kind"`
	Bot    string `json:"bot"`
	Color  string `json:"color"` // "white" or "black"
	Detail string `json:"detail,omitempty"`
}

// Game is one game with every position, as the viewer shows it.
type Game struct {
	ID           int      `json:"id"`
	Round        int      `json:"round,omitempty"`
	Game         string   `json:"game"`
	White        string   `json:"white"`
	Black        string   `json:"black"`
	Opening      string   `json:"opening,omitempty"`
	OpeningPlies int      `json:"opening_plies"` // the first OpeningPlies moves are the opening's
	Result       string   `json:"result"`        // "1-0", "0-1", "1/2-1/2", or "*" while it goes on
	Reason       string   `json:"reason,omitempty"`
	Forfeit      *Forfeit `json:"forfeit,omitempty"`
	// Adjudication says why an adjudicated game ended: the rule and the
	// bots' reported scores that met it.
	Adjudication string `json:"adjudication,omitempty"`
	// Clocks are White's and Black's time controls, as the tournament
	// describes them ("1s/move", "10m0s+5s"), when known.
	Clocks []string `json:"clocks,omitempty"`
	Plies  []Ply    `json:"plies"` // the start position, then one per move
}

// ErrReplay is wrapped by Replay's errors: a recorded move the rules
// reject.
var ErrReplay = errors.New("recorded game does not replay")

// Replay plays moves from the start position of rules and returns the
// start position followed by the position after every move, each with the
// squares the move touched and, for Cheversi, the scores and attacked
// squares. It stops at the first move the rules reject, returning the
// plies before it and an error wrapping ErrReplay and the rules' error.
func Replay(rules game.Rules, moves []Move) ([]Ply, error) {
	return ReplayFrom(rules.Start(), moves)
}

// ReplayFrom is Replay from the position st (a game that started from an
// opening's position), which it plays the moves on.
func ReplayFrom(st game.State, moves []Move) ([]Ply, error) {
	plies := make([]Ply, 0, len(moves)+1)
	plies = append(plies, describe(st, Ply{Text: st.Text()}, nil))
	for i, mv := range moves {
		m, err := game.PlayText(st, mv.Text)
		if err != nil {
			return plies, fmt.Errorf("%w: ply %d %q: %w", ErrReplay, i+1, mv.Text, err)
		}
		plies = append(plies, describe(st, Ply{Move: m.String(), Text: st.Text(), MS: mv.MS, Info: mv.Info}, m))
	}
	return plies, nil
}

// Step is Replay for one more move: it plays text on st and describes the
// position after it. st is unchanged on an error.
func Step(st game.State, text string) (Ply, error) {
	m, err := game.PlayText(st, text)
	if err != nil {
		return Ply{}, err
	}
	return describe(st, Ply{Move: m.String(), Text: st.Text()}, m), nil
}

// Start describes the position of st without a move (the first Ply).
func Start(st game.State) Ply { return describe(st, Ply{Text: st.Text()}, nil) }

// describe adds what the rules say about st (after m, nil for none) to p:
// the squares m touched (game.Highlighter) and the scores
// (game.Scorer).
func describe(st game.State, p Ply, m game.Move) Ply {
	if h, ok := st.(game.Highlighter); ok && m != nil {
		p.Marks, p.Captured = h.Highlight(m)
	}
	if sc, ok := st.(game.Scorer); ok {
		scores, attacked := sc.Standing()
		p.Scores = &scores
		p.Attacked = &[2]string{hex64(attacked[game.White]), hex64(attacked[game.Black])}
	}
	return p
}

func hex64(b uint64) string { return fmt.Sprintf("%016x", b) }
