package checkers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// newState builds a State from a FEN with the american preset and the given
// "key=value" overrides.
func newState(t *testing.T, fen string, overrides ...string) *State {
	t.Helper()
	var settings []game.Setting
	for _, o := range overrides {
		k, v, _ := strings.Cut(o, "=")
		settings = append(settings, game.Setting{Key: k, Value: v})
	}
	r, err := New("", settings)
	if err != nil {
		t.Fatalf("New(%v): %v", settings, err)
	}
	gs, err := r.ParseState(fen)
	if err != nil {
		t.Fatalf("ParseState(%q): %v", fen, err)
	}
	return gs.(*State)
}

// playAll parses and plays each move, failing the test on any error.
func playAll(t *testing.T, s *State, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: ParseMove(%q): %v", s.Text(), text, err)
		}
		if err := s.Play(m); err != nil {
			t.Fatalf("%s: Play(%v): %v", s.Text(), m, err)
		}
	}
}

func moveTexts(s *State) []string {
	var out []string
	for _, m := range s.LegalMoves(nil) {
		out = append(out, m.String())
	}
	return out
}

func TestMidgamePositions(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string // every legal move, in notation order
	}{
		{
			// Black king on 22 jumps White's man on 18 toward Black's own side.
			name: "king captures backwards", fen: "B:W18:BK22", moves: []string{"22x15"},
		},
		{
			// The same man cannot: men capture forward only.
			name: "man does not capture backwards", fen: "B:W18:B22", moves: []string{"22-25", "22-26"},
		},
		{
			name: "white king captures backwards", fen: "W:WK15:B18", moves: []string{"15x22"},
		},
		{
			// Around the four men 14, 15, 22, 23 the king can go either way
			// and comes back to 10: two paths with the same end square and
			// the same captured pieces, counted as two moves.
			name: "ring of captures", fen: "B:W14,15,22,23:BK10",
			moves: []string{"10x17x26x19x10", "10x19x26x17x10"},
		},
		{
			// Two paths over different men, both ending on 18.
			name: "two paths to one square", fen: "B:W6,7,14,15:B2",
			moves: []string{"2x9x18", "2x11x18"},
		},
		{
			// 22x31 crowns; the new king could jump 27 next but the move
			// ends on the crowning square.
			name: "crowning ends the capture", fen: "B:W26,27:B22", moves: []string{"22x31"},
		},
		{
			name: "white crowning ends the capture", fen: "W:W11:B7,6", moves: []string{"11x2"},
		},
		{
			name: "man captures a king", fen: "B:WK18:B14", moves: []string{"14x23"},
		},
		{
			// 1-5 and 1-6 are simple moves, but 9x18 is available.
			name: "capture is compulsory", fen: "B:W14:B1,9", moves: []string{"9x18"},
		},
		{
			// Free choice between a single and a double capture.
			name: "no majority rule", fen: "B:W6,15,16:B1,12",
			moves: []string{"1x10x19", "12x19"},
		},
		{
			// After 10x19 the king may not jump 15 again back to 10, and
			// after 19x26 it may not jump 23 again back to 19.
			name: "a piece is jumped once", fen: "B:W15,23:BK10", moves: []string{"10x19x26"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newState(t, tt.fen)
			if got := moveTexts(s); !slices.Equal(got, tt.moves) {
				t.Errorf("legal moves of %s = %v, want %v", tt.fen, got, tt.moves)
			}
			if got := s.Perft(1); got != uint64(len(tt.moves)) {
				t.Errorf("Perft(1) = %d, want %d", got, len(tt.moves))
			}
		})
	}
}

