package builtin

import (
	"context"
	"testing"

	"github.com/arena-games/arena/arena/games"
)

// fuzzChoose decodes a position text of the named game and checks that
// every player answers a position that is not over with a legal move.
func fuzzChoose(t *testing.T, name, preset, text string) {
	rules, err := games.New(name, preset, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.ParseState(text)
	if err != nil {
		return
	}
	for _, p := range []Player{NewRandom(1), NewGreedy(1), NewAlphaBeta(1)} {
		res, err := p.Choose(context.Background(), st, Limits{Nodes: 2000})
		if st.Outcome().Over() {
			if err == nil {
				t.Fatalf("%s: %s chose %v in a finished game", text, p.Name(), res.Move)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %s: %v", text, p.Name(), err)
		}
		c := st.Clone()
		m, err := c.ParseMove(res.Move.String())
		if err == nil {
			err = c.Play(m)
		}
		if err != nil {
			t.Fatalf("%s: %s chose %v: %v", text, p.Name(), res.Move, err)
		}
	}
}

func FuzzChooseCheversi(f *testing.F) {
	for _, s := range []string{
		"8/8/8/8/8/8/8/8 w 0 -",
		"8/8/8/8/4K3/8/8/8 b 1 e4",
		"8/8/2Q5/3q4/4K3/8/8/8 b 3 c6",
		"8/8/8/2bnN3/1nrKqr2/1rQNBb2/1R1B4/8 b 15 d3",
	} {
		for i := range 3 {
			f.Add(s, uint8(i))
		}
	}
	presets := []string{"cheversi", "cheversi-classic", "echeversi"}
	f.Fuzz(func(t *testing.T, text string, preset uint8) {
		fuzzChoose(t, "cheversi", presets[int(preset)%len(presets)], text)
	})
}

func FuzzChooseCheckers(f *testing.F) {
	for _, s := range []string{
		"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
		"W:W17,22,K30:B1,2,K13",
		"B:W14,15,23:B10",
		"W:WK1,K2,K3,K4,K5,K6:BK20,K24,K28,K32",
		"W:W:B1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fuzzChoose(t, "checkers", "", text)
	})
}
