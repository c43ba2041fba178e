package cheversi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// This file holds a deliberately plain reading of the rules (square by
// square, no bitboards) that the fast implementation is checked against,
// and helpers to write position texts in tests.

// refBoard is a position in the plainest form: one cell per square.
type refBoard struct {
	cell [64]refCell
	ply  int
	last int // -1 before the first move
}

type refCell struct {
	used  bool
	color game.Color
	piece byte // 'K', 'Q', 'R', 'B', 'N'
}

func newRefBoard() *refBoard { return &refBoard{last: -1} }

func (b *refBoard) play(t *testing.T, mv string) {
	t.Helper()
	sq := sqIndex(t, mv[2:])
	if b.cell[sq].used {
		t.Fatalf("reference: %s on an occupied square", mv)
	}
	b.cell[sq] = refCell{used: true, color: game.Color(b.ply % 2), piece: mv[0]}
	b.ply++
	b.last = sq
}

func sqIndex(t *testing.T, s string) int {
	t.Helper()
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		t.Fatalf("bad square %q in test", s)
	}
	return int(s[1]-'1')*8 + int(s[0]-'a')
}

func sqName(i int) string { return string([]byte{byte('a' + i%8), byte('1' + i/8)}) }

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func (b *refBoard) placed(c game.Color, piece byte) []int {
	var s []int
	for i, x := range b.cell {
		if x.used && x.color == c && x.piece == piece {
			s = append(s, i)
		}
	}
	return s
}

func adjacent(a, b int) bool {
	df, dr := a%8-b%8, a/8-b/8
	return a != b && df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

func isDark(i int) bool { return (i%8+i/8)%2 == 0 }

// moves lists the legal moves in notation, in the order K, Q, R, B, N and
// then square, as read from the rules document.
func (b *refBoard) moves(o Options) []string {
	if b.ply >= 16 {
		return nil
	}
	ms := b.movesWith(o, true)
	if len(ms) == 0 {
		ms = b.movesWith(o, false)
	}
	return ms
}

func (b *refBoard) movesWith(o Options, touch bool) []string {
	us := game.Color(b.ply % 2)
	var out []string
	for _, pc := range []byte("KQRBN") {
		count := map[byte]int{'K': 1, 'Q': 1, 'R': 2, 'B': 2, 'N': 2}[pc]
		mine := b.placed(us, pc)
		if len(mine) >= count {
			continue
		}
		for sq := range 64 {
			if b.cell[sq].used || !b.allowed(o, touch, us, pc, sq, mine) {
				continue
			}
			out = append(out, string(pc)+"@"+sqName(sq))
		}
	}
	return out
}

func (b *refBoard) allowed(o Options, touch bool, us game.Color, pc byte, sq int, mine []int) bool {
	if b.ply == 0 && o.Opening != OpeningFree && pc != 'K' {
		return false
	}
	if b.ply == 1 && o.Opening == OpeningKingQueen && pc != 'Q' {
		return false
	}
	if o.QueenCall && b.last >= 0 {
		l := b.cell[b.last]
		if l.color != us && l.piece == 'Q' && len(b.placed(us, 'Q')) == 0 && pc != 'Q' {
			return false
		}
	}
	if o.BlackKingLast {
		if us == game.Black && pc == 'K' && (b.ply != 15 || !adjacent(sq, b.last)) {
			return false
		}
		if us == game.White && b.ply == 14 {
			free := false
			for n := range 64 {
				if adjacent(n, sq) && !b.cell[n].used {
					free = true
				}
			}
			if !free {
				return false
			}
		}
	}
	if o.BishopsOpposite && pc == 'B' && len(mine) == 1 && isDark(mine[0]) == isDark(sq) {
		return false
	}
	if touch && b.ply > 0 && o.Touch != TouchNone {
		ok := false
		for n := range 64 {
			if adjacent(n, sq) && b.cell[n].used && (o.Touch == TouchAny || b.cell[n].color != us) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// score computes c's score by walking every attack line.
func (b *refBoard) score(o Options, c game.Color) int {
	hits := map[int]int{}
	for sq, x := range b.cell {
		if !x.used || x.color != c {
			continue
		}
		f, r := sq%8, sq/8
		var steps [][2]int
		slide := false
		switch x.piece {
		case 'K':
			steps = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
		case 'N':
			steps = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
		case 'R':
			steps, slide = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}, true
		case 'B':
			steps, slide = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}, true
		case 'Q':
			steps = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
			slide = true
		}
		for _, st := range steps {
			for i := 1; onBoard(f+i*st[0], r+i*st[1]); i++ {
				t := (r+i*st[1])*8 + f + i*st[0]
				if b.cell[t].used {
					break
				}
				hits[t]++
				if !slide {
					break
				}
			}
		}
	}
	if o.Scoring == ScoreSquares {
		return len(hits)
	}
	n := 0
	for _, h := range hits {
		n += h
	}
	return n
}

// posText writes a position text from a list such as "Ka1 Ra3 ne3"
// (upper case White, lower case Black) and the last square ("-" for none).
// The ply is the number of pieces and the side to move follows from it.
func posText(t *testing.T, pieces, last string) string {
	t.Helper()
	var grid [64]byte
	n := 0
	for _, f := range strings.Fields(pieces) {
		if len(f) != 3 || !strings.ContainsRune("KQRBNkqrbn", rune(f[0])) {
			t.Fatalf("bad piece %q in test", f)
		}
		sq := sqIndex(t, f[1:])
		if grid[sq] != 0 {
			t.Fatalf("square %s used twice in test", f[1:])
		}
		grid[sq] = f[0]
		n++
	}
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			if ch := grid[r*8+f]; ch != 0 {
				if empty > 0 {
					fmt.Fprint(&sb, empty)
					empty = 0
				}
				sb.WriteByte(ch)
			} else {
				empty++
			}
		}
		if empty > 0 {
			fmt.Fprint(&sb, empty)
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	side := "w"
	if n%2 == 1 {
		side = "b"
	}
	return fmt.Sprintf("%s %s %d %s", sb.String(), side, n, last)
}

// mustRules returns the rules of a preset with overrides given as
// "key=value" strings.
func mustRules(t testing.TB, preset string, kv ...string) *Rules {
	t.Helper()
	var s []game.Setting
	for _, x := range kv {
		k, v, _ := strings.Cut(x, "=")
		s = append(s, game.Setting{Key: k, Value: v})
	}
	r, err := New(preset, s)
	if err != nil {
		t.Fatalf("New(%q, %v): %v", preset, s, err)
	}
	return r
}

// mustState parses a position text.
func mustState(t *testing.T, r *Rules, text string) *State {
	t.Helper()
	st, err := r.ParseState(text)
	if err != nil {
		t.Fatalf("ParseState(%q): %v", text, err)
	}
	return st.(*State)
}

// moveStrings returns the notation of the legal moves of s.
func moveStrings(s game.State) []string {
	var out []string
	for _, m := range s.LegalMoves(nil) {
		out = append(out, m.String())
	}
	return out
}
