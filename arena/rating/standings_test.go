package rating

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// results builds games from lines "white black result".
func results(lines ...string) []Game {
	var out []Game
	for _, l := range lines {
		var w, b, r string
		fmt.Sscan(l, &w, &b, &r)
		res := map[string]game.Result{"1-0": game.WhiteWins, "0-1": game.BlackWins, "=": game.Draw}[r]
		out = append(out, Game{White: w, Black: b, FirstMover: game.White, Result: res})
	}
	return out
}

func standingOf(t *testing.T, a *Analysis, name string) Standing {
	t.Helper()
	for _, s := range a.Standings {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no standing for %s", name)
	return Standing{}
}

// TestStandingsTiebreaks checks each tiebreak on a small round robin
// worked out by hand.
func TestStandingsTiebreaks(t *testing.T) {
	// a, b and c score 2 each, d 0. a beat b, b beat c, c beat a: head
	// to head is level (1 each), and so is Sonneborn-Berger (each beat one
	// 2-point player and d), and the wins: the name decides.
	games := results(
		"a b 1-0", "b c 1-0", "c a 1-0",
		"a d 1-0", "b d 1-0", "c d 1-0",
	)
	a, err := Analyze(games, Options{Model: Ordo})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range a.Standings {
		order = append(order, s.Name)
	}
	if fmt.Sprint(order) != "[a b c d]" {
		t.Errorf("order %v, want [a b c d]", order)
	}
	for _, name := range []string{"a", "b", "c"} {
		s := standingOf(t, a, name)
		if s.Points != 2 || s.HeadToHead == nil || *s.HeadToHead != 1 || s.SonnebornBerger != 2 {
			t.Errorf("%s: %+v, want 2 points, head to head 1, Sonneborn-Berger 2", name, s)
		}
	}
	if d := standingOf(t, a, "d"); d.HeadToHead != nil || d.Points != 0 {
		t.Errorf("d: %+v", d)
	}

	// Head to head breaks a tie in points: x and y are level on 1.5; y
	// beat x. Sonneborn-Berger would favour x (2.5 against 2).
	games = results(
		"x y 0-1", "x w 1-0", "x z =", "y w 0-1", "y z =", "z w 0-1",
	)
	a, err = Analyze(games, Options{Model: Ordo})
	if err != nil {
		t.Fatal(err)
	}
	x, y := standingOf(t, a, "x"), standingOf(t, a, "y")
	if x.Points != 1.5 || y.Points != 1.5 || *y.HeadToHead != 1 || *x.HeadToHead != 0 {
		t.Errorf("x %+v, y %+v: y must rank just above x on the head to head", x, y)
	}
	if x.SonnebornBerger <= y.SonnebornBerger {
		t.Errorf("Sonneborn-Berger x %v, y %v: the example needs x ahead on it", x.SonnebornBerger, y.SonnebornBerger)
	}
	if y.Rank >= x.Rank {
		t.Errorf("y ranks %d, x %d", y.Rank, x.Rank)
	}
}

// TestStandingsSwiss checks Buchholz with byes and rounds of two games,
// and a knockout's places ranking before points.
func TestStandingsSwiss(t *testing.T) {
	// Round 1: a-b (a wins both), c bye. Round 2: a-c (drawn both), b bye.
	games := results("a b 1-0", "b a 0-1", "a c =", "c a =")
	opt := Options{Model: Ordo, Standings: StandingOptions{Buchholz: true, Byes: map[string]int{"b": 1, "c": 1}, ByePoints: 1}}
	a, err := Analyze(games, opt)
	if err != nil {
		t.Fatal(err)
	}
	pa, pb, pc := 3.0, 1.0, 2.0 // a: 2 + 1; b: 0 + bye 1; c: 1 + bye 1
	for _, tc := range []struct {
		name             string
		points, buchholz float64
	}{
		{"a", pa, pb + pc}, // met b and c, once each
		{"b", pb, pa + pb}, // met a; a bye counts its own points
		{"c", pc, pa + pc}, // met a; its bye
	} {
		s := standingOf(t, a, tc.name)
		if s.Points != tc.points || s.Buchholz == nil || *s.Buchholz != tc.buchholz {
			t.Errorf("%s: %+v, want %v points, Buchholz %v", tc.name, s, tc.points, tc.buchholz)
		}
	}
	if s := standingOf(t, a, "a"); s.SonnebornBerger != 2*pb+1*pc {
		t.Errorf("a's Sonneborn-Berger %v, want %v", s.SonnebornBerger, 2*pb+1*pc)
	}

	// A knockout: places first, whatever the points.
	opt = Options{Model: Ordo, Standings: StandingOptions{Places: map[string]int{"a": 2, "b": 3, "c": 1}}}
	if a, err = Analyze(games, opt); err != nil {
		t.Fatal(err)
	}
	if got := []string{a.Standings[0].Name, a.Standings[1].Name, a.Standings[2].Name}; fmt.Sprint(got) != "[c a b]" {
		t.Errorf("knockout order %v, want [c a b]", got)
	}
}

// TestBestCalibrated checks the probability that the top-ranked player is
// the strongest by simulation: in tournaments played from true ratings
// drawn at random, the top-ranked player turns out truly the strongest
// about as often as the probabilities said, on average and among the
// tournaments where they said little and much.
func TestBestCalibrated(t *testing.T) {
	reps := 400
	if testing.Short() {
		reps = 120
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var sumP, hits float64
	type bin struct{ p, hit, n float64 }
	bins := [2]bin{}
	for range reps {
		ratings := make([]float64, 8)
		for i := range ratings {
			ratings[i] = rng.NormFloat64() * 120
		}
		games := simulate(rng, Ordo, ratings, 4, 30, 0.3)
		a, err := Analyze(games, Options{Model: Ordo})
		if err != nil {
			t.Fatal(err)
		}
		if a.Best == nil {
			continue // a player won every game
		}
		best := 0
		for i := range ratings {
			if ratings[i] > ratings[best] {
				best = i
			}
		}
		hit := 0.0
		if a.Best.Player == playerName(best) {
			hit = 1
		}
		sumP += a.Best.Probability
		hits += hit
		b := &bins[0]
		if a.Best.Probability >= 0.6 {
			b = &bins[1]
		}
		b.p += a.Best.Probability
		b.hit += hit
		b.n++
	}
	n := bins[0].n + bins[1].n
	if n < float64(reps)*0.8 {
		t.Fatalf("only %v of %d tournaments had a figure", n, reps)
	}
	// Each tournament's hit is a Bernoulli trial with about its stated
	// probability: allow four standard errors.
	se := math.Sqrt(0.25 / n)
	if d := math.Abs(sumP/n - hits/n); d > 4*se {
		t.Errorf("stated %.3f on average, the top-ranked was the strongest %.3f of the time (%v tournaments)", sumP/n, hits/n, n)
	}
	for _, b := range bins {
		if b.n < 20 {
			continue
		}
		if d := math.Abs(b.p/b.n - b.hit/b.n); d > 4*math.Sqrt(0.25/b.n) {
			t.Errorf("in %v tournaments the stated probability averaged %.3f, the hit rate %.3f", b.n, b.p/b.n, b.hit/b.n)
		}
	}
	t.Logf("%v tournaments: stated %.3f, observed %.3f; bins %+v", n, sumP/n, hits/n, bins)
}

// TestBestContenders checks the figure on a clear and an even field.
func TestBestContenders(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	clear := simulate(rng, Ordo, []float64{600, 0, -10, -20}, 40, 0, 0.2)
	a, err := Analyze(clear, Options{Model: Ordo})
	if err != nil {
		t.Fatal(err)
	}
	if a.Best == nil || a.Best.Player != "p000" || a.Best.Probability < 0.999 || len(a.Best.Contenders) != 1 {
		t.Errorf("a clearly stronger player: %+v", a.Best)
	}
	even := simulate(rng, Ordo, []float64{0, 0, 0, 0}, 4, 0, 0.2)
	if a, err = Analyze(even, Options{Model: Ordo}); err != nil {
		t.Fatal(err)
	}
	if a.Best == nil || a.Best.Probability > 0.8 || len(a.Best.Contenders) < 2 {
		t.Errorf("four equal players after few games: %+v", a.Best)
	}
	var sum float64
	for _, c := range a.Best.Contenders {
		sum += c.Probability
	}
	if sum > 1+1e-9 || sum < 0.99 {
		t.Errorf("contenders' probabilities sum to %v", sum)
	}
}

// TestMaxPairs checks that a field with many pairs keeps the pairs nearest
// each other in the ranking and counts the others.
func TestMaxPairs(t *testing.T) {
	games := randomGames(60, 20000)
	a, err := Analyze(games, Options{Model: Ordo, MaxPairs: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Pairs) != 100 || a.PairsOmitted == 0 {
		t.Fatalf("%d pairs kept, %d omitted", len(a.Pairs), a.PairsOmitted)
	}
	rank := map[string]int{}
	for _, p := range a.Players {
		rank[p.Name] = p.Rank
	}
	kept, games2 := 0, 0
	for _, p := range a.Pairs {
		if d := rank[p.B] - rank[p.A]; d > 2 {
			t.Errorf("pair %s-%s, %d ranks apart, kept before nearer ones", p.A, p.B, d)
		}
		kept++
		games2 += p.Games
	}
	if games2+a.OmittedGames != len(games) {
		t.Errorf("kept pairs hold %d games, omitted %d, of %d", games2, a.OmittedGames, len(games))
	}
	if a.LOS == nil {
		t.Errorf("60 players: no LOS matrix")
	}
}

// TestMultipleAnchors checks Options.Anchors: anchors shown at their
// ratings; anchors placed where a single-anchor fit puts them give that
// fit's ratings; a group without anchors centred on the offset.
func TestMultipleAnchors(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, m := range []Model{Ordo, BayesElo} {
		games := simulate(rng, m, []float64{100, 0, -50, -200, 30}, 20, 30, 0.3)
		if m == BayesElo {
			games = simulate(rng, m, []float64{100, 0, -50, -200, 30}, 20, 30, 100)
		}
		one, err := Fit(games, Options{Model: m, Anchor: "p001", Offset: 2000})
		if err != nil {
			t.Fatal(err)
		}
		anchors := map[string]float64{"p000": one.Ratings[one.Index("p000")], "p003": one.Ratings[one.Index("p003")]}
		two, err := Fit(games, Options{Model: m, Anchors: anchors, Offset: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for i, name := range one.Players {
			if d := math.Abs(two.Ratings[two.Index(name)] - one.Ratings[i]); d > 1e-4 {
				t.Errorf("%s: %s rated %v with two consistent anchors, %v with one", m, name, two.Ratings[two.Index(name)], one.Ratings[i])
			}
		}
		for name, r := range anchors {
			if got := two.Ratings[two.Index(name)]; math.Abs(got-r) > 1e-9 || two.StdErr(two.Index(name)) > 1e-6 {
				t.Errorf("%s: anchor %s shown at %v ± %v, want %v exactly", m, name, got, two.StdErr(two.Index(name)), r)
			}
		}
		// Anchors farther apart than the games say pull the others.
		far := map[string]float64{"p000": 2400, "p003": 1600}
		pulled, err := Fit(games, Options{Model: m, Anchors: far})
		if err != nil {
			t.Fatal(err)
		}
		if r := pulled.Ratings[pulled.Index("p000")]; r != 2400 {
			t.Errorf("%s: anchor at %v", m, r)
		}
	}
	if _, err := Fit(results("a b 1-0", "b a ="), Options{Anchors: map[string]float64{"zed": 1}}); err == nil {
		t.Error("an anchor that played no game: no error")
	}
}
