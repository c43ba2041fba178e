package builtin

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
)

func mustRules(t testing.TB, name, preset string, overrides ...game.Setting) game.Rules {
	t.Helper()
	r, err := games.New(name, preset, overrides)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr error // nil: want a player of that name
	}{
		{NameRandom, Config{Seed: 3}, nil},
		{NameGreedy, Config{}, nil},
		{NameAlphaBeta, Config{HashMB: 1}, nil},
		{NameAlphaBeta, Config{}, nil},
		{NameExpert, Config{Seed: 2, HashMB: 1}, nil},
		{"minimax", Config{}, ErrUnknownBot},
	}
	for _, tt := range tests {
		p, err := New(tt.name, tt.cfg)
		switch {
		case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
			t.Errorf("New(%q) error = %v, want %v", tt.name, err, tt.wantErr)
		case tt.wantErr == nil && err != nil:
			t.Errorf("New(%q) error = %v", tt.name, err)
		case tt.wantErr == nil && p.Name() != tt.name:
			t.Errorf("New(%q).Name() = %q", tt.name, p.Name())
		}
	}
	for _, name := range []string{NameAlphaBeta, NameExpert} {
		if _, err := New(name, Config{HashMB: MaxHashMB + 1}); err == nil {
			t.Errorf("New(%s, HashMB %d) succeeded, want an error", name, MaxHashMB+1)
		}
	}
}

// rulesUnderTest are the rule sets the players must handle.
func rulesUnderTest(t testing.TB) []game.Rules {
	return []game.Rules{
		mustRules(t, "cheversi", "cheversi"),
		mustRules(t, "cheversi", "cheversi-classic"),
		mustRules(t, "cheversi", "echeversi"),
		mustRules(t, "cheversi", "cheversi", game.Setting{Key: "touch", Value: "any"}),
		mustRules(t, "cheversi", "cheversi", game.Setting{Key: "opening", Value: "free"}),
		mustRules(t, "checkers", ""),
	}
}

// TestChooseLegal plays whole games with each player on both sides under
// every rule set: every move must be legal (the rules referee each one)
// and the results consistent.
func TestChooseLegal(t *testing.T) {
	makers := map[string]func() Player{
		NameRandom:    func() Player { return NewRandom(5) },
		NameGreedy:    func() Player { return NewGreedy(5) },
		NameAlphaBeta: func() Player { return NewAlphaBeta(1) },
		NameExpert:    func() Player { return NewExpert(1, 1) },
	}
	for _, rules := range rulesUnderTest(t) {
		for name, mk := range makers {
			t.Run(rules.Game()+"/"+rules.Preset()+"/"+name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(1, 2))
				p := mk()
				for g := range 2 {
					st := rules.Start()
					for _, m := range randomOpening(t, rules, g, rng) {
						if err := st.Play(m); err != nil {
							t.Fatal(err)
						}
					}
					for !st.Outcome().Over() {
						res, err := p.Choose(context.Background(), st, Limits{Nodes: 3000})
						if err != nil {
							t.Fatalf("ply %d (%s): %v", st.Ply(), st.Text(), err)
						}
						if len(res.PV) == 0 || res.PV[0].String() != res.Move.String() {
							t.Errorf("ply %d: PV %v does not start with the move %v", st.Ply(), res.PV, res.Move)
						}
						if name != NameRandom && res.Depth < 1 {
							t.Errorf("ply %d: depth %d, want at least 1", st.Ply(), res.Depth)
						}
						if res.Nodes < 1 {
							t.Errorf("ply %d: %d nodes", st.Ply(), res.Nodes)
						}
						text := res.Move.String()
						m, err := st.ParseMove(text)
						if err != nil {
							t.Fatalf("ply %d (%s): move %q: %v", st.Ply(), st.Text(), text, err)
						}
						if err := st.Play(m); err != nil {
							t.Fatalf("ply %d: play %q: %v", st.Ply(), text, err)
						}
					}
				}
			})
		}
	}
}

// fakeState is a game.State of no known game.
type fakeState struct{ game.State }

func (fakeState) LegalMoves(dst []game.Move) []game.Move { return append(dst, fakeMove("pass")) }

