package race

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Reason says why an arm stopped; Running while it has not.
type Reason string

// Reasons an arm stops.
const (
	Running  Reason = ""
	Outside  Reason = "outside"   // farther from the target than the precision
	Worse    Reason = "worse"     // farther from the target than another arm
	OnTarget Reason = "on-target" // within the precision of the target
	Budget   Reason = "budget"    // played MaxOpenings openings
)

// Config describes a race.
type Config struct {
	// Arms is the number of variants, at least 1.
	Arms int
	// Target is the first-mover score aimed at, strictly between 0 and 1
	// (a sweep's default is 0.5).
	Target float64
	// Precision is how far from the target still counts as on target,
	// more than 0.
	Precision float64
	// Alpha is the family-wise error rate, strictly between 0 and 1.
	Alpha float64
	// MaxOpenings is the most openings an arm plays, and the size at which
	// the intervals are tuned to be narrowest.
	MaxOpenings int
	// MinOpenings is the fewest openings on which an arm is judged or two
	// arms compared (at least 1, at most MaxOpenings).
	MinOpenings int
	// Stops lists the reasons for which arms stop before their budget
	// (Outside, Worse, OnTarget); nil means all three, an empty list none,
	// for a sweep that measures every arm on every opening. The intervals
	// are the same either way.
	Stops []Reason
	// Groups, when set, holds each arm's group (one entry per arm): an
	// arm is stopped as worse only against arms of its own group, as when
	// the same variants race at several strengths. The intervals of every
	// pair, across groups too, are in the family.
	Groups []int
}

// ErrConfig is wrapped by the errors of New for a bad Config.
var ErrConfig = errors.New("bad race configuration")

func (c Config) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	switch {
	case c.Arms < 1:
		return bad("%d arms, want at least 1", c.Arms)
	case !(c.Target > 0 && c.Target < 1):
		return bad("target %v, want a score strictly between 0 and 1", c.Target)
	case !(c.Precision > 0 && c.Precision < 1):
		return bad("precision %v, want more than 0 and less than 1", c.Precision)
	case !(c.Alpha > 0 && c.Alpha < 1):
		return bad("alpha %v, want strictly between 0 and 1", c.Alpha)
	case c.MaxOpenings < 1:
		return bad("at most %d openings, want at least 1", c.MaxOpenings)
	case c.MinOpenings < 1 || c.MinOpenings > c.MaxOpenings:
		return bad("at least %d openings, want from 1 to the most (%d)", c.MinOpenings, c.MaxOpenings)
	case c.Groups != nil && len(c.Groups) != c.Arms:
		return bad("%d groups for %d arms", len(c.Groups), c.Arms)
	}
	for _, s := range c.Stops {
		if s != Outside && s != Worse && s != OnTarget {
			return bad("stop reason %q (want %s, %s or %s)", s, Outside, Worse, OnTarget)
		}
	}
	return nil
}

// ArmAlpha returns the error rate of each arm's interval: Alpha/(2·Arms),
// or Alpha for a race of one arm.
func (c Config) ArmAlpha() float64 {
	if c.Arms == 1 {
		return c.Alpha
	}
	return c.Alpha / float64(2*c.Arms)
}

// ContrastAlpha returns the error rate of each paired contrast's interval:
// Alpha/(2·Arms·(Arms−1)); 0 for a race of one arm, which has none.
func (c Config) ContrastAlpha() float64 {
	if c.Arms == 1 {
		return 0
	}
	return c.Alpha / float64(2*c.Arms*(c.Arms-1))
}

// stats are running sums of one series of observations.
type stats struct {
	n         int
	sum, sum2 float64
}

func (s *stats) add(x float64) {
	s.n++
	s.sum += x
	s.sum2 += x * x
}

// interval returns the mean and the radius of its confidence sequence at
// error rate alpha; maxVar is the largest variance the observations allow.
func (s *stats) interval(alpha, maxVar float64, horizon int, radius radiusFunc) (mean, r float64) {
	n := float64(s.n)
	mean = s.sum / n
	ss := max(0, s.sum2-n*mean*mean)
	return mean, radius(s.n, (ss+maxVar)/n, alpha, horizon)
}

// radiusFunc is the radius of an interval on a mean after n observations
// of variance v at error rate alpha.
type radiusFunc func(n int, v, alpha float64, horizon int) float64

