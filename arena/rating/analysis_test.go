package rating

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestAnalyzeFixture(t *testing.T) {
	a, err := Analyze(fixtureGames(), Options{Reference: CheversiHumanReference()})
	if err != nil {
		t.Fatal(err)
	}
	if a.Games != 30 || len(a.Players) != 3 || a.Confidence != 0.95 {
		t.Fatalf("games %d players %d confidence %v", a.Games, len(a.Players), a.Confidence)
	}
	wantOrder := []string{"A", "B", "C"}
	for i, p := range a.Players {
		if p.Name != wantOrder[i] || p.Rank != i+1 {
			t.Errorf("rank %d: %s (rank field %d), want %s", i+1, p.Name, p.Rank, wantOrder[i])
		}
		if p.Games != 20 || p.Wins+p.Draws+p.Losses != 20 {
			t.Errorf("%s: %d games, %d/%d/%d", p.Name, p.Games, p.Wins, p.Draws, p.Losses)
		}
		if p.FirstMover.Games != 10 || p.SecondMover.Games != 10 {
			t.Errorf("%s: %d games first, %d second; want 10 and 10", p.Name, p.FirstMover.Games, p.SecondMover.Games)
		}
		if !near(p.Interval, 1.959963984540054*p.StdErr, 1e-9) {
			t.Errorf("%s: interval %v for standard error %v", p.Name, p.Interval, p.StdErr)
		}
		wantScore := p.Points / float64(p.Games)
		if !near(p.Score, wantScore, 1e-12) {
			t.Errorf("%s: score %v, want %v", p.Name, p.Score, wantScore)
		}
	}
	// From the tally: A scores 4/3/3 against B and 6/3/1 against C.
	a0 := a.Players[0]
	if a0.Wins != 4+6 || a0.Draws != 3+3 || a0.Losses != 3+1 {
		t.Errorf("A: %d/%d/%d, want 10/6/4", a0.Wins, a0.Draws, a0.Losses)
	}
	if a.Players[0].LOSNext == nil || !near(*a.Players[0].LOSNext, 0.7948, 0.001) {
		t.Errorf("A's LOS over B = %v, want 0.795", a.Players[0].LOSNext)
	}
	if a.Players[2].LOSNext != nil {
		t.Errorf("last player's LOS to the next = %v, want nil", *a.Players[2].LOSNext)
	}
	if a.LOS[0][0] != nil || a.LOS[0][2] == nil || !near(*a.LOS[0][2]+*a.LOS[2][0], 1, 1e-12) {
		t.Errorf("LOS matrix diagonal or symmetry wrong: %v", a.LOS)
	}

	if len(a.Pairs) != 3 {
		t.Fatalf("%d pairs, want 3", len(a.Pairs))
	}
	ab := a.Pairs[0]
	if ab.A != "A" || ab.B != "B" || ab.Wins != 4 || ab.Draws != 3 || ab.Losses != 3 || !near(ab.Score, 0.55, 1e-12) {
		t.Errorf("pair A-B = %+v, want A over B 4/3/3", ab)
	}
	if ab.Pentanomial != nil || ab.Unpaired != 10 {
		t.Errorf("pair A-B pentanomial %v unpaired %d; want none, 10", ab.Pentanomial, ab.Unpaired)
	}
	elo, margin := WDL{4, 3, 3}.EloMargin(0.95)
	if ab.Elo == nil || *ab.Elo != elo || ab.Margin == nil || *ab.Margin != margin {
		t.Errorf("pair A-B Elo %v ± %v, want %v ± %v", ab.Elo, ab.Margin, elo, margin)
	}

	sb := a.SideBalance
	if sb.FirstMover != "white" || sb.Wins != 15 || sb.Draws != 8 || sb.Losses != 7 {
		t.Errorf("side balance %s %d/%d/%d, want white 15/8/7", sb.FirstMover, sb.Wins, sb.Draws, sb.Losses)
	}
	if !near(sb.Score, 19.0/30, 1e-12) || !(sb.ScoreLow < sb.Score && sb.Score < sb.ScoreHigh) {
		t.Errorf("score %v in [%v, %v]", sb.Score, sb.ScoreLow, sb.ScoreHigh)
	}
	if sb.Z == nil || !near(*sb.Z, 1.79, 0.005) || !near(sb.ZPValue, 0.073, 0.0005) || !near(sb.SignTestP, 0.134, 0.0005) {
		t.Errorf("z %v p %v sign %v; want 1.79, 0.073, 0.134", sb.Z, sb.ZPValue, sb.SignTestP)
	}
	if sb.AdvantageElo == nil || !near(*sb.AdvantageElo, 108.8*a.Fit.Scale, 0.1) || sb.AdvantageInterval == nil {
		t.Errorf("advantage %v ± %v, want 108.8 × %v", sb.AdvantageElo, sb.AdvantageInterval, a.Fit.Scale)
	}
	if a.Fit.Advantage == nil || !near(*a.Fit.Advantage, 108.8, 0.05) || a.Fit.DrawElo == nil || !near(*a.Fit.DrawElo, 144.41, 0.005) {
		t.Errorf("fit advantage %v drawElo %v", a.Fit.Advantage, a.Fit.DrawElo)
	}
	ref := sb.Reference
	if ref == nil || ref.Games != 8951 || !near(ref.WinRatio, 0.3377, 0.00005) || !near(ref.LossRatio, 0.6204, 0.0001) ||
		!near(ref.Score, (3023+187.5)/8951, 1e-12) {
		t.Errorf("reference %+v", ref)
	}
	if len(sb.Openings) != 0 || sb.Paired != nil {
		t.Errorf("openings %v paired %v, want none", sb.Openings, sb.Paired)
	}
}