type fakeMove string

func (m fakeMove) String() string { return string(m) }

func TestChooseErrors(t *testing.T) {
	ctx := context.Background()
	over := mustRules(t, "cheversi", "").Start()
	for over.Ply() < cheversi.MaxPlies && !over.Outcome().Over() {
		if err := over.Play(over.LegalMoves(nil)[0]); err != nil {
			t.Fatal(err)
		}
	}
	ckOver, err := mustRules(t, "checkers", "").ParseState("W:W:B1,2")
	if err != nil {
		t.Fatal(err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	players := []Player{NewRandom(1), NewGreedy(1), NewAlphaBeta(1), NewExpert(1, 1)}
	for _, p := range players {
		for _, st := range []game.State{over, ckOver} {
			_, err := p.Choose(ctx, st, Limits{})
			if !errors.Is(err, ErrNoMoves) || !errors.Is(err, game.ErrGameOver) {
				t.Errorf("%s.Choose(finished game) error = %v, want ErrNoMoves and game.ErrGameOver", p.Name(), err)
			}
		}
		_, err := p.Choose(canceled, mustRules(t, "checkers", "").Start(), Limits{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s.Choose(canceled context) error = %v, want context.Canceled", p.Name(), err)
		}
		res, err := p.Choose(ctx, fakeState{}, Limits{})
		switch p.Name() {
		case NameRandom:
			if err != nil || res.Move.String() != "pass" {
				t.Errorf("random.Choose(other game) = %v, %v; want pass", res.Move, err)
			}
		default:
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s.Choose(other game) error = %v, want ErrUnsupported", p.Name(), err)
			}
		}
	}
}

// playOut plays a game of rules with p on both sides and returns the
// move texts.
func playOut(t *testing.T, rules game.Rules, p Player, maxPlies int) []string {
	t.Helper()
	return playOn(t, rules.Start(), [2]Player{p, p}, Limits{}, maxPlies)
}

// playOn plays st on with players[side] choosing for each side within lim,
// for at most maxPlies plies, and returns the move texts.
func playOn(t *testing.T, st game.State, players [2]Player, lim Limits, maxPlies int) []string {
	t.Helper()
	var moves []string
	for !st.Outcome().Over() && len(moves) < maxPlies {
		res, err := players[st.Turn()].Choose(context.Background(), st, lim)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(res.Move); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, res.Move.String())
	}
	return moves
}

func TestRandomSeed(t *testing.T) {
	for _, rules := range rulesUnderTest(t) {
		a := playOut(t, rules, NewRandom(42), 40)
		b := playOut(t, rules, NewRandom(42), 40)
		if !equal(a, b) {
			t.Errorf("%s: seed 42 played %v, then %v", rules.Preset(), a, b)
		}
		differ := false
		for seed := uint64(1); seed <= 5 && !differ; seed++ {
			differ = !equal(a, playOut(t, rules, NewRandom(seed), 40))
		}
		if !differ {
			t.Errorf("%s: seeds 1-5 all played the game of seed 42: %v", rules.Preset(), a)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGreedyCheversi checks greedy's choice against the score difference
// of every legal move, computed through the game.State interface.
func TestGreedyCheversi(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, preset := range []string{"cheversi", "cheversi-classic", "echeversi"} {
		rules := mustRules(t, "cheversi", preset)
		g := NewGreedy(9)
		for range 20 {
			st := rules.Start()
			for _, m := range randomOpening(t, rules, rng.IntN(cheversi.MaxPlies-1), rng) {
				if err := st.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			if st.Outcome().Over() {
				continue
			}
			value := func(m game.Move) int {
				c := st.Clone().(*cheversi.State)
				if err := c.Play(m); err != nil {
					t.Fatal(err)
				}
				p, us := c.Position(), st.Turn()
				return p.Score(us) - p.Score(us.Other())
			}
			best := -1 << 30
			for _, m := range st.LegalMoves(nil) {
				best = max(best, value(m))
			}
			res, err := g.Choose(context.Background(), st, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := value(res.Move); got != best || res.Score != best {
				t.Errorf("%s: greedy played %v worth %d (reported %d), want a move worth %d",
					st.Text(), res.Move, got, res.Score, best)
			}
		}
	}
}

func TestGreedyCheckers(t *testing.T) {
	rules := mustRules(t, "checkers", "")
	tests := []struct {
		fen  string
		want string
	}{
		{"B:W14,15,23:B10", "10x19x26"}, // the double capture
		{"B:W15,23,24:B11", "11x18x27"}, // the only move
	}
	for _, tt := range tests {
		st, err := rules.ParseState(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		res, err := NewGreedy(1).Choose(context.Background(), st, Limits{})
		if err != nil || res.Move.String() != tt.want {
			t.Errorf("%s: greedy = %v, %v; want %s", tt.fen, res.Move, err, tt.want)
		}
	}

	// From positions where some moves give a piece away for nothing and
	// others do not, greedy must play one that does not.
	for _, fen := range []string{"B:W22,23:B14,11", "W:W22,23:B14,11,1"} {
		st, err := rules.ParseState(fen)
		if err != nil {
			t.Fatal(err)
		}
		p := st.(*checkers.State).Position()
		safe := map[string]bool{}
		for _, m := range p.GenerateMoves(nil) {
			q := p
			q.Play(m)
			safe[m.String()] = !q.HasCapture()
		}
		unsafe := 0
		for _, ok := range safe {
			if !ok {
				unsafe++
			}
		}
		if unsafe == 0 || unsafe == len(safe) {
			t.Fatalf("%s: %d of %d moves give a piece away; want some but not all", fen, unsafe, len(safe))
		}
		for seed := range uint64(8) {
			res, err := NewGreedy(seed).Choose(context.Background(), st, Limits{})
			if err != nil || !safe[res.Move.String()] {
				t.Errorf("%s seed %d: greedy = %v, %v; want one of the safe moves %v", fen, seed, res.Move, err, safe)
			}
		}
	}
}

// TestStepsGeometry checks the evaluation's board geometry against the
// rules: without captures, the simple moves it counts for the side to move
// are the legal moves.
func TestStepsGeometry(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	checked := 0
	for range 400 {
		p := randomCheckersPosition(rng, 1+rng.IntN(12), 1+rng.IntN(12))
		if p.HasCapture() {
			continue
		}
		us := p.Turn()
		own, kings := uint32(p.Pieces(us)), uint32(p.Kings(game.Black)|p.Kings(game.White))
		if got, want := steps(own, kings, uint32(p.Empty()), us == game.Black), p.CountMoves(); got != want {
			t.Errorf("%v: steps = %d, want %d", p, got, want)
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("only %d positions without captures", checked)
	}
}

// randomCheckersPosition returns a random legal position with nb black and
// nw white pieces, about a third of them kings.
func randomCheckersPosition(rng *rand.Rand, nb, nw int) checkers.Position {
	for {
		sq := rng.Perm(checkers.NumSquares)
		var black, white, kings checkers.Bitboard
		for i, s := range sq[:nb+nw] {
			b := checkers.SquareBit(s + 1)
			if i < nb {
				black |= b
			} else {
				white |= b
			}
			if rng.IntN(3) == 0 {
				kings |= b
			}
		}
		turn := game.Color(rng.IntN(2))
		if p, err := checkers.NewPosition(black, white, kings, turn); err == nil {
			return p
		}
	}
}

// farDepth is a depth limit no search in the tests reaches from the
// start (a full Cheversi game is 16 plies; alphabeta reaches about depth 4
// in a second there, and depth 10 in checkers). searchHang bounds a search
// that its limits stop: exceeding it means they did not.
const (
	farDepth   = 40
	searchHang = time.Minute
)

// TestAlphaBetaLimits checks that each limit ends the search, and that
// what it returns is a legal move of the depth the limit allows.
func TestAlphaBetaLimits(t *testing.T) {
	ctx := context.Background()
	for _, rules := range []game.Rules{mustRules(t, "checkers", ""), mustRules(t, "cheversi", "cheversi-classic")} {
		st := rules.Start()
		for _, depth := range []int{1, 2, 3} {
			res, err := NewAlphaBeta(1).Choose(ctx, st, Limits{Depth: depth})
			if err != nil || res.Depth != depth {
				t.Errorf("%s: Choose(depth %d) = depth %d, %v", rules.Game(), depth, res.Depth, err)
			}
		}
		res, err := NewAlphaBeta(1).Choose(ctx, st, Limits{Nodes: 5000})
		if err != nil || res.Nodes > 5000 {
			t.Errorf("%s: Choose(5000 nodes) searched %d nodes, %v", rules.Game(), res.Nodes, err)
		}

		// Time. With a depth limit far beyond reach only the clock ends
		// the search, no sooner than the limit; alone, the limit also
		// lets the search decline an iteration it does not expect to
		// finish. How soon after the limit a search stops is speed, for
		// the benchmarks: a loaded machine may not run it for a while.
		// searchHang only catches a search the clock does not stop.
		for _, limit := range []time.Duration{5 * time.Millisecond, 40 * time.Millisecond} {
			for _, depth := range []int{0, farDepth} {
				start := time.Now()
				res, err := NewAlphaBeta(1).Choose(ctx, st, Limits{Time: limit, Depth: depth})
				if took := time.Since(start); err != nil || took > searchHang {
					t.Fatalf("%s: Choose(time %v, depth %d) took %v, %v", rules.Game(), limit, depth, took, err)
				}
				if _, err := st.ParseMove(res.Move.String()); err != nil {
					t.Errorf("%s: Choose(time %v, depth %d) = %v: %v", rules.Game(), limit, depth, res.Move, err)
				}
				if depth > 0 && (res.Depth >= depth || res.Elapsed < limit) {
					t.Errorf("%s: Choose(time %v, depth %d) reached depth %d in %v, want the clock to stop it after %v",
						rules.Game(), limit, depth, res.Depth, res.Elapsed, limit)
				}
			}
		}

		// A context that ends the search, which has no other limit: it
		// runs until then and still gives a legal move. The bot (and its
		// transposition table, which a loaded machine may take a while to
		// allocate) is made before the context's time starts.
		ab := NewAlphaBeta(1)
		start := time.Now()
		cctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
		res, err = ab.Choose(cctx, st, Limits{})
		cancel()
		if took := time.Since(start); err != nil || took < 30*time.Millisecond || took > searchHang {
			t.Errorf("%s: Choose(context ending after 30ms) took %v, %v; want the context to stop it", rules.Game(), took, err)
			continue
		}
		if _, err := st.ParseMove(res.Move.String()); err != nil {
			t.Errorf("%s: Choose(context ending after 30ms) = %v: %v", rules.Game(), res.Move, err)
		}
	}
}

func TestAlphaBetaDeterministic(t *testing.T) {
	for _, rules := range []game.Rules{mustRules(t, "checkers", ""), mustRules(t, "cheversi", "")} {
		st := rules.Start()
		a, err1 := NewAlphaBeta(1).Choose(context.Background(), st, Limits{Depth: 5})
		b, err2 := NewAlphaBeta(1).Choose(context.Background(), st, Limits{Depth: 5})
		if err1 != nil || err2 != nil || a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes {
			t.Errorf("%s: two searches of depth 5 gave %v %d (%d nodes) and %v %d (%d nodes)",
				rules.Game(), a.Move, a.Score, a.Nodes, b.Move, b.Score, b.Nodes)
		}
	}
}

// bruteCheversi is a plain minimax of a Cheversi position through the
// game.State interface: the final score difference for the side to move,
// or a loss for the side without a move, scored like alphabeta's.
func bruteCheversi(st game.State, ply int) int {
	if o := st.Outcome(); o.Over() {
		if o.Reason == game.ReasonNoMoves {
			return -(WinScore - ply)
		}
		us := st.Turn()
		return o.Scores[us] - o.Scores[us.Other()]
	}
	best := -WinScore - 1
	for _, m := range st.LegalMoves(nil) {
		c := st.Clone()
		if err := c.Play(m); err != nil {
			panic(err)
		}
		best = max(best, -bruteCheversi(c, ply+1))
	}
	return best
}

// TestAlphaBetaCheversiExact checks that near the end alphabeta plays
// exactly: its score is the minimax value and its move achieves it.
func TestAlphaBetaCheversiExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	cases := []struct {
		rules     game.Rules
		left, n   int
		shortSkip bool
	}{
		{mustRules(t, "cheversi", "cheversi"), 3, 12, false},
		{mustRules(t, "cheversi", "cheversi"), 4, 6, false},
		{mustRules(t, "cheversi", "cheversi", game.Setting{Key: "touch", Value: "any"}), 3, 6, false},
		{mustRules(t, "cheversi", "cheversi-classic"), 2, 6, false},
		{mustRules(t, "cheversi", "echeversi"), 2, 6, false},
		{mustRules(t, "cheversi", "cheversi"), 5, 3, true},
	}
	for _, c := range cases {
		if c.shortSkip && testing.Short() {
			continue
		}
		a := NewAlphaBeta(4)
		for range c.n {
			st := c.rules.Start()
			for _, m := range randomOpening(t, c.rules, cheversi.MaxPlies-c.left, rng) {
				if err := st.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			want := bruteCheversi(st, 0)
			res, err := a.Choose(context.Background(), st, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			after := st.Clone()
			if err := after.Play(res.Move); err != nil {
				t.Fatal(err)
			}
			if got := -bruteCheversi(after, 1); res.Score != want || got != want {
				t.Errorf("%s %s: alphabeta scores %d and plays %v worth %d; minimax value %d",
					c.rules.Preset(), st.Text(), res.Score, res.Move, got, want)
			}
			if res.Depth != c.left {
				t.Errorf("%s: depth %d with %d plies left", st.Text(), res.Depth, c.left)
			}
		}
	}
}

// winIn reports whether the side to move in p can force a win (the
// opponent left without a move) within n plies, by plain minimax.
func winIn(p checkers.Position, n int) bool {
	if n <= 0 {
		return false
	}
	for _, m := range p.GenerateMoves(nil) {
		q := p
		q.Play(m)
		if !q.HasMoves() {
			return true
		}
		if n >= 3 && lostIn(q, n-1) {
			return true
		}
	}
	return false
}

// lostIn reports whether every move of the side to move in p (which has
// one) lets the opponent win within n-1 plies.
func lostIn(p checkers.Position, n int) bool {
	for _, m := range p.GenerateMoves(nil) {
		q := p
		q.Play(m)
		if !winIn(q, n-1) {
			return false
		}
	}
	return true
}

// TestAlphaBetaCheckersWins checks alphabeta's search against plain
// minimax in sparse random positions: when the side to move can force a
// win within 5 plies, a 5-ply search must say so and play a winning move,
// and otherwise it must not claim such a win.
func TestAlphaBetaCheckersWins(t *testing.T) {
	rules := mustRules(t, "checkers", "", game.Setting{Key: "repetition", Value: "0"},
		game.Setting{Key: "quiet_moves", Value: "0"})
	rng := rand.New(rand.NewPCG(6, 6))
	a := NewAlphaBeta(4)
	wins, others := 0, 0
	for range 1000 {
		p := randomCheckersPosition(rng, 1+rng.IntN(3), 1+rng.IntN(3))
		if p.CountMoves() < 2 {
			continue // no move, or a forced one, which alphabeta plays at once
		}
		st := rules.(*checkers.Rules).NewState(p)
		res, err := a.Choose(context.Background(), st, Limits{Depth: 5})
		if err != nil {
			t.Fatal(err)
		}
		mv := res.Move.(checkers.Move)
		if winIn(p, 5) {
			wins++
			q := p
			q.Play(mv)
			if res.Score < WinScore-5 || (q.HasMoves() && !lostIn(q, 4)) {
				t.Errorf("%v: win within 5 plies, but alphabeta scores %d and plays %v", p, res.Score, mv)
			}
		} else {
			others++
			if res.Score >= WinScore-5 {
				t.Errorf("%v: no win within 5 plies, but alphabeta scores %d", p, res.Score)
			}
		}
	}
	if wins < 20 || others < 20 {
		t.Errorf("%d positions with a win within 5 plies and %d without; want at least 20 of each", wins, others)
	}
}
