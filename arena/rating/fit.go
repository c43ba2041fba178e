package rating

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Scale constants of the two models.
var (
	// bayesA converts Elo to natural-log units: 10^(x/400) = e^(bayesA·x).
	bayesA = math.Ln10 / 400
	// ordoBeta is ordo's logistic slope: a rating difference of 202
	// points gives an expected score of 76 %.
	ordoBeta = math.Log(0.76/0.24) / 202
)

// Limits beyond which a fitted parameter is taken to run away: the games
// then do not determine it, and the fit holds it at a neutral value.
const (
	maxAdvantage = 1500.0
	maxDrawElo   = 1500.0
	maxRating    = 50000.0
	maxNewton    = 500
)

// FitResult is the outcome of a joint rating fit. Player i is Players[i];
// every per-player slice is indexed the same way. (Analysis is the
// JSON-ready summary; a FitResult may hold NaN.)
type FitResult struct {
	Model   Model
	Players []string // sorted by name
	// Ratings are on the display scale, centred on Options.Offset within
	// each group (or anchored there).
	Ratings []float64
	// Group is the connectivity group of each player, 0 for the largest.
	Group  []int
	Groups int
	// Bound is 0 for a fitted rating. In the Ordo model a player that won
	// (lost) every game has no finite rating; as ordo does, it is left out
	// of the fit and rated where its record has even odds against the
	// fitted opponents: Bound is +1 when its rating is at least that
	// (every game won) and -1 when at most (every game lost). Such a
	// rating has no standard error and no LOS.
	Bound []int

	// Advantage is the first mover's advantage in model units (for
	// BayesElo, before display scaling; AdvantageElo gives it scaled).
	Advantage float64
	// AdvantageSE is its standard error (NaN when it was held fixed).
	AdvantageSE float64
	// AdvantageFixed reports that the games did not determine the
	// advantage and it was held at 0.
	AdvantageFixed bool
	// DrawElo is BayesElo's draw parameter in model units (0 for Ordo).
	DrawElo float64
	// DrawFixed reports that the games did not determine drawElo and it
	// was held at DefaultDrawElo.
	DrawFixed bool
	// DrawRate is the fitted probability of a draw between equal players
	// when neither has an advantage, and DrawRateLow and DrawRateHigh
	// bound its interval at Options.Confidence (NaN when the games do not
	// determine it). For BayesElo the interval maps drawElo ± z·SE, with
	// the standard error from the full inverse information (ratings and
	// advantage free); for Ordo, whose draw rate solves "expected draws =
	// drawn games" with the ratings fitted, it is d0 ± z·SD(draws)/(d
	// expected draws/d d0), the ratings and advantage held at their values.
	DrawRate, DrawRateLow, DrawRateHigh float64
	// Scale multiplies model units into displayed Elo: 4x/(1+x)² with
	// x = 10^(-DrawElo/400) for BayesElo, 1 for Ordo.
	Scale float64
	// Prior is the number of virtual draws per player that were added (0
	// when none).
	Prior float64
	// LogLikelihood is the maximised log-likelihood (with the virtual
	// draws; for Ordo the likelihood with draws as half points).
	LogLikelihood float64
	// Iterations counts Newton steps.
	Iterations int
	// Notes say in words what the numbers cannot (groups, fixed
	// parameters).
	Notes []string

	cov   *mat.SymDense // covariance of Ratings (display units)
	index map[string]int
}

// Index returns the position of a player in Players, or -1.
func (f *FitResult) Index(name string) int {
	if i, ok := f.index[name]; ok {
		return i
	}
	return -1
}

// StdErr returns the standard error of player i's rating (display units),
// NaN for a bound.
func (f *FitResult) StdErr(i int) float64 {
	if f.Bound[i] != 0 {
		return math.NaN()
	}
	return math.Sqrt(math.Max(0, f.cov.At(i, i)))
}

// Covariance returns the covariance of the ratings of players i and j
// (display units).
func (f *FitResult) Covariance(i, j int) float64 { return f.cov.At(i, j) }

// LOS returns the likelihood that player i is stronger than player j,
// Φ((R_i - R_j)/sqrt(V_ii + V_jj - 2V_ij)) from the covariance of the fit.
// It is NaN when i == j, the players are in different groups or one of
// them is rated by a bound.
func (f *FitResult) LOS(i, j int) float64 {
	if i == j || f.Group[i] != f.Group[j] || f.Bound[i] != 0 || f.Bound[j] != 0 {
		return math.NaN()
	}
	v := f.cov.At(i, i) + f.cov.At(j, j) - 2*f.cov.At(i, j)
	d := f.Ratings[i] - f.Ratings[j]
	if v <= 0 { // both ratings exact (cannot happen with real data)
		switch {
		case d > 0:
			return 1
		case d < 0:
			return 0
		}
		return 0.5
	}
	return distuv.UnitNormal.CDF(d / math.Sqrt(v))
}

// AdvantageElo returns the first mover's advantage on the display scale.
func (f *FitResult) AdvantageElo() float64 { return f.Advantage * f.Scale }

// cell aggregates the games between one first mover and one second mover.
// Its fields are int32 and the prior's virtual draws are held apart
// (problem.vd), so that a cell takes 20 bytes (a field of a thousand
// players has up to a million cells), and the tally's counts are the
// cells of an analysis as they are.
type cell struct {
	f, s  int32 // first and second mover
	wdl32       // first mover's wins, draws and losses
}

// total returns the games of the cell.
func (c *cell) total() float64 { return float64(c.w) + float64(c.d) + float64(c.l) }

// points returns the first mover's points, and lost the second mover's.
func (c *cell) points() float64 { return float64(c.w) + float64(c.d)/2 }
func (c *cell) lost() float64   { return float64(c.l) + float64(c.d)/2 }

// size returns the number of cells the likelihood sums over: with a
// prior, the cells and the reverses of those without one (see order).
func (p *problem) size() int {
	if p.order != nil {
		return len(p.order)
	}
	return len(p.cells)
}

// at returns the i-th cell the likelihood sums over and its prior's
// virtual draws (0 without a prior).
func (p *problem) at(i int) (cell, float64) {
	if p.order == nil {
		return p.cells[i], 0
	}
	k := p.order[i]
	if k >= 0 {
		return p.cells[k], p.vd[k]
	}
	c := &p.cells[^k]
	return cell{f: c.s, s: c.f}, p.vd[^k]
}

// counts returns the wins, draws and losses of cell i, the draws with the
// prior's virtual draws.
func (p *problem) counts(i int) (w, d, l float64) {
	c, vd := p.at(i)
	return c.counts(vd)
}

