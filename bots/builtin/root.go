package builtin

import (
	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// rootMove is a legal move at the root of a search with its latest score.
type rootMove[M game.Move] struct {
	m     M
	score int
}

// rootSearch is iterative deepening at the root of alphabeta's search,
// the same for both games: the game's searcher fills in the fields and
// calls deepen. The game-specific parts (move generation, evaluation,
// negamax, draw rules, transposition table codes) stay with the searcher
// and are reached through the function fields.
type rootSearch[M game.Move] struct {
	tt *table
	// key is the root position's key in tt.
	key uint64
	// moves are the legal moves at the root: at least one.
	moves []M
	// maxDepth is the deepest iteration the game allows; deepen also
	// stops at Limits.Depth.
	maxDepth int

	// static returns the static score of root move m for the side to
	// move at the root; it orders the moves for the first iteration.
	static func(m M) int
	// search returns the score of root move m for the side to move at the
	// root, searched depth plies deep (m included) within the window
	// (alpha, beta). When the search is stopped the value is meaningless.
	search func(m M, depth, alpha, beta int) int
	// code returns m's code in tt.
	code func(m M) uint16
	// pv returns the expected line from the root, at most n moves, as
	// the transposition table has it.
	pv func(n int) []game.Move
	// settled, if not nil, reports whether an iteration of depth plies
	// whose best move scored best has settled the search, so that no
	// deeper iteration is worth starting.
	settled func(depth, best int) bool
}

// deepen searches r's root moves by iterative deepening within ctl's
// limits and lim.Depth and returns the result of the deepest
// completed iteration, or the better move a stopped iteration had fully
// searched. Each iteration searches the moves in the order of the scores
// of the one before, the best first with the full window and the others
// with a null window, searched again with the full window when they
// raise alpha. A completed iteration stores the root's best move in the
// transposition table, reports its result to lim.Progress and reorders
// the moves by their new scores.
func (r *rootSearch[M]) deepen(ctl *control, lim Limits) Result {
	rm := make([]rootMove[M], len(r.moves))
	for i, m := range r.moves {
		rm[i] = rootMove[M]{m, r.static(m)}
	}
	sortRootMoves(rm)
	res := Result{Move: rm[0].m, Score: rm[0].score}
	maxDepth := r.maxDepth
	if lim.Depth > 0 {
		maxDepth = min(maxDepth, lim.Depth)
	}
	for depth := 1; depth <= maxDepth; depth++ {
		alpha, beta := -WinScore-1, WinScore+1
		best, bestIdx := -WinScore-1, -1
		for i := range rm {
			var sc int
			if i == 0 {
				sc = r.search(rm[i].m, depth, alpha, beta)
			} else {
				sc = r.search(rm[i].m, depth, alpha, alpha+1)
				if sc > alpha && !ctl.stopped {
					sc = r.search(rm[i].m, depth, alpha, beta)
				}
			}
			if ctl.stopped {
				break
			}
			if sc > best {
				best, bestIdx = sc, i
				alpha = max(alpha, sc)
				rm[i].score = sc
			} else {
				// Below alpha: an upper bound only; keep it below the best.
				rm[i].score = min(sc, best-1)
			}
		}
		if bestIdx < 0 {
			break // stopped before the first root move was searched
		}
		if ctl.stopped {
			// A stopped iteration: trust only a move that fully searched
			// better than the first move, the previous iteration's best.
			if bestIdx > 0 {
				res.Move, res.Score = rm[bestIdx].m, best
			}
			break
		}
		sortRootMoves(rm)
		res.Move, res.Score, res.Depth = rm[0].m, best, depth
		r.tt.store(r.key, depth, scoreToTT(best, 0), boundExact, r.code(rm[0].m))
		res.Nodes, res.Elapsed = ctl.nodes, ctl.elapsed()
		res.PV = r.pv(depth)
		ctl.iterationDone()
		if lim.Progress != nil {
			lim.Progress(res)
		}
		if r.settled != nil && r.settled(depth, best) {
			break
		}
		if !ctl.another() {
			break
		}
	}
	if len(res.PV) == 0 || res.PV[0] != res.Move {
		res.PV = []game.Move{res.Move}
	}
	res.Nodes, res.Elapsed = ctl.nodes, ctl.elapsed()
	return res
}

// sortRootMoves sorts rm by score, the best first, keeping the order of
// equal scores (an insertion sort: the moves are few and mostly sorted).
func sortRootMoves[M game.Move](rm []rootMove[M]) {
	for i := 1; i < len(rm); i++ {
		for j := i; j > 0 && rm[j].score > rm[j-1].score; j-- {
			rm[j], rm[j-1] = rm[j-1], rm[j]
		}
	}
}

// historyRow is a row of a history table: the counts of one Cheversi
// piece kind on each square, or of the checkers moves from one square to
// each square.
type historyRow interface {
	[cheversi.NumSquares]int32 | [checkers.NumSquares + 1]int32
}

// ageHistory divides every count in the given history tables (one a
// side, as rows) by 8, so that the cutoffs of earlier searches weigh less
// than those of the next one.
func ageHistory[R historyRow](tables ...[]R) {
	for _, rows := range tables {
		for r := range rows {
			for i := range len(rows[r]) {
				rows[r][i] /= 8
			}
		}
	}
}
