package race

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestConfigErrors(t *testing.T) {
	good := Config{Arms: 3, Target: 0.5, Precision: 0.02, Alpha: 0.05, MaxOpenings: 1000, MinOpenings: 100}
	if _, err := New(good); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		change  func(*Config)
		mention string
	}{
		{func(c *Config) { c.Arms = 0 }, "0 arms"},
		{func(c *Config) { c.Target = 1 }, "target 1"},
		{func(c *Config) { c.Target = math.NaN() }, "target NaN"},
		{func(c *Config) { c.Precision = 0 }, "precision 0"},
		{func(c *Config) { c.Alpha = 0 }, "alpha 0"},
		{func(c *Config) { c.Alpha = 1.5 }, "alpha 1.5"},
		{func(c *Config) { c.MaxOpenings = 0 }, "at most 0 openings"},
		{func(c *Config) { c.MinOpenings = 0 }, "at least 0 openings"},
		{func(c *Config) { c.MinOpenings = 2000 }, "at least 2000 openings"},
	} {
		c := good
		tc.change(&c)
		_, err := New(c)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%+v: error %v, want ErrConfig mentioning %q", c, err, tc.mention)
		}
	}
}

func TestAddErrors(t *testing.T) {
	r, err := New(Config{Arms: 2, Target: 0.5, Precision: 0.4, Alpha: 0.05, MaxOpenings: 2, MinOpenings: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		arm     int
		points  float64
		mention string
	}{
		{2, 1, "no arm 2"}, {-1, 1, "no arm -1"}, {0, 0.25, "0.25 points"}, {0, math.NaN(), "NaN points"},
	} {
		if err := r.Add(tc.arm, tc.points); err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("Add(%d, %v) = %v, want an error mentioning %q", tc.arm, tc.points, err, tc.mention)
		}
	}
	for range 2 {
		if err := r.Add(0, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Add(0, 1); err == nil || !strings.Contains(err.Error(), "its 2 openings") {
		t.Errorf("a third opening of two: %v", err)
	}
	r.Look()
	if r.Active(0) {
		t.Fatalf("arm 0 still runs after its budget: %+v", r.Arm(0))
	}
	if err := r.Add(0, 1); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("Add to a stopped arm: %v", err)
	}
}

// TestRadius against the formula worked by hand: n = 100, variance 1/4,
// alpha 0.05, tuned for 100: l = 2 ln 20 = 5.99146, ρ² = (l + ln(1 +
// l))/100 = 0.0793618, radius = 0.5/100 · √((100 + 12.6005)(l + ln 8.93618))
// = 0.151759.
func TestRadius(t *testing.T) {
	if r := Radius(100, 0.25, 0.05, 100); math.Abs(r-0.151759) > 1e-5 {
		t.Errorf("Radius(100, 0.25, 0.05, 100) = %v, want 0.151759", r)
	}
	// Wider than the fixed-sample interval at every n, narrowest
	// (relative to it) at the horizon.
	fixed := func(n int) float64 { return 1.959964 * 0.5 / math.Sqrt(float64(n)) }
	best, bestN := math.Inf(1), 0
	for n := 100; n <= 10000; n += 100 {
		ratio := Radius(n, 0.25, 0.05, 2000) / fixed(n)
		if ratio <= 1 {
			t.Fatalf("n %d: radius %v within the fixed-sample %v", n, Radius(n, 0.25, 0.05, 2000), fixed(n))
		}
		if ratio < best {
			best, bestN = ratio, n
		}
	}
	if bestN < 1500 || bestN > 2500 {
		t.Errorf("the radius is narrowest against the fixed-sample interval at n = %d, want near the horizon 2000", bestN)
	}
	if !math.IsInf(Radius(0, 0.25, 0.05, 100), 1) {
		t.Error("Radius of no observation is not infinite")
	}
}

// TestPlan: the planned size is the fewest openings that reach the
// half-width.
func TestPlan(t *testing.T) {
	for _, tc := range []struct{ h, sd, alpha float64 }{{0.01, 0.455, 0.05}, {0.02, 0.455, 0.05 / 48}, {0.05, 0.3, 0.01}} {
		n := Plan(tc.h, tc.sd, tc.alpha)
		if Radius(n, tc.sd*tc.sd, tc.alpha, n) > tc.h || Radius(n-1, tc.sd*tc.sd, tc.alpha, n-1) <= tc.h {
			t.Errorf("Plan(%v, %v, %v) = %d, not the fewest openings reaching the half-width", tc.h, tc.sd, tc.alpha, n)
		}
	}
	// Valid at every look, the interval needs more openings than a
	// fixed-sample one: ±1 point at 95 % takes 7,953 then.
	if n := Plan(0.01, 0.455, 0.05); n <= 7953 || n > 3*7953 {
		t.Errorf("Plan(0.01, 0.455, 0.05) = %d, want more than the fixed-sample 7953 and not thrice it", n)
	}
}

// feed adds n openings to arm i, the points taken in turn from pattern.
func feed(t *testing.T, r *Race, i, n int, pattern ...float64) {
	t.Helper()
	for range n {
		if err := r.Add(i, pattern[r.Openings(i)%len(pattern)]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStops: each reason an arm stops, on data whose verdict is clear.
func TestStops(t *testing.T) {
	cfg := Config{Arms: 3, Target: 0.5, Precision: 0.05, Alpha: 0.05, MaxOpenings: 6000, MinOpenings: 100}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Arm 0 wins every game: outside at the first look that judges it.
	// Arm 1 scores exactly 0.5; arm 2 scores 0.6.
	feed(t, r, 0, 50, 1)
	feed(t, r, 1, 50, 1, 0)
	feed(t, r, 2, 50, 1, 1, 1, 0, 0)
	if stops := r.Look(); len(stops) != 0 {
		t.Fatalf("stops before 100 openings: %+v", stops)
	}
	feed(t, r, 0, 50, 1)
	feed(t, r, 1, 50, 1, 0)
	feed(t, r, 2, 50, 1, 1, 1, 0, 0)
	stops := r.Look()
	if len(stops) != 1 || stops[0].Index != 0 || stops[0].Reason != Outside || stops[0].Look != 2 {
		t.Fatalf("stops at 100 openings: %+v, want arm 0 outside at look 2", stops)
	}
	for look := 3; !r.Done(); look++ {
		for i := 1; i < 3; i++ {
			if r.Active(i) {
				feed(t, r, i, 100, [][]float64{nil, {1, 0}, {1, 1, 1, 0, 0}}[i]...)
			}
		}
		r.Look()
		if look > 100 {
			t.Fatal("the race does not end")
		}
	}
	a1, a2 := r.Arm(1), r.Arm(2)
	if a1.Reason != OnTarget || a2.Reason != Worse || a2.Versus != 1 {
		t.Errorf("arm 1 %+v, arm 2 %+v; want arm 1 on target and arm 2 worse than arm 1", a1, a2)
	}
	if a1.Lo < cfg.Target-cfg.Precision || a1.Hi > cfg.Target+cfg.Precision || a1.Score != 0.5 || a1.DistLo != 0 {
		t.Errorf("arm 1 on target with %+v", a1)
	}
	if rank := r.Ranking(); rank[0].Index != 1 || rank[1].Index != 2 || rank[2].Index != 0 {
		t.Errorf("ranking %+v, want arms 1, 2, 0", rank)
	}

	// A precision no interval reaches: the arm plays its budget.
	cfg.Arms, cfg.Precision, cfg.MaxOpenings = 1, 1e-6, 300
	r, _ = New(cfg)
	for r.Active(0) {
		feed(t, r, 0, 100, 1, 0)
		r.Look()
	}
	if a := r.Arm(0); a.Reason != Budget || a.Openings != 300 || a.Look != 3 {
		t.Errorf("a precise target: %+v, want a budget stop after 300 openings at look 3", a)
	}
}

// TestPairedWorse: two variants that play alike on most openings are told
// apart by their paired difference long before their own intervals
// separate.
func TestPairedWorse(t *testing.T) {
	cfg := Config{Arms: 2, Target: 0.5, Precision: 0.08, Alpha: 0.05, MaxOpenings: 20000, MinOpenings: 100}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Arm 0 wins 54 openings of every 100 and loses the rest; arm 1 wins
	// the same 54 and 3 of the others: 0.57.
	a, b := make([]float64, 100), make([]float64, 100)
	for k := range 57 {
		b[k] = 1
		if k < 54 {
			a[k] = 1
		}
	}
	ma, mb := 0.54, 0.57
	for r.Active(1) && r.Openings(1) < cfg.MaxOpenings {
		if r.Active(0) {
			feed(t, r, 0, 100, a...)
		}
		feed(t, r, 1, 100, b...)
		r.Look()
	}
	got := r.Arm(1)
	if got.Reason != Worse || got.Versus != 0 {
		t.Fatalf("arm 1 (%.2f against %.2f): %+v, want worse than arm 0", mb, ma, got)
	}
	if a0 := r.Arm(0); got.DistLo > a0.DistHi {
		t.Errorf("the arms' own intervals separate (%+v, %+v): the test does not show the pairing", got, a0)
	}
	t.Logf("arm 1 (%.3f) stopped as worse than arm 0 (%.3f) after %d openings", mb, ma, got.Openings)
}

// TestGroups: an arm is stopped as worse only against its own group, and
// the paired difference of arms in different groups is still reported.
func TestGroups(t *testing.T) {
	cfg := Config{Arms: 3, Target: 0.5, Precision: 0.15, Alpha: 0.05, MaxOpenings: 3000, MinOpenings: 100, Groups: []int{0, 1, 1}}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Arm 0 (group 0) scores 0.65, arm 1 (group 1) 0.55 on the same
	// openings, arm 2 (group 1) 0.65: arm 2 is worse than arm 1, arm 0 is
	// alone in its group.
	pattern := [][]float64{
		{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0},
		{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	}
	patterns := [][]float64{pattern[0], pattern[1], pattern[0]}
	for r.Active(2) {
		for i, p := range patterns {
			if r.Active(i) {
				feed(t, r, i, 100, p...)
			}
		}
		r.Look()
	}
	if a := r.Arm(2); a.Reason != Worse || a.Versus != 1 {
		t.Errorf("arm 2: %+v, want worse than arm 1", a)
	}
	if a := r.Arm(0); a.Reason == Worse {
		t.Errorf("arm 0, alone in its group, stopped as worse: %+v", a)
	}
	d, ok := r.Difference(0, 1)
	if !ok || math.Abs(d.Estimate-0.1) > 1e-12 || d.Lo > 0.1 || d.Hi < 0.1 || d.Lo <= 0 {
		t.Errorf("difference of arms 0 and 1: %+v, %v; want 0.1 within an interval above 0", d, ok)
	}
	if back, _ := r.Difference(1, 0); back.Estimate != -d.Estimate || back.Lo != -d.Hi || back.Hi != -d.Lo {
		t.Errorf("difference of arms 1 and 0 %+v is not the opposite of %+v", back, d)
	}
	if _, ok := r.Difference(1, 1); ok {
		t.Error("the difference of an arm with itself")
	}
	if _, err := New(Config{Arms: 2, Target: 0.5, Precision: 0.1, Alpha: 0.05, MaxOpenings: 10, MinOpenings: 1, Groups: []int{0}}); !errors.Is(err, ErrConfig) {
		t.Errorf("one group for two arms: %v", err)
	}
}

// TestStopsChosen: with only some reasons to stop, arms stop for those
// alone; with none, every arm plays its budget.
func TestStopsChosen(t *testing.T) {
	for _, tc := range []struct {
		stops []Reason
		want  [2]Reason
	}{
		{nil, [2]Reason{Outside, OnTarget}},
		{[]Reason{OnTarget}, [2]Reason{Budget, OnTarget}},
		{[]Reason{Outside}, [2]Reason{Outside, Budget}},
		{[]Reason{}, [2]Reason{Budget, Budget}},
	} {
		r, err := New(Config{Arms: 2, Target: 0.5, Precision: 0.1, Alpha: 0.05, MaxOpenings: 2000, MinOpenings: 100, Stops: tc.stops})
		if err != nil {
			t.Fatal(err)
		}
		for !r.Done() {
			for i, p := range [][]float64{{1}, {1, 0}} {
				if r.Active(i) {
					feed(t, r, i, 100, p...)
				}
			}
			r.Look()
		}
		if got := [2]Reason{r.Arm(0).Reason, r.Arm(1).Reason}; got != tc.want {
			t.Errorf("stops %v: %v, want %v", tc.stops, got, tc.want)
		}
	}
	if _, err := New(Config{Arms: 1, Target: 0.5, Precision: 0.1, Alpha: 0.05, MaxOpenings: 10, MinOpenings: 1, Stops: []Reason{Budget}}); !errors.Is(err, ErrConfig) {
		t.Errorf("a budget stop asked for: %v", err)
	}
}
