package tournament_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/pgn"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/reports/dirreport"
)

// Tic-tac-toe is a third game that the arena's generic code knows nothing
// of: it is registered here (in every process of the test binary, the bots
// it runs included) and implements none of the optional interfaces of
// package game. TestThirdGame plays it through the runner, the journal,
// the game file, the reports and a merge of slices.

func init() {
	if err := games.Register(games.Game{Name: "tictactoe", Presets: []string{"standard"}, New: newTicTacToe}); err != nil {
		panic(err) // the test binary registers the game once
	}
}

// Reasons a game of tic-tac-toe ends.
const (
	reasonThree = "three-in-a-row"
	reasonFull  = "full-board"
)

type tttRules struct{}

func newTicTacToe(preset string, overrides []game.Setting) (game.Rules, error) {
	if preset != "" && preset != "standard" {
		return nil, fmt.Errorf("%w: tictactoe has no preset %q", game.ErrBadRules, preset)
	}
	if len(overrides) > 0 {
		return nil, fmt.Errorf("%w: tictactoe has no switch %q", game.ErrBadRules, overrides[0].Key)
	}
	return tttRules{}, nil
}

func (tttRules) Game() string             { return "tictactoe" }
func (tttRules) Preset() string           { return "standard" }
func (tttRules) Settings() []game.Setting { return []game.Setting{} }
func (tttRules) FirstMover() game.Color   { return game.White }
func (tttRules) Start() game.State        { return &tttState{} }
func (tttRules) ParseState(string) (game.State, error) {
	return nil, errors.New("tictactoe: no position texts")
}

// tttState is a position: squares 0..8 (a1 b1 c1 a2 ... c3), 0 empty, 1
// White's (X), 2 Black's (O).
type tttState struct {
	board [9]byte
	ply   int
}

// tttMove is a square.
type tttMove int

func (m tttMove) String() string { return string(rune('a'+int(m)%3)) + string(rune('1'+int(m)/3)) }

var tttLines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

func (s *tttState) Turn() game.Color { return game.Color(s.ply % 2) }
func (s *tttState) Ply() int         { return s.ply }
func (s *tttState) Clone() game.State {
	c := *s
	return &c
}

func (s *tttState) Text() string {
	var b strings.Builder
	for _, c := range s.board {
		b.WriteByte(".xo"[c])
	}
	return b.String()
}

func (s *tttState) LegalMoves(dst []game.Move) []game.Move {
	if s.Outcome().Over() {
		return dst
	}
	for sq, c := range s.board {
		if c == 0 {
			dst = append(dst, tttMove(sq))
		}
	}
	return dst
}

func (s *tttState) ParseMove(text string) (game.Move, error) {
	if len(text) != 2 || text[0] < 'a' || text[0] > 'c' || text[1] < '1' || text[1] > '3' {
		return nil, fmt.Errorf("%w: %q is not a square a1..c3", game.ErrBadNotation, text)
	}
	m := tttMove(int(text[1]-'1')*3 + int(text[0]-'a'))
	if s.board[m] != 0 || s.Outcome().Over() {
		return nil, fmt.Errorf("%w: %s", game.ErrIllegalMove, text)
	}
	return m, nil
}

func (s *tttState) Play(m game.Move) error {
	sq, ok := m.(tttMove)
	if !ok || sq < 0 || sq > 8 || s.board[sq] != 0 || s.Outcome().Over() {
		return fmt.Errorf("%w: %v", game.ErrIllegalMove, m)
	}
	s.board[sq] = byte(s.Turn()) + 1
	s.ply++
	return nil
}

func (s *tttState) Outcome() game.Outcome {
	for _, l := range tttLines {
		if c := s.board[l[0]]; c != 0 && c == s.board[l[1]] && c == s.board[l[2]] {
			return game.Outcome{Result: game.Win(game.Color(c - 1)), Reason: reasonThree}
		}
	}
	if s.ply == 9 {
		return game.Outcome{Result: game.Draw, Reason: reasonFull}
	}
	return game.Outcome{}
}

const tttBody = `
name = "ttt"
seed = 5
concurrency = 2

[game]
name = "tictactoe"

[openings]
plies = 1
count = 4

[time]
move = "5s"
`

