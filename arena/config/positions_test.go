package config_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/openings"
)

// TestOpeningPositions reads opening files of positions: Cheversi position
// texts and checkers FENs, alone or followed by moves, beside move lists;
// each is written back as the rules write it.
func TestOpeningPositions(t *testing.T) {
	for _, c := range []struct {
		game, file string
		want       []openings.Opening
	}{
		{"checkers", "# 11-man starts\nB:W21-31:B2-12\televen\nB:W21-31:B2-12 moves 9-13 22-18\tballot\n9-13 22-18\n",
			[]openings.Opening{
				{Name: "eleven", Position: "B:W21,22,23,24,25,26,27,28,29,30,31:B2,3,4,5,6,7,8,9,10,11,12", Moves: []string{}},
				{Name: "ballot", Position: "B:W21,22,23,24,25,26,27,28,29,30,31:B2,3,4,5,6,7,8,9,10,11,12", Moves: []string{"9-13", "22-18"}},
				{Moves: []string{"9-13", "22-18"}},
			}},
		// White to move in a checkers FEN: White's move comes first.
		{"checkers", "W:W17,22,K30:B1,2,K13\n", []openings.Opening{{Position: "W:W17,22,K30:B1,2,K13", Moves: []string{}}}},
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 1 e4\tafter K@e4\n8/8/8/8/4K3/8/8/8 b 1 e4 moves Q@d5 Q@c6\nK@e4 Q@d5\n",
			[]openings.Opening{
				{Name: "after K@e4", Position: "8/8/8/8/4K3/8/8/8 b 1 e4", Moves: []string{}},
				{Position: "8/8/8/8/4K3/8/8/8 b 1 e4", Moves: []string{"Q@d5", "Q@c6"}},
				{Moves: []string{"K@e4", "Q@d5"}},
			}},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "book.txt"), []byte(c.file), 0o644)
		cfg, err := config.Parse(fmt.Appendf(nil, "[game]\nname = %q\n[openings]\nfile = \"book.txt\"\n"+twoBots, c.game), "t.toml", dir)
		if err != nil {
			t.Fatal(err)
		}
		list, err := config.LoadOpenings(context.Background(), cfg)
		if err != nil {
			t.Errorf("%s: %v", c.game, err)
			continue
		}
		if fmt.Sprintf("%+v", list) != fmt.Sprintf("%+v", c.want) {
			t.Errorf("%s: openings\n%+v\nwant\n%+v", c.game, list, c.want)
		}
	}
}

// TestOpeningPositionErrors checks that a bad position, a finished game
// and a move that is not legal in the position are refused with the key
// and the opening.
func TestOpeningPositionErrors(t *testing.T) {
	for _, c := range []struct{ game, line, want string }{
		{"checkers", "B:W21-31:Bx moves 9-13", `opening 1 (B:W21-31:Bx moves 9-13): bad openings: position "B:W21-31:Bx" (before "moves")`},
		{"checkers", "B:W21-31:B2-12 moves 22-18", "opening 1 (B:W21,22,23,24,25,26,27,28,29,30,31:B2,3,4,5,6,7,8,9,10,11,12 moves 22-18): bad openings: move 1 \"22-18\""},
		{"checkers", "W:W21:B1", ""}, // a game to play
		{"checkers", "W:W:B1", "the game is over in the position"},
		{"checkers", "W:B1", `"W:B1" is neither moves (move 1 "W:B1": bad move notation`},
		{"cheversi", "8/8/8/8/4K3/8/8/8 w 1 e4", `is neither moves (move 1 "8/8/8/8/4K3/8/8/8": bad move notation`},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "book.txt"), []byte(c.line+"\n"), 0o644)
		cfg, err := config.Parse(fmt.Appendf(nil, "[game]\nname = %q\n[openings]\nfile = \"book.txt\"\n"+twoBots, c.game), "t.toml", dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = config.LoadOpenings(context.Background(), cfg)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.line, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.toml:4: openings.file:") {
			t.Errorf("%s: error %v, want %q", c.line, err, c.want)
		}
	}
}

// TestOpeningOrderAndStart checks order = "random" (a shuffle drawn from
// the seed, the same every time), start (the first opening played, in
// that order) and limit together, on a file and on the ballots.
func TestOpeningOrderAndStart(t *testing.T) {
	dir := t.TempDir()
	var book strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&book, "9-13 22-18\tline %d\n", i)
	}
	os.WriteFile(filepath.Join(dir, "book.txt"), []byte(book.String()), 0o644)
	names := func(keys string) []string {
		t.Helper()
		cfg, err := config.Parse([]byte("seed = 7\n[game]\nname = \"checkers\"\n[openings]\n"+keys+"\n"+twoBots), "t.toml", dir)
		if err != nil {
			t.Fatal(err)
		}
		list, err := config.LoadOpenings(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", keys, err)
		}
		var out []string
		for _, o := range list {
			out = append(out, o.Name)
		}
		return out
	}
	seq := names("file = \"book.txt\"\norder = \"sequential\"\nstart = 5\nlimit = 3")
	if !slices.Equal(seq, []string{"line 5", "line 6", "line 7"}) {
		t.Errorf("sequential from 5, 3 of them: %q", seq)
	}
	if got := names("file = \"book.txt\"\nstart = 19"); !slices.Equal(got, []string{"line 19", "line 20"}) {
		t.Errorf("from 19 to the end: %q", got)
	}
	all := names("file = \"book.txt\"\norder = \"random\"")
	if len(all) != 20 || slices.Equal(all, names("file = \"book.txt\"")) {
		t.Errorf("random order: %q, want the 20 shuffled", all)
	}
	if again := names("file = \"book.txt\"\norder = \"random\""); !slices.Equal(again, all) {
		t.Errorf("random order differs from one load to the next: %q and %q", all, again)
	}
	if got := names("file = \"book.txt\"\norder = \"random\"\nstart = 3\nlimit = 4"); !slices.Equal(got, all[2:6]) {
		t.Errorf("random from 3, 4 of them: %q, want %q", got, all[2:6])
	}
	ballots := names("order = \"random\"\nstart = 2\nlimit = 2")
	if len(ballots) != 2 || !strings.HasPrefix(ballots[0], "ACF ") || slices.Equal(ballots, []string{"ACF 2", "ACF 4"}) {
		t.Errorf("random ballots from 2: %q", ballots)
	}
	for _, c := range []struct{ keys, want string }{
		{"file = \"book.txt\"\nstart = 21", "t.toml:5: openings.file: " + filepath.Join(dir, "book.txt") + ": bad openings: the file has fewer openings than the start asks to pass over"},
		{"file = \"book.txt\"\norder = \"random\"\nstart = 21", "t.toml:7: openings.start: bad openings: start 21 is beyond the 20 openings"},
		{"order = \"shuffled\"", `t.toml:5: openings.order: unknown order "shuffled" (want "sequential" or "random")`},
		{"start = -1", "openings.start: must not be negative, got -1"},
	} {
		cfg, err := config.Parse([]byte("seed = 7\n[game]\nname = \"checkers\"\n[openings]\n"+c.keys+"\n"+twoBots), "t.toml", dir)
		if err == nil {
			_, err = config.LoadOpenings(context.Background(), cfg)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.keys, err, c.want)
		}
	}
}
