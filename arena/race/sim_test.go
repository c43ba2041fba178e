package race

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// wdl is a distribution of the first mover's result on an opening.
type wdl struct{ loss, draw float64 } // the win takes the rest

func (p wdl) mean() float64 { return 1 - p.loss - p.draw/2 }

// at returns the distribution with mean m and draw rate draw.
func at(m, draw float64) wdl { return wdl{loss: 1 - m - draw/2, draw: draw} }

// points turns a uniform draw into the first mover's points.
func (p wdl) points(u float64) float64 {
	switch {
	case u < p.loss:
		return 0
	case u < p.loss+p.draw:
		return 0.5
	}
	return 1
}

// world plays races on simulated openings: on each opening every arm's
// result comes from one shared uniform draw with probability shared (the
// opening decides alike for every variant) and from its own otherwise.
type world struct {
	arms   []wdl
	shared float64
}

// errors counts, over one race, the wrong decisions and whether any
// interval of the family missed its true value at any look.
type raceErrors struct {
	outside, onTarget, worse, anyWrong, missed bool
}

// run plays one race in batches of batch openings and checks every
// decision and interval against the truth.
func (w world) run(cfg Config, batch int, rng *rand.Rand, radius radiusFunc) raceErrors {
	r, err := New(cfg)
	if err != nil {
		panic(err)
	}
	if radius != nil {
		r.radius = radius
	}
	tau, delta := cfg.Target, cfg.Precision
	dist := make([]float64, len(w.arms))
	best := math.Inf(1)
	for i, p := range w.arms {
		dist[i] = math.Abs(p.mean() - tau)
		best = min(best, dist[i])
	}
	var e raceErrors
	for !r.Done() {
		for range batch {
			u := rng.Float64()
			for i, p := range w.arms {
				if !r.Active(i) || r.Openings(i) >= cfg.MaxOpenings {
					continue
				}
				v := u
				if rng.Float64() >= w.shared {
					v = rng.Float64()
				}
				if err := r.Add(i, p.points(v)); err != nil {
					panic(err)
				}
			}
		}
		e.missed = e.missed || w.misses(r)
		for _, a := range r.Look() {
			d := dist[a.Index]
			switch {
			case a.Reason == Outside && d <= delta+1e-12:
				e.outside = true
			case a.Reason == OnTarget && d > delta+1e-12:
				e.onTarget = true
			case a.Reason == Worse && d <= best+1e-12:
				e.worse = true
			}
		}
	}
	e.anyWrong = e.outside || e.onTarget || e.worse
	return e
}

// misses reports whether any interval of the family, as it stands, misses
// its true value.
func (w world) misses(r *Race) bool {
	tau := r.cfg.Target
	for i, p := range w.arms {
		if m, rad, ok := r.armInterval(i); ok && math.Abs(m-p.mean()) > rad {
			return true
		}
		for j := i + 1; j < len(w.arms); j++ {
			d, s, ok := r.contrasts(i, j)
			a, b := p.mean()-tau, w.arms[j].mean()-tau
			if ok && (a-b < d[0] || a-b > d[1] || a+b < s[0] || a+b > s[1]) {
				return true
			}
		}
	}
	return false
}

// simulate plays reps races and returns how many had each kind of error.
func (w world) simulate(cfg Config, batch, reps int, seed uint64, radius radiusFunc) (outside, onTarget, worse, anyWrong, missed int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for range reps {
		e := w.run(cfg, batch, rng, radius)
		for _, c := range []struct {
			hit bool
			n   *int
		}{{e.outside, &outside}, {e.onTarget, &onTarget}, {e.worse, &worse}, {e.anyWrong, &anyWrong}, {e.missed, &missed}} {
			if c.hit {
				*c.n++
			}
		}
	}
	return
}

// binomialUpper returns the least k such that a count of errors from reps
// races, each wrong with probability alpha, exceeds k with probability
// below 0.001: above it, the error rate is shown to exceed alpha.
func binomialUpper(reps int, alpha float64) int {
	p := math.Pow(1-alpha, float64(reps)) // P(X = 0)
	cdf := p
	for k := 0; k < reps; k++ {
		if 1-cdf < 0.001 {
			return k
		}
		p *= float64(reps-k) / float64(k+1) * alpha / (1 - alpha)
		cdf += p
	}
	return reps
}

// simSize returns the races a simulation plays: fewer with -short.
func simSize(full int) int {
	if testing.Short() {
		return full / 10
	}
	return full
}