func TestAnalyzePairsAndOpenings(t *testing.T) {
	pg := func(w, b string, r game.Result, opening, key string) Game {
		return Game{White: w, Black: b, FirstMover: game.Black, Result: r, Opening: opening, PairKey: key}
	}
	games := []Game{
		// Black moves first (checkers). Pair 1: A takes 1.5 points.
		pg("A", "B", game.BlackWins, "o1", "p1"), pg("B", "A", game.Draw, "o1", "p1"),
		// Pair 2: A takes 0.5.
		pg("A", "B", game.Draw, "o2", "p2"), pg("B", "A", game.BlackWins, "o2", "p2"),
		// Pair 3: A takes 2.
		pg("A", "B", game.WhiteWins, "o3", "p3"), pg("B", "A", game.BlackWins, "o3", "p3"),
		// A key with three games makes no pair.
		pg("A", "B", game.Draw, "o3", "bad"), pg("B", "A", game.Draw, "o3", "bad"), pg("A", "B", game.Draw, "o3", "bad"),
		// Unkeyed games count per game only.
		pg("A", "B", game.WhiteWins, "", ""),
	}
	a, err := Analyze(games, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Pairs) != 1 {
		t.Fatalf("%d pairs, want 1", len(a.Pairs))
	}
	p := a.Pairs[0]
	if p.A != "A" || p.Pentanomial == nil {
		t.Fatalf("pair %+v", p)
	}
	if want := (Pentanomial{0, 1, 0, 1, 1}); p.Pentanomial.Counts != want || p.Unpaired != 4 {
		t.Errorf("pentanomial %v unpaired %d, want %v and 4", p.Pentanomial.Counts, p.Unpaired, want)
	}
	if !strings.Contains(strings.Join(a.Notes, " "), "3 games carry a pair key") {
		t.Errorf("notes %q do not mention the broken pair", a.Notes)
	}
	sb := a.SideBalance
	if sb.FirstMover != "black" {
		t.Errorf("first mover %q, want black", sb.FirstMover)
	}
	// First mover's points per pair: 1 + 0.5, 0.5 + 1, 0 + 1.
	if sb.Paired == nil || sb.Paired.Counts != (Pentanomial{0, 0, 1, 2, 0}) {
		t.Errorf("paired side balance %+v, want [0 0 1 2 0]", sb.Paired)
	}
	// First mover per game: o1: W, D; o2: D, W; o3: L, W, D, D, D.
	want := []OpeningBalance{
		{Opening: "o1", Games: 2, Wins: 1, Draws: 1, Score: 0.75},
		{Opening: "o2", Games: 2, Wins: 1, Draws: 1, Score: 0.75},
		{Opening: "o3", Games: 5, Wins: 1, Draws: 3, Losses: 1, Score: 0.5},
	}
	if len(sb.Openings) != len(want) {
		t.Fatalf("openings %+v", sb.Openings)
	}
	for i, w := range want {
		got := sb.Openings[i]
		if got.Opening != w.Opening || got.Games != w.Games || got.Wins != w.Wins || got.Draws != w.Draws ||
			got.Losses != w.Losses || !near(got.Score, w.Score, 1e-12) {
			t.Errorf("opening %d = %+v, want %+v", i, got, w)
		}
	}

	wdl, ptnml := MatchCounts(games, "B", "A")
	if wdl != (WDL{Wins: 1, Draws: 5, Losses: 4}) || ptnml != (Pentanomial{1, 1, 0, 1, 0}) {
		t.Errorf("MatchCounts(B, A) = %+v, %v", wdl, ptnml)
	}
}

