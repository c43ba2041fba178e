// Package pgn reads game records in PGN (chess) and PDN (draughts and
// checkers) form, as written by cutechess, fastchess and the arena itself,
// and writes the arena's games in that form: AppendRecord writes a
// journal record as one game, and FileRewrite rebuilds the game file of a
// tournament directory (games.pgn, or games.pdn for checkers; FileName).
//
// The reader is tolerant and streams: it keeps the tag pairs and the
// result of each game and skips the move text, with its comments ({...}
// and ;...), variations ((...)), numeric annotation glyphs ($n), move
// numbers and escape lines (% in the first column). A game ends at its
// result token (1-0, 0-1, 1/2-1/2, *, or PDN's 2-0, 0-2, 1-1), at the next
// tag section, or at the end of the input. It holds one buffer of input
// and one game's tags at a time, whatever the size of the file, and makes
// a few allocations per game, none per move.
//
// Only damage that leaves the rest of the input unreadable (an
// unterminated tag pair or comment) is an error, and input that is not
// text at all (control bytes such as NUL, as in a binary or compressed
// file); the error names the file and the line.
package pgn
