package tournament_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/pgn"
	"github.com/arena-games/arena/arena/tournament"
)

// TestOpeningsAsPositions plays tournaments whose openings are positions:
// checkers FENs of 11-man starts (one with the ballot's moves after it,
// one with White to move) and a Cheversi position text. The bots are sent
// the position text and the moves since; every game replays from its
// position, and the game file says where it started.
func TestOpeningsAsPositions(t *testing.T) {
	for _, c := range []struct {
		game, book string
		tag        string // a line of the game file
	}{
		{"checkers", "B:W21-31:B2-12\televen\nB:W21-31:B2-12 moves 9-13 22-18\televen, 9-13 22-18\nW:W18,22,25:B9,10,14\twhite to move\n",
			`[FEN "B:W21,22,23,24,25,26,27,28,29,30,31:B2,3,4,5,6,7,8,9,10,11,12"]`},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 1 e4 moves Q@d5 Q@c6\tcall\n", `[FEN "8/8/8/8/4K3/8/8/8 b 1 e4"]`},
	} {
		t.Run(c.game, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "book.txt"), []byte(c.book), 0o644); err != nil {
				t.Fatal(err)
			}
			body := "name = \"positions\"\nconcurrency = 2\n[game]\nname = \"" + c.game + "\"\n[openings]\nfile = " +
				quote(filepath.Join(dir, "book.txt")) + "\n[time]\nmove = \"5s\"\n"
			path := writeConfig(t, body, "positions", testBot{"a", "random:1"}, testBot{"b", "random:2"})
			out := t.TempDir()
			sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
			if err != nil || !sum.Complete {
				t.Fatalf("Run: %v", err)
			}
			recs := readRecords(t, out) // replays and verifies every game
			n := strings.Count(c.book, "\n")
			if len(recs) != 2*n {
				t.Fatalf("%d games, want %d", len(recs), 2*n)
			}
			for _, r := range recs {
				if r.Opening.Position == "" || r.Reason == "forfeit" {
					t.Errorf("game %d: position %q, %s %s", r.ID, r.Opening.Position, r.Reason, r.Forfeit)
				}
			}
			text, err := os.ReadFile(filepath.Join(out, pgn.FileName(c.game)))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(text, []byte(c.tag)) || !bytes.Contains(text, []byte(`[SetUp "1"]`)) {
				t.Errorf("the game file lacks %s:\n%s", c.tag, text)
			}
			if c.game == "checkers" && !bytes.Contains(text, []byte("\n1... ")) {
				t.Errorf("the game from a position with White to move does not start with 1...:\n%s", text)
			}
		})
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }
