package tournament

import (
	"fmt"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/game"
)

// adjudicator applies the rules by agreement (ResignRule, DrawRule) to one
// game: after each move it looks at the score the mover reported. A move
// without a score breaks that side's runs.
type adjudicator struct {
	resign *config.ResignRule
	draw   *config.DrawRule
	names  [2]string
	// Per side: the run of consecutive moves reporting at most -resign
	// score (lost), at least +resign score (won) and within the draw
	// score (even), and the last score reported.
	lost, won, even [2]int
	last            [2]int
}

// newAdjudicator returns the adjudicator of a game between names (by
// colour), or nil when no rule by agreement is configured.
func newAdjudicator(a config.Adjudication, names [2]string) *adjudicator {
	if a.Resign == nil && a.Draw == nil {
		return nil
	}
	return &adjudicator{resign: a.Resign, draw: a.Draw, names: names}
}

// verdict is an adjudicated end of a game.
type verdict struct {
	result game.Result
	rule   string // AdjudicatedResign or AdjudicatedDraw
	detail string
}

// move records that side moved reporting info, ply plies into the game
// (opening included) after the move, and returns the verdict when the
// game is now adjudicated.
func (a *adjudicator) move(side game.Color, info *journal.SearchInfo, ply int) (verdict, bool) {
	if info == nil || info.Score == nil {
		a.lost[side], a.won[side], a.even[side] = 0, 0, 0
		return verdict{}, false
	}
	s := *info.Score
	a.last[side] = s
	run := func(n *int, in bool) {
		if in {
			*n++
		} else {
			*n = 0
		}
	}
	if r := a.resign; r != nil {
		run(&a.lost[side], s <= -r.Score)
		run(&a.won[side], s >= r.Score)
		for _, loser := range [2]game.Color{side, side.Other()} {
			winner := loser.Other()
			if a.lost[loser] >= r.Moves && a.won[winner] >= r.Moves {
				return verdict{game.Win(winner), journal.AdjudicatedResign, fmt.Sprintf(
					"%s (%s) resigns: on each of their last %d moves %s reported %d or less and %s (%s) %d or more (last %+d and %+d)",
					a.names[loser], loser, r.Moves, a.names[loser], -r.Score, a.names[winner], winner, r.Score,
					a.last[loser], a.last[winner])}, true
			}
		}
	}
	if d := a.draw; d != nil {
		run(&a.even[side], s >= -d.Score && s <= d.Score)
		if ply >= d.AfterPly && a.even[game.White] >= d.Moves && a.even[game.Black] >= d.Moves {
			return verdict{game.Draw, journal.AdjudicatedDraw, fmt.Sprintf(
				"drawn at ply %d: on each of their last %d moves both bots reported a score within ±%d (last %s %+d, %s %+d)",
				ply, d.Moves, d.Score, a.names[game.White], a.last[game.White], a.names[game.Black], a.last[game.Black])}, true
		}
	}
	return verdict{}, false
}