// counts returns the wins, draws and losses of the cell, the draws with vd
// virtual draws.
func (c *cell) counts(vd float64) (w, d, l float64) {
	return float64(c.w), float64(c.d) + vd, float64(c.l)
}

// total returns the games of cell i, virtual draws included.
func (p *problem) total(i int) float64 {
	w, d, l := p.counts(i)
	return w + d + l
}

// realDraws returns the drawn games of cell i that were played.
func (p *problem) realDraws(i int) float64 {
	c, vd := p.at(i)
	_, d, _ := c.counts(vd)
	return d - vd
}

// realGames returns the games of cell i that were played.
func (p *problem) realGames(i int) float64 {
	_, vd := p.at(i)
	return p.total(i) - vd
}

// problem is a likelihood to maximise over ratings, advantage and drawElo.
// Parameter vector: r_0..r_{n-1}, adv, drawElo.
type problem struct {
	model Model
	n     int
	cells []cell
	// With a prior, order lists the cells the likelihood sums over, in
	// order of first mover, then second mover: k >= 0 is cells[k], ^k the
	// reverse of cells[^k] (a pair met with one colour only), which has no
	// games but the virtual draws of its cell. The reverses are not held
	// as cells: with a thousand players they would take 24 MB, order 4.
	// nil without a prior.
	order []int32
	// vd holds the prior's virtual draws of each cell, included in its
	// draws; nil without a prior.
	vd []float64
	// active lists the free parameters, the ratings first (in index
	// order), then adv and drawElo when free; the others keep their values.
	active []int
	// hess is the (n+2)² Hessian that maximize and information fill,
	// made once for both; information lets it go.
	hess []float64
	// spare is a buffer no longer in use (the Newton steps' matrix, then
	// the Hessian's, then the Ordo sandwich's meat), for the next k×k
	// matrix to take rather than allocate one more: with a thousand
	// players each is 8 MB.
	spare []float64
}

// take returns n zeros in the spare buffer when it is large enough (it is
// then no longer spare), or nil for the caller to allocate.
func (p *problem) take(n int) []float64 {
	if cap(p.spare) < n {
		return nil
	}
	b := p.spare[:n]
	p.spare = nil
	clear(b)
	return b
}

// hessian returns p.hess, made when needed.
func (p *problem) hessian() []float64 {
	if dim := p.n + 2; len(p.hess) != dim*dim {
		p.hess = make([]float64, dim*dim)
	}
	return p.hess
}

func (p *problem) advIdx() int  { return p.n }
func (p *problem) drawIdx() int { return p.n + 1 }

// evaluate returns the log-likelihood at theta and, when grad is not nil,
// its gradient and Hessian (dense, (n+2)²) over all parameters.
//
// A cell's likelihood depends on the parameters only through
// x = s·(r_f + adv - r_s) and, for BayesElo, delta = s·drawElo, with s the
// model's slope (bayesA or ordoBeta): each model gives the derivatives with
// respect to x and delta, and the chain rule here spreads them.
func (p *problem) evaluate(theta, grad, hess []float64) float64 {
	n := p.n
	dim := n + 2
	if grad != nil {
		clear(grad)
		clear(hess)
	}
	s := bayesA
	var delta float64
	if p.model == Ordo {
		s = ordoBeta
	} else {
		de := theta[p.drawIdx()]
		if !(de > 0) {
			return math.Inf(-1)
		}
		delta = s * de
	}
	adv := theta[p.advIdx()]
	di := p.drawIdx()
	var ll float64
	var t cellTerms
	for i := range p.size() {
		c, vd := p.at(i)
		x := s * (theta[c.f] + adv - theta[c.s])
		w, d, l := c.counts(vd)
		if p.model == Ordo {
			t.ordo(w, d, l, x, grad != nil)
		} else if !t.bayes(w, d, l, x, delta, grad != nil) {
			return math.Inf(-1)
		}
		ll += t.ll
		if grad == nil {
			continue
		}
		// x moves with r_f, r_s and adv with slopes s·sgn; delta with
		// drawElo with slope s.
		idx := [3]int{int(c.f), int(c.s), n}
		sgn := [3]float64{1, -1, 1}
		dx, hxx := s*t.dx, s*s*t.hxx
		for a := range idx {
			grad[idx[a]] += sgn[a] * dx
			for b := range idx {
				hess[idx[a]*dim+idx[b]] += sgn[a] * sgn[b] * hxx
			}
		}
		if p.model == BayesElo {
			hxd := s * s * t.hxd
			for a := range idx {
				hess[idx[a]*dim+di] += sgn[a] * hxd
				hess[di*dim+idx[a]] += sgn[a] * hxd
			}
			grad[di] += s * t.dd
			hess[di*dim+di] += s * s * t.hdd
		}
	}
	return ll
}

// cellTerms is one cell's log-likelihood and its first and second
// derivatives with respect to x and delta (see evaluate).
type cellTerms struct {
	ll            float64
	dx, dd        float64
	hxx, hxd, hdd float64
}

// ordo sets the terms of Ordo's likelihood of a cell of w wins, d draws
// and l losses of the first mover, draws counting half
// a point: the first mover's expected score is sigmoid(x). The derivatives
// are set only when derivs is true.
func (out *cellTerms) ordo(w, d, l, x float64, derivs bool) {
	t := w + d + l
	pts := w + d/2
	out.ll = -pts*softplus(-x) - (t-pts)*softplus(x)
	if derivs {
		e := sigmoid(x)
		out.dx = pts - t*e
		out.hxx = -t * e * (1 - e)
	}
}

// bayes sets the terms of BayesElo's likelihood of a cell of w wins, d
// draws and l losses of the first mover: the first mover
// wins with probability sigmoid(x - delta), loses with sigmoid(-x - delta)
// and draws otherwise. It reports false when the draw probability vanishes
// (the likelihood is then -Inf). The derivatives are set only when derivs
// is true.
func (out *cellTerms) bayes(w, d, l, x, delta float64, derivs bool) bool {
	pw := sigmoid(x - delta)
	pl := sigmoid(-x - delta)
	pd := sigmoid(delta-x) - pl
	if !(pd > 0) {
		return false
	}
	out.ll = 0
	if w > 0 {
		out.ll -= w * softplus(delta-x)
	}
	if l > 0 {
		out.ll -= l * softplus(x+delta)
	}
	if d > 0 {
		out.ll += d * math.Log(pd)
	}
	if !derivs {
		return true
	}
	qw, ql := 1-pw, 1-pl
	sw, sl := pw*qw, pl*ql
	// First derivatives: of the win and loss terms, and of pd.
	pdx := -sw + sl
	pdd := sw + sl
	out.dx = w*qw - l*ql + d*pdx/pd
	out.dd = -w*qw - l*ql + d*pdd/pd
	// Second derivatives.
	cw, cl := sw*(1-2*pw), sl*(1-2*pl)
	pdxx := -cw - cl
	pdxd := cw - cl
	pddd := -cw - cl
	out.hxx = -w*sw - l*sl + d*(pdxx/pd-pdx*pdx/(pd*pd))
	out.hxd = w*sw - l*sl + d*(pdxd/pd-pdx*pdd/(pd*pd))
	out.hdd = -w*sw - l*sl + d*(pddd/pd-pdd*pdd/(pd*pd))
	return true
}

