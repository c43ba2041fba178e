package cheversi

import (
	"fmt"

	"github.com/arena-games/arena/arena/game"
)

// State is a Cheversi game in progress. It implements game.State; its
// moves are Move values. A State is not safe for concurrent use.
type State struct {
	rules *Rules
	pos   Position
}

var _ game.State = (*State)(nil)

// Rules returns the rule set the game is played under.
func (s *State) Rules() *Rules { return s.rules }

// Position returns a copy of the current position.
func (s *State) Position() Position { return s.pos }

// Turn returns the side to move.
func (s *State) Turn() game.Color { return s.pos.Turn() }

// Ply returns the number of pieces placed.
func (s *State) Ply() int { return s.pos.Ply() }

// LegalMoves appends the legal moves (as Move values) to dst and returns
// it; dst is returned unchanged when the game is over.
func (s *State) LegalMoves(dst []game.Move) []game.Move {
	var buf [NumPieces * NumSquares]Move
	for _, m := range s.pos.GenerateMoves(buf[:0]) {
		dst = append(dst, boxedMoves[m])
	}
	return dst
}

// boxedMoves holds every valid Move as a game.Move, so that listing the
// legal moves does not allocate one interface value per move.
var boxedMoves = func() (b [numMoveCodes]game.Move) {
	for pc := range Piece(NumPieces) {
		for sq := range Square(NumSquares) {
			b[NewMove(pc, sq)] = NewMove(pc, sq)
		}
	}
	return b
}()

// ParseMove decodes move text and checks that it is legal here. The
// returned game.Move is a Move. Errors wrap game.ErrBadNotation or
// game.ErrIllegalMove (and game.ErrGameOver once the game has ended).
func (s *State) ParseMove(text string) (game.Move, error) {
	m, err := s.pos.ParseMove(text)
	if err != nil {
		return nil, err
	}
	return boxedMoves[m], nil
}

// Play applies m, which must be a legal Move. Anything else returns an
// error wrapping game.ErrIllegalMove and leaves the state unchanged.
func (s *State) Play(m game.Move) error {
	mv, ok := m.(Move)
	if !ok {
		return fmt.Errorf("%w: %v is a %T, not a cheversi move", game.ErrIllegalMove, m, m)
	}
	return s.PlayMove(mv)
}

// PlayMove applies m after checking that it is legal; otherwise it returns
// an error wrapping game.ErrIllegalMove that says why.
func (s *State) PlayMove(m Move) error {
	if err := s.pos.check(m); err != nil {
		return err
	}
	s.pos.Play(m)
	return nil
}

// Outcome reports whether and how the game has ended; see
// Position.Outcome.
func (s *State) Outcome() game.Outcome { return s.pos.Outcome() }

// Text returns the position text, which Rules.ParseState accepts back.
func (s *State) Text() string { return s.pos.Text() }

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// Perft returns the number of legal move sequences of the given depth from
// the current position (1 for depth 0 or less, 0 when the game is over and
// depth is positive); see Position.Perft.
func (s *State) Perft(depth int) uint64 { return s.pos.Perft(depth) }
