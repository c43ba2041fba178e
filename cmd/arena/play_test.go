package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/bots/human"
	"github.com/arena-games/arena/reports/browsertest"
)

// pageState is what the test reads of the board page.
type pageState struct {
	Status string
	Game   string
	Color  string
	Text   string
	Moves  []string
	Games  int
	Result string
}

const readPage = `fetch("/state").then(function (r) { return r.json(); }).then(function (s) {
	return {Status: s.status, Game: s.game || "", Color: s.color || "", Text: s.ply ? s.ply.p : "", Moves: s.moves || [], Games: s.games, Result: s.result || ""};
})`

// TestPlayInChromium plays arena play through its board page in Chromium,
// as a person would: clicks only. Each game starts with a click the rules
// refuse, whose reason the page must show; then every move of the person
// is a random legal move made by clicking. Both games (one per colour) go
// to the journal with the person's moves.
func TestPlayInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games through Chromium")
	}
	for _, c := range []struct {
		game  string
		extra []string
	}{
		{"cheversi", nil},
		{"checkers", []string{"--set", "adjudication.max_plies=60", "--color", "black"}},
	} {
		t.Run(c.game, func(t *testing.T) {
			ctx := browsertest.Start(t)
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"play", "--game", c.game, "--bot", "builtin=random", "--out", out, "--my-tc", "10m", "--movetime", "200ms"}, c.extra...)
			p := startArena(t, args...)
			url := p.waitLine(t, `^your board: (http://127\.0\.0\.1:\d+/) `)[1]
			browsertest.Open(t, ctx, url)
			rules, err := games.New(c.game, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(7, 7))
			var mine [][]string // the person's moves, per game
			refusedIn := -1
			for {
				// Wait for the person's turn, or for the arena to end.
				if !p.waitPage(t, ctx, `document.getElementById("status").getAttribute("data-status") === "move"`) {
					break
				}
				s := browsertest.Eval[pageState](t, ctx, readPage)
				if s.Status != "move" {
					continue
				}
				if len(mine) <= s.Games {
					mine = append(mine, nil)
				}
				st, err := rules.ParseState(s.Text)
				if err != nil {
					t.Fatal(err)
				}
				if refusedIn != s.Games {
					refusedIn = s.Games
					checkPageWords(t, ctx, s)
					refusedClick(t, ctx, st, s)
					if s.Games == 0 {
						for _, w := range browsertest.Widths {
							browsertest.Screenshot(t, ctx, "play-"+c.game, w)
						}
					}
				}
				legal := st.LegalMoves(nil)
				m := legal[rng.IntN(len(legal))]
				clickMove(t, ctx, st, m)
				mine[s.Games] = append(mine[s.Games], m.String())
				if !p.waitPage(t, ctx, fmt.Sprintf(`document.querySelector("#board svg").getAttribute("data-text") !== %q || document.getElementById("status").getAttribute("data-status") !== "move" || document.getElementById("refused").textContent`, s.Text)) {
					break
				}
				if r := browsertest.Eval[string](t, ctx, `document.getElementById("refused").textContent`); r != "" {
					t.Fatalf("the move %s was refused: %s (position %s)", m, r, s.Text)
				}
			}
			if err := <-p.done; err != nil {
				t.Fatalf("arena play: %v\n%s", err, p.stderr())
			}
			p.done <- nil
			m, recs, err := journal.LoadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 2 || m.Games != 2 || len(mine) != 2 {
				t.Fatalf("%d games recorded of %d, %d played through the page", len(recs), m.Games, len(mine))
			}
			slices.SortFunc(recs, func(a, b journal.Record) int { return a.ID - b.ID })
			for i, r := range recs {
				if err := journal.Verify(&r); err != nil {
					t.Error(err)
				}
				me := game.White
				if r.Black == "you" {
					me = game.Black
				}
				var played []string
				st := rules.Start()
				for _, text := range r.AllMoves() {
					if st.Turn() == me {
						played = append(played, text)
					}
					game.PlayText(st, text)
				}
				played = played[len(played)-len(mine[i]):] // after the opening
				if !slices.Equal(played, mine[i]) {
					t.Errorf("game %d: the journal has the person's moves %v, the page sent %v", r.ID, played, mine[i])
				}
			}
			if recs[0].White == recs[1].White {
				t.Errorf("the person played %s in both games", recs[0].White)
			}
			if first := map[string]string{"cheversi": "you", "checkers": "random"}[c.game]; recs[0].White != first {
				t.Errorf("game 1's White is %s, want %s", recs[0].White, first)
			}
			if stdout := p.stderr(); !strings.Contains(stdout, "journal, games and reports are in") {
				t.Errorf("arena play's output:\n%s", stdout)
			}
		})
	}
}

