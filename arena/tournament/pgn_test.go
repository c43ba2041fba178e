package tournament_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/arena-games/arena/arena/journal/journaltest"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/arena/pgn"
)

var tagRE = regexp.MustCompile(`^\[(\w+) "((?:[^"\\]|\\.)*)"\]$`)

// parsePGN splits one PGN game into its tags and its move text tokens.
func parsePGN(t testing.TB, text string) (map[string]string, []string) {
	t.Helper()
	head, body, ok := strings.Cut(text, "\n\n")
	if !ok {
		t.Fatalf("no blank line between tags and moves:\n%s", text)
	}
	tags := map[string]string{}
	for _, l := range strings.Split(head, "\n") {
		m := tagRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("bad tag line %q", l)
		}
		tags[m[1]] = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])
	}
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		if len(l) > 79 {
			t.Errorf("move text line of %d characters: %q", len(l), l)
		}
	}
	body = regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(body, " ")
	return tags, strings.Fields(body)
}

func TestAppendGameText(t *testing.T) {
	for _, c := range []struct {
		name     string
		rec      journal.Record
		gameTag  string
		gameVal  string
		firstTwo string
	}{
		{"checkers", journaltest.Played(t, "checkers", []string{"9-13", "21-17", "5-9"}, 1000), "GameType", "21", "1. 9-13 21-17 2. 5-9"},
		{"cheversi", journaltest.Played(t, "cheversi", nil, 100), "Variant", "cheversi", "1. K@"},
		{"forfeit", journaltest.Played(t, "cheversi", []string{"K@d4"}, 3), "Variant", "cheversi", "1. K@d4"},
	} {
		rec := c.rec
		rec.White = `Bot "quoted" \ one`
		if rec.Winner == "a" {
			rec.Winner = rec.White
		}
		text := string(pgn.AppendRecord(nil, &rec, "Test Event"))
		if !strings.HasSuffix(text, rec.Result+"\n\n") {
			t.Errorf("%s: game text does not end with the result token and a blank line", c.name)
		}
		tags, tokens := parsePGN(t, strings.TrimSuffix(text, "\n\n"))
		for tag, want := range map[string]string{
			"Event": "Test Event", "White": rec.White, "Black": "b", "Result": rec.Result,
			c.gameTag: c.gameVal, "GameId": "7", "PairKey": rec.PairKey, "Round": "1",
			"PlyCount": strconv.Itoa(len(rec.Opening.Moves) + len(rec.Moves)),
		} {
			if tags[tag] != want {
				t.Errorf("%s: tag %s = %q, want %q", c.name, tag, tags[tag], want)
			}
		}
		if tokens[len(tokens)-1] != rec.Result {
			t.Errorf("%s: last token %q, want the result %q", c.name, tokens[len(tokens)-1], rec.Result)
		}
		var moves []string
		for i, tok := range tokens[:len(tokens)-1] {
			if i%3 == 0 {
				if want := strconv.Itoa(i/3+1) + "."; tok != want {
					t.Errorf("%s: token %d = %q, want move number %q", c.name, i, tok, want)
				}
				continue
			}
			moves = append(moves, tok)
		}
		if !slices.Equal(moves, rec.AllMoves()) {
			t.Errorf("%s: moves %v, want %v", c.name, moves, rec.AllMoves())
		}
		if !strings.Contains(text, c.firstTwo) {
			t.Errorf("%s: move text does not contain %q:\n%s", c.name, c.firstTwo, text)
		}
		if rec.Forfeit != nil && (tags["Termination"] != "time forfeit" || !strings.Contains(text, "forfeits: timeout}")) {
			t.Errorf("%s: forfeit not shown: Termination %q\n%s", c.name, tags["Termination"], text)
		}
	}
}

func TestWriteGameText(t *testing.T) {
	recs := []journal.Record{journaltest.Played(t, "cheversi", nil, 100), journaltest.Played(t, "cheversi", []string{"K@a1"}, 100)}
	var buf bytes.Buffer
	if err := pgn.WriteRecords(&buf, recs, "E"); err != nil {
		t.Fatal(err)
	}
	games := strings.Split(strings.TrimSuffix(buf.String(), "\n\n"), "\n\n[Event")
	if len(games) != 2 {
		t.Errorf("%d games written, want 2", len(games))
	}
	if pgn.FileName("checkers") != "games.pdn" || pgn.FileName("cheversi") != "games.pgn" {
		t.Errorf("GameTextFile: %s, %s", pgn.FileName("checkers"), pgn.FileName("cheversi"))
	}
}

// TestRewriteGameTextMode checks that the rebuilt game file is readable
// like the other outputs (0644), not private like a temporary file.
func TestRewriteGameTextMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, g := range []string{"cheversi", "checkers"} {
		dir := t.TempDir()
		recs := []journal.Record{journaltest.Played(t, g, nil, 100)}
		if err := pgn.RewriteFile(dir, g, recs, "E"); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(dir, pgn.FileName(g)))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o644 {
			t.Errorf("%s: mode %v, want -rw-r--r--", pgn.FileName(g), got)
		}
	}
}