// TestSideBalanceLeavesOutForfeits: forfeited games count for the ratings
// but not for the first mover's record, and a pair with a forfeit is no
// pair for the side balance.
func TestSideBalanceLeavesOutForfeits(t *testing.T) {
	g := func(w, b string, r game.Result, key string, forfeit bool) Game {
		return Game{White: w, Black: b, FirstMover: game.White, Result: r, Opening: "o", PairKey: key, Forfeit: forfeit}
	}
	games := []Game{
		g("A", "B", game.WhiteWins, "p1", false), g("B", "A", game.Draw, "p1", false),
		// B forfeits both games of this pair, once as the first mover.
		g("A", "B", game.WhiteWins, "p2", true), g("B", "A", game.BlackWins, "p2", true),
	}
	a, err := Analyze(games, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sb := a.SideBalance
	if sb.Forfeits != 2 || sb.Games != 2 || sb.Wins != 1 || sb.Draws != 1 || sb.Losses != 0 {
		t.Errorf("side balance: forfeits %d, games %d, W/D/L %d/%d/%d; want 2, 2, 1/1/0",
			sb.Forfeits, sb.Games, sb.Wins, sb.Draws, sb.Losses)
	}
	if sb.Paired == nil || sb.Paired.Pairs != 1 {
		t.Errorf("paired side balance %+v, want the one pair without a forfeit", sb.Paired)
	}
	if a.Players[0].Name != "A" || a.Players[0].Games != 4 {
		t.Errorf("ratings leader %+v, want A with all 4 games", a.Players[0])
	}
	if !strings.Contains(strings.Join(a.Notes, " "), "2 of 4 games were decided by a forfeit") {
		t.Errorf("notes %q do not mention the forfeits", a.Notes)
	}

	// Only forfeits: an empty side balance, not NaNs.
	for i := range games {
		games[i].Forfeit = true
	}
	a, err = Analyze(games, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sb := a.SideBalance; sb.Games != 0 || sb.Score != 0 || sb.WinRatio != 0 || sb.Paired != nil {
		t.Errorf("side balance of forfeits only = %+v, want empty", sb)
	}
}

// Every Analysis must encode to JSON, whatever the games.
func TestAnalysisJSON(t *testing.T) {
	sets := map[string][]Game{
		"fixture": fixtureGames(),
		"single":  {g("A", "B", game.WhiteWins)},
		"groups": {g("A", "B", game.WhiteWins), g("B", "A", game.Draw),
			g("C", "D", game.BlackWins), g("D", "C", game.Draw)},
		"all first": {g("A", "B", game.WhiteWins), g("B", "A", game.WhiteWins)},
		"all draws": {g("A", "B", game.Draw), g("B", "A", game.Draw)},
	}
	for name, games := range sets {
		for _, m := range []Model{BayesElo, Ordo} {
			a, err := Analyze(games, Options{Model: m})
			if err != nil {
				t.Fatalf("%s %v: %v", name, m, err)
			}
			b, err := json.Marshal(a)
			if err != nil {
				t.Fatalf("%s %v: %v", name, m, err)
			}
			var back Analysis
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("%s %v: decoding: %v", name, m, err)
			}
			if back.Model != m || len(back.Players) != len(a.Players) {
				t.Errorf("%s %v: round trip model %v players %d", name, m, back.Model, len(back.Players))
			}
		}
	}
	a, err := Analyze(sets["groups"], Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Groups) != 2 || !strings.Contains(strings.Join(a.Notes, " "), "comparable within a group") {
		t.Errorf("groups %+v notes %q", a.Groups, a.Notes)
	}
	for r, p := range a.Players {
		for s, q := range a.Players {
			if (p.Group == q.Group && r != s) != (a.LOS[r][s] != nil) {
				t.Errorf("LOS[%s][%s] = %v with groups %d, %d", p.Name, q.Name, a.LOS[r][s], p.Group, q.Group)
			}
		}
	}
	if v := a.Players[0].Elo; math.IsNaN(v) {
		t.Error("NaN rating")
	}
}

func TestRankingByGroup(t *testing.T) {
	games := []Game{
		g("A", "B", game.WhiteWins), g("B", "A", game.BlackWins), g("A", "B", game.Draw),
		g("C", "D", game.Draw), g("D", "E", game.WhiteWins), g("E", "C", game.BlackWins), g("C", "E", game.Draw),
	}
	a, err := Analyze(games, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, p := range a.Players {
		got = append(got, fmt.Sprint(p.Group, p.Name))
		if i > 0 {
			q := a.Players[i-1]
			if q.Group > p.Group || (q.Group == p.Group && q.Elo < p.Elo) {
				t.Errorf("%s (group %d, %v) ranks below %s (group %d, %v)", p.Name, p.Group, p.Elo, q.Name, q.Group, q.Elo)
			}
		}
	}
	// Group 0 is C, D and E; group 1 is A and B.
	if s := strings.Join(got, " "); !strings.HasSuffix(s, "1A 1B") || !strings.HasPrefix(s, "0") {
		t.Errorf("ranking %q, want group 0 (C, D, E) first, then 1A 1B", s)
	}
	if a.Players[2].LOSNext != nil {
		t.Errorf("LOS from the last of a group to the next group = %v, want nil", *a.Players[2].LOSNext)
	}
}

// TestNotesCountOne checks the notes' wording for a count of one.
func TestNotesCountOne(t *testing.T) {
	games := []Game{
		{White: "A", Black: "B", FirstMover: game.White, Result: game.WhiteWins, PairKey: "p1"},
		{White: "B", Black: "A", FirstMover: game.White, Result: game.Draw, PairKey: "p1"},
		{White: "A", Black: "B", FirstMover: game.White, Result: game.BlackWins, PairKey: "lone", Forfeit: true},
	}
	a, err := Analyze(games, Options{})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(a.Notes, " ")
	for _, want := range []string{
		"1 game carries a pair key that does not make a colour-reversed pair of two games; it counts only",
		"1 of 3 games was decided by a forfeit; it counts for the ratings but is left out",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q do not contain %q", notes, want)
		}
	}
}
