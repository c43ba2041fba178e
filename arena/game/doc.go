// Package game defines the small, game-agnostic view of a board game that the
// arena, the protocol adapters and the built-in bots share.
//
// Each game lives in its own package (cheversi, checkers) with fast, typed
// internals. Those packages also implement the interfaces here so that the
// tournament runner can referee any game without knowing its rules: it asks a
// State for its legal moves, decodes a bot's move text against the State
// (once, at the boundary), plays it, and reads the Outcome when the game ends.
package game
