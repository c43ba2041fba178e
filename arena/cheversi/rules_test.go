package cheversi

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestPresets(t *testing.T) {
	got := Presets()
	want := []string{"cheversi", "cheversi-classic", "echeversi"}
	if !slices.Equal(got, want) {
		t.Fatalf("Presets() = %v, want %v", got, want)
	}
	got[0] = "changed"
	if Presets()[0] != "cheversi" {
		t.Error("Presets returns shared storage")
	}
}

func TestNewSettings(t *testing.T) {
	tests := []struct {
		preset    string
		overrides []game.Setting
		wantName  string
		want      []string // values in Settings order
	}{
		{"", nil, "cheversi", []string{"king-first", "opponent", "true", "true", "true", "attacks"}},
		{"cheversi", nil, "cheversi", []string{"king-first", "opponent", "true", "true", "true", "attacks"}},
		{"cheversi-classic", nil, "cheversi-classic", []string{"king-queen", "none", "false", "false", "false", "attacks"}},
		{"echeversi", nil, "echeversi", []string{"king-queen", "none", "false", "false", "false", "squares"}},
		{"cheversi", []game.Setting{{Key: "touch", Value: "any"}}, "cheversi",
			[]string{"king-first", "any", "true", "true", "true", "attacks"}},
		{"echeversi", []game.Setting{
			{Key: "opening", Value: "free"}, {Key: "bishops_opposite", Value: "yes"},
			{Key: "queen_call", Value: "true"}, {Key: "black_king_last", Value: "yes"},
			{Key: "scoring", Value: "attacks"}, {Key: "touch", Value: "opponent"},
		}, "echeversi", []string{"free", "opponent", "true", "true", "true", "attacks"}},
		{"cheversi", []game.Setting{
			{Key: "bishops_opposite", Value: "no"}, {Key: "queen_call", Value: "false"},
			{Key: "black_king_last", Value: "no"}, {Key: "scoring", Value: "squares"},
		}, "cheversi", []string{"king-first", "opponent", "false", "false", "false", "squares"}},
		// Later overrides win.
		{"cheversi", []game.Setting{{Key: "touch", Value: "none"}, {Key: "touch", Value: "any"}}, "cheversi",
			[]string{"king-first", "any", "true", "true", "true", "attacks"}},
	}
	keys := []string{"opening", "touch", "bishops_opposite", "queen_call", "black_king_last", "scoring"}
	for _, tc := range tests {
		r, err := New(tc.preset, tc.overrides)
		if err != nil {
			t.Errorf("New(%q, %v): %v", tc.preset, tc.overrides, err)
			continue
		}
		if r.Game() != "cheversi" || r.FirstMover() != game.White || r.Preset() != tc.wantName {
			t.Errorf("New(%q): Game %q FirstMover %v Preset %q, want cheversi white %q",
				tc.preset, r.Game(), r.FirstMover(), r.Preset(), tc.wantName)
		}
		var gotKeys, gotVals []string
		for _, s := range r.Settings() {
			gotKeys = append(gotKeys, s.Key)
			gotVals = append(gotVals, s.Value)
		}
		if !slices.Equal(gotKeys, keys) {
			t.Errorf("New(%q).Settings keys = %v, want %v", tc.preset, gotKeys, keys)
		}
		if !slices.Equal(gotVals, tc.want) {
			t.Errorf("New(%q, %v).Settings values = %v, want %v", tc.preset, tc.overrides, gotVals, tc.want)
		}
		// Settings fed back as overrides reproduce the rule set.
		again, err := New(tc.wantName, r.Settings())
		if err != nil || again.Options() != r.Options() {
			t.Errorf("New(%q, Settings()) = %+v, %v; want %+v", tc.wantName, again, err, r.Options())
		}
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		preset    string
		overrides []game.Setting
		mention   []string // substrings the message must contain
	}{
		{"chess", nil, []string{`"chess"`, "cheversi, cheversi-classic, echeversi"}},
		{"Cheversi", nil, []string{`"Cheversi"`}},
		{"cheversi", []game.Setting{{Key: "pawns", Value: "yes"}},
			[]string{`"pawns"`, "opening, touch, bishops_opposite, queen_call, black_king_last, scoring"}},
		{"cheversi", []game.Setting{{Key: "opening", Value: "queen-first"}},
			[]string{"opening", `"queen-first"`, "king-first, king-queen, free"}},
		{"cheversi", []game.Setting{{Key: "touch", Value: "all"}}, []string{"touch", `"all"`, "opponent, any, none"}},
		{"cheversi", []game.Setting{{Key: "scoring", Value: "points"}}, []string{"scoring", `"points"`, "attacks, squares"}},
		{"cheversi", []game.Setting{{Key: "queen_call", Value: "1"}}, []string{"queen_call", `"1"`, "true, false, yes, no"}},
		{"cheversi", []game.Setting{{Key: "bishops_opposite", Value: "True"}}, []string{"bishops_opposite", `"True"`}},
		{"cheversi", []game.Setting{{Key: "black_king_last", Value: ""}}, []string{"black_king_last"}},
	}
	for _, tc := range tests {
		r, err := New(tc.preset, tc.overrides)
		if err == nil {
			t.Errorf("New(%q, %v) = %+v, want an error", tc.preset, tc.overrides, r.Options())
			continue
		}
		if !errors.Is(err, game.ErrBadRules) {
			t.Errorf("New(%q, %v) error %v does not wrap ErrBadRules", tc.preset, tc.overrides, err)
		}
		for _, s := range tc.mention {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("New(%q, %v) error %q does not mention %s", tc.preset, tc.overrides, err, s)
			}
		}
	}
}

func TestEnumStrings(t *testing.T) {
	tests := []struct{ got, want string }{
		{OpeningKingFirst.String(), "king-first"},
		{OpeningFree.String(), "free"},
		{Opening(9).String(), "Opening(9)"},
		{TouchAny.String(), "any"},
		{Touch(7).String(), "Touch(7)"},
		{ScoreSquares.String(), "squares"},
		{Scoring(3).String(), "Scoring(3)"},
		{Knight.String(), "N"},
		{Piece(5).String(), "Piece(5)"},
		{Square(0).String(), "a1"},
		{Square(63).String(), "h8"},
		{Square(28).String(), "e4"},
		{Square(64).String(), "Square(64)"},
		{NewMove(King, 28).String(), "K@e4"},
		{NewMove(Knight, 18).String(), "N@c3"},
		{Move(0).String(), "Move(0)"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
