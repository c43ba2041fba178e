package dirreport

import (
	"math"
	"testing"
)

// TestLatencyHist checks the quantiles of the latency histogram against
// those of the latencies themselves, to within a bin's width.
func TestLatencyHist(t *testing.T) {
	var h latencyHist
	var all []float64
	for i := range 1000 {
		ms := 0.05 * math.Pow(1.013, float64(i)) // 0.05 ms to about 20 s
		all = append(all, ms)
		h.add(ms, ms <= 100)
	}
	h.add(-3, true) // a bot that reports more time than the arena measured
	all = append([]float64{0}, all...)
	for _, q := range []float64{0.5, 0.9, 0.99} {
		want := all[int(math.Ceil(q*float64(len(all))))-1]
		got := h.quantile(q)
		if got < want || got > want*math.Pow(10, 1.0/binsPerDecade)*1.0001 {
			t.Errorf("quantile %v = %v, want %v to within a bin", q, got, want)
		}
	}
	s := h.stats(100)
	if s.Moves != 1001 || s.MaxMS != all[len(all)-1] || s.MarginMS != 100 {
		t.Errorf("stats = %+v", s)
	}
	within := 0
	for _, x := range all {
		if x <= 100 {
			within++
		}
	}
	if s.WithinMargin != within {
		t.Errorf("within margin %d, want %d", s.WithinMargin, within)
	}
	if (&latencyHist{}).stats(100) != nil {
		t.Errorf("stats of no move is not nil")
	}
}