func TestCrowningCapture(t *testing.T) {
	s := newState(t, "B:W26,27:B22")
	m, err := s.Position().ParseMove("22x31")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Crowns() || !m.IsCapture() || m.IsKingMove() {
		t.Errorf("22x31: Crowns=%v IsCapture=%v IsKingMove=%v, want true true false", m.Crowns(), m.IsCapture(), m.IsKingMove())
	}
	if _, err := s.ParseMove("22x31x24"); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("ParseMove(22x31x24) error = %v, want ErrIllegalMove", err)
	}
	playAll(t, s, "22x31")
	if got, want := s.Text(), "W:W27:BK31"; got != want {
		t.Errorf("after 22x31: %s, want %s", got, want)
	}
	// Now White's 27 must take nothing (31 is behind it for a man) and the
	// king on 31 threatens it next.
	if got := moveTexts(s); !slices.Equal(got, []string{"27-23", "27-24"}) {
		t.Errorf("White's moves = %v, want [27-23 27-24]", got)
	}
}

func TestManCapturesKingWins(t *testing.T) {
	s := newState(t, "B:WK18:B14")
	playAll(t, s, "14x23")
	o := s.Outcome()
	if o.Result != game.BlackWins || o.Reason != game.ReasonNoMoves {
		t.Errorf("after the last White piece is taken: %+v, want Black wins by no-moves", o)
	}
}

func TestNoMoves(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want game.Result
	}{
		{"black has no pieces", "B:W21:B", game.WhiteWins},
		{"white has no pieces", "W:W:B5", game.BlackWins},
		{"empty board", "B:W:B", game.WhiteWins},
		// Black's man on 28 has 32 (White) ahead and the edge on the other side.
		{"black blocked", "B:W32:B28", game.WhiteWins},
		// White's men on 5 and 6 face Black men on 1 and 2 with nowhere to go:
		// 5's only forward square is 1, and 6 is blocked by 1 and 2 with
		// the jumps off the board.
		{"white blocked", "W:W5,6:B1,2", game.BlackWins},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newState(t, tt.fen)
			o := s.Outcome()
			if o.Result != tt.want || o.Reason != game.ReasonNoMoves {
				t.Errorf("Outcome() = %+v, want %v by %s", o, tt.want, game.ReasonNoMoves)
			}
			if got := s.LegalMoves(nil); len(got) != 0 {
				t.Errorf("LegalMoves = %v, want none", got)
			}
			if _, err := s.ParseMove("1-5"); !errors.Is(err, game.ErrGameOver) || !errors.Is(err, game.ErrIllegalMove) {
				t.Errorf("ParseMove after the end: %v, want ErrGameOver and ErrIllegalMove", err)
			}
		})
	}
	// The position stays playable as a position: blocked is not "no pieces".
	s := newState(t, "W:W32:B28")
	if got := moveTexts(s); !slices.Equal(got, []string{"32-27"}) {
		t.Errorf("White's moves in W:W32:B28 = %v, want [32-27]", got)
	}
}

// shuffle is a cycle of king moves that returns to the start position after
// four plies: Black 1-5, White 32-28, Black 5-1, White 28-32.
var shuffle = []string{"1-5", "32-28", "5-1", "28-32"}

const shuffleFEN = "B:WK32:BK1"

// playShuffle plays the shuffle on s until the game ends or limit plies
// have been played, checking Ply after each, and returns the ply at which the
// game ended (0 if it goes on).
func playShuffle(t *testing.T, s *State, limit int) int {
	t.Helper()
	for ply := 1; ply <= limit; ply++ {
		playAll(t, s, shuffle[(ply-1)%4])
		if s.Ply() != ply {
			t.Fatalf("Ply() = %d, want %d", s.Ply(), ply)
		}
		if s.Outcome().Over() {
			return ply
		}
	}
	return 0
}

