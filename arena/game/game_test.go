package game

import (
	"errors"
	"testing"
)

func TestColor(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  Color
		other Color
		text  string
	}{
		{"white", White, Black, "white"},
		{"w", White, Black, "white"},
		{"black", Black, White, "black"},
		{"b", Black, White, "black"},
	} {
		got, err := ParseColor(tc.in)
		if err != nil {
			t.Fatalf("ParseColor(%q): %v", tc.in, err)
		}
		if got != tc.want || got.Other() != tc.other || got.String() != tc.text {
			t.Errorf("ParseColor(%q) = %v (other %v, text %q), want %v (other %v, text %q)",
				tc.in, got, got.Other(), got.String(), tc.want, tc.other, tc.text)
		}
	}
	if _, err := ParseColor("red"); err == nil {
		t.Error(`ParseColor("red") succeeded, want an error`)
	}
}

func TestResult(t *testing.T) {
	for _, tc := range []struct {
		r      Result
		text   string
		winner Color
		won    bool
	}{
		{WhiteWins, "1-0", White, true},
		{BlackWins, "0-1", Black, true},
		{Draw, "1/2-1/2", 0, false},
		{Ongoing, "*", 0, false},
	} {
		if got := tc.r.String(); got != tc.text {
			t.Errorf("%d.String() = %q, want %q", tc.r, got, tc.text)
		}
		back, err := ParseResult(tc.text)
		if err != nil || back != tc.r {
			t.Errorf("ParseResult(%q) = %v, %v; want %v", tc.text, back, err, tc.r)
		}
		w, ok := tc.r.Winner()
		if ok != tc.won || (ok && w != tc.winner) {
			t.Errorf("%v.Winner() = %v, %v; want %v, %v", tc.r, w, ok, tc.winner, tc.won)
		}
		if ok && Win(w) != tc.r {
			t.Errorf("Win(%v) = %v, want %v", w, Win(w), tc.r)
		}
	}
	if _, err := ParseResult("2-0"); err == nil {
		t.Error(`ParseResult("2-0") succeeded, want an error`)
	}
	if (Outcome{}).Over() || !(Outcome{Result: Draw}).Over() {
		t.Error("Outcome.Over is wrong for Ongoing or Draw")
	}
	if errors.Is(ErrIllegalMove, ErrBadNotation) {
		t.Error("sentinel errors must be distinct")
	}
}
