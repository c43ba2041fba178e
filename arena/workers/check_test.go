package workers

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
)

// pairOf returns the two records of a colour-reversed pair between a and
// b in which a scores points (0 to 2, in halves).
func pairOf(key, a, b string, points float64) [2]*journal.Record {
	game := func(white, black string, aScore float64) *journal.Record {
		r := &journal.Record{PairKey: key, White: white, Black: black}
		switch aScore {
		case 1:
			r.Result, r.Winner = "1-0", a
			if white != a {
				r.Result = "0-1"
			}
		case 0:
			r.Result, r.Winner = "0-1", b
			if white != a {
				r.Result = "1-0"
			}
		default:
			r.Result = "1/2-1/2"
		}
		return r
	}
	first := min(points, 1)
	if points == 1 {
		first = 0.5
	}
	return [2]*journal.Record{game(a, b, first), game(b, a, points-first)}
}

// TestConsistencyFlagsOddWorker: three workers whose pairs come from one
// distribution are not flagged; a fourth whose pairs come from another
// is, and only once.
func TestConsistencyFlagsOddWorker(t *testing.T) {
	c := newConsistency([]string{"new", "old"})
	rng := rand.New(rand.NewPCG(1, 2))
	// Pentanomial probabilities of 0, 1/2, 1, 3/2 and 2 points.
	normal := []float64{0.05, 0.2, 0.5, 0.2, 0.05}
	odd := []float64{0.3, 0.3, 0.3, 0.05, 0.05} // a worker whose "new" loses far more
	draw := func(p []float64) float64 {
		u := rng.Float64()
		for i, x := range p {
			if u < x {
				return float64(i) / 2
			}
			u -= x
		}
		return 2
	}
	var flags []string
	n := 0
	for round := range 150 {
		for _, w := range []string{"w1", "w2", "w3", "bad"} {
			dist := normal
			if w == "bad" {
				dist = odd
			}
			n++
			for _, r := range pairOf(fmt.Sprintf("p%d-%s-%d", round, w, n), "new", "old", draw(dist)) {
				flags = append(flags, c.add(w, r)...)
			}
		}
	}
	if len(flags) != 1 || !strings.HasPrefix(flags[0], "bad's results stand out") {
		t.Errorf("flags %q, want bad flagged once", flags)
	}
	rows := strings.Join(c.rows(), "\n")
	for _, w := range []string{"w1", "w2", "w3"} {
		if !strings.Contains(rows, w+" played 300 games, 150 pairs; consistent with the other workers'") {
			t.Errorf("%s is not reported consistent:\n%s", w, rows)
		}
	}
	if !strings.Contains(rows, "bad played 300 games, 150 pairs; its results stand out") {
		t.Errorf("bad is not reported as standing out:\n%s", rows)
	}
}

// TestConsistencyNotEnough: a worker with few pairs, or one worker alone,
// is not tested; a pair split between two workers counts for neither.
func TestConsistencyNotEnough(t *testing.T) {
	c := newConsistency([]string{"a", "b"})
	for i := range 30 {
		p := pairOf(fmt.Sprint(i), "a", "b", 2)
		c.add("solo", p[0])
		c.add("solo", p[1])
	}
	p := pairOf("split", "a", "b", 0)
	c.add("solo", p[0])
	c.add("other", p[1])
	rows := strings.Join(c.rows(), "\n")
	if !strings.Contains(rows, "solo played 61 games, 30 pairs; not tested") || !strings.Contains(rows, "other played 1 games, 0 pairs; not tested") {
		t.Errorf("rows:\n%s", rows)
	}
}

// TestChiSquare2xK checks the statistic against a table worked by hand.
func TestChiSquare2xK(t *testing.T) {
	// mine 10 0 10 / rest 0 10 10: expected 5 5 10 each row.
	chi2, df, nm, nr := chiSquare2xK([5]int{10, 0, 10}, [5]int{10, 10, 20})
	if chi2 != 20 || df != 2 || nm != 20 || nr != 20 {
		t.Errorf("chi2 %v df %d rows %d %d; want 20, 2, 20, 20", chi2, df, nm, nr)
	}
}