// sigmoid returns 1/(1+e^-x).
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// softplus returns ln(1+e^x) = -ln(sigmoid(-x)) without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x + math.Exp(-x)
	}
	return math.Log1p(math.Exp(x))
}

var (
	errDiverged = errors.New("parameters run away")
	errSingular = errors.New("information matrix is not positive definite")
)

// maximize runs damped Newton steps on the active parameters from theta.
func (p *problem) maximize(theta []float64) (ll float64, iters int, err error) {
	dim := p.n + 2
	k := len(p.active)
	grad := make([]float64, dim)
	hess := p.hessian()
	trial := make([]float64, dim)
	ns := newNewtonSolver(k, p.take(k*k))
	defer func() { p.spare = ns.chol.RawSymmetric().Data }()
	for iters = 1; iters <= maxNewton; iters++ {
		ll = p.evaluate(theta, grad, hess)
		if math.IsNaN(ll) || math.IsInf(ll, 0) {
			return ll, iters, fmt.Errorf("%w: log-likelihood %v", ErrNoConvergence, ll)
		}
		if err := ns.solve(p, grad, hess); err != nil {
			return ll, iters, err
		}
		t, accepted := p.lineSearch(theta, trial, ns.step, ll)
		if !accepted {
			return ll, iters, nil // no further progress is possible
		}
		var moved float64
		for a := range k {
			moved = math.Max(moved, math.Abs(t*ns.step.AtVec(a)))
		}
		copy(theta, trial)
		if p.runaway(theta) {
			return ll, iters, errDiverged
		}
		next := p.evaluate(theta, nil, nil)
		// Stop when the parameters settle, or when the likelihood no
		// longer improves (a flat ridge: the information check that
		// follows decides whether the point is usable).
		if moved < 1e-9 || next-ll < 1e-13*(1+math.Abs(ll)) {
			return next, iters, nil
		}
	}
	return ll, iters, fmt.Errorf("%w after %d steps", ErrNoConvergence, maxNewton)
}

// newtonSolver holds the matrices of the Newton steps of a fit of k active
// parameters, made once for all its steps: the information of the active
// parameters is factorised where it is (a Cholesky factorisation, as
// gonum's mat.Cholesky makes it, in its storage), and made again from the
// Hessian when a step needs damping, so that one k×k matrix serves.
type newtonSolver struct {
	chol      *mat.SymDense
	rhs, step *mat.VecDense
	work      []float64
	iwork     []int
}

// newNewtonSolver returns a newtonSolver for k active parameters, its
// matrix in buf (k·k values) unless buf is nil.
func newNewtonSolver(k int, buf []float64) *newtonSolver {
	return &newtonSolver{
		chol:  mat.NewSymDense(k, buf),
		rhs:   mat.NewVecDense(k, nil),
		step:  mat.NewVecDense(k, nil),
		work:  make([]float64, 3*k),
		iwork: make([]int, k),
	}
}

// solve sets ns.step to the Newton step of the active parameters of p from
// the gradient and Hessian of the log-likelihood.
func (ns *newtonSolver) solve(p *problem, grad, hess []float64) error {
	var maxDiag float64
	p.activeBlock(ns.chol, hess, -1)
	for a, i := range p.active {
		ns.rhs.SetVec(a, grad[i])
		maxDiag = math.Max(maxDiag, ns.chol.At(a, a))
	}
	// Levenberg damping until the information is positive definite
	// and well enough conditioned to solve.
	ok := ns.factorize()
	for lambda := 1e-10 * maxDiag; !ok && lambda < 1e10*maxDiag+1; lambda *= 10 {
		p.activeBlock(ns.chol, hess, -1)
		for a := range len(p.active) {
			ns.chol.SetSym(a, a, ns.chol.At(a, a)+lambda)
		}
		ok = ns.factorize()
	}
	if !ok {
		return fmt.Errorf("%w: %w", ErrNoConvergence, errSingular)
	}
	raw := ns.chol.RawSymmetric()
	ns.step.CopyVec(ns.rhs)
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: raw.N, Stride: raw.Stride, Data: raw.Data}
	v := ns.step.RawVector()
	lapack64.Potrs(u, blas64.General{Rows: raw.N, Cols: 1, Stride: v.Inc, Data: v.Data})
	return nil
}

// factorize factorises ns.chol in place (its upper triangle), and reports
// whether it is positive definite with a condition number below 10¹².
func (ns *newtonSolver) factorize() bool {
	raw := ns.chol.RawSymmetric()
	norm := lapack64.Lansy(mat.CondNorm, raw, ns.work)
	if _, ok := lapack64.Potrf(raw); !ok {
		return false
	}
	return 1/lapack64.Pocon(raw, norm, ns.work, ns.iwork) < 1e12
}

// lineSearch backtracks along step from theta, whose log-likelihood is ll,
// until the likelihood does not fall: it leaves the point in trial and
// returns the fraction t of the step taken, or not accepted.
func (p *problem) lineSearch(theta, trial []float64, step *mat.VecDense, ll float64) (t float64, accepted bool) {
	t = 1.0
	for range 60 {
		copy(trial, theta)
		for a, i := range p.active {
			trial[i] += t * step.AtVec(a)
		}
		if lt := p.evaluate(trial, nil, nil); lt >= ll-1e-12*math.Abs(ll) {
			return t, true
		}
		t /= 2
	}
	return t, false
}

func (p *problem) runaway(theta []float64) bool {
	if math.Abs(theta[p.advIdx()]) > maxAdvantage || theta[p.drawIdx()] > maxDrawElo {
		return true
	}
	for i := range p.n {
		if math.Abs(theta[i]) > maxRating {
			return true
		}
	}
	return false
}

