package cheversi

import (
	"slices"

	"github.com/arena-games/arena/arena/game"
)

// What the arena's generic code asks of Cheversi (the optional interfaces
// of package game).

// humanGames is the outcome of 8951 games between people under the
// cheversi preset, as published by the BrainKing game site.
var humanGames = game.SideBalance{
	Label: "human games on BrainKing",
	Source: "8951 games between people on the BrainKing game site, each from the empty board " +
		"(White won 33.77 %, Black 62.04 %, 4.19 % drawn); bots playing from random openings are " +
		"another population, so the two columns compare rule sets only loosely",
	Wins:   3023,
	Draws:  375,
	Losses: 5553,
}

// SideReference returns, for the cheversi preset as it is, the outcome of
// 8951 games between people on the BrainKing game site: White (the first
// mover) won 3023 (33.77 %), Black 5553 (62.04 %), and 375 (4.19 %) were
// drawn (game.Referenced). Those games start from the empty board and are
// played by people; bots that start from random openings are another
// population, and the Source says so.
func (r *Rules) SideReference() (game.SideBalance, bool) {
	if r.preset != DefaultPreset {
		return game.SideBalance{}, false
	}
	def, err := New(DefaultPreset, nil)
	if err != nil || !slices.Equal(def.Settings(), r.Settings()) {
		return game.SideBalance{}, false
	}
	return humanGames, true
}

// GameLength returns 16: every game ends once both sides have placed
// their eight pieces, if not before (game.Lengthed).
func (r *Rules) GameLength() int { return 16 }

// Highlight returns the square of the piece just placed (game.Highlighter).
func (s *State) Highlight(game.Move) (touched, captured []int) {
	pos := s.Position()
	if sq, ok := pos.Last(); ok {
		return []int{int(sq)}, nil
	}
	return nil, nil
}

// Standing returns the scores of the position and the empty squares each
// side attacks (game.Scorer).
func (s *State) Standing() (scores [2]int, attacked [2]uint64) {
	pos := s.Position()
	empty := ^(pos.Occupied(game.White) | pos.Occupied(game.Black))
	return [2]int{pos.Score(game.White), pos.Score(game.Black)},
		[2]uint64{pos.Attacked(game.White) & empty, pos.Attacked(game.Black) & empty}
}
