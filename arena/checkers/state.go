package checkers

import (
	"fmt"
	"slices"

	"github.com/arena-games/arena/arena/game"
)

// State is a game of checkers in progress: a Position, the ply count, and
// what the draw rules need (the plies since the last capture or man move and
// the hashes of the positions since then). It implements game.State and,
// like every game.State, is not safe for concurrent use. Create States with
// Rules.Start, Rules.ParseState or Rules.NewState.
type State struct {
	rules   *Rules
	pos     Position
	ply     int
	quiet   int      // plies since the last capture or man move
	history []uint64 // hashes since the last capture or man move, current last
	outcome game.Outcome
}

var _ game.State = (*State)(nil)

// Position returns the current position.
func (s *State) Position() Position { return s.pos }

// Rules returns the rules the game is played by.
func (s *State) Rules() *Rules { return s.rules }

// Turn returns the side to move.
func (s *State) Turn() game.Color { return s.pos.turn }

// Ply returns the number of plies played since the State was created.
func (s *State) Ply() int { return s.ply }

// Hash returns the Zobrist hash of the current position (see Position.Hash).
func (s *State) Hash() uint64 { return s.pos.hash }

// QuietPlies returns the number of plies since the last capture or man move
// (or since the State was created).
func (s *State) QuietPlies() int { return s.quiet }

// Repetitions returns how many times the current position, with the same
// side to move, has occurred in the game so far, this time included.
func (s *State) Repetitions() int {
	n := 0
	for _, h := range s.history {
		if h == s.pos.hash {
			n++
		}
	}
	return n
}

// Outcome reports whether and how the game has ended.
func (s *State) Outcome() game.Outcome { return s.outcome }

// Text returns the position in canonical PDN FEN (see Position.String).
func (s *State) Text() string { return s.pos.String() }

// String returns the position in canonical PDN FEN.
func (s *State) String() string { return s.pos.String() }

// Clone returns an independent copy, a *State.
func (s *State) Clone() game.State {
	c := *s
	c.history = slices.Clone(s.history)
	return &c
}

// Moves appends the legal moves to dst in notation order (by from square,
// then landing squares) and returns it; it returns dst unchanged when the
// game is over.
func (s *State) Moves(dst []Move) []Move {
	if s.outcome.Over() {
		return dst
	}
	n := len(dst)
	dst = s.pos.GenerateMoves(dst)
	slices.SortFunc(dst[n:], compareMoves)
	return dst
}

// LegalMoves appends the legal moves, as Move values, to dst in the order
// of Moves; it returns dst unchanged when the game is over.
func (s *State) LegalMoves(dst []game.Move) []game.Move {
	var buf [64]Move
	for _, m := range s.Moves(buf[:0]) {
		dst = append(dst, m)
	}
	return dst
}

// ParseMove decodes move text (see Position.ParseMove). Once the game is
// over every text is rejected with an error wrapping both
// game.ErrIllegalMove and game.ErrGameOver.
func (s *State) ParseMove(text string) (game.Move, error) {
	if s.outcome.Over() {
		return nil, s.overError(text)
	}
	m, err := s.pos.ParseMove(text)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (s *State) overError(text string) error {
	return fmt.Errorf("%w: %q: %w (%s by %s)", game.ErrIllegalMove, text, game.ErrGameOver,
		s.outcome.Result, s.outcome.Reason)
}

// Play applies a Move (or *Move) that is legal in the current position and
// then adjudicates the game. It returns an error wrapping game.ErrGameOver
// when the game has ended, or game.ErrIllegalMove when m is not a legal
// checkers move here.
func (s *State) Play(m game.Move) error {
	switch mv := m.(type) {
	case Move:
		return s.PlayMove(mv)
	case *Move:
		if mv != nil {
			return s.PlayMove(*mv)
		}
	}
	return fmt.Errorf("%w: %T is not a checkers move", game.ErrIllegalMove, m)
}

// PlayMove is Play for a Move.
func (s *State) PlayMove(m Move) error {
	if s.outcome.Over() {
		return s.overError(m.String())
	}
	var buf [64]Move
	if !slices.Contains(s.pos.GenerateMoves(buf[:0]), m) {
		return fmt.Errorf("%w: %s is not legal in %s", game.ErrIllegalMove, m, s.pos)
	}
	s.pos.Play(m)
	s.ply++
	if m.IsCapture() || !m.IsKingMove() {
		// Irreversible: no earlier position can occur again.
		s.quiet = 0
		s.history = append(s.history[:0], s.pos.hash)
	} else {
		s.quiet++
		s.history = append(s.history, s.pos.hash)
	}
	s.adjudicate()
	return nil
}

// adjudicate sets the outcome of the current position. A side without a
// legal move loses, and that takes precedence over the draw rules, which
// are checked in the order repetition, quiet moves, length cap.
func (s *State) adjudicate() {
	r := s.rules
	switch {
	case !s.pos.HasMoves():
		s.outcome = game.Outcome{Result: game.Win(s.pos.turn.Other()), Reason: game.ReasonNoMoves}
	case r.repetition > 0 && s.Repetitions() >= r.repetition:
		s.outcome = game.Outcome{Result: game.Draw, Reason: game.ReasonRepetition}
	case r.quietMoves > 0 && s.quiet >= 2*r.quietMoves:
		s.outcome = game.Outcome{Result: game.Draw, Reason: game.ReasonQuietMoves}
	case r.maxPlies > 0 && s.ply >= r.maxPlies:
		s.outcome = game.Outcome{Result: game.Draw, Reason: game.ReasonMaxPlies}
	default:
		s.outcome = game.Outcome{}
	}
}

// Perft returns the number of move sequences of the given depth from the
// current position, ignoring the draw rules (see Position.Perft).
func (s *State) Perft(depth int) uint64 { return s.pos.Perft(depth) }
