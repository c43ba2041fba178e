// Package game defines the small, game-agnostic view of a board game that the
// arena, the protocol adapters and the built-in bots share.
//
// Each game lives in its own package (cheversi, checkers) with fast, typed
// internals. Those packages also implement the interfaces here so that the
// tournament runner can referee any game without knowing its rules: it asks a
// State for its legal moves, decodes a bot's move text against the State
// (once, at the boundary), plays it, and reads the Outcome when the game ends.
//
// What else generic code needs of a game it asks through small optional
// interfaces, found by type assertion (optional.go): its standard openings
// (Ballots), whether its switches let a game go on forever (Terminating),
// whether the bots may end a game by agreement (Agreement), its PGN form
// (PDN), outside figures for its reports (Referenced), its length
// (Lengthed), and what a board viewer shows (Highlighter, Scorer). A game
// registered with package games that implements none of them is played,
// recorded, written and reported like any other.
package game
