package rating

import (
	"errors"
	"math"
	"testing"
)

// The expected LLRs were computed by an independent script that solves
// for θ by Newton's method (fishtest's LLR_logistic).
func TestSPRTLLR(t *testing.T) {
	p := SPRTParams{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name  string
		p     SPRTParams
		games WDL
		pairs Pentanomial
		llr   float64
		penta bool
		n     int
	}{
		{"trinomial", p, WDL{Wins: 60, Draws: 100, Losses: 40}, Pentanomial{}, 0.5349438628570222, false, 200},
		{"pentanomial", p, WDL{}, Pentanomial{5, 40, 100, 45, 10}, 0.48579921691534883, true, 200},
		{"pairs win over games", p, WDL{Wins: 1000}, Pentanomial{5, 40, 100, 45, 10}, 0.48579921691534883, true, 200},
		{"empty classes", SPRTParams{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, WDL{Wins: 10}, Pentanomial{}, 0.28368076626905975, false, 10},
		{"negative", SPRTParams{Elo0: -5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, WDL{Wins: 80, Draws: 300, Losses: 120}, Pentanomial{}, -1.3122371046997818, false, 500},
		{"pentanomial small", SPRTParams{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}, WDL{}, Pentanomial{3, 80, 300, 90, 2}, 0.15140535266127678, true, 475},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SPRT(tt.p, tt.games, tt.pairs)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got.LLR, tt.llr, 1e-9) {
				t.Errorf("LLR = %.12f, want %.12f", got.LLR, tt.llr)
			}
			if got.Pentanomial != tt.penta || got.N != tt.n {
				t.Errorf("pentanomial %v n %d, want %v %d", got.Pentanomial, got.N, tt.penta, tt.n)
			}
			if got.Decision != Continue {
				t.Errorf("decision %v, want continue", got.Decision)
			}
		})
	}
}

func TestSPRTBoundsAndDecisions(t *testing.T) {
	p := SPRTParams{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	lo, hi := p.Bounds()
	if !near(lo, -math.Log(19), 1e-12) || !near(hi, math.Log(19), 1e-12) {
		t.Errorf("Bounds = %v, %v; want ∓2.944", lo, hi)
	}
	q := SPRTParams{Elo0: 0, Elo1: 10, Alpha: 0.1, Beta: 0.01}
	lo, hi = q.Bounds()
	if !near(lo, math.Log(0.01/0.9), 1e-12) || !near(hi, math.Log(0.99/0.1), 1e-12) {
		t.Errorf("asymmetric Bounds = %v, %v", lo, hi)
	}
	tests := []struct {
		games WDL
		want  Decision
	}{
		{WDL{Wins: 900, Draws: 1000, Losses: 700}, AcceptH1},
		{WDL{Wins: 700, Draws: 1000, Losses: 900}, AcceptH0},
		{WDL{Wins: 10, Draws: 10, Losses: 9}, Continue},
		{WDL{}, Continue},
	}
	for _, tt := range tests {
		got, err := SPRT(p, tt.games, Pentanomial{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Decision != tt.want {
			t.Errorf("SPRT(%+v) = %v (LLR %.3f), want %v", tt.games, got.Decision, got.LLR, tt.want)
		}
	}
}

// The LLR must agree with the Brownian approximation for a large sample
// close to the hypotheses.
func TestSPRTBrownian(t *testing.T) {
	p := SPRTParams{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	c := WDL{Wins: 6100, Draws: 10000, Losses: 5900}
	got, err := SPRT(p, c, Pentanomial{})
	if err != nil {
		t.Fatal(err)
	}
	s0, s1 := ExpectedScore(0), ExpectedScore(5)
	s := c.Score()
	n := float64(c.Games())
	approx := n * (s1 - s0) * (2*s - s0 - s1) / (2 * c.variance())
	if !near(got.LLR, approx, 0.02*math.Abs(approx)+0.01) {
		t.Errorf("LLR %v, Brownian approximation %v", got.LLR, approx)
	}
}

func TestSPRTErrors(t *testing.T) {
	bad := []SPRTParams{
		{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 0, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 1},
		{Elo0: math.NaN(), Elo1: 5, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 1e9, Alpha: 0.05, Beta: 0.05},
	}
	for _, p := range bad {
		if _, err := SPRT(p, WDL{Wins: 1}, Pentanomial{}); !errors.Is(err, ErrBadOptions) {
			t.Errorf("SPRT(%+v) error = %v, want ErrBadOptions", p, err)
		}
	}
	p := SPRTParams{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if _, err := SPRT(p, WDL{Wins: -1}, Pentanomial{}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("negative counts error = %v, want ErrBadOptions", err)
	}
}

func TestDecisionText(t *testing.T) {
	for d, want := range map[Decision]string{Continue: "continue", AcceptH0: "H0", AcceptH1: "H1"} {
		b, err := d.MarshalText()
		if err != nil || string(b) != want {
			t.Errorf("%d.MarshalText = %q, %v; want %q", int(d), b, err, want)
		}
	}
}