// sweepConfig is a race the size of a sweep's: eight variants, a precision
// of 3 points, 4,000 openings at most, judged from 200.
func sweepConfig() Config {
	return Config{Arms: 8, Target: 0.5, Precision: 0.03, Alpha: 0.05, MaxOpenings: 4000, MinOpenings: 200}
}

// TestFamilyErrorAtBoundary checks the error rate where it binds: every
// arm exactly at the edge of the tolerance (four above the target, four
// below), so that every arm is as near the target as any other. Then
// stopping any arm as outside is an error, and so is stopping any as worse
// (each is a nearest arm), and both must happen in at most Alpha of the
// races, together with any interval that misses.
func TestFamilyErrorAtBoundary(t *testing.T) {
	cfg := sweepConfig()
	var arms []wdl
	for i := range cfg.Arms {
		m := cfg.Target + cfg.Precision
		if i%2 == 1 {
			m = cfg.Target - cfg.Precision
		}
		arms = append(arms, at(m, 0.14))
	}
	reps := simSize(2000)
	for _, shared := range []float64{0, 0.6} {
		w := world{arms: arms, shared: shared}
		outside, _, worse, anyWrong, missed := w.simulate(cfg, 200, reps, 1, nil)
		t.Logf("shared %.1f: %d races: %d stopped an arm as outside, %d as worse, %d any wrong, %d with an interval missing",
			shared, reps, outside, worse, anyWrong, missed)
		limit := binomialUpper(reps, cfg.Alpha)
		if anyWrong > limit || missed > limit {
			t.Errorf("shared %.1f: %d races of %d with a wrong stop and %d with a missing interval: the error rate exceeds %v (at most %d expected)",
				shared, anyWrong, reps, missed, cfg.Alpha, limit)
		}
	}
}

// TestFamilyErrorSpread: arms spread over scores, some near the target,
// some far, correlated through the openings: at most Alpha of the races
// have any interval miss or any wrong stop.
func TestFamilyErrorSpread(t *testing.T) {
	cfg := sweepConfig()
	arms := []wdl{at(0.50, 0.14), at(0.52, 0.2), at(0.47, 0.1), at(0.55, 0.14), at(0.41, 0.05), at(0.62, 0.14), at(0.30, 0.1), at(0.51, 0)}
	reps := simSize(2000)
	w := world{arms: arms, shared: 0.5}
	_, _, _, anyWrong, missed := w.simulate(cfg, 200, reps, 2, nil)
	t.Logf("%d races: %d with a wrong stop, %d with an interval missing", reps, anyWrong, missed)
	if limit := binomialUpper(reps, cfg.Alpha); anyWrong > limit || missed > limit {
		t.Errorf("%d races of %d with a wrong stop and %d with a missing interval: more than %v", anyWrong, reps, missed, cfg.Alpha)
	}
}

// TestUncorrectedFails shows that the boundary check can fail: the same
// looks with fixed-sample 95 % intervals and no correction, or with
// Bonferroni's correction for the arms but fixed-sample intervals that do
// not allow for the repeated looks, stop a nearest arm in more than 5 %
// of the races.
func TestUncorrectedFails(t *testing.T) {
	cfg := sweepConfig()
	var arms []wdl
	for i := range cfg.Arms {
		arms = append(arms, at(cfg.Target+cfg.Precision*float64(1-2*(i%2)), 0.14))
	}
	for _, tc := range []struct {
		name   string
		radius radiusFunc
		reps   int
	}{
		{"uncorrected", func(n int, v, alpha float64, horizon int) float64 {
			return 1.959964 * math.Sqrt(v/float64(n))
		}, simSize(1000)},
		{"fixed-sample Bonferroni", func(n int, v, alpha float64, horizon int) float64 {
			return distuv.UnitNormal.Quantile(1-alpha/2) * math.Sqrt(v/float64(n))
		}, 1000},
	} {
		if testing.Short() && tc.reps > simSize(tc.reps) {
			continue
		}
		_, _, _, anyWrong, _ := world{arms: arms}.simulate(cfg, 200, tc.reps, 3, tc.radius)
		if limit := binomialUpper(tc.reps, cfg.Alpha); anyWrong <= limit {
			t.Errorf("%s intervals: %d races of %d with a wrong stop, want more than %d", tc.name, anyWrong, tc.reps, limit)
		}
		t.Logf("%s intervals: %d races of %d with a wrong stop", tc.name, anyWrong, tc.reps)
	}
}
