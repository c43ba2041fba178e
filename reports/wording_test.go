package reports

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
)

// threeBots returns the games of a round-robin of three bots in which
// c forfeits every game it plays (when forfeit is set) and nobody draws.
func threeBots(forfeit bool) []rating.Game {
	var games []rating.Game
	for i := range 24 {
		w, b := []string{"a", "b", "c"}[i%3], []string{"b", "c", "a"}[i%3]
		g := rating.Game{White: w, Black: b, FirstMover: game.White, Result: game.WhiteWins}
		if i%2 == 1 {
			g.Result = game.BlackWins
		}
		if forfeit && (w == "c" || b == "c") {
			g.Forfeit = true
			g.Result = game.WhiteWins
			if w == "c" {
				g.Result = game.BlackWins
			}
		}
		games = append(games, g)
	}
	return games
}

// TestPriorCountedAlike checks that the report's model line and its note
// on the draw rate count the prior's virtual draws the same way: per
// player, and in all.
func TestPriorCountedAlike(t *testing.T) {
	a, err := rating.Analyze(threeBots(false), rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, Meta{}, a); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"prior 2 virtual draws per player (3 in all)", "the prior's 3 virtual draws (2 per player)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not say %q:\n%s", want, text)
		}
	}
}

// TestTerminalSaysForfeitsAreLeftOut checks that the standings printed on
// the terminal say that the side scores leave forfeits out, when some
// game was forfeited (and only then).
func TestTerminalSaysForfeitsAreLeftOut(t *testing.T) {
	for _, forfeit := range []bool{true, false} {
		a, err := rating.Analyze(threeBots(forfeit), rating.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteTerminalWidth(&b, Meta{}, a, 0); err != nil {
			t.Fatal(err)
		}
		says := strings.Contains(b.String(), "Score 1st and Score 2nd count only the games decided by play: the 16 games a forfeit decided are left out")
		if says != forfeit {
			t.Errorf("forfeits %v: the terminal explains the side scores: %v\n%s", forfeit, says, b.String())
		}
	}
}

// TestUnpairedGamesReport checks the report of games without colour-reversed
// partners (every opening played once): no pair statistics and no legend
// of them, and a word saying the figures are over single games; games in
// pairs keep them.
func TestUnpairedGamesReport(t *testing.T) {
	for _, paired := range []bool{false, true} {
		var games []rating.Game
		for i := range 24 {
			g := rating.Game{White: "a", Black: "b", FirstMover: game.White, Result: game.WhiteWins, Opening: fmt.Sprint("o", i/2)}
			if i%2 == 1 {
				g.White, g.Black = "b", "a"
			}
			if i%3 == 0 {
				g.Result = game.BlackWins
			}
			if paired {
				g.PairKey = g.Opening
			}
			games = append(games, g)
		}
		a, err := rating.Analyze(games, rating.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteMarkdown(&b, Meta{}, a); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		for _, s := range []string{"Colour-reversed pairs [", "Pairs LL, LD, WL+DD, WD, WW: Elo"} {
			if strings.Contains(text, strings.ReplaceAll(s, "[", `\[`)) != paired && strings.Contains(text, s) != paired {
				t.Errorf("paired %v: the report says %q: %v", paired, s, !paired)
			}
		}
		if strings.Contains(text, "No colour-reversed pairs") == paired {
			t.Errorf("paired %v: the report says there are no pairs: %v\n%s", paired, !paired, text)
		}
	}
}