// information returns minus the Hessian at theta over the active
// parameters.
func (p *problem) information(theta []float64) *mat.SymDense {
	dim := p.n + 2
	grad := make([]float64, dim)
	hess := p.hessian()
	p.evaluate(theta, grad, hess)
	k := len(p.active)
	info := mat.NewSymDense(k, p.take(k*k))
	p.activeBlock(info, hess, -1)
	p.spare, p.hess = p.hess, nil
	return info
}

// activeBlock sets dst to sign times the active parameters' block of m, a
// dense symmetric (n+2)×(n+2) matrix over all parameters.
func (p *problem) activeBlock(dst *mat.SymDense, m []float64, sign float64) {
	dim := p.n + 2
	for a, i := range p.active {
		for b := a; b < len(p.active); b++ {
			dst.SetSym(a, b, sign*m[i*dim+p.active[b]])
		}
	}
}

// ordoMeat returns Σ b²·T·Var(score)·v·vᵀ over the active parameters, the
// middle of the sandwich covariance of the Ordo estimating equations, with
// the per-game variance E(1-E) - D(E)/4 of the fitted draw model: a
// symmetric matrix stored in full, both triangles summed alike.
func (p *problem) ordoMeat(theta []float64, drawRate float64) *mat.Dense {
	n, k := p.n, len(p.active)
	at := make([]int, n+2) // parameter -> place among the active ones, or -1
	for i := range at {
		at[i] = -1
	}
	for a, i := range p.active {
		at[i] = a
	}
	meat := mat.NewDense(k, k, p.take(k*k))
	data := meat.RawMatrix().Data
	b := ordoBeta
	for i := range p.size() {
		c, _ := p.at(i)
		e := sigmoid(b * (theta[c.f] + theta[n] - theta[c.s]))
		v := e*(1-e) - ordoDrawProb(e, drawRate)/4
		w := b * b * p.total(i) * math.Max(v, 0)
		idx := [3]int{at[c.f], at[c.s], at[n]}
		sgn := [3]float64{1, -1, 1}
		for x := range idx {
			if idx[x] < 0 {
				continue
			}
			for y := range idx {
				if idx[y] >= 0 {
					data[idx[x]*k+idx[y]] += sgn[x] * sgn[y] * w
				}
			}
		}
	}
	return meat
}

// ordoDrawProb is ordo's draw model: the draw probability D for an expected
// score e when equal players draw with probability d0, from
// D² = (2·d0/(1-d0))²·W·L with W = e - D/2 and L = 1 - e - D/2.
func ordoDrawProb(e, d0 float64) float64 {
	switch {
	case d0 <= 0:
		return 0
	case d0 >= 1:
		return 1 - math.Abs(1-2*e)
	}
	fi := (1 - d0) / (2 * d0)
	a := 4*fi*fi - 1
	c := 4 * (e*e - e)
	if math.Abs(a) < 1e-12 {
		return -c / 2
	}
	// Root of a·D² + 2D + c = 0 written to avoid cancellation.
	return -c / (1 + math.Sqrt(math.Max(0, 1-a*c)))
}

// ordoDrawRate finds d0 such that the expected number of real draws equals
// the observed number.
func (p *problem) ordoDrawRate(theta []float64) float64 {
	n := p.n
	var draws float64
	es := make([]float64, p.size())
	for i := range es {
		c, _ := p.at(i)
		es[i] = sigmoid(ordoBeta * (theta[c.f] + theta[n] - theta[c.s]))
		draws += p.realDraws(i)
	}
	if draws == 0 {
		return 0
	}
	expected := func(d0 float64) float64 {
		var s float64
		for i := range es {
			s += p.realGames(i) * ordoDrawProb(es[i], d0)
		}
		return s
	}
	// The expected draws rise with d0: find where they meet the drawn
	// games by regula falsi (the Illinois variant), which keeps the root
	// bracketed like bisection but needs a tenth of the passes over the
	// cells.
	lo, hi := 0.0, 1.0
	flo, fhi := -draws, expected(hi)-draws
	if fhi <= 0 {
		return 1
	}
	side := 0
	for range 200 {
		if hi-lo < 1e-15 {
			break
		}
		mid := hi - fhi*(hi-lo)/(fhi-flo)
		if !(mid > lo && mid < hi) {
			mid = (lo + hi) / 2
		}
		fm := expected(mid) - draws
		switch {
		case fm == 0:
			return mid
		case fm < 0:
			lo, flo = mid, fm
			if side == -1 {
				fhi /= 2
			}
			side = -1
		default:
			hi, fhi = mid, fm
			if side == 1 {
				flo /= 2
			}
			side = 1
		}
		if math.Abs(fm) < 1e-12*draws {
			return mid
		}
	}
	return (lo + hi) / 2
}

// ordoDrawRateSE returns the standard error of ordo's draw rate d0 by the
// delta method: the binomial spread of the number of draws under the fitted
// model, divided by how fast the expected number moves with d0. It is 0
// when that is undefined (no draws, or every game drawn).
func (p *problem) ordoDrawRateSE(theta []float64, d0 float64) float64 {
	if !(d0 > 0 && d0 < 1) {
		return 0
	}
	const h = 1e-6
	var variance, slope float64
	for i := range p.size() {
		c, _ := p.at(i)
		e := sigmoid(ordoBeta * (theta[c.f] + theta[p.n] - theta[c.s]))
		pd := ordoDrawProb(e, d0)
		variance += p.realGames(i) * pd * (1 - pd)
		slope += p.realGames(i) * (ordoDrawProb(e, math.Min(d0+h, 1)) - ordoDrawProb(e, math.Max(d0-h, 0))) / (math.Min(d0+h, 1) - math.Max(d0-h, 0))
	}
	if !(slope > 0) {
		return 0
	}
	return math.Sqrt(variance) / slope
}

// playerIndex returns the distinct names, sorted, and each one's position.
func playerIndex(games []Game) ([]string, map[string]int) {
	index := make(map[string]int)
	for _, g := range games {
		index[g.White] = 0
		index[g.Black] = 0
	}
	names := make([]string, 0, len(index))
	for name := range index {
		names = append(names, name)
	}
	slices.Sort(names)
	for i, name := range names {
		index[name] = i
	}
	return names, index
}

