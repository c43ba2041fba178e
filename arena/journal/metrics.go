package journal

import (
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/metrics"
)

// MetricsGame returns a record as the design metrics take it (package
// metrics): its result and how it ended, its length, its final scores, the
// legal moves the referee saw at every ply (replayed under rules, the
// rules the game was played under; nil to leave them out) and the
// evaluations the bots sent with their moves. A forfeit's reason is
// "forfeit (KIND)". It fails when the result or first mover do not decode
// or a move does not replay.
func MetricsGame(rules game.Rules, r *Record) (metrics.Game, error) {
	res, err := r.GameResult()
	if err != nil {
		return metrics.Game{}, err
	}
	first, err := r.FirstMoverColor()
	if err != nil {
		return metrics.Game{}, err
	}
	g := metrics.Game{FirstMover: first, Result: res, Reason: r.Reason, Forfeit: r.Forfeit != nil,
		Plies: len(r.Opening.Moves) + len(r.Moves)}
	if r.Forfeit != nil {
		g.Reason = ReasonForfeit + " (" + r.Forfeit.Kind + ")"
	}
	if r.Scores != nil {
		g.Scores = []int{r.Scores.White, r.Scores.Black}
	}
	// The side that moves first in this game: the first mover, or the
	// side to move of the opening's position.
	start := first
	if rules != nil {
		st, err := r.StartState(rules)
		if err != nil {
			return metrics.Game{}, err
		}
		start = st.Turn()
		if g.Legal, err = metrics.LegalFrom(st, r.AllMoves()); err != nil {
			return metrics.Game{}, err
		}
	} else if start, err = r.StartTurn(); err != nil {
		return metrics.Game{}, err
	}
	opening := len(r.Opening.Moves)
	for i, m := range r.Moves {
		if m.Random || m.Info == nil || m.Info.Score == nil {
			continue
		}
		ply := opening + i + 1
		mover := start
		if ply%2 == 0 {
			mover = start.Other()
		}
		g.Evals = append(g.Evals, metrics.Eval{Ply: ply, Mover: mover, Score: *m.Info.Score})
	}
	return g, nil
}
