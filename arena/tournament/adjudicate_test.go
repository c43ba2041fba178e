package tournament

import (
	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestAdjudicator(t *testing.T) {
	info := func(score int) *journal.SearchInfo { return &journal.SearchInfo{Depth: 5, Score: &score} }
	type step struct {
		side  game.Color
		info  *journal.SearchInfo
		ply   int
		want  game.Result // Ongoing: no verdict yet
		rule  string
		words []string // in the detail
	}
	tests := []struct {
		name  string
		rules config.Adjudication
		steps []step
	}{
		{"resign needs both", config.Adjudication{Resign: &config.ResignRule{Score: 300, Moves: 2}}, []step{
			{game.Black, info(-350), 1, game.Ongoing, "", nil},
			{game.White, info(200), 2, game.Ongoing, "", nil}, // the winner does not agree yet
			{game.Black, info(-400), 3, game.Ongoing, "", nil},
			{game.White, info(310), 4, game.Ongoing, "", nil}, // one move of agreement only
			{game.Black, info(-300), 5, game.Ongoing, "", nil},
			{game.White, info(900), 6, game.WhiteWins, journal.AdjudicatedResign, []string{"b (black) resigns", "last -300 and +900"}},
		}},
		{"a move without a score breaks the run", config.Adjudication{Resign: &config.ResignRule{Score: 300, Moves: 2}}, []step{
			{game.White, info(500), 1, game.Ongoing, "", nil},
			{game.Black, info(-500), 2, game.Ongoing, "", nil},
			{game.White, &journal.SearchInfo{Depth: 3}, 3, game.Ongoing, "", nil},
			{game.Black, info(-500), 4, game.Ongoing, "", nil},
			{game.White, info(500), 5, game.Ongoing, "", nil},
			{game.Black, info(-500), 6, game.Ongoing, "", nil},
			{game.White, info(500), 7, game.WhiteWins, journal.AdjudicatedResign, []string{"on each of their last 2 moves"}},
		}},
		{"the side that just moved can resign", config.Adjudication{Resign: &config.ResignRule{Score: 100, Moves: 1}}, []step{
			{game.White, info(150), 1, game.Ongoing, "", nil},
			{game.Black, info(-150), 2, game.WhiteWins, journal.AdjudicatedResign, nil},
		}},
		{"draw only after the ply", config.Adjudication{Draw: &config.DrawRule{Score: 10, Moves: 2, AfterPly: 6}}, []step{
			{game.Black, info(5), 1, game.Ongoing, "", nil},
			{game.White, info(-10), 2, game.Ongoing, "", nil},
			{game.Black, info(0), 3, game.Ongoing, "", nil},
			{game.White, info(3), 4, game.Ongoing, "", nil},  // agreed, but before ply 6
			{game.Black, info(11), 5, game.Ongoing, "", nil}, // breaks black's run
			{game.White, info(0), 6, game.Ongoing, "", nil},
			{game.Black, info(-2), 7, game.Ongoing, "", nil},
			{game.White, info(1), 8, game.Ongoing, "", nil}, // black has one move of agreement since
			{game.Black, info(0), 9, game.Draw, journal.AdjudicatedDraw, []string{"drawn at ply 9", "within ±10", "w +1, b +0"}},
		}},
	}
	for _, tt := range tests {
		a := newAdjudicator(tt.rules, [2]string{"w", "b"})
		for i, s := range tt.steps {
			v, ok := a.move(s.side, s.info, s.ply)
			if ok != (s.want != game.Ongoing) || ok && (v.result != s.want || v.rule != s.rule) {
				t.Errorf("%s: step %d: verdict %+v, %v; want %v by %q", tt.name, i+1, v, ok, s.want, s.rule)
			}
			for _, w := range s.words {
				if !strings.Contains(v.detail, w) {
					t.Errorf("%s: step %d: detail %q lacks %q", tt.name, i+1, v.detail, w)
				}
			}
		}
	}
	if newAdjudicator(config.Adjudication{MaxPlies: 100}, [2]string{"w", "b"}) != nil {
		t.Error("an adjudicator without rules by agreement")
	}
}
