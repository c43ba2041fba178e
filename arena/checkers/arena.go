package checkers

// What the arena's generic code asks of checkers (the optional interfaces
// of package game): its standard openings, its draw rules, its PGN form.

import (
	"bytes"
	_ "embed"
	"errors"
	"io"

	"github.com/arena-games/arena/arena/game"
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

// Terminates returns an error when repetition, quiet_moves and max_plies
// are all off, so that a game could go on forever (game.Terminating).
func (r *Rules) Terminates() error {
	if r.repetition == 0 && r.quietMoves == 0 && r.maxPlies == 0 {
		return errors.New("repetition, quiet_moves and max_plies are all off: a game could go on forever; keep at least one")
	}
	return nil
}

// AdjudicatesByAgreement reports that a checkers game may end by the
// bots' agreement on their scores (game.Agreement).
func (r *Rules) AdjudicatesByAgreement() bool { return true }

// PDNGameType returns "21", the PDN game type of American checkers
// (game.PDN).
func (r *Rules) PDNGameType() string { return "21" }

// Highlight returns the from square and every landing square of m, and
// the squares of the men it captured (game.Highlighter).
func (s *State) Highlight(m game.Move) (touched, captured []int) {
	var cm Move
	switch v := m.(type) {
	case Move:
		cm = v
	case *Move:
		cm = *v
	default:
		return nil, nil
	}
	touched = append(touched, cm.From())
	if !cm.IsCapture() {
		return append(touched, cm.To()), nil
	}
	for i := range cm.Jumps() {
		touched = append(touched, cm.Landing(i))
	}
	for sq := range cm.Captured().All() {
		captured = append(captured, sq)
	}
	return touched, captured
}