// arm is one variant's data and state.
type arm struct {
	points []uint8 // the first mover's half-points on each opening
	s      stats
	state  Arm
}

// pair holds the paired contrasts of arms i < j over the openings both
// have played: d = x_i − x_j and s = x_i + x_j − 2·target.
type pair struct{ d, s stats }

// Race is the state of a race. It is not safe for concurrent use.
type Race struct {
	cfg    Config
	arms   []arm
	pairs  [][]pair // pairs[i][j-i-1] for i < j
	looks  int
	radius radiusFunc
}

// New starts a race.
func New(cfg Config) (*Race, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	r := &Race{cfg: cfg, arms: make([]arm, cfg.Arms), pairs: make([][]pair, cfg.Arms), radius: Radius}
	for i := range r.arms {
		r.arms[i].state = Arm{Index: i, Versus: -1}
		r.pairs[i] = make([]pair, cfg.Arms-i-1)
	}
	return r, nil
}

// Config returns the race's configuration.
func (r *Race) Config() Config { return r.cfg }

// Looks returns how many times Look has been called.
func (r *Race) Looks() int { return r.looks }

// Openings returns how many openings arm i has played.
func (r *Race) Openings(i int) int { return len(r.arms[i].points) }

// Active reports whether arm i is still running.
func (r *Race) Active(i int) bool { return r.arms[i].state.Reason == Running }

// Add records the first mover's points (0, 0.5 or 1) on arm i's next
// opening. A stopped arm takes no more games.
func (r *Race) Add(i int, points float64) error {
	if i < 0 || i >= len(r.arms) {
		return fmt.Errorf("race: no arm %d of %d", i, len(r.arms))
	}
	a := &r.arms[i]
	if a.state.Reason != Running {
		return fmt.Errorf("race: arm %d stopped (%s) after %d openings", i, a.state.Reason, len(a.points))
	}
	if len(a.points) >= r.cfg.MaxOpenings {
		return fmt.Errorf("race: arm %d has played its %d openings", i, r.cfg.MaxOpenings)
	}
	var half uint8
	switch points {
	case 0:
	case 0.5:
		half = 1
	case 1:
		half = 2
	default:
		return fmt.Errorf("race: %v points, want 0, 0.5 or 1", points)
	}
	o := len(a.points)
	a.points = append(a.points, half)
	a.s.add(points)
	for j := range r.arms {
		if j == i || len(r.arms[j].points) <= o {
			continue
		}
		x, y := points, float64(r.arms[j].points[o])/2
		lo, hi := i, j
		if j < i {
			lo, hi, x, y = j, i, y, x
		}
		p := &r.pairs[lo][hi-lo-1]
		p.d.add(x - y)
		p.s.add(x + y - 2*r.cfg.Target)
	}
	return nil
}

// Arm is what the race knows of one arm.
type Arm struct {
	Index    int     `json:"index"`
	Openings int     `json:"openings"`
	Score    float64 `json:"score"` // the first mover's mean score
	// Lo and Hi bound the score, at the arm's error rate (ArmAlpha), at
	// every look at once; clipped to [0, 1].
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// Distance is |Score − Target|, within DistLo and DistHi (from Lo
	// and Hi: DistLo is 0 when the interval holds the target).
	Distance float64 `json:"distance"`
	DistLo   float64 `json:"dist_lo"`
	DistHi   float64 `json:"dist_hi"`
	Reason   Reason  `json:"reason,omitempty"`
	// Look is the look at which the arm stopped (from 1); 0 while it runs.
	Look int `json:"look,omitempty"`
	// Versus is the arm shown nearer the target, for Worse; -1 otherwise.
	Versus int `json:"versus"`
}

// armInterval returns arm i's mean and the radius of its interval; ok is
// false before it has played MinOpenings openings.
func (r *Race) armInterval(i int) (mean, rad float64, ok bool) {
	a := &r.arms[i]
	if a.s.n < r.cfg.MinOpenings {
		return 0, 0, false
	}
	mean, rad = a.s.interval(r.cfg.ArmAlpha(), 0.25, r.cfg.MaxOpenings, r.radius)
	return mean, rad, true
}

