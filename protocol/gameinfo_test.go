package protocol

import (
	"errors"
	"testing"
)

func TestGameInfo(t *testing.T) {
	for _, c := range []struct {
		line string
		want GameInfo
	}{
		{"gameinfo opponent alphabeta opening ACF 1 Edinburgh", GameInfo{Opponent: "alphabeta", Opening: "ACF 1 Edinburgh"}},
		{"gameinfo opponent mine", GameInfo{Opponent: "mine"}},
		{"gameinfo  opening  random 3  opponent x", GameInfo{Opening: "random 3  opponent x"}},
		{"gameinfo round 4 opponent b", GameInfo{Opponent: "b"}},
	} {
		m, err := Parse(c.line)
		if c.want.Opponent == "" {
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q) = %v, %v; want a syntax error (no opponent)", c.line, m, err)
			}
			continue
		}
		if err != nil || m != c.want {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", c.line, m, err, c.want)
			continue
		}
		back, err := Format(m)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := Parse(back); err != nil || again != m {
			t.Errorf("Parse(Format(%#v)) = %#v, %v", m, again, err)
		}
	}
	for _, bad := range []GameInfo{{}, {Opponent: "two words"}, {Opponent: "x", Opening: "a\nb"}} {
		if _, err := Format(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("Format(%#v): %v, want ErrInvalid", bad, err)
		}
	}
	id := ID{Games: []string{"checkers"}, GameInfo: true}
	if r := id.Requests(); len(r) != 1 || r[0] != FeatureGameInfo {
		t.Errorf("Requests() = %q, want gameinfo", r)
	}
}
