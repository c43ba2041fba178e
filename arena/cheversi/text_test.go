package cheversi

import (
	"errors"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestParseMoveNotation(t *testing.T) {
	tests := []struct {
		text  string
		want  Move
		error string // substring of the error, "" for success
	}{
		{"K@e4", NewMove(King, 28), ""},
		{"Q@a1", NewMove(Queen, 0), ""},
		{"R@h8", NewMove(Rook, 63), ""},
		{"B@c1", NewMove(Bishop, 2), ""},
		{"N@c3", NewMove(Knight, 18), ""},
		{"", 0, "not <piece>@<square>"},
		{"K@e", 0, "not <piece>@<square>"},
		{"Ke4", 0, "not <piece>@<square>"},
		{"K-e4", 0, "not <piece>@<square>"},
		{"K@e4 ", 0, "not <piece>@<square>"},
		{" K@e4", 0, "not <piece>@<square>"},
		{"k@e4", 0, "upper case (K)"},
		{"n@c3", 0, "upper case (N)"},
		{"P@e4", 0, `unknown piece "P"`},
		{"K@i4", 0, `bad square "i4"`},
		{"K@E4", 0, `bad square "E4"`},
		{"K@e9", 0, `bad square "e9"`},
		{"K@e0", 0, `bad square "e0"`},
	}
	for _, tc := range tests {
		got, err := ParseMove(tc.text)
		if tc.error == "" {
			if err != nil || got != tc.want {
				t.Errorf("ParseMove(%q) = %v, %v; want %v", tc.text, got, err, tc.want)
			}
			if got.String() != tc.text {
				t.Errorf("ParseMove(%q).String() = %q", tc.text, got.String())
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseMove(%q) = %v, want an error", tc.text, got)
			continue
		}
		if !errors.Is(err, game.ErrBadNotation) {
			t.Errorf("ParseMove(%q) error %v does not wrap ErrBadNotation", tc.text, err)
		}
		if !strings.Contains(err.Error(), tc.error) {
			t.Errorf("ParseMove(%q) error %q does not contain %q", tc.text, err, tc.error)
		}
		// The State's ParseMove reports notation errors the same way.
		if _, err := mustRules(t, "cheversi").Start().ParseMove(tc.text); !errors.Is(err, game.ErrBadNotation) {
			t.Errorf("State.ParseMove(%q) error %v does not wrap ErrBadNotation", tc.text, err)
		}
	}
}

func TestParseStateValid(t *testing.T) {
	tests := []struct {
		preset string
		text   string
		turn   game.Color
		ply    int
	}{
		{"cheversi", "8/8/8/8/8/8/8/8 w 0 -", game.White, 0},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 1 e4", game.Black, 1},
		{"cheversi", "8/8/8/4r3/4K3/8/8/8 w 2 e5", game.White, 2},
		{"cheversi-classic", "8/8/8/4q3/4K3/8/8/8 w 2 e5", game.White, 2},
		{"cheversi", "8/8/8/8/8/8/8/KQRRbbnn w 8 h1", game.White, 8}, // touch is not checked
	}
	for _, tc := range tests {
		st, err := mustRules(t, tc.preset).ParseState(tc.text)
		if err != nil {
			t.Errorf("%s ParseState(%q): %v", tc.preset, tc.text, err)
			continue
		}
		if st.Text() != tc.text || st.Turn() != tc.turn || st.Ply() != tc.ply {
			t.Errorf("%s ParseState(%q): Text %q Turn %v Ply %d, want %v %d", tc.preset, tc.text, st.Text(), st.Turn(), st.Ply(), tc.turn, tc.ply)
		}
	}
}

func TestParseStateErrors(t *testing.T) {
	tests := []struct {
		preset string
		text   string
		error  string
	}{
		{"cheversi", "", "want 4 fields"},
		{"cheversi", "8/8/8/8/8/8/8/8 w 0", "want 4 fields"},
		{"cheversi", "8/8/8/8/8/8/8/8  w 0 -", "want 4 fields"},
		{"cheversi", "8/8/8/8/8/8/8/8 w 0 - ", "want 4 fields"},
		{"cheversi", "8/8/8/8/8/8/8 w 0 -", "7 ranks"},
		{"cheversi", "8/8/8/8/8/8/8/8/8 w 0 -", "9 ranks"},
		{"cheversi", "8/8/8/8/7/8/8/8 w 0 -", "rank 4 describes 7 squares"},
		{"cheversi", "8/8/8/8/4K4/8/8/8 b 1 e4", "rank 4 describes more than 8"},
		{"cheversi", "8/8/8/8/44/8/8/8 w 0 -", "adjacent digits"},
		{"cheversi", "8/8/8/8/4P3/8/8/8 b 1 e4", "unexpected character 'P'"},
		{"cheversi", "8/8/8/8/0K7/8/8/8 b 1 b4", "unexpected character '0'"},
		{"cheversi", "8/8/8/8/4K3/8/8/8 x 1 e4", "side to move"},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 01 e4", `ply "01"`},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b +1 e4", `ply "+1"`},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 17 e4", `ply "17"`},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 2 e4", "ply 2 but 1 piece on"},
		{"cheversi", "8/8/8/8/4K3/8/8/8 w 1 e4", "does not match ply 1"},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 1 -", "no last square at ply 1"},
		{"cheversi", "8/8/8/8/8/8/8/8 w 0 e4", "last square e4 at ply 0"},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 1 d4", "does not hold a white piece"},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 1 E4", `last square "E4"`},
		{"cheversi", "8/8/8/4r3/4K3/8/8/8 w 2 e4", "does not hold a black piece"},
		{"cheversi", "8/8/8/8/4k3/8/8/8 b 1 e4", "white has 0 pieces at ply 1"},
		{"cheversi", "8/8/8/8/KK6/8/8/8 w 2 a4", "more than 1 king"},
		{"cheversi", "8/8/8/8/RRR5/8/8/8 b 3 a4", "more than 2 rooks"},
		{"cheversi", "8/8/8/8/4Q3/8/8/8 b 1 e4", "king is not placed (opening king-first)"},
		{"cheversi-classic", "8/8/8/4r3/4K3/8/8/8 w 2 e5", "queen is not placed (opening king-queen)"},
		{"cheversi", "8/8/8/4k3/4K3/8/8/8 w 2 e5", "black's king is placed before"},
		{"cheversi", "8/8/8/8/2BB4/8/8/8 w 2 d4", "white has 2 pieces at ply 2"},
		{"cheversi", "8/8/8/8/4K3/8/r6r/B1B5 b 5 a1", "bishops are on squares of the same colour"},
	}
	for _, tc := range tests {
		st, err := mustRules(t, tc.preset).ParseState(tc.text)
		if err == nil {
			t.Errorf("%s ParseState(%q) = %q, want an error", tc.preset, tc.text, st.Text())
			continue
		}
		if st != nil {
			t.Errorf("%s ParseState(%q) returned a non-nil State with its error", tc.preset, tc.text)
		}
		if !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("%s ParseState(%q) error %v does not wrap ErrBadPosition", tc.preset, tc.text, err)
		}
		if !strings.Contains(err.Error(), tc.error) {
			t.Errorf("%s ParseState(%q) error %q does not contain %q", tc.preset, tc.text, err, tc.error)
		}
	}
	// Without the constraining switches the same placements are fine.
	free := mustRules(t, "cheversi", "opening=free", "black_king_last=no", "bishops_opposite=no")
	for _, text := range []string{
		"8/8/8/8/4Q3/8/8/8 b 1 e4",
		"8/8/8/4k3/4K3/8/8/8 w 2 e5",
		"8/8/8/8/4K3/8/r6r/B1B5 b 5 a1",
	} {
		if _, err := free.ParseState(text); err != nil {
			t.Errorf("free rules ParseState(%q): %v", text, err)
		}
	}
}