// contrasts returns the intervals, as [lo, hi], of the difference D and the
// sum S of arms i and j (the contrasts of i against j); ok is false when
// they have played fewer than MinOpenings openings in common.
func (r *Race) contrasts(i, j int) (d, s [2]float64, ok bool) {
	lo, hi, sign := i, j, 1.0
	if j < i {
		lo, hi, sign = j, i, -1
	}
	p := &r.pairs[lo][hi-lo-1]
	if p.d.n < r.cfg.MinOpenings {
		return d, s, false
	}
	// D lies in [-1, 1] and S in [-2τ, 2-2τ]: ranges of 2, variance at
	// most 1.
	alpha := r.cfg.ContrastAlpha()
	dm, dr := p.d.interval(alpha, 1, r.cfg.MaxOpenings, r.radius)
	sm, sr := p.s.interval(alpha, 1, r.cfg.MaxOpenings, r.radius)
	d = [2]float64{dm - dr, dm + dr}
	if sign < 0 {
		d = [2]float64{-d[1], -d[0]}
	}
	return d, [2]float64{sm - sr, sm + sr}, true
}

// farther reports whether arm i is shown farther from the target than arm
// j (see the package documentation).
func (r *Race) farther(i, j int) bool {
	mi, ri, oki := r.armInterval(i)
	mj, rj, okj := r.armInterval(j)
	tau := r.cfg.Target
	if oki && okj {
		// Unpaired: i's distance is at least its interval's nearest
		// point, j's at most its farthest.
		if distLo(mi-ri, mi+ri, tau) > distHi(mj-rj, mj+rj, tau) {
			return true
		}
	}
	d, s, ok := r.contrasts(i, j)
	if !ok {
		return false
	}
	// Signs unknown: |a|-|b| >= min(D, S) and >= min(-D, -S).
	if (d[0] > 0 && s[0] > 0) || (d[1] < 0 && s[1] < 0) {
		return true
	}
	if !oki || !okj {
		return false
	}
	// Signs known from the arms' intervals: |a| - |b| is one contrast.
	si, sj := side(mi-ri, mi+ri, tau), side(mj-rj, mj+rj, tau)
	switch {
	case si == 0 || sj == 0:
		return false
	case si > 0 && sj > 0: // a - b
		return d[0] > 0
	case si < 0 && sj < 0: // -a + b
		return d[1] < 0
	case si > 0: // a + b
		return s[0] > 0
	default: // -a - b
		return s[1] < 0
	}
}

// side returns +1 when [lo, hi] lies above tau, -1 below, 0 when it holds
// it.
func side(lo, hi, tau float64) int {
	switch {
	case lo > tau:
		return 1
	case hi < tau:
		return -1
	}
	return 0
}

// distLo and distHi bound the distance from tau of a point in [lo, hi].
func distLo(lo, hi, tau float64) float64 { return max(0, lo-tau, tau-hi) }
func distHi(lo, hi, tau float64) float64 { return max(math.Abs(lo-tau), math.Abs(hi-tau)) }

// Look judges every running arm on the data so far and stops those that
// are settled; it returns the arms stopped at this look. Arms stop as
// outside, worse, on target or at their budget, in that order of
// precedence; each decision takes the data as they were when Look was
// called.
func (r *Race) Look() []Arm {
	r.looks++
	tau, delta := r.cfg.Target, r.cfg.Precision
	type stop struct {
		i      int
		reason Reason
		versus int
	}
	var stops []stop
	for i := range r.arms {
		a := &r.arms[i]
		if a.state.Reason != Running {
			continue
		}
		m, rad, ok := r.armInterval(i)
		lo, hi := m-rad, m+rad
		if ok && r.stops(Outside) && (hi < tau-delta || lo > tau+delta) {
			stops = append(stops, stop{i, Outside, -1})
			continue
		}
		if r.stops(Worse) {
			if j := r.nearer(i); j >= 0 {
				stops = append(stops, stop{i, Worse, j})
				continue
			}
		}
		switch {
		case ok && r.stops(OnTarget) && lo >= tau-delta && hi <= tau+delta:
			stops = append(stops, stop{i, OnTarget, -1})
		case len(a.points) >= r.cfg.MaxOpenings:
			stops = append(stops, stop{i, Budget, -1})
		}
	}
	var out []Arm
	for _, s := range stops {
		a := &r.arms[s.i]
		a.state.Reason, a.state.Look, a.state.Versus = s.reason, r.looks, s.versus
		out = append(out, r.Arm(s.i))
	}
	return out
}

// stops reports whether arms stop for the reason.
func (r *Race) stops(reason Reason) bool {
	return r.cfg.Stops == nil || slices.Contains(r.cfg.Stops, reason)
}

