package game

import "io"

// The interfaces below are optional: a game's Rules (or States) implement
// those that apply to it, and the arena's generic code finds them by type
// assertion, as io.Copy finds an io.WriterTo. A game without them gets the
// generic behaviour each one names.

// Ballots is implemented by Rules whose tournaments open, unless told
// otherwise, from a table of standard openings rather than from the start
// position: checkers from the ACF 3-move ballots. Without it a tournament
// starts from the start position.
type Ballots interface {
	// Ballots returns the table, in the ACF ballot table format: tab-separated
	// columns under a header naming at least acf_no, moves, class and ctd.
	Ballots() io.Reader
}

// Terminating is implemented by Rules whose switches can let a game go on
// forever (checkers with every draw rule and the length cap turned off).
// A tournament refuses such rules. Without it, every game is taken to end.
type Terminating interface {
	// Terminates returns nil when every game under the rules ends, and
	// otherwise an error that says which switches to change.
	Terminates() error
}

// Agreement is implemented by Rules under which a tournament may end a
// game by the bots' agreement on their reported scores (resign and draw
// adjudication): long games, whose end the bots can see coming. Without
// it a tournament refuses those rules of adjudication.
type Agreement interface {
	// AdjudicatesByAgreement reports whether the rules allow it.
	AdjudicatesByAgreement() bool
}

// PDN is implemented by Rules whose games are written in PDN, the draughts
// form of PGN (games.pdn, with a GameType tag), rather than in PGN with a
// Variant tag naming the preset.
type PDN interface {
	// PDNGameType returns the value of the GameType tag: "21" for
	// American checkers.
	PDNGameType() string
}

// SideBalance is the outcome of games played elsewhere under a rule set,
// counted from the first mover's side, which the reports set beside a
// tournament's as a reference.
type SideBalance struct {
	Label string // names the games, e.g. "human games on BrainKing"
	// Source says where the figure comes from and how its games differ
	// from a tournament's, in a sentence for the reader.
	Source              string
	Wins, Draws, Losses int // of the first mover
}

// Referenced is implemented by Rules for which such an outcome is known.
type Referenced interface {
	// SideReference returns the outcome of games played elsewhere under
	// the rules; ok is false when none is known for them (another
	// preset). It holds for the preset's rules as they are, not for a
	// preset with switches changed.
	SideReference() (ref SideBalance, ok bool)
}

// Solution is what is proved of a rule set's game from its start position
// under perfect play, which the reports set beside a tournament's side
// balance (see games.Solved).
type Solution struct {
	// Statement says it in a clause, naming the sides: "from the empty
	// board, black wins with perfect play; best play leaves black exactly
	// 2 points ahead".
	Statement string `json:"statement"`
	// Result says the value alone, for a table: "black wins", "draw",
	// "white at least draws".
	Result string `json:"result"`
	// Source says how it was proved and how a tournament's games differ
	// from perfect play, in a clause for the reader.
	Source string `json:"source"`
}

// Lengthed is implemented by Rules under which every game ends within a
// number of plies the game itself fixes, however it is played (Cheversi:
// one piece placed a ply, every piece placed after 16). Without it a game
// may last as long as its switches allow.
type Lengthed interface {
	// GameLength returns the most plies a game lasts.
	GameLength() int
}

// Highlighter is implemented by States that can tell a board viewer which
// squares the move just played touched and which pieces it took, numbered
// as the game's position text numbers squares (Cheversi: the placed
// square, 0 = a1 ... 63 = h8; checkers: the from square and every landing
// square, 1..32, and the captured men). Without it a viewer marks nothing.
type Highlighter interface {
	// Highlight describes m, the move that led to the State.
	Highlight(m Move) (touched, captured []int)
}

// Scorer is implemented by States of games that keep score as they go
// (Cheversi), for a board viewer to show with every position.
type Scorer interface {
	// Standing returns each side's score, indexed by Color, and the
	// empty squares each side attacks as bitboards (bit 0 = the first
	// square of the position text's numbering).
	Standing() (scores [2]int, attacked [2]uint64)
}