func TestStateMisc(t *testing.T) {
	r := mustRules(t, "cheversi")
	st := r.Start()
	clone := st.Clone()
	playAll(t, st, "K@e4")
	if clone.Ply() != 0 || clone.Text() != "8/8/8/8/8/8/8/8 w 0 -" {
		t.Errorf("clone changed with the original: %q", clone.Text())
	}
	if st.Text() != "8/8/8/8/4K3/8/8/8 b 1 e4" {
		t.Errorf("Text after K@e4 = %q", st.Text())
	}
	type foreign struct{ game.Move }
	if err := st.Play(foreign{}); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Play(foreign move) = %v, want ErrIllegalMove", err)
	}
	if err := st.Play(NewMove(Rook, 0)); !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "must touch") {
		t.Errorf("Play(R@a1) = %v, want ErrIllegalMove saying must touch", err)
	}
	if err := st.Play(Move(0)); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Play(Move(0)) = %v, want ErrIllegalMove", err)
	}
	if st.Ply() != 1 {
		t.Errorf("failed Play changed the state: ply %d", st.Ply())
	}
	dst := []game.Move{NewMove(King, 0)}
	if got := st.LegalMoves(dst); len(got) != 33 || got[0] != NewMove(King, 0) {
		t.Errorf("LegalMoves does not append to dst: %d moves", len(got))
	}
	if st.Turn() != game.Black {
		t.Errorf("Turn = %v, want black", st.Turn())
	}
}

