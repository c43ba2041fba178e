package reports_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/chromedp/chromedp/kb"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/bots/builtin"
	"github.com/arena-games/arena/bots/sdk"
	"github.com/arena-games/arena/reports"
	"github.com/arena-games/arena/reports/browsertest"
)

// botEnv makes the test binary a bot: the arena runs it as
// `BINARY bot NAME [ARGS]` (Options.Self) for built-in bots, and the
// configurations below name it as `BINARY bot cheat` for a bot that plays
// an illegal move.
const botEnv = "ARENA_REPORTS_TEST_BOT"

func TestMain(m *testing.M) {
	if os.Getenv(botEnv) == "1" {
		os.Exit(runBot(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func runBot(args []string) int {
	if len(args) < 2 || args[0] != "bot" {
		fmt.Fprintf(os.Stderr, "test bot: bad arguments %q\n", args)
		return 2
	}
	ctx := context.Background()
	if args[1] == "cheat" {
		// Plays the first legal move until four plies are on the board,
		// then repeats the opponent's last move (illegal in both games).
		err := sdk.Run(ctx, sdk.Bot{Name: "cheat", Move: func(_ context.Context, req sdk.Request) (string, error) {
			if len(req.Moves) >= 4 {
				return req.Moves[len(req.Moves)-1], nil
			}
			return req.State.LegalMoves(nil)[0].String(), nil
		}}, os.Stdin, os.Stdout)
		if err != nil {
			return 1
		}
		return 0
	}
	o := builtin.DefaultOptions()
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	o.AddFlags(fs, args[1])
	if err := fs.Parse(args[2:]); err != nil {
		return 2
	}
	if err := builtin.Run(ctx, args[1], o, os.Stdin, os.Stdout, os.Stderr); err != nil {
		return 1
	}
	return 0
}

// playTournament plays a real tournament of the configuration text (bots
// are this test binary) and writes its reports; it returns the output
// directory and the records.
func playTournament(t *testing.T, text string) (string, []journal.Record) {
	t.Helper()
	t.Setenv(botEnv, "1")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	text = strings.ReplaceAll(text, "SELF", self)
	cfg, err := config.Parse([]byte(text), "test.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	sum, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: dir, Self: self})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Complete {
		t.Fatalf("tournament incomplete: %d of %d games", sum.Recorded, sum.Total)
	}
	m, recs, err := journal.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dirreport.WriteRecords(dir, m, recs); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(recs, func(a, b journal.Record) int { return a.ID - b.ID })
	return dir, recs
}

const cheversiConfig = `name = "viewer test"
[game]
name = "cheversi"
[openings]
plies = 2
count = 2
[time]
move = "2s"
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "alphabeta"
builtin = "alphabeta"
args = ["--movetime", "20ms"]
[[bots]]
name = "cheat"
command = "SELF"
args = ["bot", "cheat"]
`

const checkersConfig = `name = "viewer checkers"
[game]
name = "checkers"
[openings]
limit = 1
[time]
move = "2s"
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "greedy"
builtin = "greedy"
`

// piece is a piece as the page draws it: its square, letter and centre.
type piece struct {
	Sq, Piece string
	X, Y      float64
}

// drawn reads the pieces of the viewer's board, in square order.
const drawnJS = `Array.from(document.querySelectorAll("#av-game svg.av-board [data-piece]")).map(function (g) {
	const c = g.querySelector("circle");
	return {Sq: g.getAttribute("data-sq"), Piece: g.getAttribute("data-piece"), X: Number(c.getAttribute("cx")), Y: Number(c.getAttribute("cy"))};
})`

// want lists the pieces of a position as the rules package sees them,
// placed where the rules documents put the squares: a1 bottom left in
// Cheversi; in checkers square 1 top left, 4 top right, 29 bottom left.
func want(st game.State) []piece {
	const cell, margin = 50.0, 18.0
	var out []piece
	at := func(sq string, p string, col, row int) {
		out = append(out, piece{Sq: sq, Piece: p, X: margin + float64(col)*cell + cell/2, Y: float64(row)*cell + cell/2})
	}
	switch s := st.(type) {
	case *cheversi.State:
		pos := s.Position()
		for sq := range cheversi.Square(cheversi.NumSquares) {
			pc, c, ok := pos.PieceAt(sq)
			if !ok {
				continue
			}
			letter := pc.String()
			if c == game.Black {
				letter = strings.ToLower(letter)
			}
			at(sq.String(), letter, sq.File(), 7-sq.Rank())
		}
	case *checkers.State:
		pos := s.Position()
		for sq := 1; sq <= checkers.NumSquares; sq++ {
			c, king, ok := pos.At(sq)
			if !ok {
				continue
			}
			letter := map[game.Color]string{game.White: "w", game.Black: "b"}[c]
			if king {
				letter = strings.ToUpper(letter)
			}
			row := (sq - 1) / 4
			col := 2 * ((sq - 1) % 4)
			if row%2 == 0 {
				col++
			}
			at(fmt.Sprint(sq), letter, col, row)
		}
	}
	slices.SortFunc(out, func(a, b piece) int { return strings.Compare(a.Sq, b.Sq) })
	return out
}

// stepThrough opens game rec in the report's viewer and steps through it
// with the arrow keys and the buttons, checking the drawn board after
// every ply against the rules package.
func stepThrough(t *testing.T, ctx context.Context, rec *journal.Record) {
	t.Helper()
	browsertest.Click(t, ctx, fmt.Sprintf(`table.av-list tr[data-id="%d"]`, rec.ID))
	browsertest.WaitFor(t, ctx, "the game to open", fmt.Sprintf(`document.querySelector("#av-game").getAttribute("data-id") === "%d"`, rec.ID))
	browsertest.Click(t, ctx, `#av-game button[title="start"]`)
	rules, err := journal.RulesOf(rec)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.Start()
	moves := rec.AllMoves()
	for ply := 0; ; ply++ {
		browsertest.WaitFor(t, ctx, fmt.Sprintf("ply %d", ply), fmt.Sprintf(`document.querySelector("#av-game svg.av-board").getAttribute("data-ply") === "%d"`, ply))
		got := browsertest.Eval[[]piece](t, ctx, drawnJS)
		slices.SortFunc(got, func(a, b piece) int { return strings.Compare(a.Sq, b.Sq) })
		if w := want(st); !slices.Equal(got, w) {
			t.Fatalf("game %d after ply %d: the page draws\n%v\nthe rules say\n%v", rec.ID, ply, got, w)
		}
		if text := browsertest.Eval[string](t, ctx, `document.querySelector("#av-game .av-text").textContent`); text != st.Text() {
			t.Fatalf("game %d after ply %d: position text %q, want %q", rec.ID, ply, text, st.Text())
		}
		if ply == len(moves) {
			break
		}
		if _, err := game.PlayText(st, moves[ply]); err != nil {
			t.Fatal(err)
		}
		// Alternate the arrow key and the forward button.
		if ply%2 == 0 {
			browsertest.Key(t, ctx, kb.ArrowRight)
		} else {
			browsertest.Click(t, ctx, `#av-game button[title="forward"]`)
		}
	}
	// Back one and forward again with the keys.
	if len(moves) > 0 {
		browsertest.Key(t, ctx, kb.ArrowLeft)
		browsertest.WaitFor(t, ctx, "a step back", fmt.Sprintf(`document.querySelector("#av-game svg.av-board").getAttribute("data-ply") === "%d"`, len(moves)-1))
		browsertest.Key(t, ctx, kb.End)
		browsertest.WaitFor(t, ctx, "the end", fmt.Sprintf(`document.querySelector("#av-game svg.av-board").getAttribute("data-ply") === "%d"`, len(moves)))
	}
}

func openReport(t *testing.T, ctx context.Context, dir string) {
	t.Helper()
	browsertest.Open(t, ctx, "file://"+filepath.Join(dir, reports.HTMLFile))
	browsertest.WaitFor(t, ctx, "the page's script", `document.getElementById("render-check").getAttribute("data-ok") === "yes"`)
}

// TestReportViewerInChromium plays a small real Cheversi tournament (with
// a bot that forfeits by an illegal move), loads its report.html in
// Chromium and steps through games, checking every drawn position against
// the rules; it checks the forfeit's display, the final scores, and that
// the opening and pair tables link to their games.
func TestReportViewerInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a tournament and drives Chromium")
	}
	dir, recs := playTournament(t, cheversiConfig)
	ctx := browsertest.Start(t)
	openReport(t, ctx, dir)

	if n := browsertest.Eval[int](t, ctx, `Number(document.querySelector(".av-count").getAttribute("data-count"))`); n != len(recs) {
		t.Errorf("the game list shows %d games, want %d", n, len(recs))
	}
	var forfeit, board *journal.Record
	for i := range recs {
		if recs[i].Forfeit != nil && forfeit == nil {
			forfeit = &recs[i]
		}
		if recs[i].Forfeit == nil && board == nil {
			board = &recs[i]
		}
	}
	if forfeit == nil || board == nil {
		t.Fatalf("the tournament has no forfeit or no game ended on the board")
	}
	// Show a game of alphabeta, which reports its search: the move list
	// shows it with each of its moves.
	for i := range recs {
		if recs[i].Forfeit == nil && (recs[i].White == "alphabeta" || recs[i].Black == "alphabeta") {
			board = &recs[i]
			break
		}
	}
	stepThrough(t, ctx, board)
	infos := 0
	for i, m := range board.Moves {
		if m.Info == nil {
			continue
		}
		infos++
		got := browsertest.Eval[string](t, ctx, fmt.Sprintf(`document.querySelector('#av-game li[data-ply="%d"] .av-info').textContent`, len(board.Opening.Moves)+i+1))
		if want := fmt.Sprintf("depth %d", m.Info.Depth); !strings.Contains(got, want) {
			t.Errorf("move %d: search info %q lacks %q", i+1, got, want)
		}
	}
	if infos == 0 {
		t.Error("alphabeta's game has no search info to show")
	}
	for _, w := range browsertest.Widths {
		browsertest.Screenshot(t, ctx, "report", w)
	}
	scores := browsertest.Eval[string](t, ctx, `document.querySelector("#av-game .av-final-score").textContent`)
	if want := fmt.Sprintf("White %d, Black %d", board.Scores.White, board.Scores.Black); !strings.Contains(scores, want) {
		t.Errorf("final score %q, want %q", scores, want)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("#av-game svg.av-board .av-att-white, #av-game svg.av-board .av-att-black, #av-game svg.av-board .av-att-both").length`); n == 0 {
		t.Error("no attacked squares are shown in the final position")
	}

	stepThrough(t, ctx, forfeit)
	box := browsertest.Eval[string](t, ctx, `document.querySelector("#av-game .av-forfeit").textContent`)
	for _, w := range []string{forfeit.Forfeit.Bot, forfeit.Forfeit.Kind, forfeit.Forfeit.Detail} {
		if !strings.Contains(box, w) {
			t.Errorf("forfeit box %q lacks %q", box, w)
		}
	}

	// The first row of the by-opening table links to that opening's games.
	opening := browsertest.Eval[string](t, ctx, `document.querySelector("a[href^='#games?opening=']").textContent`)
	browsertest.Click(t, ctx, `a[href^='#games?opening=']`)
	wantN := 0
	for i := range recs {
		if journal.OpeningLabel(&recs[i]) == opening {
			wantN++
		}
	}
	browsertest.WaitFor(t, ctx, "the filtered list", fmt.Sprintf(`document.querySelector(".av-count").getAttribute("data-count") === "%d"`, wantN))
	shown := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.av-list tbody tr td:nth-child(5)")).map(function (td) { return td.textContent; })`)
	if len(shown) != wantN || wantN == 0 {
		t.Errorf("the opening link shows %d rows, want %d", len(shown), wantN)
	}
	for _, s := range shown {
		if s != opening {
			t.Errorf("the list filtered by opening %q shows a game of %q", opening, s)
		}
	}
	// A pair's link shows the games of that pair.
	browsertest.Click(t, ctx, `a[href^='#games?bot=']`)
	browsertest.WaitFor(t, ctx, "the pair's games", `document.querySelector("select[data-filter=vs]").value !== ""`)
	pairs := browsertest.Eval[[][]string](t, ctx, `Array.from(document.querySelectorAll("table.av-list tbody tr")).map(function (tr) { return [tr.cells[2].textContent, tr.cells[3].textContent]; })`)
	if len(pairs) == 0 {
		t.Error("the pair link shows no games")
	}
	for _, p := range pairs[1:] {
		if !(p[0] == pairs[0][0] && p[1] == pairs[0][1] || p[0] == pairs[0][1] && p[1] == pairs[0][0]) {
			t.Errorf("the pair's list mixes %v and %v", pairs[0], p)
		}
	}
}

// TestReportViewerCheckersInChromium steps through the games of a small
// real checkers tournament, captures and crownings included.
func TestReportViewerCheckersInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a tournament and drives Chromium")
	}
	dir, recs := playTournament(t, checkersConfig)
	ctx := browsertest.Start(t)
	openReport(t, ctx, dir)
	// Black moves first in checkers: the list and the game name Black first.
	heads := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.av-list thead th")).map(function (th) { return th.textContent; })`)
	if len(heads) < 4 || heads[2] != "Black" || heads[3] != "White" {
		t.Errorf("game list columns %q, want Black before White", heads)
	}
	row := browsertest.Eval[[]string](t, ctx, fmt.Sprintf(`Array.from(document.querySelectorAll('table.av-list tr[data-id="%d"] td')).map(function (td) { return td.textContent; })`, recs[0].ID))
	if len(row) < 4 || row[2] != recs[0].Black || row[3] != recs[0].White {
		t.Errorf("game %d's row %q, want %s (Black) then %s (White)", recs[0].ID, row, recs[0].Black, recs[0].White)
	}
	for i := range recs {
		stepThrough(t, ctx, &recs[i])
		res := browsertest.Eval[string](t, ctx, `document.querySelector("#av-game .av-result").textContent`)
		if !strings.HasPrefix(res, recs[i].Result) {
			t.Errorf("game %d: result %q, want %s", recs[i].ID, res, recs[i].Result)
		}
		title := browsertest.Eval[string](t, ctx, `document.querySelector("#av-game .av-title").textContent`)
		if want := fmt.Sprintf("Game %d: %s (Black) vs %s (White)", recs[i].ID, recs[i].Black, recs[i].White); title != want {
			t.Errorf("game title %q, want %q", title, want)
		}
	}
}