// checkPageWords checks what the board page says besides the board: the
// opponent and the opening, the moves numbered in pairs (the first
// mover's first), and for Cheversi the key of the attacked squares'
// colours.
func checkPageWords(t *testing.T, ctx context.Context, s pageState) {
	t.Helper()
	type words struct {
		Title, Info  string
		Items        []string
		LegendHidden bool
	}
	w := browsertest.Eval[words](t, ctx, `({Title: document.getElementById("title").textContent, Info: document.getElementById("game-info").textContent,
		Items: Array.from(document.querySelectorAll("#moves li")).map(function (li) { return li.getAttribute("data-number") + ". " + li.textContent; }),
		LegendHidden: document.getElementById("legend").hidden})`)
	if want := "Your board: " + s.Game + " against random"; w.Title != want {
		t.Errorf("the page's title %q, want %q", w.Title, want)
	}
	if !strings.HasPrefix(w.Info, "Opening: ") || len(w.Info) <= len("Opening: ") {
		t.Errorf("the page names no opening: %q", w.Info)
	}
	var want []string
	for i := 0; i < len(s.Moves); i += 2 {
		want = append(want, fmt.Sprintf("%d. %s", i/2+1, strings.Join(s.Moves[i:min(i+2, len(s.Moves))], " ")))
	}
	if !slices.Equal(w.Items, want) {
		t.Errorf("the moves %q are listed as %q, want %q", s.Moves, w.Items, want)
	}
	if w.LegendHidden != (s.Game != "cheversi") {
		t.Errorf("%s: the key of the attacked squares hidden: %v", s.Game, w.LegendHidden)
	}
}

// refusedClick makes a move the rules refuse by clicking, and checks that
// the page shows the rules' reason and the game waits for another move.
func refusedClick(t *testing.T, ctx context.Context, st game.State, s pageState) {
	t.Helper()
	var want string
	switch s.Game {
	case "cheversi":
		// A piece on an occupied square, or a Queen where the rules
		// want another piece first: whichever is illegal here.
		for _, text := range []string{"Q@a1", "N@a1", "K@a1", "B@a1", "R@a1", "Q@h8", "K@h8"} {
			if _, err := st.ParseMove(text); err != nil {
				browsertest.Click(t, ctx, fmt.Sprintf(`#palette button[data-piece=%q]`, text[:1]))
				browsertest.Click(t, ctx, fmt.Sprintf(`#board rect[data-sq=%q]`, text[2:]))
				_, err := st.ParseMove(text)
				want = err.Error()
				break
			}
		}
	case "checkers":
		// One of the person's pieces to a square it cannot reach.
		cs := st.(*checkers.State)
		pos := cs.Position()
		for sq := 1; sq <= checkers.NumSquares && want == ""; sq++ {
			if c, _, ok := pos.At(sq); !ok || c != st.Turn() {
				continue
			}
			for to := 1; to <= checkers.NumSquares; to++ {
				if _, _, ok := pos.At(to); ok {
					continue
				}
				if text, _, err := humanResolve(cs, sq, to); err != nil && text == "" {
					browsertest.Click(t, ctx, fmt.Sprintf(`#board rect[data-sq="%d"]`, sq))
					browsertest.Click(t, ctx, fmt.Sprintf(`#board rect[data-sq="%d"]`, to))
					want = err.Error()
					break
				}
			}
		}
	}
	if want == "" {
		t.Fatalf("no illegal click found in %s", s.Text)
	}
	browsertest.WaitFor(t, ctx, "the refusal", fmt.Sprintf(`document.getElementById("refused").textContent === %q`, want))
	if got := browsertest.Eval[pageState](t, ctx, readPage); got.Status != "move" || len(got.Moves) != len(s.Moves) {
		t.Errorf("after a refused click: %+v", got)
	}
}