func TestPositionAccessors(t *testing.T) {
	st := mustState(t, mustRules(t, "cheversi"), posText(t, "Ka1 Ra3 ne3", "a3"))
	p := st.Position()
	if sq, ok := p.Last(); !ok || sq.String() != "a3" {
		t.Errorf("Last = %v, %v; want a3", sq, ok)
	}
	if pc, c, ok := p.PieceAt(20); !ok || pc != Knight || c != game.Black {
		t.Errorf("PieceAt(e3) = %v %v %v, want N black", pc, c, ok)
	}
	if _, _, ok := p.PieceAt(21); ok {
		t.Errorf("PieceAt(f3) reports a piece")
	}
	if got := p.Unplaced(game.White, Rook); got != 1 {
		t.Errorf("Unplaced(white, rook) = %d, want 1", got)
	}
	if got := p.Unplaced(game.Black, Knight); got != 1 {
		t.Errorf("Unplaced(black, knight) = %d, want 1", got)
	}
	if got, want := p.Pieces(game.White, Rook), uint64(1)<<16; got != want {
		t.Errorf("Pieces(white, rook) = %#x, want %#x", got, want)
	}
	if got, want := p.Occupied(game.White), uint64(1)|1<<16; got != want {
		t.Errorf("Occupied(white) = %#x, want %#x", got, want)
	}
	if p.Turn() != game.Black || p.Ply() != 3 || p.Options() != st.Rules().Options() {
		t.Errorf("Turn %v Ply %d, want black 3", p.Turn(), p.Ply())
	}
	if got := p.Attacked(game.Black); got != knightAttacks[20] {
		t.Errorf("Attacked(black) = %#x, want the knight's jumps from e3", got)
	}
	if p.Score(game.Color(2)) != 0 || p.Pieces(game.Color(2), King) != 0 || p.Unplaced(game.White, Piece(7)) != 0 {
		t.Errorf("accessors accept invalid colors or pieces")
	}
	if s := Square(20); !s.Dark() || Square(7).Dark() || s.File() != 4 || s.Rank() != 2 { // e3 dark, h1 light
		t.Errorf("Square(20): dark %v file %d rank %d", s.Dark(), s.File(), s.Rank())
	}
	start := mustRules(t, "cheversi").StartPosition()
	if _, ok := start.Last(); ok {
		t.Errorf("start position has a last square")
	}
	var zero Position
	if zero.Text() != "8/8/8/8/8/8/8/8 w 0 -" || zero.CountMoves() != 64 || zero.Options() != (Options{}) {
		t.Errorf("zero Position: %q with %d moves, want the empty board with 64 king moves", zero.Text(), zero.CountMoves())
	}
	// Play ignores moves it cannot make rather than corrupting the position.
	before := p
	p.Play(Move(0))
	p.Play(NewMove(Queen, 0)) // a1 is occupied
	if p != before {
		t.Errorf("Play of an impossible move changed the position")
	}
}
