// Package checkers implements American checkers (English draughts) as the
// arena referees it: the rules, the numeric move notation, PDN FEN
// positions, the arena's draw rules, and a fast bitboard move generator for
// perft and for search engines.
//
// # Board and notation
//
// The 32 playing squares are numbered 1..32 with Black's side at the top:
// the top row holds 1-4 (square 4 is the top-right corner), the next row
// 5-8 (square 5 on the left edge), down to 29-32 (29 is the bottom-left
// corner). Black starts on 1-12 and moves first, toward higher numbers;
// White starts on 21-32.
//
// A simple move is written "11-15"; a capture lists every landing square,
// "1x10x19". Move.String always writes that full form. ParseMove also
// accepts the short form "1x19" for a multi-jump when exactly one legal
// capture path joins the two squares, and rejects it, naming the
// candidates, when several do.
//
// Positions are written in PDN FEN: the side to move, then each side's
// squares with kings prefixed by K, for example "W:W17,22,K30:B1,2,K13".
// ParsePosition also accepts ranges ("B1-12"), the color fields in either
// order and a trailing "."; Position.String writes the canonical form, White
// first, squares in increasing order.
//
// # Rules
//
// Men step diagonally forward, kings forward or backward. Capturing is
// compulsory, but the player chooses among the captures freely. A capture
// goes on while the piece can jump again; no piece is jumped twice, jumped
// pieces stay on the board (blocking) until the move ends, and the starting
// square counts as empty. Men capture forward only, kings in all four
// directions, and a man may capture a king. A man reaching the far row is
// crowned and its move ends. A side without a legal move loses
// (game.ReasonNoMoves).
//
// # Draw rules
//
// The arena adjudicates draws with three switches (see New): repetition
// (the same position with the same side to move for the Nth time, default
// 3), quiet_moves (N moves by each side with no capture and no man moved,
// default 40) and max_plies (a length cap, default 400). Each is turned off
// with 0. A State keeps the hashes of the positions since the last capture
// or man move, as no earlier position can recur after one. When the side to
// move has no legal move, that loss takes precedence over the draw rules.
//
// # Fast path
//
// Position is a value type of three 32-bit bitboards (bit i is square i+1),
// the side to move and a Zobrist hash kept up to date by Play. Move is a
// fixed-size value holding the from and to squares, every landing square,
// the captured squares and flags, so GenerateMoves, Play, CountMoves and
// Perft do not allocate. Perft counts every distinct capture path as a
// move (paths over different pieces, or over the same pieces in another
// order, that end on the same square count separately); it makes moves on
// bare bitboards and counts the last ply in bulk without making it.
package checkers
