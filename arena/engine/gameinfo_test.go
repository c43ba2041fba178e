package engine

import (
	"testing"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/protocol"
)

// TestGameInfoOnlyWhenAsked checks that newgame is followed by gameinfo,
// the opponent and the opening, for a bot that asked for them, and by
// isready alone for the others.
func TestGameInfoOnlyWhenAsked(t *testing.T) {
	rules, err := checkers.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame{Rules: rules, Color: game.Black, Opponent: "alphabeta", Opening: "ACF 1 Edinburgh"}
	for _, c := range []struct {
		id   protocol.ID
		want []string
	}{
		{protocol.ID{Games: []string{"checkers"}}, []string{"newgame game checkers preset american rules repetition=3 quiet_moves=40 max_plies=400 color black", "isready"}},
		{protocol.ID{Games: []string{"checkers"}, GameInfo: true}, []string{"newgame game checkers preset american rules repetition=3 quiet_moves=40 max_plies=400 color black",
			"gameinfo opponent alphabeta opening ACF 1 Edinburgh", "isready"}},
	} {
		e, written, stop := scriptedEngine(t, c.id, "")
		if _, err := e.sendNewGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		for i, want := range c.want {
			if got := <-written; got != want {
				t.Errorf("gameinfo %v: line %d: %q, want %q", c.id.GameInfo, i+1, got, want)
			}
		}
		stop()
	}
}
