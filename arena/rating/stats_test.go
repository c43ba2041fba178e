package rating

import (
	"math"
	"testing"
)

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}

func TestEloAndExpectedScore(t *testing.T) {
	tests := []struct {
		score, elo float64
	}{
		{0.5, 0},
		{0.75, 400 * math.Log10(3)},
		{0.25, -400 * math.Log10(3)},
		{10.0 / 11, 400},
	}
	for _, tt := range tests {
		if got := Elo(tt.score); !near(got, tt.elo, 1e-9) {
			t.Errorf("Elo(%v) = %v, want %v", tt.score, got, tt.elo)
		}
		if got := ExpectedScore(tt.elo); !near(got, tt.score, 1e-12) {
			t.Errorf("ExpectedScore(%v) = %v, want %v", tt.elo, got, tt.score)
		}
	}
	if !math.IsInf(Elo(1), 1) || !math.IsInf(Elo(0), -1) || !math.IsNaN(Elo(1.5)) || !math.IsNaN(Elo(math.NaN())) {
		t.Errorf("Elo at the edges: %v %v %v", Elo(1), Elo(0), Elo(1.5))
	}
}

// Expected values below were computed by hand from the formulas in the
// package documentation (an independent script, not this code).
func TestWDLStatistics(t *testing.T) {
	tests := []struct {
		c                WDL
		elo, margin, los float64
		se               float64
		signLOS          float64
	}{
		{WDL{10, 20, 5}, 49.975494643319976, 76.34974042793903, 0.907061633817062, 0.05399492471560389, 0.5 + 0.5*math.Erf(5/math.Sqrt(30))},
		{WDL{15, 8, 7}, 94.94436631784157, 113.6575567516889, 0.9636609767275397, 0.07428673177976346, 0.9559592441689049},
	}
	for _, tt := range tests {
		elo, margin := tt.c.EloMargin(0.95)
		if !near(elo, tt.elo, 1e-9) || !near(margin, tt.margin, 1e-6) {
			t.Errorf("%+v.EloMargin = %v ± %v, want %v ± %v", tt.c, elo, margin, tt.elo, tt.margin)
		}
		if got := tt.c.LOS(); !near(got, tt.los, 1e-9) {
			t.Errorf("%+v.LOS = %v, want %v", tt.c, got, tt.los)
		}
		if got := tt.c.StdErr(); !near(got, tt.se, 1e-12) {
			t.Errorf("%+v.StdErr = %v, want %v", tt.c, got, tt.se)
		}
		if got := tt.c.SignLOS(); !near(got, tt.signLOS, 1e-12) {
			t.Errorf("%+v.SignLOS = %v, want %v", tt.c, got, tt.signLOS)
		}
	}
}

func TestWDLEdges(t *testing.T) {
	var none WDL
	if !math.IsNaN(none.Score()) || none.LOS() != 0.5 || none.SignLOS() != 0.5 {
		t.Errorf("empty counts: score %v LOS %v", none.Score(), none.LOS())
	}
	if z, p := none.ZTest(); z != 0 || p != 1 {
		t.Errorf("empty ZTest = %v, %v; want 0, 1", z, p)
	}
	perfect := WDL{Wins: 4}
	elo, margin := perfect.EloMargin(0.95)
	if !math.IsInf(elo, 1) || !math.IsNaN(margin) {
		t.Errorf("perfect score EloMargin = %v ± %v, want +Inf ± NaN", elo, margin)
	}
	if got := perfect.LOS(); got != 1 {
		t.Errorf("perfect score LOS = %v, want 1", got)
	}
	if got := (WDL{Losses: 3}).LOS(); got != 0 {
		t.Errorf("zero score LOS = %v, want 0", got)
	}
	if got := (WDL{Draws: 3}).LOS(); got != 0.5 {
		t.Errorf("all draws LOS = %v, want 0.5", got)
	}
	if z, p := (WDL{Wins: 2}).ZTest(); !math.IsInf(z, 1) || p != 0 {
		t.Errorf("all wins ZTest = %v, %v; want +Inf, 0", z, p)
	}
}

func TestZTestWorkedExample(t *testing.T) {
	// statistics-formulas.md: 15/8/7 for the first mover gives s = 0.633,
	// z = 1.79, two-sided p = 0.073.
	z, p := WDL{15, 8, 7}.ZTest()
	if !near(z, 1.79, 0.005) || !near(p, 0.073, 0.0005) {
		t.Errorf("ZTest = %v, %v; want 1.79, 0.073", z, p)
	}
}

func TestSignTest(t *testing.T) {
	tests := []struct {
		w, l int
		want float64
	}{
		{15, 7, 0.13380050659179688}, // worked example: 0.134
		{7, 15, 0.13380050659179688},
		{3, 0, 0.25},
		{5, 5, 1},
		{0, 10, 0.001953125},
		{0, 0, 1},
		{-1, 3, 1},
	}
	for _, tt := range tests {
		if got := SignTest(tt.w, tt.l); !near(got, tt.want, 1e-12) {
			t.Errorf("SignTest(%d, %d) = %v, want %v", tt.w, tt.l, got, tt.want)
		}
	}
}

func TestWilson(t *testing.T) {
	lo, hi := Wilson(0.3, 50, 0.95)
	if !near(lo, 0.19103553500880954, 1e-9) || !near(hi, 0.437503504644534, 1e-9) {
		t.Errorf("Wilson(0.3, 50) = [%v, %v], want [0.19104, 0.43750]", lo, hi)
	}
	lo, hi = Wilson(1, 10, 0.95)
	if hi != 1 || !(lo > 0.6 && lo < 0.8) {
		t.Errorf("Wilson(1, 10) = [%v, %v], want [~0.72, 1]", lo, hi)
	}
	if lo, hi := Wilson(0.5, 0, 0.95); lo != 0 || hi != 1 {
		t.Errorf("Wilson without trials = [%v, %v], want [0, 1]", lo, hi)
	}
	// Draws shrink the effective sample: an all-decisive 60 % score has a
	// wider interval than the same score made of draws and wins.
	dlo, dhi := WDL{Wins: 2, Draws: 8}.ScoreInterval(0.95)
	wlo, whi := WDL{Wins: 6, Losses: 4}.ScoreInterval(0.95)
	if !(dhi-dlo < whi-wlo) {
		t.Errorf("interval with draws [%v, %v] not narrower than without [%v, %v]", dlo, dhi, wlo, whi)
	}
}

func TestPentanomial(t *testing.T) {
	p := Pentanomial{2, 10, 30, 15, 3}
	if got := p.Pairs(); got != 60 {
		t.Errorf("Pairs = %d, want 60", got)
	}
	if got := p.Score(); !near(got, 0.5291666666666667, 1e-12) {
		t.Errorf("Score = %v, want 0.529167", got)
	}
	elo, margin := p.EloMargin(0.95)
	if !near(elo, 20.290110989014863, 1e-9) || !near(margin, 38.001038983094375, 1e-6) {
		t.Errorf("EloMargin = %v ± %v, want 20.29 ± 38.00", elo, margin)
	}
	if got := p.LOS(); !near(got, 0.8538519677234743, 1e-9) {
		t.Errorf("LOS = %v, want 0.85385", got)
	}
	var none Pentanomial
	if none.LOS() != 0.5 || !math.IsNaN(none.Score()) {
		t.Errorf("empty pentanomial: LOS %v score %v", none.LOS(), none.Score())
	}
}
