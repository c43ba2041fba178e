package cheversi

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// ruleSetsForRandomGames covers every preset and a spread of switch
// combinations.
func ruleSetsForRandomGames(t *testing.T) []*Rules {
	rs := []*Rules{
		mustRules(t, "cheversi"),
		mustRules(t, "cheversi-classic"),
		mustRules(t, "echeversi"),
		mustRules(t, "cheversi", "touch=any"),
		mustRules(t, "cheversi", "touch=none", "opening=free"),
		mustRules(t, "cheversi-classic", "touch=opponent", "bishops_opposite=yes", "scoring=squares"),
		mustRules(t, "echeversi", "queen_call=true", "opening=free", "touch=any"),
		mustRules(t, "cheversi", "black_king_last=no", "opening=king-queen"),
		mustRules(t, "cheversi", "queen_call=false", "bishops_opposite=false"),
		mustRules(t, "cheversi", "komi=0.5"),
		mustRules(t, "cheversi-classic", "komi=-6"),
		mustRules(t, "echeversi", "komi=2.5"),
	}
	return rs
}

// TestRandomGames plays seeded random games under many rule sets and checks
// every position against the plain reference rules: legal moves, move
// notation, ParseMove's verdict on every piece and square, scores, and the
// position text round trip.
func TestRandomGames(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 8
	}
	for _, r := range ruleSetsForRandomGames(t) {
		t.Run(settingsName(r), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(settingsName(r)))))
			for g := range games {
				playRandomGame(t, r, rng, g)
			}
		})
	}
}

func settingsName(r *Rules) string {
	s := r.Preset()
	for _, kv := range r.Settings() {
		s += "," + kv.Key + "=" + kv.Value
	}
	return s
}

func playRandomGame(t *testing.T, r *Rules, rng *rand.Rand, g int) {
	t.Helper()
	st := r.Start().(*State)
	ref := newRefBoard()
	var history []string
	for {
		checkPosition(t, r, st, ref, history)
		if t.Failed() {
			t.Fatalf("game %d stopped after %v", g, history)
		}
		moves := st.LegalMoves(nil)
		if len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		if err := st.Play(m); err != nil {
			t.Fatalf("game %d: Play(%v) after %v: %v", g, m, history, err)
		}
		ref.play(t, m.String())
		history = append(history, m.String())
	}
	o := st.Outcome()
	if !o.Over() {
		t.Fatalf("game %d: no legal moves but outcome %+v", g, o)
	}
	if st.Ply() == MaxPlies && o.Reason != game.ReasonScore {
		t.Errorf("game %d: full board ended with reason %q, want %q", g, o.Reason, game.ReasonScore)
	}
	if st.Ply() == MaxPlies {
		// The reference result: White's score minus Black's minus the
		// komi, in half-points.
		w, b := ref.score(r.Options(), game.White), ref.score(r.Options(), game.Black)
		want := game.Draw
		switch d := 2*(w-b) - int(r.Options().Komi); {
		case d > 0:
			want = game.WhiteWins
		case d < 0:
			want = game.BlackWins
		}
		if o.Result != want || !slices.Equal(o.Scores, []int{w, b}) {
			t.Errorf("game %d (%v): outcome %v with scores %v, want %v with %d-%d", g, history, o.Result, o.Scores, want, w, b)
		}
	}
}

func checkPosition(t *testing.T, r *Rules, st *State, ref *refBoard, history []string) {
	t.Helper()
	o := r.Options()
	want := ref.moves(o)
	got := moveStrings(st)
	if !slices.Equal(got, want) {
		t.Errorf("after %v: legal moves\n got %v\nwant %v", history, got, want)
		return
	}
	pos := st.Position()
	if n := pos.CountMoves(); n != len(want) {
		t.Errorf("after %v: CountMoves = %d, want %d", history, n, len(want))
	}
	for _, c := range []game.Color{game.White, game.Black} {
		if got, want := pos.Score(c), ref.score(o, c); got != want {
			t.Errorf("after %v: Score(%v) = %d, want %d", history, c, got, want)
		}
	}

	// Every piece on every square: ParseMove accepts exactly the legal
	// moves, and formatting a parsed move gives the text back.
	legal := map[string]bool{}
	for _, m := range want {
		legal[m] = true
	}
	for _, pc := range "KQRBN" {
		for sq := range 64 {
			text := string(pc) + "@" + sqName(sq)
			m, err := st.ParseMove(text)
			switch {
			case legal[text] && err != nil:
				t.Errorf("after %v: ParseMove(%q) = %v, want a legal move", history, text, err)
			case legal[text] && m.String() != text:
				t.Errorf("after %v: ParseMove(%q).String() = %q", history, text, m.String())
			case !legal[text] && err == nil:
				t.Errorf("after %v: ParseMove(%q) accepted an illegal move", history, text)
			case !legal[text] && !errors.Is(err, game.ErrIllegalMove):
				t.Errorf("after %v: ParseMove(%q) error %v does not wrap ErrIllegalMove", history, text, err)
			}
		}
	}

	// The position text round-trips.
	text := st.Text()
	back, err := r.ParseState(text)
	if err != nil {
		t.Errorf("after %v: ParseState(%q): %v", history, text, err)
		return
	}
	if back.Text() != text {
		t.Errorf("after %v: ParseState(%q).Text() = %q", history, text, back.Text())
	}
	if got := moveStrings(back); !slices.Equal(got, want) {
		t.Errorf("after %v: reparsed %q has moves %v, want %v", history, text, got, want)
	}
	bp := back.(*State).Position()
	if bp.Hash() != pos.Hash() {
		t.Errorf("after %v: reparsed hash %x, want %x", history, bp.Hash(), pos.Hash())
	}
	if bp != pos {
		t.Errorf("after %v: reparsed position differs", history)
	}
}

// TestParents plays random games and checks, at every ply, that the
// position before the move is among the parents of the position after it,
// and that every parent leads by one legal move to it or to a position
// that hashes alike.
func TestParents(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, rules := range ruleSetsForRandomGames(t) {
		for range 30 {
			p := rules.StartPosition()
			for !p.Over() {
				moves := p.GenerateMoves(nil)
				m := moves[r.IntN(len(moves))]
				before := p
				p.Play(m)
				parents := p.Parents(nil)
				if !slices.Contains(parents, before) {
					t.Fatalf("%s: %s after %s: the parents %d leave it out", rules.Preset(), p.Text(), m, len(parents))
				}
				for _, q := range parents {
					if !leadsTo(&q, &p) {
						t.Fatalf("%s: no legal move of the parent %s leads to %s", rules.Preset(), q.Text(), p.Text())
					}
				}
			}
		}
	}
	var start Position
	if got := start.Parents(nil); len(got) != 0 {
		t.Errorf("the empty board has parents: %v", got)
	}
}

// leadsTo reports whether a legal move of q leads to a position with p's
// pieces and hash.
func leadsTo(q, p *Position) bool {
	for _, m := range q.GenerateMoves(nil) {
		r := *q
		r.Play(m)
		if r.pieces == p.pieces && r.Hash() == p.Hash() {
			return true
		}
	}
	return false
}
