// Package openings reads and makes the openings a tournament's games start
// from: fixed sequences of plies from the start position, in a game's
// canonical notation.
//
// Openings come from files of move sequences (Parse), from tables of ACF
// ballots such as checkers' 3-move ballots (ParseBallots, with its decks),
// or are drawn at random from a seed (Random). Canonicalize plays an
// opening under a game's rules, rewriting its moves in canonical notation
// and refusing one that is illegal or ends the game. Files are read only as
// far as needed and never beyond Max openings or MaxFileSize bytes.
package openings
