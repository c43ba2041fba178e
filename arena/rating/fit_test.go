package rating

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// Reference values for testdata/ratings-fixture-30.pgn, from bayeselo (mm 1 1,
// default prior) and ordo 1.2.6 (-W -D, pool average 2300) on
// ratings-fixture-30.pgn.
func TestFitFixtureBayesElo(t *testing.T) {
	f, err := Fit(fixtureGames(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"A": 68, "B": 11, "C": -79}
	for name, w := range want {
		got := f.Ratings[f.Index(name)]
		if math.Round(got) != w {
			t.Errorf("rating of %s = %.3f, want %v when rounded", name, got, w)
		}
	}
	if !near(f.Advantage, 108.8, 0.05) {
		t.Errorf("advantage = %.3f, want 108.8", f.Advantage)
	}
	if !near(f.DrawElo, 144.41, 0.005) {
		t.Errorf("drawElo = %.4f, want 144.41", f.DrawElo)
	}
	los := []struct {
		a, b string
		want float64
	}{{"A", "B", 0.79}, {"A", "C", 0.98}, {"B", "C", 0.89}}
	for _, l := range los {
		got := f.LOS(f.Index(l.a), f.Index(l.b))
		if !near(got, l.want, 0.01) {
			t.Errorf("LOS %s>%s = %.4f, want %.2f ± 0.01", l.a, l.b, got, l.want)
		}
		// bayeselo prints the truncated percentage.
		if math.Floor(got*100) != math.Round(l.want*100) {
			t.Errorf("LOS %s>%s = %.4f prints as %v %%, want %v %%", l.a, l.b, got, math.Floor(got*100), l.want*100)
		}
		if rev := f.LOS(f.Index(l.b), f.Index(l.a)); !near(rev, 1-got, 1e-12) {
			t.Errorf("LOS %s>%s = %v, want 1 - %v", l.b, l.a, rev, got)
		}
	}
	x := math.Pow(10, -f.DrawElo/400)
	if want := 4 * x / ((1 + x) * (1 + x)); !near(f.Scale, want, 1e-12) {
		t.Errorf("scale = %v, want %v", f.Scale, want)
	}
	var sum float64
	for _, r := range f.Ratings {
		sum += r
	}
	if !near(sum, 0, 1e-9) {
		t.Errorf("ratings sum to %v, want 0 (centred)", sum)
	}
}

// TestFitOrdoBounds: players who won or lost every game are rated as ordo
// rates them. The expected values are ordo 1.2.6's output on the fixture
// plus D, who loses two games with each colour to each of A, B and C, and E,
// who beats A and B once with each colour (the games of
// boundsFixtureGames written as PGN, run with
// `ordo -p FILE -W -D -G -a 2300 -N 4`): E > 2774.7686, D < 1648.6885, and
// the others as on the fixture alone, A 2380.4310, B 2313.4221, C
// 2206.1469, White advantage 107.49, draw rate 30.65 %.
func TestFitOrdoBounds(t *testing.T) {
	f, err := Fit(boundsFixtureGames(), Options{Model: Ordo, Offset: 2300})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name   string
		rating float64
		bound  int
	}{{"E", 2774.7686, 1}, {"A", 2380.4310, 0}, {"B", 2313.4221, 0}, {"C", 2206.1469, 0}, {"D", 1648.6885, -1}}
	for _, w := range want {
		i := f.Index(w.name)
		if got := f.Ratings[i]; !near(got, w.rating, 0.01) || f.Bound[i] != w.bound {
			t.Errorf("%s: rating %.4f bound %d, want %.4f bound %d", w.name, got, f.Bound[i], w.rating, w.bound)
		}
		if se := f.StdErr(i); (w.bound != 0) != math.IsNaN(se) {
			t.Errorf("%s: standard error %v", w.name, se)
		}
	}
	if !near(f.Advantage, 107.49, 0.005) || !near(f.DrawRate, 0.3065, 0.00005) {
		t.Errorf("advantage %.3f draw rate %.5f, want 107.49 and 0.3065", f.Advantage, f.DrawRate)
	}
	if f.Prior != 0 {
		t.Errorf("prior %v, want none: ordo adds no virtual draws", f.Prior)
	}
	if los := f.LOS(f.Index("E"), f.Index("A")); !math.IsNaN(los) {
		t.Errorf("LOS of a bound = %v, want NaN", los)
	}
	if notes := strings.Join(f.Notes, " "); !strings.Contains(notes, "E won every game and D lost every game") {
		t.Errorf("notes %q do not name the bounds", notes)
	}
	// An anchor must have a rating, not a bound.
	if _, err := Fit(boundsFixtureGames(), Options{Model: Ordo, Anchor: "D"}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("anchored on a bound: error %v, want ErrBadOptions", err)
	}
	// BayesElo keeps its prior and rates everyone.
	b, err := Fit(boundsFixtureGames(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range b.Players {
		if b.Bound[i] != 0 || math.IsNaN(b.StdErr(i)) {
			t.Errorf("bayeselo: %s bound %d standard error %v", b.Players[i], b.Bound[i], b.StdErr(i))
		}
	}
}

func TestFitFixtureOrdo(t *testing.T) {
	f, err := Fit(fixtureGames(), Options{Model: Ordo, Offset: 2300})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"A": 2380.4, "B": 2313.4, "C": 2206.1}
	for name, w := range want {
		if got := f.Ratings[f.Index(name)]; !near(got, w, 0.5) {
			t.Errorf("rating of %s = %.3f, want %v ± 0.5", name, got, w)
		}
	}
	if !near(f.Advantage, 107.49, 0.005) {
		t.Errorf("advantage = %.4f, want 107.49", f.Advantage)
	}
	if !near(f.DrawRate, 0.3065, 0.00005) {
		t.Errorf("draw rate = %.5f, want 0.3065", f.DrawRate)
	}
	if f.Scale != 1 || f.Prior != 0 {
		t.Errorf("scale %v prior %v, want 1 and 0", f.Scale, f.Prior)
	}
	// Ordo's fit makes every player's expected points equal its points.
	games := fixtureGames()
	for i, name := range f.Players {
		var got, exp float64
		for _, g := range games {
			if g.White != name && g.Black != name {
				continue
			}
			got += g.pointsFor(name)
			d := f.Ratings[f.Index(g.White)] + f.Advantage - f.Ratings[f.Index(g.Black)]
			e := 1 / (1 + math.Exp(-ordoBeta*d))
			if name == g.White {
				exp += e
			} else {
				exp += 1 - e
			}
		}
		if !near(got, exp, 1e-6) {
			t.Errorf("player %d %s: expected points %v, points %v", i, name, exp, got)
		}
	}
}

// The analytic gradient and Hessian must match finite differences.
func TestLikelihoodDerivatives(t *testing.T) {
	games := fixtureGames()
	names, index := playerIndex(games)
	cells, order, vd := addPrior(len(names), condense(games, index), 2)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range []Model{BayesElo, Ordo} {
		p := &problem{model: m, n: len(names), cells: cells, order: order, vd: vd}
		dim := p.n + 2
		theta := []float64{rng.NormFloat64() * 50, rng.NormFloat64() * 50, rng.NormFloat64() * 50, 40, 150}
		grad := make([]float64, dim)
		hess := make([]float64, dim*dim)
		p.evaluate(theta, grad, hess)
		g2 := make([]float64, dim)
		h2 := make([]float64, dim*dim)
		const h = 1e-4
		for i := range dim {
			if m == Ordo && i == p.drawIdx() {
				continue
			}
			up := append([]float64(nil), theta...)
			dn := append([]float64(nil), theta...)
			up[i] += h
			dn[i] -= h
			fd := (p.evaluate(up, nil, nil) - p.evaluate(dn, nil, nil)) / (2 * h)
			if !near(grad[i], fd, 1e-6*math.Max(1, math.Abs(fd))) {
				t.Errorf("%v: gradient[%d] = %v, finite difference %v", m, i, grad[i], fd)
			}
			p.evaluate(up, g2, h2)
			gu := append([]float64(nil), g2...)
			p.evaluate(dn, g2, h2)
			for j := range dim {
				fdh := (gu[j] - g2[j]) / (2 * h)
				if !near(hess[j*dim+i], fdh, 1e-6*math.Max(1e-3, math.Abs(fdh))) {
					t.Errorf("%v: hessian[%d][%d] = %v, finite difference %v", m, j, i, hess[j*dim+i], fdh)
				}
			}
		}
	}
}

func g(w, b string, r game.Result) Game {
	return Game{White: w, Black: b, FirstMover: game.White, Result: r}
}

func TestFitEdgeCases(t *testing.T) {
	type check func(t *testing.T, f *FitResult)
	finiteAll := func(t *testing.T, f *FitResult) {
		t.Helper()
		for i, r := range f.Ratings {
			if f.Bound[i] != 0 && !math.IsNaN(r) && !math.IsInf(r, 0) {
				continue // a bound has no standard error
			}
			if math.IsNaN(r) || math.IsInf(r, 0) || math.IsNaN(f.StdErr(i)) || math.IsInf(f.StdErr(i), 0) {
				t.Errorf("player %s: rating %v ± %v not finite", f.Players[i], r, f.StdErr(i))
			}
		}
	}
	above := func(a, b string) check {
		return func(t *testing.T, f *FitResult) {
			t.Helper()
			if !(f.Ratings[f.Index(a)] > f.Ratings[f.Index(b)]) {
				t.Errorf("rating of %s %v not above %s %v", a, f.Ratings[f.Index(a)], b, f.Ratings[f.Index(b)])
			}
		}
	}
	noteHas := func(s string) check {
		return func(t *testing.T, f *FitResult) {
			t.Helper()
			if !strings.Contains(strings.Join(f.Notes, "\n"), s) {
				t.Errorf("notes %q lack %q", f.Notes, s)
			}
		}
	}
	perfect := []Game{
		g("A", "B", game.WhiteWins), g("B", "A", game.BlackWins),
		g("A", "C", game.WhiteWins), g("C", "A", game.BlackWins),
		g("B", "C", game.WhiteWins), g("C", "B", game.Draw),
	}
	tests := []struct {
		name   string
		games  []Game
		groups int
		checks []check
	}{
		{"perfect score", perfect, 1, []check{above("A", "B"), above("B", "C")}},
		{"single game", []Game{g("A", "B", game.WhiteWins)}, 1, []check{above("A", "B")}},
		{"single draw", []Game{g("A", "B", game.Draw)}, 1, nil},
		{"never met", []Game{
			g("A", "B", game.WhiteWins), g("B", "A", game.BlackWins), g("A", "B", game.Draw),
			g("B", "C", game.WhiteWins), g("C", "B", game.Draw), g("B", "C", game.Draw),
		}, 1, []check{above("A", "B"), above("B", "C"), above("A", "C")}},
		{"disconnected", []Game{
			g("A", "B", game.WhiteWins), g("B", "A", game.Draw),
			g("C", "D", game.BlackWins), g("D", "C", game.Draw), g("D", "E", game.Draw), g("E", "C", game.WhiteWins),
		}, 2, []check{above("A", "B"), above("D", "C"), noteHas("only comparable within a group")}},
		{"first mover always wins", []Game{
			g("A", "B", game.WhiteWins), g("B", "A", game.WhiteWins),
			g("A", "C", game.WhiteWins), g("C", "A", game.WhiteWins),
		}, 1, []check{func(t *testing.T, f *FitResult) {
			// Either the advantage comes out clearly positive or the fit
			// says it is not determined.
			if !(f.Advantage > 100) && !f.AdvantageFixed {
				t.Errorf("advantage %v, fixed %v; want > 100 or fixed", f.Advantage, f.AdvantageFixed)
			}
			if f.AdvantageFixed && !strings.Contains(strings.Join(f.Notes, " "), "advantage") {
				t.Errorf("notes %q do not explain the held advantage", f.Notes)
			}
		}}},
		{"all draws", []Game{g("A", "B", game.Draw), g("B", "A", game.Draw)}, 1, nil},
	}
	for _, tt := range tests {
		for _, m := range []Model{BayesElo, Ordo} {
			t.Run(tt.name+"/"+m.String(), func(t *testing.T) {
				f, err := Fit(tt.games, Options{Model: m})
				if err != nil {
					t.Fatal(err)
				}
				finiteAll(t, f)
				if f.Groups != tt.groups {
					t.Errorf("groups = %d, want %d", f.Groups, tt.groups)
				}
				for _, c := range tt.checks {
					c(t, f)
				}
			})
		}
	}
}

func TestFitGroups(t *testing.T) {
	games := []Game{
		g("A", "B", game.WhiteWins), g("B", "A", game.Draw),
		g("C", "D", game.BlackWins), g("D", "C", game.Draw), g("D", "E", game.Draw), g("E", "C", game.WhiteWins),
	}
	f, err := Fit(games, Options{Offset: 1500})
	if err != nil {
		t.Fatal(err)
	}
	// The larger group (C, D, E) is group 0; each group is centred.
	wantGroup := map[string]int{"A": 1, "B": 1, "C": 0, "D": 0, "E": 0}
	mean := make([]float64, 2)
	for i, name := range f.Players {
		if f.Group[i] != wantGroup[name] {
			t.Errorf("group of %s = %d, want %d", name, f.Group[i], wantGroup[name])
		}
		mean[f.Group[i]] += f.Ratings[i]
	}
	if !near(mean[0]/3, 1500, 1e-9) || !near(mean[1]/2, 1500, 1e-9) {
		t.Errorf("group means %v, %v; want 1500", mean[0]/3, mean[1]/2)
	}
	if got := f.LOS(f.Index("A"), f.Index("C")); !math.IsNaN(got) {
		t.Errorf("LOS across groups = %v, want NaN", got)
	}
	if got := f.LOS(f.Index("A"), f.Index("B")); !(got > 0.5 && got < 1) {
		t.Errorf("LOS A>B = %v, want in (0.5, 1)", got)
	}
}

func TestFitAnchor(t *testing.T) {
	for _, m := range []Model{BayesElo, Ordo} {
		centred, err := Fit(fixtureGames(), Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		anchored, err := Fit(fixtureGames(), Options{Model: m, Anchor: "B", Offset: 1000})
		if err != nil {
			t.Fatal(err)
		}
		b := anchored.Index("B")
		if anchored.Ratings[b] != 1000 || anchored.StdErr(b) != 0 {
			t.Errorf("%v: anchor rating %v ± %v, want 1000 ± 0", m, anchored.Ratings[b], anchored.StdErr(b))
		}
		for i := range centred.Players {
			dc := centred.Ratings[i] - centred.Ratings[b]
			da := anchored.Ratings[i] - anchored.Ratings[b]
			if !near(dc, da, 1e-9) {
				t.Errorf("%v: %s - B = %v anchored, %v centred", m, centred.Players[i], da, dc)
			}
			for j := range centred.Players {
				if i != j && !near(centred.LOS(i, j), anchored.LOS(i, j), 1e-9) {
					t.Errorf("%v: LOS(%d,%d) %v anchored, %v centred", m, i, j, anchored.LOS(i, j), centred.LOS(i, j))
				}
			}
		}
		// An anchored player's rating is exact, so the others carry the
		// whole uncertainty of their difference to it.
		a := anchored.Index("A")
		want := centred.Covariance(a, a) + centred.Covariance(b, b) - 2*centred.Covariance(a, b)
		if !near(anchored.Covariance(a, a), want, 1e-9) {
			t.Errorf("%v: anchored variance of A = %v, want %v", m, anchored.Covariance(a, a), want)
		}
	}
}

func TestFitErrors(t *testing.T) {
	good := fixtureGames()
	tests := []struct {
		name  string
		games []Game
		opt   Options
		want  error
	}{
		{"no games", nil, Options{}, ErrNoGames},
		{"self play", []Game{g("A", "A", game.Draw)}, Options{}, ErrBadGame},
		{"no name", []Game{g("", "A", game.Draw)}, Options{}, ErrBadGame},
		{"unfinished", []Game{g("A", "B", game.Ongoing)}, Options{}, ErrBadGame},
		{"bad colour", []Game{{White: "A", Black: "B", FirstMover: 7, Result: game.Draw}}, Options{}, ErrBadGame},
		{"unknown anchor", good, Options{Anchor: "Z"}, ErrUnknownPlayer},
		{"bad confidence", good, Options{Confidence: 1.5}, ErrBadOptions},
		{"bad prior", good, Options{Prior: -1}, ErrBadOptions},
		{"bad model", good, Options{Model: 9}, ErrBadOptions},
		{"bad offset", good, Options{Offset: math.Inf(1)}, ErrBadOptions},
		{"bad reference", good, Options{Reference: &Reference{}}, ErrBadOptions},
	}
	for _, tt := range tests {
		if _, err := Fit(tt.games, tt.opt); !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
		}
		if _, err := Analyze(tt.games, tt.opt); !errors.Is(err, tt.want) {
			t.Errorf("%s: Analyze error %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestParseModel(t *testing.T) {
	for _, m := range []Model{BayesElo, Ordo} {
		b, err := m.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Model
		if err := back.UnmarshalText(b); err != nil || back != m {
			t.Errorf("round trip of %v: %v, %v", m, back, err)
		}
	}
	if _, err := ParseModel("elostat"); !errors.Is(err, ErrBadOptions) {
		t.Errorf("ParseModel(elostat) error %v, want ErrBadOptions", err)
	}
	if _, err := Model(5).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown model succeeded")
	}
}
