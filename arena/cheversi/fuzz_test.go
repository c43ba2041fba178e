package cheversi

import (
	"errors"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"K@e4", "N@c3", "k@e4", "P@a1", "Q@h9", "", "K@e44", "R@a1"} {
		f.Add(s)
	}
	r, err := New("", nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			if !errors.Is(err, game.ErrBadNotation) {
				t.Fatalf("ParseMove(%q) error %v does not wrap ErrBadNotation", text, err)
			}
			return
		}
		if !m.Valid() || m.String() != text {
			t.Fatalf("ParseMove(%q) = %v (valid %v), does not round-trip", text, m, m.Valid())
		}
		// Against a position the verdict is either the same move or a
		// reasoned refusal.
		st := r.Start()
		gm, err := st.ParseMove(text)
		switch {
		case err == nil && gm != game.Move(m):
			t.Fatalf("State.ParseMove(%q) = %v, want %v", text, gm, m)
		case err != nil && !errors.Is(err, game.ErrIllegalMove):
			t.Fatalf("State.ParseMove(%q) error %v does not wrap ErrIllegalMove", text, err)
		}
	})
}

func FuzzParseState(f *testing.F) {
	for _, s := range []string{
		"8/8/8/8/8/8/8/8 w 0 -",
		"8/8/8/8/4K3/8/8/8 b 1 e4",
		"8/8/8/4q3/4K3/8/8/8 w 2 e5",
		"8/8/8/8/8/8/8/KQRRbbnn w 8 h1",
		"8/8/8/8/4K4/8/8/8 b 1 e4",
		"8/8/8/8/44/8/8/8 w 0 -",
		"rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w 16 e8",
	} {
		f.Add(s, uint8(0))
	}
	var rules []*Rules
	for _, p := range Presets() {
		r, err := New(p, nil)
		if err != nil {
			f.Fatal(err)
		}
		rules = append(rules, r)
	}
	free, err := New("cheversi", []game.Setting{{Key: "opening", Value: "free"}, {Key: "touch", Value: "any"}})
	if err != nil {
		f.Fatal(err)
	}
	rules = append(rules, free)
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		r := rules[int(which)%len(rules)]
		st, err := r.ParseState(text)
		if err != nil {
			if !errors.Is(err, game.ErrBadPosition) {
				t.Fatalf("ParseState(%q) error %v does not wrap ErrBadPosition", text, err)
			}
			return
		}
		if got := st.Text(); got != text {
			t.Fatalf("ParseState(%q).Text() = %q", text, got)
		}
		// Any accepted position can be played on without trouble.
		moves := st.LegalMoves(nil)
		o := st.Outcome()
		if o.Over() != (len(moves) == 0) {
			t.Fatalf("%q: %d legal moves but outcome %+v", text, len(moves), o)
		}
		for _, m := range moves {
			c := st.Clone()
			if err := c.Play(m); err != nil {
				t.Fatalf("%q: Play(%v): %v", text, m, err)
			}
			if _, err := r.ParseState(c.Text()); err != nil {
				t.Fatalf("%q then %v: ParseState(%q): %v", text, m, c.Text(), err)
			}
		}
	})
}

func FuzzParseKomi(f *testing.F) {
	for _, s := range []string{"6.5", "-2", "0", "-0.5", "+100", "100.5", "1e1", "6.25", "Inf", ".5", "5."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		k, err := ParseKomi(text)
		if err != nil {
			if !errors.Is(err, game.ErrBadRules) {
				t.Fatalf("ParseKomi(%q) error %v does not wrap ErrBadRules", text, err)
			}
			return
		}
		if k < -MaxKomi || k > MaxKomi {
			t.Fatalf("ParseKomi(%q) = %d, out of range", text, k)
		}
		if back, err := ParseKomi(FormatKomi(k)); err != nil || back != k {
			t.Fatalf("ParseKomi(%q) = %d, written %q and read back as %d, %v", text, k, FormatKomi(k), back, err)
		}
	})
}
