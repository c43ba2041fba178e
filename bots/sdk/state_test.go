package sdk

import (
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/protocol"
)

// TestStateReuse checks that a position extending the previous request's
// is decoded by playing only the new moves on the previous State, and that
// any other position is decoded afresh.
func TestStateReuse(t *testing.T) {
	rules, err := games.New("cheversi", "cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	const text = "8/8/8/8/4K3/8/8/8 b 1 e4"
	s := &session{rules: rules}
	var prev game.State
	for i, tt := range []struct {
		pos   protocol.Position
		reuse bool // the previous State, extended
		fails bool
	}{
		{pos: protocol.Position{Moves: []string{"K@e4"}}},
		{pos: protocol.Position{Moves: []string{"K@e4", "Q@d5", "Q@c6"}}, reuse: true},
		{pos: protocol.Position{Moves: []string{"K@e4", "Q@d5", "Q@c6"}}, reuse: true}, // go again
		{pos: protocol.Position{Moves: []string{"K@a1"}}},                              // another line
		{pos: protocol.Position{Moves: []string{"K@a1", "Q@a2"}}, reuse: true},
		{pos: protocol.Position{Moves: []string{"K@a1"}}}, // shorter: not an extension
		{pos: protocol.Position{Text: text}},
		{pos: protocol.Position{Text: text, Moves: []string{"Q@d5"}}, reuse: true},
		{pos: protocol.Position{Moves: []string{"Q@d5"}}, fails: true}, // same moves, from the start: illegal
		{pos: protocol.Position{Moves: []string{"K@e4"}}},
		{pos: protocol.Position{Moves: []string{"K@e4", "Z@z9"}}, fails: true},
		{pos: protocol.Position{Moves: []string{"K@e4"}}}, // after a failure: afresh
	} {
		s.pos = tt.pos
		st, err := s.state()
		if tt.fails {
			if err == nil {
				t.Errorf("request %d %v: no error, want one", i, tt.pos)
			}
			prev = nil
			continue
		}
		if err != nil {
			t.Fatalf("request %d %v: %v", i, tt.pos, err)
		}
		want := rules.Start()
		if tt.pos.Text != "" {
			if want, err = rules.ParseState(tt.pos.Text); err != nil {
				t.Fatal(err)
			}
		}
		for _, mv := range tt.pos.Moves {
			m, err := want.ParseMove(mv)
			if err == nil {
				err = want.Play(m)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if st.Text() != want.Text() {
			t.Errorf("request %d %v: State %q, want %q", i, tt.pos, st.Text(), want.Text())
		}
		if reused := st == prev; reused != tt.reuse {
			t.Errorf("request %d %v: previous State reused = %v, want %v", i, tt.pos, reused, tt.reuse)
		}
		prev = st
	}
}
