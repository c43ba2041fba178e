// Package builtin implements the arena's built-in bots for Cheversi and
// American checkers, both as in-process players and as protocol bots.
//
// There are three bots, from weakest to strongest:
//
//   - random plays a uniformly random legal move, from a seeded generator;
//   - greedy plays the move with the best immediate result: in Cheversi
//     the score difference after the move, in checkers the material after
//     the move (kings worth more than men) once the captures the opponent
//     is then forced to make have been played out; ties are broken at
//     random;
//   - alphabeta searches with iterative deepening, principal variation
//     alpha-beta, a transposition table, killer and history move ordering
//     and a clock checked inside the search. Its Cheversi evaluation is the
//     score difference plus the potential of the pieces still to be placed
//     and the room left for them; near the end it searches every remaining
//     ply, so the last plies are played exactly. Its checkers evaluation
//     counts material (kings above men), advancement, the back-rank guard,
//     the centre, mobility and, when ahead, the pull toward exchanges and
//     the enemy pieces; forced captures are searched to quiescence, and
//     repetitions, the quiet-move rule and the length cap count as draws.
//
// Every Player works on the typed positions of the rules packages
// (cheversi.Position and checkers.Position): a Player type-asserts the
// game.State it is given to *cheversi.State or *checkers.State, copies the
// position and searches on copies, never on move texts. Random plays any
// game.State.
//
// # Protocol bots
//
// NewBot wraps a Player as an sdk.Bot and Run plays it over the arena
// protocol; the arena starts them with "arena bot NAME [flags]" (see
// Options.AddFlags for the flags) and the cmd/arena-random, cmd/arena-greedy
// and cmd/arena-alphabeta commands do the same as ordinary programs. The
// time for a move is Budget's share of the clock: a fraction of the
// remaining time plus most of the increment, or most of a fixed move time,
// less a safety overhead, and never more than a --movetime cap.
package builtin
