package cheversi

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// playAll plays moves in notation on st, failing the test on any error.
func playAll(t *testing.T, st game.State, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := st.ParseMove(text)
		if err != nil {
			t.Fatalf("ParseMove(%q) at %q: %v", text, st.Text(), err)
		}
		if err := st.Play(m); err != nil {
			t.Fatalf("Play(%q): %v", text, err)
		}
	}
}

// wantIllegal checks that text is refused with ErrIllegalMove and a reason.
func wantIllegal(t *testing.T, st game.State, text, reason string) {
	t.Helper()
	m, err := st.ParseMove(text)
	if err == nil {
		t.Errorf("ParseMove(%q) at %q = %v, want an illegal move", text, st.Text(), m)
		return
	}
	if !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("ParseMove(%q) error %v does not wrap ErrIllegalMove", text, err)
	}
	if !strings.Contains(err.Error(), reason) {
		t.Errorf("ParseMove(%q) error %q does not say %q", text, err, reason)
	}
}

func wantLegal(t *testing.T, st game.State, text string) {
	t.Helper()
	if _, err := st.ParseMove(text); err != nil {
		t.Errorf("ParseMove(%q) at %q: %v, want legal", text, st.Text(), err)
	}
}

// onlyPiece returns the moves of one piece letter.
func onlyPiece(moves []string, letter byte) []string {
	var out []string
	for _, m := range moves {
		if m[0] == letter {
			out = append(out, m)
		}
	}
	return out
}

func TestFirstMoves(t *testing.T) {
	st := mustRules(t, "cheversi").Start()
	moves := moveStrings(st)
	if len(moves) != 64 || len(onlyPiece(moves, 'K')) != 64 {
		t.Fatalf("cheversi first moves: got %d (%d kings), want 64 king moves", len(moves), len(onlyPiece(moves, 'K')))
	}
	wantIllegal(t, st, "Q@e4", "white's first move must place the king")

	free := mustRules(t, "cheversi", "opening=free").Start()
	if got := len(moveStrings(free)); got != 5*64 {
		t.Errorf("opening=free first moves: got %d, want %d", got, 5*64)
	}
	wantLegal(t, free, "N@a1")

	classic := mustRules(t, "cheversi-classic").Start()
	playAll(t, classic, "K@e4")
	if got := moveStrings(classic); len(got) != 63 || len(onlyPiece(got, 'Q')) != 63 {
		t.Errorf("king-queen black first moves: got %d, want 63 queen moves", len(got))
	}
	wantIllegal(t, classic, "R@a1", "black's first move must place the queen")
	wantIllegal(t, classic, "Q@e4", "e4 is occupied")
}

func TestTouch(t *testing.T) {
	st := mustRules(t, "cheversi").Start()
	playAll(t, st, "K@e4")
	// Black touches White's King with anything but its King: 4 kinds x 8.
	if got := len(moveStrings(st)); got != 32 {
		t.Errorf("moves after K@e4: got %d, want 32", got)
	}
	wantIllegal(t, st, "R@a8", "must touch an opponent piece")
	wantIllegal(t, st, "K@e5", "black's king must be its last piece")
	playAll(t, st, "R@e5")
	// White must touch the rook, not its own king.
	wantIllegal(t, st, "N@e3", "must touch an opponent piece")
	wantLegal(t, st, "N@e6")
	wantIllegal(t, st, "K@d4", "white has no king left to place")

	anyTouch := mustRules(t, "cheversi", "touch=any").Start()
	playAll(t, anyTouch, "K@e4", "R@e5")
	wantLegal(t, anyTouch, "N@e3")
	wantIllegal(t, anyTouch, "N@a1", "must touch a piece")
}

func TestQueenCall(t *testing.T) {
	st := mustRules(t, "cheversi").Start()
	playAll(t, st, "K@e4", "Q@e5")
	// Every square next to the black queen except e4.
	want := []string{"Q@d4", "Q@f4", "Q@d5", "Q@f5", "Q@d6", "Q@e6", "Q@f6"}
	if got := moveStrings(st); !slices.Equal(got, want) {
		t.Errorf("moves under queen call: got %v, want %v", got, want)
	}
	wantIllegal(t, st, "R@d5", "queen must be placed (queen call)")

	// White calls Black's queen the same way.
	playAll(t, st, "Q@d5")
	next := mustRules(t, "cheversi").Start()
	playAll(t, next, "K@e4", "R@e5", "Q@d5")
	for _, m := range moveStrings(next) {
		if m[0] != 'Q' {
			t.Errorf("black answers a queen with %s, want only queen moves", m)
		}
	}
	wantIllegal(t, next, "N@d6", "queen call")

	off := mustRules(t, "cheversi", "queen_call=false").Start()
	playAll(t, off, "K@e4", "Q@e5")
	wantLegal(t, off, "R@d5")
}

