package dirreport

import (
	"math"

	"github.com/arena-games/arena/reports"
)

// A move's latency is the time the arena measured for it less the time
// the bot reported in its last info line (fastchess's -show-latency):
// what the pipes, the scheduler and the arena added to the bot's own
// thinking. Moves without a reported time have none. The latencies of a
// bot are counted in a histogram of logarithmic bins, so that a report on
// millions of moves takes no more memory than on a few.

// Latency bins: binsPerDecade per power of ten from minLatencyMS up; the
// first bin holds everything up to minLatencyMS, the last everything
// beyond the top.
const (
	minLatencyMS  = 0.01
	binsPerDecade = 20
	latencyBins   = 8*binsPerDecade + 1 // up to 10^6 ms
)

// latencyHist counts a bot's latencies.
type latencyHist struct {
	n, within int
	max       float64
	bins      [latencyBins]int
}

// add counts one latency, in milliseconds; within says whether it stayed
// within the bot's margin.
func (h *latencyHist) add(ms float64, within bool) {
	h.n++
	if within {
		h.within++
	}
	h.max = max(h.max, ms)
	h.bins[latencyBin(ms)]++
}

// latencyBin returns the bin of a latency.
func latencyBin(ms float64) int {
	if ms <= minLatencyMS {
		return 0
	}
	b := 1 + int(math.Floor(math.Log10(ms/minLatencyMS)*binsPerDecade))
	return min(b, latencyBins-1)
}

// binTop returns the upper edge of bin b, in milliseconds.
func binTop(b int) float64 {
	return minLatencyMS * math.Pow(10, float64(b)/binsPerDecade)
}

// quantile returns the upper edge of the bin holding the q-quantile (at
// most the largest latency seen), accurate to the bin's width (12 %).
func (h *latencyHist) quantile(q float64) float64 {
	rank := int(math.Ceil(q * float64(h.n)))
	seen := 0
	for b, c := range h.bins {
		if seen += c; seen >= rank && c > 0 {
			return min(binTop(b), h.max)
		}
	}
	return h.max
}

// stats returns the summary of the histogram for a report, nil when no
// move had a latency.
func (h *latencyHist) stats(marginMS float64) *reports.Latency {
	if h.n == 0 {
		return nil
	}
	return &reports.Latency{Moves: h.n, P50MS: h.quantile(0.5), P90MS: h.quantile(0.9), P99MS: h.quantile(0.99),
		MaxMS: h.max, MarginMS: marginMS, WithinMargin: h.within}
}