// nearer returns an arm of i's group shown nearer the target than arm i
// (the first, by index), or -1.
func (r *Race) nearer(i int) int {
	for j := range r.arms {
		if j != i && r.group(j) == r.group(i) && r.farther(i, j) {
			return j
		}
	}
	return -1
}

// group returns arm i's group.
func (r *Race) group(i int) int {
	if r.cfg.Groups == nil {
		return 0
	}
	return r.cfg.Groups[i]
}

// Difference is a paired estimate of arm I's score minus arm J's, on the
// openings both have played.
type Difference struct {
	I, J     int
	Openings int     `json:"openings"`
	Estimate float64 `json:"estimate"`
	// Lo and Hi bound the difference at the contrasts' error rate
	// (ContrastAlpha), at every look at once.
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Difference returns the paired difference of arms i and j; ok is false
// when they have played fewer than MinOpenings openings in common.
func (r *Race) Difference(i, j int) (Difference, bool) {
	if i == j || i < 0 || j < 0 || i >= len(r.arms) || j >= len(r.arms) {
		return Difference{}, false
	}
	d, _, ok := r.contrasts(i, j)
	if !ok {
		return Difference{}, false
	}
	lo, hi := min(i, j), max(i, j)
	p := &r.pairs[lo][hi-lo-1]
	est := p.d.sum / float64(p.d.n)
	if i > j {
		est = -est
	}
	return Difference{I: i, J: j, Openings: p.d.n, Estimate: est, Lo: d[0], Hi: d[1]}, true
}

// Arm returns what the race knows of arm i.
func (r *Race) Arm(i int) Arm {
	a := &r.arms[i]
	st := a.state
	st.Openings = len(a.points)
	tau := r.cfg.Target
	if st.Openings == 0 {
		st.Lo, st.Hi = 0, 1
		st.DistLo, st.DistHi = 0, max(tau, 1-tau)
		return st
	}
	m, rad := a.s.interval(r.cfg.ArmAlpha(), 0.25, r.cfg.MaxOpenings, r.radius)
	st.Score, st.Lo, st.Hi = m, max(0, m-rad), min(1, m+rad)
	st.Distance = math.Abs(m - tau)
	st.DistLo, st.DistHi = distLo(st.Lo, st.Hi, tau), distHi(st.Lo, st.Hi, tau)
	return st
}

// Arms returns what the race knows of every arm, in index order.
func (r *Race) Arms() []Arm {
	out := make([]Arm, len(r.arms))
	for i := range r.arms {
		out[i] = r.Arm(i)
	}
	return out
}

// Ranking returns the arms nearest the target first: by their estimated
// distance from it, then by index.
func (r *Race) Ranking() []Arm {
	out := r.Arms()
	slices.SortStableFunc(out, func(a, b Arm) int { return cmp.Compare(a.Distance, b.Distance) })
	return out
}

// Done reports whether every arm has stopped.
func (r *Race) Done() bool {
	for i := range r.arms {
		if r.arms[i].state.Reason == Running {
			return false
		}
	}
	return true
}

// Radius returns the radius of the confidence sequence on a mean after n
// observations of variance v, at error rate alpha, tuned to be narrowest
// at horizon observations: Robbins' two-sided normal-mixture boundary
//
//	√v/n · √((n + 1/ρ²)(2 ln(1/α) + ln(1 + ρ²n)))
//
// with ρ² = (2 ln(1/α) + ln(1 + 2 ln(1/α)))/horizon.
func Radius(n int, v, alpha float64, horizon int) float64 {
	if n <= 0 {
		return math.Inf(1)
	}
	l := 2 * math.Log(1/alpha)
	rho2 := (l + math.Log(1+l)) / float64(max(horizon, 1))
	fn := float64(n)
	return math.Sqrt(v) / fn * math.Sqrt((fn+1/rho2)*(l+math.Log1p(rho2*fn)))
}

// Plan returns the fewest openings after which an interval on a mean whose
// per-opening standard deviation is sd has radius at most halfWidth, at
// error rate alpha, with the interval tuned for that number of openings:
// the size of a race whose every arm is to be measured to ±halfWidth.
func Plan(halfWidth, sd, alpha float64) int {
	fits := func(n int) bool { return Radius(n, sd*sd, alpha, n) <= halfWidth }
	hi := 1
	for !fits(hi) {
		hi *= 2
	}
	lo := hi / 2
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if fits(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
