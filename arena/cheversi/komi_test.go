package cheversi

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestParseKomi(t *testing.T) {
	good := []struct {
		text string
		want int16
	}{
		{"0", 0}, {"-0", 0}, {"0.5", 1}, {"-0.5", -1}, {"6.5", 13}, {"+6.5", 13}, {"6.50", 13},
		{"7", 14}, {"-2", -4}, {"100", 200}, {"-100", -200}, {"99.5", 199}, {"3.0", 6},
	}
	for _, tc := range good {
		got, err := ParseKomi(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("ParseKomi(%q) = %d, %v; want %d", tc.text, got, err, tc.want)
		}
	}
	bad := []struct{ text, mention string }{
		{"", "whole or half"}, {"6.25", "whole or half"}, {"0.1", "whole or half"}, {"100.5", "at most 100"},
		{"-101", "at most 100"}, {"1e1", "such as 6.5"}, {"Inf", "such as 6.5"}, {"NaN", "such as 6.5"},
		{"0x10", "such as 6.5"}, {"1_0", "such as 6.5"}, {"6,5", "such as 6.5"}, {"--1", "such as 6.5"},
		{"six", "such as 6.5"}, {" 6", "such as 6.5"},
	}
	for _, tc := range bad {
		got, err := ParseKomi(tc.text)
		if err == nil {
			t.Errorf("ParseKomi(%q) = %d, want an error", tc.text, got)
			continue
		}
		if !errors.Is(err, game.ErrBadRules) || !strings.Contains(err.Error(), "komi") || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseKomi(%q) error %q: want ErrBadRules naming komi and %q", tc.text, err, tc.mention)
		}
	}
}

// TestFormatKomi: every komi in range is written so that ParseKomi reads
// it back, and the way a person writes it.
func TestFormatKomi(t *testing.T) {
	for k := int16(-MaxKomi); k <= MaxKomi; k++ {
		text := FormatKomi(k)
		if back, err := ParseKomi(text); err != nil || back != k {
			t.Errorf("FormatKomi(%d) = %q, read back as %d, %v", k, text, back, err)
		}
	}
	for k, want := range map[int16]string{0: "0", 1: "0.5", -1: "-0.5", 13: "6.5", -13: "-6.5", 14: "7", -4: "-2"} {
		if got := FormatKomi(k); got != want {
			t.Errorf("FormatKomi(%d) = %q, want %q", k, got, want)
		}
	}
}

func TestKomiSettings(t *testing.T) {
	r := mustRules(t, "cheversi", "komi=6.5")
	if r.Options().Komi != 13 || r.Preset() != "cheversi" {
		t.Fatalf("komi=6.5 gives %+v", r.Options())
	}
	s := r.Settings()
	if last := s[len(s)-1]; last != (game.Setting{Key: "komi", Value: "6.5"}) {
		t.Errorf("Settings end with %v, want komi=6.5", last)
	}
	again, err := New("cheversi", s)
	if err != nil || again.Options() != r.Options() {
		t.Errorf("New(cheversi, Settings()) = %+v, %v; want %+v", again.Options(), err, r.Options())
	}
	// A komi of 0, given or not, leaves the settings as they were before
	// the switch existed.
	plain := mustRules(t, "cheversi").Settings()
	zero := mustRules(t, "cheversi", "komi=6.5", "komi=0").Settings()
	if !slices.Equal(plain, zero) || slices.ContainsFunc(plain, func(s game.Setting) bool { return s.Key == "komi" }) {
		t.Errorf("settings with komi 0: %v; without: %v; want the same, without komi", zero, plain)
	}
	if _, err := New("cheversi", []game.Setting{{Key: "komi", Value: "6.25"}}); !errors.Is(err, game.ErrBadRules) {
		t.Errorf("komi=6.25: %v, want ErrBadRules", err)
	}
	if _, err := New("cheversi", []game.Setting{{Key: "pawns", Value: "1"}}); err == nil || !strings.Contains(err.Error(), "komi") {
		t.Errorf("an unknown switch: %v, want the list of switches with komi", err)
	}
}

// TestKomiOutcome: the same final positions under komi values around
// their margin. A komi equal to the margin draws, half a point either side
// decides the game, scores stay the board's, and Lead agrees with the
// result.
func TestKomiOutcome(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := mustRules(t, "cheversi")
	for g := range 40 {
		st := base.Start().(*State)
		for !st.Outcome().Over() {
			moves := st.LegalMoves(nil)
			if err := st.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		if st.Ply() < MaxPlies {
			continue // lost for want of a move: the komi does not count
		}
		text := st.Text()
		end := st.Position()
		w, b := end.Score(game.White), end.Score(game.Black)
		margin := 2 * (w - b) // in half-points
		for _, tc := range []struct {
			komi int
			want game.Result
		}{
			{margin, game.Draw},
			{margin - 1, game.WhiteWins},
			{margin + 1, game.BlackWins},
			{margin - 20, game.WhiteWins},
			{margin + 20, game.BlackWins},
		} {
			if tc.komi < -MaxKomi || tc.komi > MaxKomi {
				continue
			}
			r := mustRules(t, "cheversi", "komi="+FormatKomi(int16(tc.komi)))
			pos := mustState(t, r, text).Position()
			o := pos.Outcome()
			if o.Result != tc.want || o.Reason != game.ReasonScore || !slices.Equal(o.Scores, []int{w, b}) {
				t.Errorf("game %d, %s, scores %d-%d, komi %s: %v by %s with scores %v; want %v with the board's scores",
					g, text, w, b, FormatKomi(int16(tc.komi)), o.Result, o.Reason, o.Scores, tc.want)
			}
			if lw, lb := pos.Lead(game.White), pos.Lead(game.Black); lw != margin-tc.komi || lb != -lw {
				t.Errorf("game %d, komi %s: Lead %d, %d; want %d, %d", g, FormatKomi(int16(tc.komi)), lw, lb, margin-tc.komi, tc.komi-margin)
			}
			if pos.Text() != text {
				t.Errorf("game %d, komi %s: text %q, want %q", g, FormatKomi(int16(tc.komi)), pos.Text(), text)
			}
		}
	}
}

// TestKomiNoMoves: a side without a legal move loses whatever the komi.
func TestKomiNoMoves(t *testing.T) {
	for _, komi := range []string{"-100", "0.5", "100"} {
		st := mustState(t, mustRules(t, "cheversi", "komi="+komi), posText(t, p14+" Nh1", "h1"))
		if o := st.Outcome(); o.Result != game.WhiteWins || o.Reason != game.ReasonNoMoves {
			t.Errorf("komi %s: outcome %+v, want white wins by %q", komi, o, game.ReasonNoMoves)
		}
	}
}

// TestKomiDrawsVanish: under a half-point komi no game is drawn.
func TestKomiDrawsVanish(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, r := range []*Rules{mustRules(t, "cheversi", "komi=0.5"), mustRules(t, "echeversi", "komi=-3.5")} {
		for range 200 {
			st := r.Start().(*State)
			for !st.Outcome().Over() {
				moves := st.LegalMoves(nil)
				if err := st.Play(moves[rng.IntN(len(moves))]); err != nil {
					t.Fatal(err)
				}
			}
			if o := st.Outcome(); o.Result == game.Draw {
				t.Fatalf("%s: %s drawn with scores %v", settingsName(r), st.Text(), o.Scores)
			}
		}
	}
}
