package checkers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestNewDefaults(t *testing.T) {
	for _, preset := range []string{"", "american"} {
		r, err := New(preset, nil)
		if err != nil {
			t.Fatalf("New(%q): %v", preset, err)
		}
		want := []game.Setting{{Key: "repetition", Value: "3"}, {Key: "quiet_moves", Value: "40"}, {Key: "max_plies", Value: "400"}}
		if got := r.Settings(); !slices.Equal(got, want) {
			t.Errorf("New(%q).Settings() = %v, want %v", preset, got, want)
		}
		if r.Game() != "checkers" || r.Preset() != "american" || r.FirstMover() != game.Black {
			t.Errorf("New(%q): Game %q Preset %q FirstMover %v", preset, r.Game(), r.Preset(), r.FirstMover())
		}
		if r.Repetition() != 3 || r.QuietMoves() != 40 || r.MaxPlies() != 400 {
			t.Errorf("New(%q): Repetition %d QuietMoves %d MaxPlies %d", preset, r.Repetition(), r.QuietMoves(), r.MaxPlies())
		}
	}
	if got := Presets(); !slices.Equal(got, []string{"american"}) {
		t.Errorf("Presets() = %v, want [american]", got)
	}
}

func TestNewOverrides(t *testing.T) {
	r, err := New("american", []game.Setting{
		{Key: "max_plies", Value: "100"},
		{Key: "repetition", Value: "0"},
		{Key: "quiet_moves", Value: "25"},
		{Key: "max_plies", Value: "200"}, // later overrides win
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []game.Setting{{Key: "repetition", Value: "0"}, {Key: "quiet_moves", Value: "25"}, {Key: "max_plies", Value: "200"}}
	if got := r.Settings(); !slices.Equal(got, want) {
		t.Errorf("Settings() = %v, want %v", got, want)
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		preset   string
		setting  game.Setting
		mentions []string
	}{
		{"international", game.Setting{}, []string{`"international"`, "american"}},
		{"", game.Setting{Key: "flying_kings", Value: "1"}, []string{`"flying_kings"`, "repetition", "quiet_moves", "max_plies"}},
		{"", game.Setting{Key: "repetition", Value: "1"}, []string{"repetition", `"1"`, ">= 2"}},
		{"", game.Setting{Key: "repetition", Value: "-1"}, []string{"repetition", `"-1"`}},
		{"", game.Setting{Key: "quiet_moves", Value: "x"}, []string{"quiet_moves", `"x"`, ">= 0"}},
		{"", game.Setting{Key: "max_plies", Value: "-5"}, []string{"max_plies", `"-5"`}},
		{"", game.Setting{Key: "max_plies", Value: ""}, []string{"max_plies"}},
	}
	for _, tt := range tests {
		var overrides []game.Setting
		if tt.setting.Key != "" {
			overrides = append(overrides, tt.setting)
		}
		_, err := New(tt.preset, overrides)
		if !errors.Is(err, game.ErrBadRules) {
			t.Errorf("New(%q, %v) error = %v, want ErrBadRules", tt.preset, overrides, err)
			continue
		}
		for _, m := range tt.mentions {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("New(%q, %v) error %q does not mention %s", tt.preset, overrides, err, m)
			}
		}
	}
}

func TestParseStateErrors(t *testing.T) {
	r, _ := New("", nil)
	if _, err := r.ParseState("B:W21"); !errors.Is(err, game.ErrBadPosition) {
		t.Errorf("ParseState error = %v, want ErrBadPosition", err)
	}
}