func TestStandings(t *testing.T) {
	rec := func(w, b, res, winner string, forfeit bool) journal.Record {
		r := journal.Record{White: w, Black: b, Result: res, Winner: winner}
		if forfeit {
			loser := w
			if winner == w {
				loser = b
			}
			r.Forfeit = &journal.Forfeit{Kind: journal.ForfeitCrash, Bot: loser}
		}
		return r
	}
	recs := []journal.Record{
		rec("a", "b", "1-0", "a", false),
		rec("b", "a", "1/2-1/2", "", false),
		rec("c", "a", "0-1", "a", true),
		rec("b", "c", "1-0", "b", false),
	}
	got := journal.Standings(recs, []string{"c", "b", "a", "idle"})
	want := []journal.Standing{
		{Bot: "a", Games: 3, Wins: 2, Draws: 1, Points: 2.5},
		{Bot: "b", Games: 3, Wins: 1, Draws: 1, Losses: 1, Points: 1.5},
		{Bot: "c", Games: 2, Losses: 2, Forfeits: 1},
		{Bot: "idle"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Standings =\n%+v\nwant\n%+v", got, want)
	}
	if s := got[0].Score(); math.Abs(s-2.5/3) > 1e-12 {
		t.Errorf("%s's score = %v, want 2.5/3", got[0].Bot, s)
	}
	if s := got[3].Score(); s != 0 {
		t.Errorf("score without games = %v, want 0", s)
	}
}

// TestGameTextReadBack writes games whose moves carry search info as
// move comments and reads them back with package pgn, as arena rate does:
// every game, player, result and forfeit must come back, and every played
// move must carry its comment.
func TestGameTextReadBack(t *testing.T) {
	var recs []journal.Record
	for i, g := range []struct {
		game    string
		opening []string
		plies   int
	}{
		{"checkers", []string{"9-13", "21-17", "5-9"}, 1000},
		{"cheversi", nil, 100},
		{"cheversi", []string{"K@d4"}, 3}, // ends in a forfeit
	} {
		rec := journaltest.Played(t, g.game, g.opening, g.plies)
		rec.ID = i + 1
		for j := range rec.Moves {
			score := 37*j - 400
			rec.Moves[j].MS = float64(j * 13)
			rec.Moves[j].Info = &journal.SearchInfo{Depth: j%9 + 1, Score: &score, Nodes: int64(1000 * j),
				PV: []string{rec.Moves[j].Move}, Text: "brace } and { inside"}
		}
		recs = append(recs, rec)
	}
	var buf bytes.Buffer
	if err := pgn.WriteRecords(&buf, recs, "Read back"); err != nil {
		t.Fatal(err)
	}
	r := pgn.NewReader(bytes.NewReader(buf.Bytes()), "games.pgn")
	for i := range recs {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("game %d: %v\n%s", i+1, err, buf.String())
		}
		want := &recs[i]
		first, _ := want.FirstMoverColor()
		if got.White() != want.White || got.Black() != want.Black || got.Result.String() != want.Result ||
			got.Forfeit() != (want.Forfeit != nil) || got.FirstMover() != first || got.Tag("GameId") != strconv.Itoa(want.ID) {
			t.Errorf("game %d read back as %s-%s %v (forfeit %v, first %v, id %s); want %s-%s %s (forfeit %v, first %v, id %d)",
				i+1, got.White(), got.Black(), got.Result, got.Forfeit(), got.FirstMover(), got.Tag("GameId"),
				want.White, want.Black, want.Result, want.Forfeit != nil, first, want.ID)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last game: %v, want io.EOF", err)
	}
	// Every played move has its comment right after it.
	comment := regexp.MustCompile(`^\{[+-]?\d+\.\d\d/\d+ \d+(\.\d+)?s\}$`)
	for i := range recs {
		text := string(pgn.AppendRecord(nil, &recs[i], "E"))
		_, body, _ := strings.Cut(text, "\n\n")
		tokens := regexp.MustCompile(`\{[^}]*\}|\S+`).FindAllString(body, -1)
		n := 0
		for j, tok := range tokens {
			if strings.HasPrefix(tok, "{") && comment.MatchString(tok) {
				if prev := tokens[j-1]; prev != recs[i].Moves[n].Move {
					t.Errorf("game %d: comment %s follows %q, want move %q", i+1, tok, prev, recs[i].Moves[n].Move)
				}
				n++
			}
		}
		if n != len(recs[i].Moves) {
			t.Errorf("game %d: %d move comments, want %d", i+1, n, len(recs[i].Moves))
		}
	}
}

// TestGameTextLeftoversRemoved: the temporary files of PGN/PDN rebuilds
// that a killed process left behind (a run killed while it resumed, arena
// report or a merge killed) are removed by the next rebuild, which holds
// the directory's lock; other files stay.
func TestGameTextLeftoversRemoved(t *testing.T) {
	root := t.TempDir()
	writeSynth(t, root, synthOptions{games: 20})
	dir := filepath.Join(root, "whole")
	stale := []string{".games-2857848791.tmp", ".games-1.tmp"}
	kept := []string{".games-.tmp", "games-1.tmp", ".games-1.tmp.bak", "notes.txt"}
	for _, name := range append(stale, kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("[Event \"half a game\"]\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	unlock, err := journal.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := dirreport.Write(context.Background(), dir, dirreport.Options{GameText: true}); err != nil {
		t.Fatal(err)
	}
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v; want it removed", name, err)
		}
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v; want it kept", name, err)
		}
	}
}
