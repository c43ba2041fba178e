package game

import "errors"

var (
	// ErrBadNotation means a move text does not follow the game's notation.
	ErrBadNotation = errors.New("bad move notation")
	// ErrIllegalMove means a well-formed move is not legal in the position.
	ErrIllegalMove = errors.New("illegal move")
	// ErrBadPosition means a position text cannot be decoded.
	ErrBadPosition = errors.New("bad position")
	// ErrBadRules means an unknown preset, switch or switch value.
	ErrBadRules = errors.New("bad rules")
	// ErrGameOver means a move was played after the game ended.
	ErrGameOver = errors.New("game is over")
)
