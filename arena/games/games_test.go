package games_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
)

func TestNew(t *testing.T) {
	for _, name := range games.Names() {
		presets, err := games.Presets(name)
		if err != nil || len(presets) == 0 {
			t.Fatalf("Presets(%q) = %v, %v; want at least one preset", name, presets, err)
		}
		for _, p := range append([]string{""}, presets...) {
			r, err := games.New(name, p, nil)
			if err != nil {
				t.Fatalf("New(%q, %q): %v", name, p, err)
			}
			if r.Game() != name {
				t.Errorf("New(%q, %q).Game() = %q", name, p, r.Game())
			}
			want := p
			if p == "" {
				want = presets[0]
			}
			if r.Preset() != want {
				t.Errorf("New(%q, %q).Preset() = %q, want %q", name, p, r.Preset(), want)
			}
			if _, ok := r.Start().(games.Perfter); !ok {
				t.Errorf("%s start state has no fast Perft", name)
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		game, preset string
		set          []game.Setting
	}{
		{"chess", "", nil},
		{"cheversi", "american", nil},
		{"checkers", "cheversi", nil},
		{"cheversi", "", []game.Setting{{Key: "touch", Value: "sometimes"}}},
		{"checkers", "", []game.Setting{{Key: "flying_kings", Value: "true"}}},
	} {
		if _, err := games.New(tc.game, tc.preset, tc.set); !errors.Is(err, game.ErrBadRules) {
			t.Errorf("New(%q, %q, %v) error = %v, want one wrapping ErrBadRules", tc.game, tc.preset, tc.set, err)
		}
	}
}

func TestParseSetting(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    game.Setting
		wantErr bool
	}{
		{"touch=any", game.Setting{Key: "touch", Value: "any"}, false},
		{" max_plies = 200 ", game.Setting{Key: "max_plies", Value: "200"}, false},
		{"touch=", game.Setting{Key: "touch", Value: ""}, false},
		{"touch", game.Setting{}, true},
		{"=any", game.Setting{}, true},
	} {
		got, err := games.ParseSetting(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseSetting(%q) = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func ExampleNew() {
	rules, err := games.New("cheversi", "echeversi", []game.Setting{{Key: "touch", Value: "any"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range rules.Settings() {
		fmt.Printf("%s=%s\n", s.Key, s.Value)
	}
	// Output:
	// opening=king-queen
	// touch=any
	// bishops_opposite=false
	// queen_call=false
	// black_king_last=false
	// scoring=squares
}

// ExampleSolved asks what is proved of Cheversi from the empty board,
// under its rules as they are and with two points of komi for White.
func ExampleSolved() {
	for _, komi := range []string{"0", "-2"} {
		rules, err := games.New("cheversi", "cheversi", []game.Setting{{Key: "komi", Value: komi}})
		if err != nil {
			fmt.Println(err)
			return
		}
		if s, ok := games.Solved(rules); ok {
			fmt.Printf("komi %s: %s\n", komi, s.Statement)
		}
	}
	// Output:
	// komi 0: from the empty board, black wins with perfect play; best play leaves black exactly 2 points ahead
	// komi -2: from the empty board, perfect play draws; best play leaves black exactly 2 points ahead before komi
}

func TestPlayText(t *testing.T) {
	for _, tc := range []struct {
		game, legal, illegal, garbage string
	}{
		{"cheversi", "K@e4", "Q@e4", "K@z9"},
		{"checkers", "9-13", "13-17", "9+13"},
	} {
		rules, err := games.New(tc.game, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		st := rules.Start()
		start := st.Text()
		for _, bad := range []struct {
			text string
			want error
		}{{tc.illegal, game.ErrIllegalMove}, {tc.garbage, game.ErrBadNotation}} {
			if m, err := game.PlayText(st, bad.text); !errors.Is(err, bad.want) || m != nil {
				t.Errorf("%s: PlayText(%q) = %v, %v; want an error wrapping %v", tc.game, bad.text, m, err, bad.want)
			}
			if st.Text() != start || st.Ply() != 0 {
				t.Errorf("%s: PlayText(%q) changed the position to %q", tc.game, bad.text, st.Text())
			}
		}
		m, err := game.PlayText(st, tc.legal)
		if err != nil || m.String() != tc.legal {
			t.Fatalf("%s: PlayText(%q) = %v, %v; want the move played", tc.game, tc.legal, m, err)
		}
		if st.Ply() != 1 || st.Text() == start {
			t.Errorf("%s: after PlayText(%q): ply %d, text %q; want the move on the board", tc.game, tc.legal, st.Ply(), st.Text())
		}
	}
}

func TestRegister(t *testing.T) {
	if err := games.Register(games.Game{Name: "checkers", Presets: []string{"x"}, New: func(string, []game.Setting) (game.Rules, error) { return nil, nil }}); !errors.Is(err, games.ErrRegistered) {
		t.Errorf("Register of a taken name: err = %v, want ErrRegistered", err)
	}
	if err := games.Register(games.Game{Name: "nameless"}); err == nil {
		t.Errorf("Register of a game without presets or New: no error")
	}
	a, err := games.Default("checkers")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := games.Default("checkers"); a != b || a.Preset() != "american" {
		t.Errorf("Default: %v then %v; want the american rules, built once", a, b)
	}
	if _, err := games.Default("chess"); !errors.Is(err, game.ErrBadRules) {
		t.Errorf("Default(chess): err = %v, want ErrBadRules", err)
	}
	ballots := games.With(func(r game.Rules) bool { _, ok := r.(game.Ballots); return ok })
	if fmt.Sprint(ballots) != "[checkers]" {
		t.Errorf("games with ballots: %v, want [checkers]", ballots)
	}
}

// TestSolved asks what is proved of the start position: Cheversi's
// shipped proofs under the rules built, nothing for a game without a
// solver or for rules no proof covers.
func TestSolved(t *testing.T) {
	tests := []struct {
		game, preset string
		set          []game.Setting
		result       string // "" when nothing is known
	}{
		{"cheversi", "", nil, "black wins"},
		{"cheversi", "cheversi", []game.Setting{{Key: "komi", Value: "-2"}}, "draw"},
		{"cheversi", "echeversi", nil, ""},
		{"checkers", "", nil, ""},
	}
	for _, tt := range tests {
		r, err := games.New(tt.game, tt.preset, tt.set)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := games.Solved(r)
		if ok != (tt.result != "") || s.Result != tt.result {
			t.Errorf("%s %s %v: %+v (known %v), want %q", tt.game, tt.preset, tt.set, s, ok, tt.result)
		}
	}
}
