package builtin

import (
	"cmp"
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/bots/sdk"
	"github.com/arena-games/arena/protocol"
)

// minimaxResult returns the result of p with best play on both sides, for the side
// to move: 1 for a win, 0 for a draw, -1 for a loss, by plain minimax over
// every move. The komi counts: the side to move wins when its score minus
// the other's, less the komi for White, is positive.
func minimaxResult(p cheversi.Position) int {
	if p.Ply() == cheversi.MaxPlies {
		us := p.Turn()
		d, komi := 2*(p.Score(us)-p.Score(us.Other())), int(p.Options().Komi)
		if us == game.White {
			d -= komi
		} else {
			d += komi
		}
		return min(max(d, -1), 1)
	}
	moves := p.GenerateMoves(nil)
	if len(moves) == 0 {
		return -2 // no move: a loss worse than any by score
	}
	best := -3
	for _, m := range moves {
		q := p
		q.Play(m)
		best = max(best, -minimaxResult(q))
	}
	return best
}

// TestExpertSolvesEndgames: with the last plies in reach, expert plays a
// move that keeps the best result the position has, proved by minimax,
// and reports that result.
func TestExpertSolvesEndgames(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, tc := range []struct {
		preset string
		komi   string
		left   int // plies left to play
		n      int // positions
	}{
		{"cheversi", "0", 3, 25},
		{"cheversi", "0", 1, 25},
		{"cheversi-classic", "0", 2, 10},
		{"echeversi", "0", 2, 10},
		// With a komi the side ahead on the board can be losing: expert
		// plays for the result the komi gives.
		{"cheversi", "4.5", 3, 25},
		{"cheversi", "-3", 2, 25},
		{"cheversi-classic", "0.5", 2, 10},
	} {
		rules := mustRules(t, "cheversi", tc.preset, game.Setting{Key: "komi", Value: tc.komi})
		for i := range tc.n {
			st := rules.Start()
			for _, m := range randomOpening(t, rules, cheversi.MaxPlies-tc.left, rng) {
				if err := st.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			if st.Outcome().Over() {
				continue
			}
			p := st.(*cheversi.State).Position()
			want := minimaxResult(p)
			res, err := NewExpert(uint64(i), 1).Choose(context.Background(), st, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			q := p
			q.Play(res.Move.(cheversi.Move))
			if got := -minimaxResult(q); got != want {
				t.Errorf("%s komi %s %s: expert played %v, result %d; the position is worth %d", tc.preset, tc.komi, p.Text(), res.Move, got, want)
			}
			if want >= -1 && res.Score != want*exactWin {
				t.Errorf("%s komi %s %s: expert reports %d, want %d", tc.preset, tc.komi, p.Text(), res.Score, want*exactWin)
			}
			if res.Depth != tc.left {
				t.Errorf("%s %s: depth %d, want the %d plies left", tc.preset, p.Text(), res.Depth, tc.left)
			}
		}
	}
}

// expertGame plays a game between two experts, each limited to nodes per
// move, from opening, and returns the moves.
func expertGame(t *testing.T, preset string, seeds [2]uint64, nodes int64, opening []game.Move) []string {
	t.Helper()
	st := mustRules(t, "cheversi", preset).Start()
	for _, m := range opening {
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return playOn(t, st, [2]Player{NewExpert(seeds[0], 1), NewExpert(seeds[1], 1)}, Limits{Nodes: nodes}, cheversi.MaxPlies)
}

// TestExpertDeterministic: under a node limit the same players play the
// same game however loaded the machine (here: while other games run), and
// players with other seeds break ties otherwise, so that some games
// differ.
func TestExpertDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	rules := mustRules(t, "cheversi", "cheversi")
	const games = 6
	openings := make([][]game.Move, games)
	for i := range openings {
		openings[i] = randomOpening(t, rules, 4, rng)
	}
	first := make([][]string, games)
	for i, op := range openings {
		first[i] = expertGame(t, "cheversi", [2]uint64{1, 2}, 3000, op)
	}
	again := make([][]string, games)
	done := make(chan int)
	for i, op := range openings {
		go func() { // exits after one game
			again[i] = expertGame(t, "cheversi", [2]uint64{1, 2}, 3000, op)
			done <- i
		}()
	}
	for range games {
		<-done
	}
	differ := false
	for i := range openings {
		if !slices.Equal(first[i], again[i]) {
			t.Errorf("opening %d: played %v, then %v", i, first[i], again[i])
		}
		differ = differ || !slices.Equal(first[i], expertGame(t, "cheversi", [2]uint64{3, 4}, 3000, openings[i]))
	}
	if !differ {
		t.Error("seeds 3 and 4 played every game as seeds 1 and 2 did")
	}
}

func TestExpertBudget(t *testing.T) {
	rules := mustRules(t, "cheversi", "cheversi")
	st := rules.Start()
	for _, m := range randomOpening(t, rules, 4, rand.New(rand.NewPCG(1, 1))) {
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	early := rules.Start()
	for _, m := range randomOpening(t, rules, 2, rand.New(rand.NewPCG(1, 1))) {
		if err := early.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	ck := mustRules(t, "checkers", "").Start()
	clock := protocol.Clock{WTime: time.Second, BTime: time.Second, WInc: 100 * time.Millisecond, BInc: 100 * time.Millisecond}
	tests := []struct {
		name     string
		st       game.State
		clock    protocol.Clock
		moveTime time.Duration
		want     time.Duration
	}{
		// Ply 4: White has 6 moves left; the last three are quick, so its
		// share is a third of the clock and the five increments to come
		// (500 ms); twice that is more than three quarters of the clock,
		// which caps it; less 10 ms.
		{"cheversi clock", st, clock, 0, 750*time.Millisecond - 10*time.Millisecond},
		// Ply 2: seven moves left, a quarter of the clock each; twice that.
		{"cheversi ply 2", early, protocol.Clock{WTime: 10 * time.Second, BTime: 10 * time.Second}, 0, 5*time.Second - 10*time.Millisecond},
		{"cheversi clock capped", st, clock, 100 * time.Millisecond, 90 * time.Millisecond},
		{"fixed move time", st, protocol.Clock{MoveTime: 200 * time.Millisecond}, 0, 170 * time.Millisecond},
		{"checkers", ck, clock, 0, Budget(clock, game.Black, 0, 10*time.Millisecond)},
	}
	for _, tt := range tests {
		req := sdk.Request{State: tt.st, Clock: tt.clock, Color: tt.st.Turn()}
		if got := expertBudget(req, tt.moveTime, 10*time.Millisecond); got != tt.want {
			t.Errorf("%s: budget %v, want %v", tt.name, got, tt.want)
		}
	}
	// The last move of each side may take three quarters of what is left.
	for st.Ply() < cheversi.MaxPlies-2 {
		if err := st.Play(st.LegalMoves(nil)[0]); err != nil {
			t.Fatal(err)
		}
	}
	req := sdk.Request{State: st, Clock: clock, Color: st.Turn()}
	if got, want := expertBudget(req, 0, 0), 750*time.Millisecond; got != want {
		t.Errorf("ply %d: budget %v, want %v", st.Ply(), got, want)
	}
}

// TestGainsOrder checks the cheap move estimate expert orders shallow
// searches by against its definition on random positions: the mover's
// score change minus the opponent's, ignoring the lines the piece cuts
// beyond its square, less the worth the evaluation gives the unplaced
// piece.
func TestGainsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	rules := mustRules(t, "cheversi", "cheversi-classic")
	w := weightsFor(cheversi.Options{Touch: cheversi.TouchNone})
	for range 50 {
		st := rules.Start()
		for _, m := range randomOpening(t, rules, rng.IntN(cheversi.MaxPlies), rng) {
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		p := st.(*cheversi.State).Position()
		var ps pieces
		ps.of(&p)
		var g gains
		g.init(&p, &ps, w)
		us := p.Turn()
		occ := p.Occupied(game.White) | p.Occupied(game.Black)
		attackers := func(c game.Color, sq cheversi.Square) int {
			n := 0
			for k := range cheversi.Piece(cheversi.NumPieces) {
				for b := p.Pieces(c, k); b != 0; b &= b - 1 {
					from := cheversi.Square(bits.TrailingZeros64(b))
					if cheversi.Attacks(k, from, occ)&(1<<sq) != 0 {
						n++
					}
				}
			}
			return n
		}
		for _, m := range p.GenerateMoves(nil) {
			sq := m.Square()
			after := occ | 1<<sq
			own := bits.OnesCount64(cheversi.Attacks(m.Piece(), sq, after) &^ after)
			row := w[p.Ply()][int(us)*featuresPerSide+featUnplaced+int(m.Piece())]
			if us == game.Black {
				row = -row
			}
			want := (own-attackers(us, sq)+attackers(us.Other(), sq))*evalScale - int(row)*evalScale/weightScale
			if got := g.of(m); got != want {
				t.Fatalf("%s %v: gain %d, want %d", p.Text(), m, got, want)
			}
		}
	}
}

// TestBestMove compares bestMove with playing every legal move and scoring
// the position it leads to.
func TestBestMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 150 {
		rules := mustRules(t, "cheversi", []string{"cheversi", "cheversi-classic", "echeversi"}[i%3])
		st := rules.Start()
		for _, m := range randomOpening(t, rules, rng.IntN(cheversi.MaxPlies), rng) {
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		p := st.(*cheversi.State).Position()
		us := p.Turn()
		want, found := 0, false
		var wantMove cheversi.Move // the first of the best, in order
		if p.Options().Scoring == cheversi.ScoreAttacks {
			before := p.Score(us) - p.Score(us.Other())
			for _, m := range p.GenerateMoves(nil) {
				q := p
				q.Play(m)
				if d := q.Score(us) - q.Score(us.Other()) - before; !found || d > want {
					want, found, wantMove = d, true, m
				}
			}
		}
		var ps pieces
		ps.of(&p)
		got, m := bestMove(&p, &ps)
		if got != want || m != wantMove {
			t.Fatalf("%s: best gain %d by %v, want %d by %v", p.Text(), got, m, want, wantMove)
		}
		if found {
			q := p
			q.Play(m)
			if d := q.Score(us) - q.Score(us.Other()) - (p.Score(us) - p.Score(us.Other())); d != got {
				t.Fatalf("%s: %v gains %d, not the %d reported", p.Text(), m, d, got)
			}
			// after makes the pieces of the position after m from those
			// before.
			var next, want pieces
			next.after(&ps, m, us)
			want.of(&q)
			got := slices.Clone(next.pl[:next.n])
			slices.SortFunc(got, func(a, b placed) int { return cmp.Compare(a.sq, b.sq) })
			slices.SortFunc(want.pl[:want.n], func(a, b placed) int { return cmp.Compare(a.sq, b.sq) })
			if !slices.Equal(got, want.pl[:want.n]) || next.occ != want.occ {
				t.Fatalf("%s, then %v: after gives %v (occupied %x), want %v (%x)", p.Text(), m, got, next.occ, want.pl[:want.n], want.occ)
			}
		}
	}
}

// TestExpertCheckersSeed: in checkers too, the same experts play the same
// game under a node limit, and experts with other seeds break ties
// otherwise, so that some games differ.
func TestExpertCheckersSeed(t *testing.T) {
	rules := mustRules(t, "checkers", "american")
	rng := rand.New(rand.NewPCG(5, 5))
	play := func(seeds [2]uint64, opening []game.Move) []string {
		st := rules.Start()
		for _, m := range opening {
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		return playOn(t, st, [2]Player{NewExpert(seeds[0], 1), NewExpert(seeds[1], 1)}, Limits{Nodes: 1000}, 40)
	}
	differ := false
	for range 4 {
		op := randomOpening(t, rules, 2, rng)
		a := play([2]uint64{1, 2}, op)
		if b := play([2]uint64{1, 2}, op); !slices.Equal(a, b) {
			t.Errorf("opening %v: played %v, then %v", op, a, b)
		}
		differ = differ || !slices.Equal(a, play([2]uint64{3, 4}, op))
	}
	if !differ {
		t.Error("seeds 3 and 4 played every checkers game as seeds 1 and 2 did")
	}
}
