package game

import "fmt"

// Color is a side of the board. Cheversi's first mover is White; in checkers
// Black moves first. Results are always stated from White's point of view.
type Color uint8

const (
	White Color = iota
	Black
)

// Other returns the opposing color.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// ParseColor decodes "white" or "black" (also "w" and "b").
func ParseColor(s string) (Color, error) {
	switch s {
	case "white", "w":
		return White, nil
	case "black", "b":
		return Black, nil
	}
	return 0, fmt.Errorf("unknown color %q (want white or black)", s)
}

// Result is the result of a game from White's side.
type Result uint8

const (
	// Ongoing means the game has not ended.
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

// String returns the PGN result token: "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// ParseResult decodes a PGN result token.
func ParseResult(s string) (Result, error) {
	switch s {
	case "1-0":
		return WhiteWins, nil
	case "0-1":
		return BlackWins, nil
	case "1/2-1/2":
		return Draw, nil
	case "*":
		return Ongoing, nil
	}
	return Ongoing, fmt.Errorf("unknown result %q", s)
}

// Win returns the result in which c wins.
func Win(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// Winner reports the winning color of a decisive result.
func (r Result) Winner() (Color, bool) {
	switch r {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return 0, false
}

// Reasons a game ends by the rules. The tournament runner adds its own
// (forfeits) on top of these.
const (
	ReasonScore      = "score"       // Cheversi: all pieces placed, higher score wins or equal scores draw
	ReasonNoMoves    = "no-moves"    // the side to move has no legal move and loses
	ReasonRepetition = "repetition"  // checkers: same position and side to move the Nth time
	ReasonQuietMoves = "quiet-moves" // checkers: N moves each without capture or man move
	ReasonMaxPlies   = "max-plies"   // the length cap was reached
)

// Outcome says whether and how a game ended.
type Outcome struct {
	Result Result // Ongoing while the game goes on
	Reason string // one of the Reason constants when Result != Ongoing
	// Scores holds the final scores indexed by Color for games that keep a
	// score (Cheversi); nil otherwise.
	Scores []int
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Result != Ongoing }

// Move is a legal move decoded against a particular State. Its String method
// returns the canonical notation, which ParseMove accepts back.
type Move interface {
	String() string
}

// State is a game in progress: a position plus whatever history the rules
// need (for example repetition counts). A State is not safe for concurrent use.
type State interface {
	// Turn returns the side to move.
	Turn() Color
	// Ply returns the number of plies played since the start position (for a
	// State built from a position text, the ply the text records, or 0).
	Ply() int
	// LegalMoves appends the legal moves to dst and returns it. It returns
	// dst unchanged when the game is over.
	LegalMoves(dst []Move) []Move
	// ParseMove decodes move text against this State. It returns an error
	// (wrapping ErrIllegalMove or ErrBadNotation) when the text is not a
	// legal move here.
	ParseMove(text string) (Move, error)
	// Play applies a move obtained from this State's ParseMove or LegalMoves.
	Play(m Move) error
	// Outcome reports whether and how the game has ended.
	Outcome() Outcome
	// Text returns the position text (PDN FEN for checkers; see each game's
	// package documentation), which the Rules' ParseState accepts back.
	Text() string
	// Clone returns an independent copy.
	Clone() State
}

// Rules is a game with one fixed rule set.
type Rules interface {
	// Game returns the game's name: "cheversi" or "checkers".
	Game() string
	// Preset returns the name of the preset the rules were built from.
	Preset() string
	// Settings returns every switch with its value, in a fixed order, so
	// that a bot or a log sees the complete rule set.
	Settings() []Setting
	// FirstMover returns the color that moves first.
	FirstMover() Color
	// Start returns the start position.
	Start() State
	// ParseState decodes a position text.
	ParseState(text string) (State, error)
}

// Setting is one rule switch and its value.
type Setting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// PlayText decodes move text against st and plays it: the one step of
// refereeing a move given as text. The error is ParseMove's or Play's; st
// is unchanged when it is not nil.
func PlayText(st State, text string) (Move, error) {
	m, err := st.ParseMove(text)
	if err != nil {
		return nil, err
	}
	if err := st.Play(m); err != nil {
		return nil, err
	}
	return m, nil
}
