package dirreport

import (
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"
)

// TestProved finds what is proved of a tournament's rules from the rules
// text its manifest and PGN record: the rules the text gives, whatever
// preset they started from, and nothing for text that is not a game's
// rules.
func TestProved(t *testing.T) {
	rulesText := func(name, preset string, set ...game.Setting) string {
		r, err := games.New(name, preset, set)
		if err != nil {
			t.Fatal(err)
		}
		return journal.RulesText(r.Settings())
	}
	plain := rulesText("cheversi", "cheversi")
	tests := []struct {
		name, game, preset, rules string
		result                    string // "" for nil
	}{
		{"cheversi", "cheversi", "cheversi", plain, "black wins"},
		{"komi -2", "cheversi", "cheversi", rulesText("cheversi", "cheversi", game.Setting{Key: "komi", Value: "-2"}), "draw"},
		{"cheversi's rules from another preset", "cheversi", "echeversi", plain, "black wins"},
		{"unsolved", "cheversi", "echeversi", rulesText("cheversi", "echeversi"), ""},
		{"checkers", "checkers", "", rulesText("checkers", ""), ""},
		{"not a switch", "cheversi", "cheversi", plain + " touch", ""},
		{"unknown switch", "cheversi", "cheversi", plain + " colour=blue", ""},
		{"unknown game", "go", "", "komi=6.5", ""},
	}
	for _, tt := range tests {
		p := Proved(tt.game, tt.preset, tt.rules)
		if (p == nil) != (tt.result == "") || (p != nil && p.Result != tt.result) {
			t.Errorf("%s: %+v, want %q", tt.name, p, tt.result)
		}
	}
}
