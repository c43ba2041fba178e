// Package solve finds the exact value of Cheversi positions under any rule
// set, and proves it.
//
// # The solver
//
// A Solver searches the game tree to its end (every game lasts 16 plies)
// with alpha-beta on the final score margin, the side to move's score
// minus its opponent's. Solve asks one question of the search, with the
// window (-1, 1): is the margin above 0, below 0, or 0? That is the win,
// draw or loss of the side to move. Margin finds the exact margin with a
// series of null-window searches (MTD(f)). A transposition table keyed by
// the position (not the order of its moves) keeps the bounds each search
// finds; the moves are tried in the order of how often they decided
// positions at the same ply so far (the history heuristic), then of how
// much they change the margin at once; positions with a child already known to be good enough
// stop before searching any (enhanced transposition cutoffs); the score
// margin is kept up to date move by move; and under black_king_last, whose
// last ply is Black's King next to White's last piece, the last ply is one
// pass over at most eight squares, and the last two are one pass over
// White's last moves and, for each, Black's King squares, without playing
// either move (under the scoring "attacks", an upper bound read from two
// tables settles nearly every one of White's last moves before the exact
// change is counted).
//
// # Work units
//
// The whole game is too large for one process to solve in one go. A
// Driver cuts the tree at a ply (the cut) and solves each position there
// as a unit, recording it in a Results file before the next; the values
// above the cut follow from the units' by minimax. A stopped solve loses at
// most the units in progress. Which units are needed depends on the values
// found, and the driver asks no more than it needs: a value is two tests,
// "at least a draw?" and then "a win?", and a move that settles a test
// settles it whatever the other moves are. The driver looks at a
// position's moves in order and stops at the first that settles the test;
// it waits for a position's first move before its others (most positions
// are decided by their first move), and once the first move is known not
// to settle it, solves all the others at once ("young brothers wait", as
// in parallel alpha-beta). The order is the history heuristic's: the moves
// that settled most tests at the same ply before come first, then the
// solver's order. The bounds the units show are also computed upward, from
// each solved position to its parents (a position's bounds from all its
// moves'), so a walk in any order of moves sees what another settled: the
// proof writer's and a status's, and the driver's own after a restart.
// Positions that are images of each other under the eight symmetries of the
// board are one unit.
//
// # Proofs
//
// WriteProof writes the proof of a value from solved units, as bounds: for
// "at least" a win or a draw the move that holds it, for "at most" a loss
// or a draw every move, down to the cut ply, and each leaf's value.
// ReadProof checks the tree (that it follows the rules, leaves out no move
// it must have and that each bound follows from its children's) and
// CheckLeaves solves leaves again, a sample or all of them. So a wrong
// value cannot hide in a proof that a test checks.
package solve