func TestThirdGame(t *testing.T) {
	ctx := context.Background()
	path := writeConfig(t, tttBody, "ttt", testBot{"first", "first"}, testBot{"rand", "random:3"})
	root := t.TempDir()

	// A tournament, its journal verified under the registered rules.
	out := filepath.Join(root, "whole")
	sum, err := tournament.Run(ctx, loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !sum.Complete || sum.Total != 8 {
		t.Fatalf("Run: %+v; want the 8 games played", sum)
	}
	recs := readRecords(t, out)
	checkComplete(t, recs, 8)
	for _, r := range recs {
		if r.Game != "tictactoe" || r.Forfeit != nil || (r.Reason != reasonThree && r.Reason != reasonFull) {
			t.Errorf("game %d: %s, %s %s, forfeit %v; want a tic-tac-toe game ended on the board", r.ID, r.Game, r.Result, r.Reason, r.Forfeit)
		}
	}

	// Its game file and reports.
	rep, err := dirreport.Write(ctx, out, dirreport.Options{GameText: true})
	if err != nil {
		t.Fatalf("reports: %v", err)
	}
	if rep.Games != 8 || rep.Analysis == nil || len(rep.Standings) != 2 {
		t.Errorf("report of %d games, analysis %v, %d standings; want 8 games of two bots rated", rep.Games, rep.Analysis != nil, len(rep.Standings))
	}
	for _, f := range []string{"report.md", "report.html", "report.json", "standings.csv"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if name := pgn.FileName("tictactoe"); name != "games.pgn" {
		t.Errorf("game file %s, want games.pgn", name)
	}
	text, err := os.ReadFile(filepath.Join(out, "games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	read, err := pgn.ReadAll(bytes.NewReader(text), "games.pgn")
	if err != nil || len(read) != 8 {
		t.Fatalf("games.pgn: %d games, %v; want 8", len(read), err)
	}
	if v := read[0].Tag("Variant"); v != "standard" {
		t.Errorf("Variant tag %q, want the preset", v)
	}

	// The same tournament in two slices, merged: the same games.
	var dirs []string
	for i := range 2 {
		dir := filepath.Join(root, fmt.Sprintf("slice-%d", i))
		if _, err := tournament.Run(ctx, loadConfig(t, path), tournament.Options{Out: dir, Shard: &schedule.Shard{Index: i, Count: 2}}); err != nil {
			t.Fatalf("Run slice %d: %v", i, err)
		}
		dirs = append(dirs, dir)
	}
	merged := filepath.Join(root, "merged")
	if _, err := journal.Merge(ctx, merged, dirs, journal.MergeOptions{}); err != nil {
		t.Fatalf("Merge: %v", err)
	}
	if rep, err := dirreport.Write(ctx, merged, dirreport.Options{GameText: true}); err != nil || rep.Games != 8 {
		t.Fatalf("reports of the merge: %v", err)
	}
	mrecs := readRecords(t, merged)
	checkComplete(t, mrecs, 8)
	byID := map[int]journal.Record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	for _, r := range mrecs {
		if w := byID[r.ID]; r.ID != w.ID || r.White != w.White || r.Black != w.Black || strings.Join(r.Opening.Moves, " ") != strings.Join(w.Opening.Moves, " ") {
			t.Errorf("merged game %d is %s-%s from %v, the whole tournament's %s-%s from %v", r.ID, r.White, r.Black, r.Opening.Moves, w.White, w.Black, w.Opening.Moves)
		}
	}

	// The generic code refuses what tic-tac-toe does not have.
	for _, c := range []struct{ body, want string }{
		{"[adjudication]\nmax_plies = 9\n", "adjudication.max_plies: applies to checkers only"},
		{"[adjudication]\ndraw = { score = 1, moves = 1 }\n", "adjudication.draw: applies to checkers only"},
		{"[openings]\ndeck = \"acf\"\n", "selects ACF ballots, which are checkers openings (give an opening file for tictactoe)"},
	} {
		body := strings.Replace(tttBody, "[openings]\nplies = 1\ncount = 4\n", "", 1) + c.body
		p := writeConfig(t, body, "ttt", testBot{"first", "first"}, testBot{"rand", "random:3"})
		if _, err := config.Load(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to say %q", c.body, err, c.want)
		}
	}
}