func TestBishopsOpposite(t *testing.T) {
	st := mustRules(t, "cheversi").Start()
	playAll(t, st, "K@e4", "R@e5", "B@d5", "N@f5")
	// The first bishop is on light d5; the second goes on a dark square next
	// to e5 or f5.
	want := []string{"B@d4", "B@f4", "B@g5", "B@d6", "B@f6"}
	if got := onlyPiece(moveStrings(st), 'B'); !slices.Equal(got, want) {
		t.Errorf("second bishop moves: got %v, want %v", got, want)
	}
	wantIllegal(t, st, "B@e6", "second bishop must go on a dark square (bishops_opposite)")

	off := mustRules(t, "cheversi", "bishops_opposite=no").Start()
	playAll(t, off, "K@e4", "R@e5", "B@d5", "N@f5")
	wantLegal(t, off, "B@e6")
}

// p14 is a ply-14 position under the cheversi preset: White has one knight
// left, Black everything but its King.
const p14 = "Ke4 Qd4 Ra1 Ra2 Bc1 Bc2 Ng1 qe5 rf5 rg2 bf1 bf2 nh2 nd5"

func TestBlackKingLast(t *testing.T) {
	r := mustRules(t, "cheversi")
	st := mustState(t, r, posText(t, p14, "d5"))
	// h1 touches Black's g2 and h2 but would leave no square for the king.
	wantIllegal(t, st, "N@h1", "white's last piece must leave an empty square next to it")
	for _, m := range moveStrings(st) {
		if m == "N@h1" {
			t.Errorf("N@h1 among legal moves %v", moveStrings(st))
		}
	}
	off := mustState(t, mustRules(t, "cheversi", "black_king_last=false"), posText(t, p14, "d5"))
	wantLegal(t, off, "N@h1")

	playAll(t, st, "N@e6")
	want := []string{"K@d6", "K@f6", "K@d7", "K@e7", "K@f7"}
	if got := moveStrings(st); !slices.Equal(got, want) {
		t.Errorf("black king squares next to e6: got %v, want %v", got, want)
	}
	wantIllegal(t, st, "K@c3", "next to e6")

	playAll(t, st, "K@e7")
	o := st.Outcome()
	pos := st.Position()
	w, b := pos.Score(game.White), pos.Score(game.Black)
	wantResult := game.Draw
	switch {
	case w > b:
		wantResult = game.WhiteWins
	case b > w:
		wantResult = game.BlackWins
	}
	if o.Result != wantResult || o.Reason != game.ReasonScore || !slices.Equal(o.Scores, []int{w, b}) {
		t.Errorf("final outcome %+v, want %v by score with scores [%d %d]", o, wantResult, w, b)
	}
	if got := st.LegalMoves(nil); len(got) != 0 {
		t.Errorf("moves after the last ply: %v", got)
	}
	m, err := st.ParseMove("N@a8")
	if !errors.Is(err, game.ErrGameOver) || !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("ParseMove after the end = %v, %v; want ErrGameOver and ErrIllegalMove", m, err)
	}
}

// TestForcedBlackQueen: under black_king_last Black's 7th move must be its
// Queen when the Queen and King are all it has left, and that Queen calls
// White's.
func TestForcedBlackQueen(t *testing.T) {
	const p13 = "Kd4 Ra1 Rh1 Bc1 Bf1 Nb1 Ng1 rd5 re5 bc5 bf5 nc4 ne4"
	st := mustState(t, mustRules(t, "cheversi"), posText(t, p13, "g1"))
	moves := moveStrings(st)
	if len(moves) == 0 || len(onlyPiece(moves, 'Q')) != len(moves) {
		t.Fatalf("black's 7th move: got %v, want only queen moves", moves)
	}
	wantIllegal(t, st, "K@e3", "black's king must be its last piece")

	free := mustState(t, mustRules(t, "cheversi", "black_king_last=false"), posText(t, p13, "g1"))
	if got := onlyPiece(moveStrings(free), 'K'); len(got) == 0 {
		t.Errorf("black_king_last=false: no king moves for black")
	}

	playAll(t, st, "Q@d3")
	if !st.pos.queenCalled() {
		t.Errorf("Q@d3 does not call White's queen")
	}
	moves = moveStrings(st)
	if len(moves) == 0 || len(onlyPiece(moves, 'Q')) != len(moves) {
		t.Fatalf("white's 8th move after the forced queen: got %v, want only queen moves", moves)
	}
}

// fallbackText is a ply-13 position where Black must place its second
// bishop on a light square and every light square next to a White piece is
// taken: the touch constraint is lifted.
const fallbackPieces = "Ba1 Bb1 Rc1 Ra2 Kb2 Qc2 Na3 rb3 bc3 nd1 nd3 ra4 qh8"