// TestDrawRules plays the shuffle under each draw rule alone and checks the
// ply and the reason of the draw.
func TestDrawRules(t *testing.T) {
	const limit = 500
	tests := []struct {
		settings []string
		drawAt   int // ply of the draw; 0 = no draw within limit plies
		reason   string
	}{
		{[]string{"repetition=3", "quiet_moves=0", "max_plies=0"}, 8, game.ReasonRepetition}, // the start position for the third time
		{[]string{"repetition=2", "quiet_moves=0", "max_plies=0"}, 4, game.ReasonRepetition},
		{[]string{"repetition=5", "quiet_moves=0", "max_plies=0"}, 16, game.ReasonRepetition},
		{[]string{"quiet_moves=40", "repetition=0", "max_plies=0"}, 80, game.ReasonQuietMoves},
		{[]string{"quiet_moves=2", "repetition=0", "max_plies=0"}, 4, game.ReasonQuietMoves},
		{[]string{"max_plies=5", "repetition=0", "quiet_moves=0"}, 5, game.ReasonMaxPlies},
		{[]string{"max_plies=1", "repetition=0", "quiet_moves=0"}, 1, game.ReasonMaxPlies},
		{[]string{"repetition=0", "quiet_moves=0"}, 400, game.ReasonMaxPlies}, // the default cap
		{[]string{"repetition=0", "quiet_moves=0", "max_plies=0"}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.settings, ","), func(t *testing.T) {
			s := newState(t, shuffleFEN, tt.settings...)
			got := playShuffle(t, s, limit)
			if got != tt.drawAt {
				t.Fatalf("game ended at ply %d with %+v, want a %s draw at ply %d (0 = none within %d)",
					got, s.Outcome(), tt.reason, tt.drawAt, limit)
			}
			if tt.drawAt == 0 {
				return
			}
			if o := s.Outcome(); o.Result != game.Draw || o.Reason != tt.reason {
				t.Fatalf("ply %d: %+v, want a %s draw", got, o, tt.reason)
			}
			if tt.reason == game.ReasonRepetition {
				if got, want := s.Repetitions(), (tt.drawAt/4)+1; got != want {
					t.Errorf("Repetitions() = %d, want %d", got, want)
				}
			}
			if err := s.Play(s.Position().GenerateMoves(nil)[0]); !errors.Is(err, game.ErrGameOver) {
				t.Errorf("Play after the draw: %v, want ErrGameOver", err)
			}
		})
	}
}

func TestHashIncludesSideToMove(t *testing.T) {
	b := newState(t, "B:WK32,K31:BK1")
	w := newState(t, "W:WK32,K31:BK1")
	if b.Hash() == w.Hash() {
		t.Errorf("hash is the same with White and Black to move: %x", b.Hash())
	}
	if got, want := b.Hash(), b.Position().computeHash(); got != want {
		t.Errorf("Hash() = %x, want %x", got, want)
	}
	playAll(t, b, "1-5")
	if b.Hash() == w.Hash() {
		t.Errorf("hash unchanged by 1-5")
	}
}

func TestIrreversibleMoveClearsHistory(t *testing.T) {
	// A man move between the repetitions restarts the count.
	s := newState(t, "B:WK32,12:BK1,21", "repetition=2", "quiet_moves=0", "max_plies=0")
	playAll(t, s, "1-5", "32-28", "5-1")
	playAll(t, s, "12-8") // White man moves: irreversible
	if got := s.Repetitions(); got != 1 {
		t.Fatalf("Repetitions() after a man move = %d, want 1", got)
	}
	if got := s.QuietPlies(); got != 0 {
		t.Fatalf("QuietPlies() after a man move = %d, want 0", got)
	}
	playAll(t, s, "1-5", "28-32", "5-1", "32-28")
	if o := s.Outcome(); o.Result != game.Draw || o.Reason != game.ReasonRepetition {
		t.Errorf("Outcome() = %+v, want a repetition draw", o)
	}
}

