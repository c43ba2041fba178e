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
