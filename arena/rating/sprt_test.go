package rating

import (
	"errors"
	"math"
	"testing"
)

// The expected LLRs are fastchess's: its app/src/matchmaking/sprt/sprt.cpp
// (commit 74deac23), compiled with a small driver that reads counts and
// prints SPRT::getLLR for the given model, alpha, beta, elo0 and elo1 with
// ten decimals. Trinomial counts are wins, draws, losses; pentanomial
// counts LL, LD, WL+DD, WD, WW.
func TestSPRTLLRMatchesFastchess(t *testing.T) {
	type tri = WDL
	type penta = Pentanomial
	p05 := func(m SPRTModel) SPRTParams { return SPRTParams{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: m} }
	neg := func(m SPRTModel) SPRTParams { return SPRTParams{Elo0: -5, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: m} }
	asym := func(m SPRTModel) SPRTParams { return SPRTParams{Elo0: 0, Elo1: 10, Alpha: 0.1, Beta: 0.01, Model: m} }
	tests := []struct {
		p     SPRTParams
		games WDL
		pairs Pentanomial
		llr   float64
	}{
		{p05(""), tri{60, 100, 40}, penta{}, 0.5349438953},
		{p05(LogisticElo), tri{100, 80, 60}, penta{}, 0.8269132730},
		{p05(LogisticElo), tri{1000, 1500, 900}, penta{}, 1.9456725684},
		{p05(LogisticElo), tri{10, 0, 0}, penta{}, 0.1428758629},
		{p05(LogisticElo), tri{0, 5, 0}, penta{}, -0.0678980411},
		{p05(LogisticElo), tri{}, penta{5, 40, 100, 45, 10}, 0.4857993551},
		{p05(LogisticElo), tri{}, penta{100, 400, 900, 450, 120}, 2.0217062561},
		{p05(LogisticElo), tri{}, penta{0, 0, 1, 0, 0}, -0.0112819214},
		{p05(LogisticElo), tri{}, penta{3, 80, 300, 90, 2}, 0.0835439750},
		{neg(LogisticElo), tri{80, 300, 120}, penta{}, -1.3122372135},
		{neg(LogisticElo), tri{}, penta{20, 100, 250, 90, 15}, -0.5463869270},
		{asym(LogisticElo), tri{900, 1000, 700}, penta{}, 7.6116541792},
		{asym(LogisticElo), tri{}, penta{10, 50, 120, 80, 30}, 3.6013130301},
		{p05(NormalizedElo), tri{60, 100, 40}, penta{}, 0.3864306162},
		{p05(NormalizedElo), tri{100, 80, 60}, penta{}, 0.6802805059},
		{p05(NormalizedElo), tri{1000, 1500, 900}, penta{}, 1.5731327632},
		{p05(NormalizedElo), tri{10, 0, 0}, penta{}, 0.1428638038},
		{p05(NormalizedElo), tri{0, 5, 0}, penta{}, -0.0005832388},
		{p05(NormalizedElo), tri{}, penta{5, 40, 100, 45, 10}, 0.3187818627},
		{p05(NormalizedElo), tri{}, penta{100, 400, 900, 450, 120}, 1.5465970785},
		{p05(NormalizedElo), tri{}, penta{0, 0, 1, 0, 0}, -0.0002152020},
		{p05(NormalizedElo), tri{}, penta{3, 80, 300, 90, 2}, 0.1589050515},
		{neg(NormalizedElo), tri{80, 300, 120}, penta{}, -0.8587050522},
		{neg(NormalizedElo), tri{}, penta{20, 100, 250, 90, 15}, -0.3903143860},
		{asym(NormalizedElo), tri{900, 1000, 700}, penta{}, 6.2623619481},
		{asym(NormalizedElo), tri{}, penta{10, 50, 120, 80, 30}, 2.6210290230},
	}
	for _, tt := range tests {
		got, err := SPRT(tt.p, tt.games, tt.pairs)
		if err != nil {
			t.Fatal(err)
		}
		if !near(got.LLR, tt.llr, 1e-6) {
			t.Errorf("%v %+v %v: LLR = %.10f, fastchess %.10f", tt.p.Model, tt.games, tt.pairs, got.LLR, tt.llr)
		}
		wantModel := tt.p.Model
		if wantModel == "" {
			wantModel = LogisticElo
		}
		penta := tt.pairs.Pairs() > 0
		if got.Model != wantModel || got.Pentanomial != penta || (penta && got.N != tt.pairs.Pairs()) || (!penta && got.N != tt.games.Games()) {
			t.Errorf("%v %+v %v: model %v pentanomial %v n %d", tt.p.Model, tt.games, tt.pairs, got.Model, got.Pentanomial, got.N)
		}
	}
	// Pairs, when there are any, win over games.
	got, err := SPRT(p05(""), WDL{Wins: 1000}, Pentanomial{5, 40, 100, 45, 10})
	if err != nil || !got.Pentanomial || got.N != 200 || !near(got.LLR, 0.4857993551, 1e-6) {
		t.Errorf("pairs and games: %+v, %v", got, err)
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
		// alpha + beta ≥ 1: the bounds meet or cross.
		{Elo0: 0, Elo1: 5, Alpha: 0.5, Beta: 0.5},
		{Elo0: 0, Elo1: 5, Alpha: 0.9, Beta: 0.2},
		{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "bayesian"},
	}
	for _, p := range bad {
		if _, err := SPRT(p, WDL{Wins: 1}, Pentanomial{}); !errors.Is(err, ErrBadOptions) {
			t.Errorf("SPRT(%+v) error = %v, want ErrBadOptions", p, err)
		}
		if _, err := SPRT(p, WDL{}, Pentanomial{}); !errors.Is(err, ErrBadOptions) {
			t.Errorf("SPRT(%+v) without games error = %v, want ErrBadOptions (no decision before a game)", p, err)
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