func TestQuietMovesResetByManMoveAndCapture(t *testing.T) {
	// Kings on 1 and 32, Black men on 9 and 10, a White man on 27.
	s := newState(t, "B:WK32,27:BK1,9", "quiet_moves=2", "repetition=0", "max_plies=0")
	playAll(t, s, "1-5", "32-28", "5-1") // three quiet plies
	if got := s.QuietPlies(); got != 3 {
		t.Fatalf("QuietPlies() = %d, want 3", got)
	}
	playAll(t, s, "27-24") // a man move resets the count
	if got := s.QuietPlies(); got != 0 {
		t.Fatalf("QuietPlies() after a man move = %d, want 0", got)
	}
	playAll(t, s, "1-5", "28-32", "5-1")
	if s.Outcome().Over() {
		t.Fatalf("draw after three quiet plies with quiet_moves=2: %+v", s.Outcome())
	}
	playAll(t, s, "32-28")
	if o := s.Outcome(); o.Reason != game.ReasonQuietMoves {
		t.Errorf("after four quiet plies: %+v, want a quiet-moves draw", o)
	}
	// A king capture is not quiet either.
	c := newState(t, "B:W18,K32:BK22,5", "quiet_moves=1", "repetition=0", "max_plies=0")
	playAll(t, c, "22x15")
	if got := c.QuietPlies(); got != 0 {
		t.Errorf("QuietPlies() after a king capture = %d, want 0", got)
	}
}

func TestNoMovesTakesPrecedence(t *testing.T) {
	// Black's last capture wins the game on the ply the cap is reached.
	s := newState(t, "B:WK18:BK14", "max_plies=1")
	playAll(t, s, "14x23")
	if o := s.Outcome(); o.Result != game.BlackWins || o.Reason != game.ReasonNoMoves {
		t.Errorf("Outcome() = %+v, want Black wins by no-moves", o)
	}
}

func TestStateFromFEN(t *testing.T) {
	s := newState(t, "W:W17,22:B1,2")
	if s.Ply() != 0 || s.QuietPlies() != 0 || s.Repetitions() != 1 {
		t.Errorf("Ply, QuietPlies, Repetitions = %d, %d, %d; want 0, 0, 1", s.Ply(), s.QuietPlies(), s.Repetitions())
	}
	if s.Turn() != game.White {
		t.Errorf("Turn() = %v, want white", s.Turn())
	}
	r, _ := New("", nil)
	st := r.Start().(*State)
	if st.Turn() != game.Black || st.Ply() != 0 || st.Text() != StartPosition().String() {
		t.Errorf("Start(): turn %v ply %d text %s", st.Turn(), st.Ply(), st.Text())
	}
}

func TestCloneIsIndependent(t *testing.T) {
	s := newState(t, shuffleFEN, "repetition=2")
	playAll(t, s, "1-5", "32-28")
	c := s.Clone().(*State)
	playAll(t, c, "5-1", "28-32")
	if o := c.Outcome(); o.Reason != game.ReasonRepetition {
		t.Fatalf("clone: %+v, want a repetition draw", o)
	}
	if s.Outcome().Over() || s.Ply() != 2 || s.Text() != "B:WK28:BK5" {
		t.Errorf("original changed by its clone: ply %d %s %+v", s.Ply(), s.Text(), s.Outcome())
	}
	playAll(t, s, "5-9")
	if c.Text() != shuffleFEN {
		t.Errorf("clone changed by its original: %s", c.Text())
	}
}

type foreignMove struct{}

func (foreignMove) String() string { return "1-5" }

func TestPlayRejectsForeignAndIllegalMoves(t *testing.T) {
	s := newState(t, shuffleFEN)
	other := newState(t, "B:W14:B9")
	m, err := other.ParseMove("9x18")
	if err != nil {
		t.Fatal(err)
	}
	var nilMove *Move
	for _, bad := range []game.Move{foreignMove{}, nil, nilMove, m, Move{}} {
		if err := s.Play(bad); !errors.Is(err, game.ErrIllegalMove) {
			t.Errorf("Play(%#v) error = %v, want ErrIllegalMove", bad, err)
		}
	}
	if s.Text() != shuffleFEN || s.Ply() != 0 {
		t.Errorf("state changed by rejected moves: %s ply %d", s.Text(), s.Ply())
	}
	// A *Move from this state is fine.
	mv, err := s.Position().ParseMove("1-5")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Play(&mv); err != nil {
		t.Errorf("Play(*Move): %v", err)
	}
}