// clickMove makes move m by clicking on the page.
func clickMove(t *testing.T, ctx context.Context, st game.State, m game.Move) {
	t.Helper()
	text := m.String()
	if cm, ok := m.(checkers.Move); ok {
		browsertest.Click(t, ctx, fmt.Sprintf(`#board rect[data-sq="%d"]`, cm.From()))
		browsertest.Click(t, ctx, fmt.Sprintf(`#board rect[data-sq="%d"]`, cm.To()))
		// Two capture paths between the same squares: the page asks.
		_, choices, _ := humanResolve(st.(*checkers.State), cm.From(), cm.To())
		if len(choices) > 0 {
			browsertest.WaitFor(t, ctx, "the choice of paths", fmt.Sprintf(`document.querySelector('#choices button[data-move=%q]')`, text))
			browsertest.Click(t, ctx, fmt.Sprintf(`#choices button[data-move=%q]`, text))
		}
		return
	}
	piece, sq, _ := strings.Cut(text, "@")
	browsertest.Click(t, ctx, fmt.Sprintf(`#palette button[data-piece=%q]`, piece))
	browsertest.Click(t, ctx, fmt.Sprintf(`#board rect[data-sq=%q]`, sq))
}

// humanResolve is how the human player turns two clicked squares into a
// checkers move.
var humanResolve = human.Resolve

// waitPage waits until the script expression cond holds on the page
// (true) or the arena process has ended (false).
func (p *arenaProcess) waitPage(t *testing.T, ctx context.Context, cond string) bool {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case err := <-p.done:
			p.done <- err
			return false
		default:
		}
		if browsertest.Eval[bool](t, ctx, "!!("+cond+")") {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	page := browsertest.Eval[string](t, ctx, `document.getElementById("status").textContent + " " + document.getElementById("refused").textContent`)
	t.Fatalf("waiting for %s: the arena is still running; the page says %q; its output:\n%s", cond, page, p.stderr())
	return false
}

// TestPlayClockApplies: a person who does not move loses on time, as a bot
// would, and the games are recorded as such.
func TestPlayClockApplies(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games that are lost on time")
	}
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runArena(t, "play", "--game", "cheversi", "--bot", "builtin=greedy", "--out", out, "--my-tc", "0.5", "--quiet")
	if code != 0 {
		t.Fatalf("arena play: exit status %d\n%s", code, stderr)
	}
	_, recs, err := journal.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d games recorded, want 2", len(recs))
	}
	for _, r := range recs {
		if r.Forfeit == nil || r.Forfeit.Bot != "you" || r.Forfeit.Kind != journal.ForfeitTime || r.Winner != "greedy" {
			t.Errorf("game %d: %s (%s), forfeit %+v; want you to lose on time", r.ID, r.Result, r.Reason, r.Forfeit)
		}
	}
}

// TestPlayBadArgs checks that arena play refuses a bad command line with
// exit status 2 and a message that names arena play, before it starts
// anything.
func TestPlayBadArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `arena play: unexpected argument "extra" (arena play takes flags only)`},
		{[]string{"--color", "red"}, `arena play: --color: want white or black, got "red"`},
		{[]string{"--my-tc", "soon"}, "arena play: --my-tc: "},
		{[]string{"--me"}, "arena play: flag needs an argument: -me"},
		{[]string{"--me", ""}, `arena play: --me: want a name without commas or quotes, got ""`},
		{[]string{"--me", "a,b"}, `arena play: --me: want a name without commas or quotes, got "a,b"`},
		{[]string{"--bogus"}, "arena play: flag provided but not defined: -bogus"},
		{[]string{"--movetime", "soon"}, `arena play: invalid configuration: --movetime soon: time.move: invalid duration: "soon"`},
	} {
		args := append([]string{"play", "--game", "cheversi", "--bot", "builtin=greedy"}, c.args...)
		code, _, stderr := runArena(t, args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("arena %q: exit status %d, stderr %q; want 2 and %q", args, code, stderr, c.want)
		}
	}
}
