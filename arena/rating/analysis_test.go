package rating

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestAnalyzeFixture(t *testing.T) {
	a, err := Analyze(fixtureGames(), Options{Reference: humanReference()})
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
	if sb.Z == nil || !near(*sb.Z, 1.79, 0.005) || sb.ZPValue == nil || !near(*sb.ZPValue, 0.073, 0.0005) || !near(sb.SignTestP, 0.134, 0.0005) {
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
		// A key names one pair at a time: its first two games (colours
		// reversed) make a pair, the third waits for a partner in vain.
		pg("A", "B", game.Draw, "o3", "k"), pg("B", "A", game.Draw, "o3", "k"), pg("A", "B", game.Draw, "o3", "k"),
		// Two games with one key and the same colours make no pair.
		pg("A", "B", game.Draw, "o3", "same"), pg("A", "B", game.Draw, "o3", "same"),
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
	if want := (Pentanomial{0, 1, 1, 1, 1}); p.Pentanomial.Counts != want || p.Unpaired != 4 {
		t.Errorf("pentanomial %v unpaired %d, want %v and 4", p.Pentanomial.Counts, p.Unpaired, want)
	}
	if !strings.Contains(strings.Join(a.Notes, " "), "3 games carry a pair key") {
		t.Errorf("notes %q do not mention the broken pair", a.Notes)
	}
	sb := a.SideBalance
	if sb.FirstMover != "black" {
		t.Errorf("first mover %q, want black", sb.FirstMover)
	}
	// First mover's points per pair: 1 + 0.5, 0.5 + 1, 0 + 1, 0.5 + 0.5.
	if sb.Paired == nil || sb.Paired.Counts != (Pentanomial{0, 0, 2, 2, 0}) {
		t.Errorf("paired side balance %+v, want [0 0 2 2 0]", sb.Paired)
	}
	// First mover per game: o1: W, D; o2: D, W; o3: L, W, D, D, D, D, D.
	want := []OpeningBalance{
		{Opening: "o1", Games: 2, Wins: 1, Draws: 1, Score: 0.75},
		{Opening: "o2", Games: 2, Wins: 1, Draws: 1, Score: 0.75},
		{Opening: "o3", Games: 7, Wins: 1, Draws: 5, Losses: 1, Score: 0.5},
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
	if wdl != (WDL{Wins: 1, Draws: 7, Losses: 4}) || ptnml != (Pentanomial{1, 1, 1, 1, 0}) {
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

// TestSideBalanceSameGames: 40 games decided by play, in which the first
// mover (White) scores 55 %, and 10 more that White lost on time. Every
// side-balance figure, counted or fitted, is about the 40: the fitted
// advantage agrees in sign with the 55 % and equals the fit of the 40
// games alone, and the per-player split adds up to the side table.
func TestSideBalanceSameGames(t *testing.T) {
	var games []Game
	add := func(w, b string, r game.Result, n int, forfeit bool) {
		for range n {
			games = append(games, Game{White: w, Black: b, FirstMover: game.White, Result: r, Forfeit: forfeit})
		}
	}
	add("A", "B", game.WhiteWins, 11, false)
	add("A", "B", game.BlackWins, 9, false)
	add("B", "A", game.WhiteWins, 11, false)
	add("B", "A", game.BlackWins, 9, false)
	add("A", "B", game.BlackWins, 5, true)
	add("B", "A", game.BlackWins, 5, true)
	for _, m := range []Model{BayesElo, Ordo} {
		a, err := Analyze(games, Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		sb := a.SideBalance
		if sb.Games != 40 || sb.Forfeits != 10 || !near(sb.Score, 0.55, 1e-12) {
			t.Fatalf("%v: side balance %d games, %d forfeits, score %v; want 40, 10, 0.55", m, sb.Games, sb.Forfeits, sb.Score)
		}
		alone, err := Fit(games[:40], Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		if sb.AdvantageElo == nil || !(*sb.AdvantageElo > 0) || !near(*sb.AdvantageElo, alone.AdvantageElo(), 1e-9) {
			t.Errorf("%v: fitted advantage %v, want %v (the 40 games alone)", m, sb.AdvantageElo, alone.AdvantageElo())
		}
		var first WDL
		for _, p := range a.Players {
			first.Wins += p.FirstMover.Wins
			first.Draws += p.FirstMover.Draws
			first.Losses += p.FirstMover.Losses
			if p.FirstMover.Games+p.SecondMover.Games != 40 {
				t.Errorf("%v: %s has %d + %d games by role, want 40 (forfeits left out)", m, p.Name, p.FirstMover.Games, p.SecondMover.Games)
			}
			if p.Games != 50 {
				t.Errorf("%v: %s has %d rated games, want 50 (forfeits count for the ratings)", m, p.Name, p.Games)
			}
		}
		if first != (WDL{Wins: sb.Wins, Draws: sb.Draws, Losses: sb.Losses}) {
			t.Errorf("%v: players as first mover %+v, side balance %d/%d/%d", m, first, sb.Wins, sb.Draws, sb.Losses)
		}
	}
}

// TestDegenerateSamples: where a normal approximation means nothing (no
// spread, or a handful of games) no z-test p-value is given; the exact
// tests always are.
func TestDegenerateSamples(t *testing.T) {
	fourWins := []Game{g("A", "B", game.WhiteWins), g("B", "A", game.WhiteWins), g("A", "B", game.WhiteWins), g("B", "A", game.WhiteWins)}
	a, err := Analyze(fourWins, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sb := a.SideBalance
	if sb.Z != nil || sb.ZPValue != nil {
		t.Errorf("four wins: z %v p %v, want none", sb.Z, sb.ZPValue)
	}
	if !near(sb.SignTestP, 0.125, 1e-12) {
		t.Errorf("four wins: sign test p = %v, want 0.125", sb.SignTestP)
	}
	for _, p := range a.Pairs {
		if p.Wins+p.Losses > 0 && p.Draws == 0 && (p.Wins == 0 || p.Losses == 0) && p.LOS != nil {
			t.Errorf("pair %s-%s %d/%d/%d: LOS %v from no spread", p.A, p.B, p.Wins, p.Draws, p.Losses, *p.LOS)
		}
	}

	onePair := []Game{
		{White: "A", Black: "B", FirstMover: game.White, Result: game.WhiteWins, PairKey: "k"},
		{White: "B", Black: "A", FirstMover: game.White, Result: game.WhiteWins, PairKey: "k"},
	}
	a, err = Analyze(onePair, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pp := a.SideBalance.Paired
	if pp == nil || pp.PValue != nil || pp.LOS != nil || pp.SignTestP != 1 {
		t.Errorf("one pair: %+v, want no p-value, no LOS, sign test p = 1", pp)
	}

	// Enough games with spread: the z-test is there.
	a, err = Analyze(fixtureGames(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.SideBalance.ZPValue == nil {
		t.Error("fixture (30 games): no z-test")
	}
	// 19 games are too few, 20 enough; and 4 losses are too few.
	for _, tt := range []struct {
		n, lossEvery int
		want         bool
	}{{19, 3, false}, {20, 3, true}, {20, 5, false}} {
		var games []Game
		for i := range tt.n {
			r := []game.Result{game.WhiteWins, game.Draw}[i%2]
			if i%tt.lossEvery == 0 {
				r = game.BlackWins
			}
			games = append(games, g([]string{"A", "B"}[i%2], []string{"B", "A"}[i%2], r))
		}
		a, err := Analyze(games, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sb := a.SideBalance
		if got := sb.ZPValue != nil; got != tt.want {
			t.Errorf("%d games, %d/%d/%d: z-test shown %v, want %v", tt.n, sb.Wins, sb.Draws, sb.Losses, got, tt.want)
		}
	}
}

// TestDrawRateOnlyFromData: without drawn games there is no draw rate
// (bayeselo's figure would come from its prior's virtual draws), and the
// notes say why; with enough draws the rate comes with an interval.
func TestDrawRateOnlyFromData(t *testing.T) {
	var noDraws []Game
	for i := range 48 {
		r := game.WhiteWins
		if i%3 == 0 {
			r = game.BlackWins
		}
		noDraws = append(noDraws, g([]string{"A", "B", "C"}[i%3], []string{"B", "C", "A"}[i%3], r))
	}
	for _, m := range []Model{BayesElo, Ordo} {
		a, err := Analyze(noDraws, Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		if a.Fit.DrawRate != nil {
			t.Errorf("%v: draw rate %v from 48 games without a draw", m, *a.Fit.DrawRate)
		}
		if !strings.Contains(strings.Join(a.Notes, " "), "none of the 48 games was drawn") {
			t.Errorf("%v: notes %q do not explain the missing draw rate", m, a.Notes)
		}
	}
	// One draw against the prior's 3 virtual draws: still the prior's.
	oneDraw := slices.Clone(noDraws)
	oneDraw[0].Result = game.Draw
	a, err := Analyze(oneDraw, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Fit.DrawRate != nil || !strings.Contains(strings.Join(a.Notes, " "), "3 virtual draws (2 per player) outnumber the 1 drawn game") {
		t.Errorf("one draw: draw rate %v, notes %q", a.Fit.DrawRate, a.Notes)
	}

	for _, tt := range []struct {
		m    Model
		want float64
	}{{BayesElo, math.Tanh(bayesA * 144.41 / 2)}, {Ordo, 0.3065}} {
		a, err := Analyze(fixtureGames(), Options{Model: tt.m})
		if err != nil {
			t.Fatal(err)
		}
		f := a.Fit
		if f.DrawRate == nil || !near(*f.DrawRate, tt.want, 0.0005) || f.DrawRateLow == nil || f.DrawRateHigh == nil ||
			!(*f.DrawRateLow < *f.DrawRate && *f.DrawRate < *f.DrawRateHigh) || *f.DrawRateLow < 0 || *f.DrawRateHigh > 1 {
			t.Errorf("%v: draw rate %v in [%v, %v], want %.4f inside its interval", tt.m, f.DrawRate, f.DrawRateLow, f.DrawRateHigh, tt.want)
		}
	}
}

func TestOpeningsAdjustedAndRanked(t *testing.T) {
	os := []OpeningBalance{{SignTestP: 0.01}, {SignTestP: 0.04}, {SignTestP: 0.03}, {SignTestP: 0.005}, {SignTestP: 1}}
	adjustBH(os)
	// m = 5; sorted .005 .01 .03 .04 1 give 5p/k = .025 .025 .05 .05 1,
	// then the running minimum from the top.
	want := []float64{0.025, 0.05, 0.05, 0.025, 1}
	for i, o := range os {
		if !near(o.AdjustedP, want[i], 1e-12) {
			t.Errorf("p = %v adjusted to %v, want %v", o.SignTestP, o.AdjustedP, want[i])
		}
	}

	// 156 balanced openings, 10 games each: some raw p-values look
	// significant by chance, the adjusted ones do not; ties rank in
	// natural order.
	rng := rand.New(rand.NewPCG(5, 6))
	var games []Game
	for o := range 156 {
		for k := range 10 {
			r := game.WhiteWins
			if rng.IntN(2) == 0 {
				r = game.BlackWins
			}
			w, b := "A", "B"
			if k%2 == 1 {
				w, b = b, w
			}
			games = append(games, Game{White: w, Black: b, FirstMover: game.White, Result: r,
				Opening: fmt.Sprintf("random %d", o+1), OpeningMoves: fmt.Sprintf("K@a%d", o%8+1)})
		}
	}
	a, err := Analyze(games, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ops := a.SideBalance.Openings
	raw, adjusted := 0, 0
	for i, o := range ops {
		if o.SignTestP < 0.05 {
			raw++
		}
		if o.AdjustedP < 0.05 {
			adjusted++
		}
		if o.AdjustedP < o.SignTestP {
			t.Errorf("%s: adjusted p %v below raw %v", o.Opening, o.AdjustedP, o.SignTestP)
		}
		if o.Moves == "" {
			t.Errorf("%s: no moves", o.Opening)
		}
		if i > 0 {
			p := ops[i-1]
			if p.AdjustedP > o.AdjustedP {
				t.Errorf("%s (adjusted %v) ranks above %s (adjusted %v)", p.Opening, p.AdjustedP, o.Opening, o.AdjustedP)
			}
			if p.AdjustedP == o.AdjustedP && p.SignTestP == o.SignTestP && p.Score == o.Score && NaturalCompare(p.Opening, o.Opening) > 0 {
				t.Errorf("tie %s ranks above %s", p.Opening, o.Opening)
			}
		}
	}
	if raw == 0 || adjusted != 0 {
		t.Errorf("%d raw and %d adjusted p-values below 0.05; want some raw (chance) and no adjusted", raw, adjusted)
	}
}

func TestNaturalCompare(t *testing.T) {
	sorted := []string{"", "1", "2", "10", "random 1", "random 2", "random 2a", "random 10", "random 13", "random 14", "random a", "x007", "x7", "x08"}
	for i := range sorted {
		for j := range sorted {
			if got, want := NaturalCompare(sorted[i], sorted[j]), cmp.Compare(i, j); got != want {
				t.Errorf("NaturalCompare(%q, %q) = %d, want %d", sorted[i], sorted[j], got, want)
			}
		}
	}
}

func TestVerdict(t *testing.T) {
	tests := []struct {
		name    string
		c       WDL
		favours string
		more    bool // more games needed
	}{
		{"first mover wins", WDL{Wins: 70, Losses: 30}, "first", false},
		{"second mover wins", WDL{Wins: 30, Draws: 10, Losses: 60}, "second", false},
		{"small sample", WDL{Wins: 15, Draws: 8, Losses: 7}, "", true},
		{"four wins", WDL{Wins: 4}, "", true},
		{"large balanced sample", WDL{Wins: 5000, Draws: 1000, Losses: 5000}, "", false},
	}
	for _, tt := range tests {
		b := balanceOf(tt.c, 0.95)
		v := verdict(tt.c, b, SignTest(tt.c.Wins, tt.c.Losses), 0.95)
		if v.Favours != tt.favours || (v.MoreGames > 0) != tt.more || v.Edge != VerdictEdge {
			t.Errorf("%s: %+v, want favours %q, more games %v", tt.name, v, tt.favours, tt.more)
		}
		if tt.favours == "" && !tt.more && !(v.Within > 0 && v.Within < VerdictEdge) {
			t.Errorf("%s: within %v, want below the edge", tt.name, v.Within)
		}
	}
	// The count follows the textbook formula: n = ((1.96 + 0.84)·σ/0.02)².
	c := WDL{Wins: 15, Draws: 8, Losses: 7}
	v := verdict(c, balanceOf(c, 0.95), SignTest(15, 7), 0.95)
	n := math.Pow((1.959964+0.841621)*math.Sqrt(c.variance())/0.02, 2)
	if !near(float64(v.MoreGames+30), math.Ceil(n), 1) {
		t.Errorf("more games %d, want about %.0f - 30", v.MoreGames, n)
	}
}

// humanReference is a reference figure: that of human Cheversi games
// (game.Referenced in package cheversi).
func humanReference() *Reference {
	return &Reference{Label: "human games on BrainKing", Source: "8951 games between people", Wins: 3023, Draws: 375, Losses: 5553}
}

// TestAnalyzeOrdoBounds: in the Ordo model a player who won or lost every
// game shows a bound and no interval.
func TestAnalyzeOrdoBounds(t *testing.T) {
	a, err := Analyze(boundsFixtureGames(), Options{Model: Ordo})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range a.Players {
		want := map[string]string{"E": "lower", "D": "upper"}[p.Name]
		if p.Bound != want || (want != "") != (p.Interval == 0) {
			t.Errorf("%s: bound %q interval %v, want bound %q", p.Name, p.Bound, p.Interval, want)
		}
	}
	if a.Players[0].Name != "E" || a.Players[0].LOSNext != nil {
		t.Errorf("first %s LOS next %v, want E without an LOS", a.Players[0].Name, a.Players[0].LOSNext)
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

// A Tally analysed and then given more games (its players numbered anew,
// its index of counts made again, a colour-reversed pair waiting for its
// second game) analyses them as a tally that took them all at once does.
func TestTallyAddAfterAnalyze(t *testing.T) {
	games := randomGames(12, 600)
	for i := range games {
		games[i].Forfeit = i%17 == 0
		if i%2 == 1 && i%10 != 9 { // pairs, and some games alone
			games[i].White, games[i].Black = games[i-1].Black, games[i-1].White
			games[i-1].PairKey = fmt.Sprint("pair ", i)
			games[i].PairKey = games[i-1].PairKey
		}
	}
	want, err := Analyze(games, Options{Model: Ordo})
	if err != nil {
		t.Fatal(err)
	}
	var tally Tally
	for i, g := range games {
		if i == 101 || i == 401 {
			if _, err := tally.Analyze(Options{Model: Ordo}); err != nil {
				t.Fatal(err)
			}
		}
		if err := tally.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	got, err := tally.Analyze(Options{Model: Ordo})
	if err != nil {
		t.Fatal(err)
	}
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(gj) != string(wj) {
		t.Errorf("analysis after adding to an analysed tally differs:\n got %s\nwant %s", gj, wj)
	}
	if got.SideBalance.Forfeits != 36 || got.SideBalance.Games != 600-36 {
		t.Errorf("side balance: %d forfeits, %d games; want 36, 564", got.SideBalance.Forfeits, got.SideBalance.Games)
	}
}