func TestTouchFallback(t *testing.T) {
	st := mustState(t, mustRules(t, "cheversi"), posText(t, fallbackPieces, "a3"))
	used := map[string]bool{}
	for _, f := range strings.Fields(fallbackPieces) {
		used[f[1:]] = true
	}
	var want []string
	for sq := range 64 {
		if !isDark(sq) && !used[sqName(sq)] {
			want = append(want, "B@"+sqName(sq))
		}
	}
	if len(want) != 25 {
		t.Fatalf("test setup: %d free light squares, want 25", len(want))
	}
	if got := moveStrings(st); !slices.Equal(got, want) {
		t.Errorf("moves with touch lifted: got %v, want %v", got, want)
	}
	wantLegal(t, st, "B@h1")
	wantIllegal(t, st, "B@d2", "second bishop must go on a light square")
	wantIllegal(t, st, "K@d2", "black's king must be its last piece")
	if o := st.Outcome(); o.Over() {
		t.Errorf("outcome %+v, want the game to go on", o)
	}

	// With a light square next to a White piece free, the constraint holds.
	touching := mustState(t, mustRules(t, "cheversi"), posText(t, strings.Replace(fallbackPieces, "nd3", "nh7", 1), "a3"))
	if got := moveStrings(touching); !slices.Equal(got, []string{"B@d3"}) {
		t.Errorf("moves with d3 free: got %v, want [B@d3]", got)
	}
	wantIllegal(t, touching, "B@h1", "must touch an opponent piece")
}

func TestNoMovesLoses(t *testing.T) {
	// White's last knight on h1 leaves no square for Black's King (a
	// position legal play cannot reach, since White's move was illegal).
	st := mustState(t, mustRules(t, "cheversi"), posText(t, p14+" Nh1", "h1"))
	if got := st.LegalMoves(nil); len(got) != 0 {
		t.Fatalf("legal moves %v, want none", got)
	}
	o := st.Outcome()
	if o.Result != game.WhiteWins || o.Reason != game.ReasonNoMoves {
		t.Errorf("outcome %+v, want white wins by %q", o, game.ReasonNoMoves)
	}
	if _, err := st.ParseMove("K@e3"); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("ParseMove after no-moves loss: %v, want ErrGameOver", err)
	}
	if err := st.Play(NewMove(King, 20)); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Play after no-moves loss: %v, want ErrIllegalMove", err)
	}
	if n := st.Perft(1); n != 0 {
		t.Errorf("Perft(1) = %d, want 0", n)
	}
}

func TestScore(t *testing.T) {
	tests := []struct {
		pieces, last string
		// White and Black scores under attacks and squares
		wAttacks, wSquares, bAttacks, bSquares int
	}{
		// K a1: a2 b1 b2. R a3: a4-a8, a2, b3-d3 (e3 blocks). N e3: 8 jumps.
		{"Ka1 Ra3 ne3", "a3", 12, 11, 8, 8},
		// Q d4 is blocked by d6 and f6 (21 squares), K h1 adds g1 g2 h2,
		// g1 twice. b f6: g7 h8 e7 d8 g5 h4 e5 (d4 blocks). n d6: 8 jumps.
		{"Qd4 Kh1 bf6 nd6", "f6", 24, 23, 15, 15},
		{"", "-", 0, 0, 0, 0},
	}
	for _, tc := range tests {
		for _, sc := range []string{"attacks", "squares"} {
			text := posText(t, tc.pieces, tc.last)
			st := mustState(t, mustRules(t, "cheversi", "scoring="+sc), text)
			pos := st.Position()
			w, b := pos.Score(game.White), pos.Score(game.Black)
			ww, wb := tc.wAttacks, tc.bAttacks
			if sc == "squares" {
				ww, wb = tc.wSquares, tc.bSquares
			}
			if w != ww || b != wb {
				t.Errorf("%s scoring of %q: got white %d black %d, want %d %d", sc, text, w, b, ww, wb)
			}
		}
	}
}

func TestHash(t *testing.T) {
	r := mustRules(t, "cheversi-classic")
	a := r.Start().(*State)
	playAll(t, a, "K@e4", "Q@e5", "R@a1", "N@h8", "B@b2")
	b := r.Start().(*State)
	playAll(t, b, "K@e4", "Q@e5", "B@b2", "N@h8", "R@a1")
	pa, pb := a.Position(), b.Position()
	if pa.Hash() != pb.Hash() {
		t.Errorf("transposed positions hash %x and %x, want equal", pa.Hash(), pb.Hash())
	}
	c := r.Start().(*State)
	playAll(t, c, "K@e4", "Q@e5", "B@b2", "N@h7", "R@a1")
	if pc := c.Position(); pc.Hash() == pa.Hash() {
		t.Errorf("different pieces hash alike (%x)", pa.Hash())
	}

	// Where the last square matters (a pending queen call) it is hashed:
	// the same pieces with Black's queen placed last oblige White to answer.
	q := mustRules(t, "cheversi")
	pending := mustState(t, q, posText(t, "Ke4 Nd4 qe5 rf5", "f5"))
	pendingQ := mustState(t, q, posText(t, "Ke4 Nd4 qe5 rf5", "e5"))
	pp, pq := pending.Position(), pendingQ.Position()
	if pp.Hash() == pq.Hash() {
		t.Errorf("pending queen call does not change the hash")
	}
	if !pq.queenCalled() || pp.queenCalled() {
		t.Errorf("queenCalled: %v %v, want true false", pq.queenCalled(), pp.queenCalled())
	}
}
