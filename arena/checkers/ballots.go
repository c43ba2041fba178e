package checkers

import (
	"bytes"
	_ "embed"
	"io"
)

// ballotTable is the ACF 3-move ballot table: the 174 ballots in ACF order
// with their class (crossboard, mailplay/new or barred), their CTD mark,
// name and the position after the three plies.
//
//go:embed ballots.tsv
var ballotTable []byte

// Ballots returns the ACF 3-move ballot table, the standard openings of
// checkers tournaments (game.Ballots): tab-separated, with a header line
// naming the columns acf_no, moves, class, ctd, name and fen_after.
func (r *Rules) Ballots() io.Reader { return bytes.NewReader(ballotTable) }