// groups returns the connectivity group of each player (0 for the largest
// group, ties broken by the first member's name) and the number of groups.
func groups(n int, cells []cell) ([]int, int) {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, c := range cells {
		a, b := find(int(c.f)), find(int(c.s))
		if a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	size := make(map[int]int)
	for i := range n {
		size[find(i)]++
	}
	roots := make([]int, 0, len(size))
	for r := range size {
		roots = append(roots, r)
	}
	slices.SortFunc(roots, func(a, b int) int {
		if c := cmp.Compare(size[b], size[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b) // the root is the smallest index, i.e. the first name
	})
	number := make(map[int]int, len(roots))
	for i, r := range roots {
		number[r] = i
	}
	group := make([]int, n)
	for i := range n {
		group[i] = number[find(i)]
	}
	return group, len(roots)
}

// stronglyConnected reports whether, within every group, each player can
// be reached from each other along edges "took points from": the condition
// for finite maximum-likelihood ratings without a prior.
func stronglyConnected(n int, cells []cell, group []int) bool {
	fw, bw := tookPoints(n, cells, false), tookPoints(n, cells, true)
	done := make([]bool, len(group))
	for i := range n {
		if done[group[i]] {
			continue
		}
		done[group[i]] = true
		from, to := fw.reach(i), bw.reach(i)
		for j := range n {
			if group[j] == group[i] && (!from[j] || !to[j]) {
				return false
			}
		}
	}
	return true
}

// edges is a directed graph of n players in compressed rows: the edges
// from v go to to[start[v]:start[v+1]].
type edges struct {
	start []int32
	to    []int32
}

// tookPoints returns the graph of "took points from" of the cells: an edge
// from a to b when a scored against b, or, when reversed, from b to a.
func tookPoints(n int, cells []cell, reversed bool) edges {
	each := func(fn func(a, b int)) {
		for _, c := range cells {
			if c.w+c.d > 0 {
				fn(int(c.f), int(c.s))
			}
			if c.l+c.d > 0 {
				fn(int(c.s), int(c.f))
			}
		}
	}
	g := edges{start: make([]int32, n+1)}
	each(func(a, b int) {
		if reversed {
			a = b
		}
		g.start[a+1]++
	})
	for v := range n {
		g.start[v+1] += g.start[v]
	}
	g.to = make([]int32, g.start[n])
	next := slices.Clone(g.start[:n])
	each(func(a, b int) {
		if reversed {
			a, b = b, a
		}
		g.to[next[a]] = int32(b)
		next[a]++
	})
	return g
}

// reach returns the players that can be reached from start.
func (g edges) reach(start int) []bool {
	seen := make([]bool, len(g.start)-1)
	stack := []int32{int32(start)}
	seen[start] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range g.to[g.start[v]:g.start[v+1]] {
			if !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return seen
}

// condense aggregates the games into cells keyed by (first, second) mover.
func condense(games []Game, index map[string]int) []cell {
	type key struct{ f, s int }
	at := make(map[key]int)
	var cells []cell
	for _, g := range games {
		f, s, pts := g.first()
		k := key{index[f], index[s]}
		i, ok := at[k]
		if !ok {
			i = len(cells)
			at[k] = i
			cells = append(cells, cell{f: int32(k.f), s: int32(k.s)})
		}
		c := &cells[i]
		switch pts {
		case 1:
			c.w++
		case 0:
			c.l++
		default:
			c.d++
		}
	}
	sortCells(cells)
	return cells
}

// sortCells orders cells by first mover, then second mover.
func sortCells(cells []cell) { slices.SortFunc(cells, compareCells) }

// compareCells orders cells by first mover, then second mover.
func compareCells(a, b cell) int {
	if c := cmp.Compare(a.f, b.f); c != 0 {
		return c
	}
	return cmp.Compare(a.s, b.s)
}

// addPrior spreads prior virtual draws per player over its opponents as
// bayeselo does: for players i and j that met n_ij times, with N_i and N_j
// games in all, 0.25·prior·n_ij·(1/N_i + 1/N_j) draws are added with each
// of them moving first. It returns the cells, sorted (a copy when they
// were not), the order in which the likelihood sums over them and the
// reverses of the cells without one (see problem.order), and the virtual
// draws of each cell (included in its draws by problem.counts).
func addPrior(n int, cells []cell, prior float64) ([]cell, []int32, []float64) {
	if !slices.IsSortedFunc(cells, compareCells) {
		cells = slices.Clone(cells)
		sortCells(cells)
	}
	total := make([]float64, n)
	for _, c := range cells {
		g := c.total()
		total[c.f] += g
		total[c.s] += g
	}
	vd := make([]float64, len(cells))
	// A pair met with one colour only has one cell; its reverse takes
	// only virtual draws. The cells (y, x) without a reverse are listed
	// by x, in order of y: lone[start[x]:start[x+1]], by place in cells.
	start := make([]int32, n+1)
	alone := make([]bool, len(cells))
	for i := range cells {
		c := &cells[i]
		lo, hi := min(c.f, c.s), max(c.f, c.s)
		j, back := findCell(cells, c.s, c.f)
		var games float64
		switch {
		case !back:
			games = c.total()
		case c.f == lo:
			games = c.total() + cells[j].total()
		default:
			games = cells[j].total() + c.total()
		}
		vd[i] = 0.25 * prior * games * (1/total[lo] + 1/total[hi])
		if !back {
			alone[i] = true
			start[c.s+1]++
		}
	}
	for x := range n {
		start[x+1] += start[x]
	}
	lone := make([]int32, start[n])
	next := slices.Clone(start[:n])
	for i, c := range cells {
		if alone[i] {
			lone[next[c.s]] = int32(i)
			next[c.s]++
		}
	}
	return cells, withReverses(cells, start, lone), vd
}

// withReverses returns the order of the cells (sorted) with the reverses
// of the lone cells (see addPrior) merged in, sorted (see problem.order).
func withReverses(cells []cell, start, lone []int32) []int32 {
	order := make([]int32, 0, len(cells)+len(lone))
	i := 0
	for x := range int32(len(start) - 1) {
		rev := lone[start[x]:start[x+1]]
		for i < len(cells) && cells[i].f == x || len(rev) > 0 {
			if len(rev) == 0 || i < len(cells) && cells[i].f == x && cells[i].s < cells[rev[0]].f {
				order = append(order, int32(i))
				i++
				continue
			}
			order = append(order, ^rev[0])
			rev = rev[1:]
		}
	}
	return order
}

// findCell returns the place in cells (sorted) of the cell of first
// mover f and second mover s, and whether there is one.
func findCell(cells []cell, f, s int32) (int, bool) {
	return slices.BinarySearchFunc(cells, cell{f: f, s: s}, compareCells)
}

// Fit fits ratings, the first mover's advantage and the draw parameter to
// the games by maximum likelihood (see the package documentation for the
// models). Games must be finished and name two different players.
func Fit(games []Game, opt Options) (*FitResult, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, ErrNoGames
	}
	for i, g := range games {
		if err := g.validate(); err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
	}
	names, index := playerIndex(games)
	return fitAll(names, condense(games, index), opt)
}

// fitAll fits the cells of players names (sorted; cells indexed into
// names) with valid options: for the Ordo model first as ordo does with
// players who won or lost every game, then by fitCells.
func fitAll(names []string, cells []cell, opt Options) (*FitResult, error) {
	if opt.Model == Ordo {
		res, err := fitOrdoBounds(names, cells, opt)
		if res != nil || err != nil {
			return res, err
		}
	}
	return fitCells(names, cells, opt)
}

// fitCells fits the cells of players names with valid options. It does
// not change cells.
func fitCells(names []string, cells []cell, opt Options) (*FitResult, error) {
	n := len(names)
	index := make(map[string]int, n)
	for i, name := range names {
		index[name] = i
	}
	anchors, err := anchorIndex(index, opt)
	if err != nil {
		return nil, err
	}
	group, ngroups := groups(n, cells)
	res := &FitResult{
		Model:   opt.Model,
		Players: names,
		Group:   group,
		Groups:  ngroups,
		Bound:   make([]int, n),
		Scale:   1,
		index:   index,
	}
	cells, order, vd := res.withPrior(cells, opt)

	p := &problem{model: opt.Model, n: n, cells: cells, order: order, vd: vd}
	fixed := referencePlayers(group, ngroups, anchors)
	notes := slices.Clone(res.Notes)
	theta, info, cov, err := p.fit(res, fixed, anchors, opt.Offset, 1)
	if err != nil {
		return nil, err
	}
	if opt.Model == BayesElo && len(anchors) > 1 {
		// Anchors are displayed ratings, which bayeselo's scale (a
		// function of drawElo) maps to the model's units: fit again at the
		// fitted scale until it settles.
		for range 8 {
			scale := bayesScale(theta[p.drawIdx()])
			res.Iterations, res.Notes = 0, slices.Clone(notes)
			res.DrawFixed, res.AdvantageFixed = false, false
			if theta, info, cov, err = p.fit(res, fixed, anchors, opt.Offset, scale); err != nil {
				return nil, err
			}
			if math.Abs(bayesScale(theta[p.drawIdx()])-scale) < 1e-13 {
				break
			}
		}
	}
	res.Advantage = theta[p.advIdx()]
	cov = res.setDraws(p, theta, cov, opt)
	res.AdvantageSE = math.NaN()
	for a, i := range p.active {
		if i == p.advIdx() {
			res.AdvantageSE = math.Sqrt(cov.At(a, a))
		}
	}
	// The cells, their order and virtual draws are not needed any more,
	// and the rating covariance takes two matrices more.
	p.cells, p.order, p.vd = nil, nil, nil
	ratingCov, err := p.ratingCovariance(info, cov)
	if err != nil {
		return nil, err
	}
	res.setRatings(theta[:n], ratingCov, anchors, opt.Offset)
	if ngroups > 1 {
		res.Notes = append(res.Notes, fmt.Sprintf(
			"the players form %d groups that never met each other; ratings are only comparable within a group", ngroups))
	}
	return res, nil
}

// withPrior adds the prior's virtual draws to cells when the model takes
// them: always in BayesElo, in Ordo when some players won or lost every
// game against the others. It returns the cells, their order with the
// reverses and their virtual draws (see problem.order; nil without a
// prior).
func (res *FitResult) withPrior(cells []cell, opt Options) ([]cell, []int32, []float64) {
	n := len(res.Players)
	switch {
	case opt.Model == BayesElo:
		res.Prior = opt.Prior
	case !stronglyConnected(n, cells, res.Group):
		res.Prior = opt.Prior
		res.Notes = append(res.Notes, fmt.Sprintf(
			"some players won or lost every game against the others; %g virtual draws per player were added so that ratings stay finite", res.Prior))
	}
	if res.Prior > 0 {
		return addPrior(n, cells, res.Prior)
	}
	return cells, nil, nil
}

// setDraws sets the draw parameter and the draw rate with its interval
// from the fitted parameters theta and their covariance cov, and returns
// the covariance corrected for Ordo's draws.
func (res *FitResult) setDraws(p *problem, theta []float64, cov *mat.SymDense, opt Options) *mat.SymDense {
	z := Quantile(opt.Confidence)
	res.DrawRateLow, res.DrawRateHigh = math.NaN(), math.NaN()
	if opt.Model == BayesElo {
		res.DrawElo = theta[p.drawIdx()]
		res.Scale = bayesScale(res.DrawElo)
		rate := func(de float64) float64 { return math.Tanh(bayesA * math.Max(de, 0) / 2) }
		res.DrawRate = rate(res.DrawElo)
		for a, i := range p.active {
			if i == p.drawIdx() {
				se := math.Sqrt(cov.At(a, a))
				res.DrawRateLow, res.DrawRateHigh = rate(res.DrawElo-z*se), rate(res.DrawElo+z*se)
			}
		}
		return cov
	}
	res.DrawRate = p.ordoDrawRate(theta)
	if se := p.ordoDrawRateSE(theta, res.DrawRate); se > 0 {
		res.DrawRateLow = math.Max(0, res.DrawRate-z*se)
		res.DrawRateHigh = math.Min(1, res.DrawRate+z*se)
	}
	if res.DrawRate < 1 {
		// Ordo's equations count draws as half points, so the inverse
		// information overstates the variance when games are drawn: use
		// the sandwich form with the per-game variance of the fitted draw
		// model. (When every game was drawn that variance is zero and the
		// plain inverse is kept.)
		// (Dense matrices: gonum multiplies two symmetric matrices
		// element by element, but dense ones with its blocked kernels.
		// cov's lower triangle is filled in so that its storage is also
		// a dense matrix; three k×k matrices in all: the product goes
		// into the meat's, and the result into the first product's.)
		covD := denseOf(cov)
		meat := p.ordoMeat(theta, res.DrawRate)
		var tmp mat.Dense
		tmp.Mul(covD, meat)
		meat.Mul(&tmp, covD)
		cov = symmetricInto(tmp.RawMatrix().Data, meat)
		p.spare = meat.RawMatrix().Data
	}
	return cov
}

// denseOf returns s as a dense matrix on the same storage, its lower
// triangle filled in from the upper (which s alone reads).
func denseOf(s *mat.SymDense) *mat.Dense {
	raw := s.RawSymmetric()
	if raw.Stride != raw.N {
		var d mat.Dense
		d.CloneFrom(s)
		return &d
	}
	for i := range raw.N {
		for j := i + 1; j < raw.N; j++ {
			raw.Data[j*raw.Stride+i] = raw.Data[i*raw.Stride+j]
		}
	}
	return mat.NewDense(raw.N, raw.N, raw.Data[:raw.N*raw.N])
}

// bayesScale is bayeselo's display scale 4x/(1+x)² with
// x = 10^(-drawElo/400).
func bayesScale(drawElo float64) float64 {
	x := math.Pow(10, -drawElo/400)
	return 4 * x / ((1 + x) * (1 + x))
}

// anchorIndex returns the anchored players' displayed ratings by index:
// Options.Anchor at Options.Offset, or Options.Anchors.
func anchorIndex(index map[string]int, opt Options) (map[int]float64, error) {
	out := map[int]float64{}
	add := func(name string, rating float64) error {
		i, ok := index[name]
		if !ok {
			return fmt.Errorf("%w: anchor %q played no game", ErrUnknownPlayer, name)
		}
		out[i] = rating
		return nil
	}
	if opt.Anchor != "" {
		if err := add(opt.Anchor, opt.Offset); err != nil {
			return nil, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(opt.Anchors)) {
		if err := add(name, opt.Anchors[name]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// setRatings sets the displayed ratings and their covariance from the
// fitted ratings raw and their covariance v (n×n): each group without an
// anchor centred (on offset once scaled), each group with anchors where
// they put it; then scaled and offset.
//
// Centring group g is the map T = I - 1_g·a_gᵀ, a_g averaging over g's
// members, so the covariance T·V·Tᵀ is computed entry by entry as
// V_ij - (V·a_g(j))_i - (V·a_g(i))_j + a_g(i)ᵀ·V·a_g(j), in O(n²) rather
// than by multiplying n×n matrices.
func (res *FitResult) setRatings(raw []float64, v *mat.Dense, anchors map[int]float64, offset float64) {
	n := len(raw)
	anchored := make([]bool, res.Groups)
	for i := range anchors {
		anchored[res.Group[i]] = true
	}
	members := make([][]int, res.Groups)
	for i, g := range res.Group {
		members[g] = append(members[g], i)
	}
	// Each group's centre, and V·a_g for the centred groups.
	centre := make([]float64, res.Groups)
	va := make([][]float64, res.Groups)
	for g, ms := range members {
		if anchored[g] {
			continue
		}
		w := 1 / float64(len(ms))
		va[g] = make([]float64, n)
		for _, k := range ms {
			centre[g] += w * raw[k]
			for i := range n {
				va[g][i] += w * v.At(i, k)
			}
		}
	}
	// aVa[g][h] = a_gᵀ·V·a_h.
	aVa := make([][]float64, res.Groups)
	for g := range aVa {
		aVa[g] = make([]float64, res.Groups)
		if anchored[g] {
			continue
		}
		w := 1 / float64(len(members[g]))
		for h := range res.Groups {
			if anchored[h] {
				continue
			}
			for _, k := range members[g] {
				aVa[g][h] += w * va[h][k]
			}
		}
	}
	res.Ratings = make([]float64, n)
	for i := range n {
		res.Ratings[i] = res.Scale*(raw[i]-centre[res.Group[i]]) + offset
	}
	for i, r := range anchors {
		res.Ratings[i] = r // as given, not through the scale's rounding
	}
	// Each entry of the upper triangle is read from v once, then
	// overwritten: the covariance takes v's storage when it can.
	var buf []float64
	if raw := v.RawMatrix(); raw.Stride == n {
		buf = raw.Data[:n*n]
	}
	cov := mat.NewSymDense(n, buf)
	s2 := res.Scale * res.Scale
	for i := range n {
		gi := res.Group[i]
		for j := i; j < n; j++ {
			gj := res.Group[j]
			x := v.At(i, j)
			if va[gj] != nil {
				x -= va[gj][i]
			}
			if va[gi] != nil {
				x -= va[gi][j]
			}
			x += aVa[gi][gj]
			cov.SetSym(i, j, s2*x)
		}
	}
	res.cov = cov
}

// referencePlayers marks the players whose rating is held while fitting:
// the anchors, and in each group without one its first player (at 0: the
// group is centred afterwards).
func referencePlayers(group []int, ngroups int, anchors map[int]float64) []bool {
	isRef := make([]bool, len(group))
	has := make([]bool, ngroups)
	for i := range anchors {
		isRef[i], has[group[i]] = true, true
	}
	for i, g := range group {
		if !has[g] {
			isRef[i], has[g] = true, true
		}
	}
	return isRef
}

// fit maximises the likelihood over every rating but the references, the
// advantage and (BayesElo) drawElo. A parameter that the games do not
// determine (it runs away, or the information matrix is singular) is held
// at a neutral value and the fit repeated; res records that. It returns
// the parameters, the information matrix and its inverse over p.active.
//
// The anchors are held at their displayed ratings, less offset, divided
// by scale (the model's units); the other references at 0.
func (p *problem) fit(res *FitResult, isRef []bool, anchors map[int]float64, offset, scale float64) (theta []float64, info, cov *mat.SymDense, err error) {
	free := fitFree{adv: true, draw: p.model == BayesElo}
	theta = make([]float64, p.n+2)
	for attempt := 0; ; attempt++ {
		p.startAt(theta, res, anchors, offset, scale, free.draw)
		p.setActive(isRef, free)
		var iters int
		res.LogLikelihood, iters, err = p.maximize(theta)
		res.Iterations += iters
		if err == nil {
			// A singular information matrix means some parameter is not
			// determined (for example the advantage when every game
			// between two players had the same one moving first).
			info = p.information(theta)
			if p.model == Ordo {
				// Only BayesElo's rating covariance needs the
				// information afterwards: Ordo's is inverted where it is.
				cov, info = info, nil
				err = invertInPlace(cov)
			} else {
				k := len(p.active)
				cov = mat.NewSymDense(k, p.take(k*k))
				cov.CopySym(info)
				err = invertInPlace(cov)
			}
			if err == nil {
				return theta, info, cov, nil
			}
		}
		if attempt >= 2 {
			return nil, nil, nil, err
		}
		if err := free.hold(p, res, theta, err); err != nil {
			return nil, nil, nil, err
		}
	}
}

// fitFree says which of the first mover's advantage and the draw
// parameter a fit estimates; the others are held.
type fitFree struct{ adv, draw bool }

// hold answers a failed fit (err) by holding the parameter that caused it
// (noted in res) for another attempt, or returns the error to give up with.
func (f *fitFree) hold(p *problem, res *FitResult, theta []float64, err error) error {
	switch {
	case errors.Is(err, errDiverged) && f.draw && theta[p.drawIdx()] > maxDrawElo:
		f.holdDraw(res)
	case errors.Is(err, errDiverged) && f.adv && math.Abs(theta[p.advIdx()]) > maxAdvantage:
		f.holdAdv(res)
	case errors.Is(err, errDiverged):
		return fmt.Errorf("%w: ratings run away", ErrNoConvergence)
	case errors.Is(err, errSingular) && f.adv:
		f.holdAdv(res)
	case errors.Is(err, errSingular) && f.draw:
		f.holdDraw(res)
	default:
		return err
	}
	return nil
}

// holdDraw holds the draw parameter at its default, with a note in res.
func (f *fitFree) holdDraw(res *FitResult) {
	f.draw = false
	res.DrawFixed = true
	res.Notes = append(res.Notes, fmt.Sprintf(
		"the games do not determine the draw parameter; drawElo was held at %g", DefaultDrawElo))
}

// holdAdv holds the first mover's advantage at 0, with a note in res.
func (f *fitFree) holdAdv(res *FitResult) {
	f.adv = false
	res.AdvantageFixed = true
	res.Notes = append(res.Notes,
		"the games do not determine the first mover's advantage; the fit held it at 0")
}

// startAt sets theta to where a fit starts: the anchors at their ratings,
// and the other players of their groups at the anchors' mean, so that no
// game starts out impossibly lopsided; the draw parameter at its default,
// or at a guess from the games when fitDraw.
func (p *problem) startAt(theta []float64, res *FitResult, anchors map[int]float64, offset, scale float64, fitDraw bool) {
	clear(theta)
	sums, counts := map[int]float64{}, map[int]float64{}
	for i, r := range anchors {
		theta[i] = (r - offset) / scale
		sums[res.Group[i]] += theta[i]
		counts[res.Group[i]]++
	}
	for i := range p.n {
		if _, ok := anchors[i]; !ok && counts[res.Group[i]] > 0 {
			theta[i] = sums[res.Group[i]] / counts[res.Group[i]]
		}
	}
	theta[p.drawIdx()] = DefaultDrawElo
	if fitDraw {
		theta[p.drawIdx()] = p.startDrawElo()
	}
}

// setActive makes the parameters a fit estimates those of the players not
// held as references, and those of free.
func (p *problem) setActive(isRef []bool, free fitFree) {
	p.active = p.active[:0]
	for i, r := range isRef {
		if !r {
			p.active = append(p.active, i)
		}
	}
	if free.adv {
		p.active = append(p.active, p.advIdx())
	}
	if free.draw {
		p.active = append(p.active, p.drawIdx())
	}
}

// ratingCovariance returns the n×n covariance of the ratings in model
// units, zero for the reference players. For BayesElo it holds the
// advantage and drawElo at their fitted values, as bayeselo does (the
// inverse of the ratings' block of the information); for Ordo it is the
// ratings' block of cov. The free ratings come first in p.active. For
// BayesElo it takes the storage of info and cov, which are then lost.
func (p *problem) ratingCovariance(info, cov *mat.SymDense) (*mat.Dense, error) {
	rated := 0
	for rated < len(p.active) && p.active[rated] < p.n {
		rated++
	}
	var block mat.Symmetric = cov.SliceSym(0, rated)
	if p.model == BayesElo {
		// The block is inverted where it is copied, in the storage of cov
		// (whose advantage and draw entries were read before, the rest is
		// not needed), and the full matrix takes the information's.
		p.spare = cov.RawSymmetric().Data
		inv := mat.NewSymDense(rated, p.take(rated*rated))
		inv.CopySym(info.SliceSym(0, rated))
		if err := invertInPlace(inv); err != nil {
			return nil, err
		}
		block = inv
		p.spare = info.RawSymmetric().Data
	}
	full := mat.NewDense(p.n, p.n, p.take(p.n*p.n))
	for x, i := range p.active[:rated] {
		for y, j := range p.active[:rated] {
			full.Set(i, j, block.At(x, y))
		}
	}
	return full, nil
}

// invert returns the inverse of a positive definite matrix.
func invert(m mat.Symmetric) (*mat.SymDense, error) {
	var chol mat.Cholesky
	if !chol.Factorize(m) || chol.Cond() > 1e14 {
		return nil, fmt.Errorf("%w: %w", ErrNoConvergence, errSingular)
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		// A mat.Condition error: the matrix is numerically singular.
		return nil, fmt.Errorf("%w: %w (%v)", ErrNoConvergence, errSingular, err)
	}
	return &inv, nil
}

// invertInPlace replaces m, positive definite, by its inverse, as invert
// computes it but in m's storage (which is overwritten even when m is
// found singular).
func invertInPlace(m *mat.SymDense) error {
	raw := m.RawSymmetric()
	if raw.Stride != raw.N {
		inv, err := invert(m)
		if err == nil {
			m.CopySym(inv)
		}
		return err
	}
	work, iwork := make([]float64, 3*raw.N), make([]int, raw.N)
	norm := lapack64.Lansy(mat.CondNorm, raw, work)
	if _, ok := lapack64.Potrf(raw); !ok || 1/lapack64.Pocon(raw, norm, work, iwork) > 1e14 {
		return fmt.Errorf("%w: %w", ErrNoConvergence, errSingular)
	}
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: raw.N, Stride: raw.Stride, Data: raw.Data}
	if _, ok := lapack64.Potri(u); !ok {
		return fmt.Errorf("%w: %w (a zero in the factor's diagonal)", ErrNoConvergence, errSingular)
	}
	return nil
}

// symmetricInto returns (m + mᵀ)/2, a k×k matrix, stored in buf (k·k
// values, whose contents are overwritten).
func symmetricInto(buf []float64, m *mat.Dense) *mat.SymDense {
	k, _ := m.Dims()
	s := mat.NewSymDense(k, buf[:k*k])
	for a := range k {
		for b := a; b < k; b++ {
			s.SetSym(a, b, (m.At(a, b)+m.At(b, a))/2)
		}
	}
	return s
}

// startDrawElo guesses drawElo from the share of draws.
func (p *problem) startDrawElo() float64 {
	var d, t float64
	for i := range p.size() {
		_, di, _ := p.counts(i)
		d += di
		t += p.total(i)
	}
	frac := math.Min(math.Max(d/t, 0.05), 0.9)
	return 2 * math.Atanh(frac) / bayesA
}
