// Package cheversi implements the rules of Cheversi, a placement game on a
// chess board, as the arena referees it (the reference text is
// docs/rules/cheversi.md).
//
// # The game
//
// Each side has eight pieces: K, Q, R, R, B, B, N, N. The board starts
// empty; White moves first and each move places one of the mover's
// unplaced pieces on an empty square. Pieces never move. After 16 plies the
// game ends and the higher score wins, the komi added to Black's; equal
// scores draw. Pieces attack as
// in chess (sliding attacks stop at the first occupied square of either
// color) and only empty squares score: with scoring "attacks" one point per
// piece per attacked empty square, with "squares" one point per empty
// square attacked at all.
//
// # Rule sets
//
// New builds a Rules from a preset and optional overrides. The switches
// are:
//
//	opening           king-first | king-queen | free
//	touch             opponent | any | none
//	bishops_opposite  true | false   (yes | no are accepted too)
//	queen_call        true | false
//	black_king_last   true | false
//	scoring           attacks | squares
//	komi              points added to Black's score: a whole or half number, 0 by default
//
// and the presets are:
//
//	cheversi          king-first  opponent  true   true   true   attacks   (the default)
//	cheversi-classic  king-queen  none      false  false  false  attacks
//	echeversi         king-queen  none      false  false  false  squares
//
// The touch constraint never applies to White's first move, and it is
// lifted for any move that would otherwise have no legal move; a side that
// still has none loses (game.ReasonNoMoves). Under black_king_last Black's
// King is the 16th piece placed, next to the 15th (White's last piece), so
// White's last piece must leave an empty square beside it.
//
// The komi compensates the second mover: Options.Komi holds it in
// half-points, and the result of a finished game is the sign of White's
// score minus Black's minus the komi (Position.Lead). A half-point komi
// leaves no draws. Scores never include it. It may be negative, points
// given to White. No preset has one, and Settings lists it only when it
// is not 0.
//
// # Move notation
//
// A move is "<piece>@<square>": an upper-case piece letter (K, Q, R, B, N)
// for either side, "@", and a lower-case square a1..h8, for example "K@e4"
// or "N@c3". The side is implied by the turn, and the two rooks (bishops,
// knights) of a side are interchangeable, so a Move is just a piece kind
// and a square.
//
// # Position text
//
// A position is written on one line of four fields separated by single
// spaces, for example after 1. K@e4:
//
//	8/8/8/8/4K3/8/8/8 b 1 e4
//
// The fields are:
//
//  1. The board: eight ranks from rank 8 down to rank 1 separated by "/",
//     each listing files a to h with KQRBN for White's pieces, kqrbn for
//     Black's and a digit 1-8 for a run of empty squares (one digit per run).
//  2. The side to move: "w" or "b".
//  3. The ply: the number of pieces placed, 0 to 16.
//  4. The square of the last placed piece, or "-" at ply 0.
//
// The empty board is "8/8/8/8/8/8/8/8 w 0 -". The text holds everything the
// rules need: unplaced pieces, bishop colours, a pending queen call (the
// last piece is the opponent's Queen and the mover's Queen is unplaced) and
// the square Black's King must touch. The komi, like every switch, belongs
// to the rule set and not to the text. ParsePosition accepts only the
// canonical form that Text writes, so texts round-trip exactly.
//
// # Fast path
//
// Position is a small value type with bitboards; search code copies it
// before playing a move. GenerateMoves, CountMoves, Play, Score and Hash
// do not allocate. State wraps a Position and implements game.State for
// the tournament runner.
package cheversi
