package pairing

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching returns the best total weight of a matching of the graph
// (with the most edges first when maxCard), by trying every matching.
func bruteMatching(n int, edges []Edge, maxCard bool) (size int, weight int64) {
	w := make(map[[2]int]int64)
	for _, e := range edges {
		w[[2]int{min(e.I, e.J), max(e.I, e.J)}] = e.W
	}
	used := make([]bool, n)
	bestSize, bestWeight := -1, int64(0)
	var rec func(v, size int, weight int64)
	rec = func(v, size int, weight int64) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			better := weight > bestWeight
			if maxCard {
				better = size > bestSize || size == bestSize && weight > bestWeight
			}
			if bestSize < 0 || better {
				bestSize, bestWeight = size, weight
			}
			return
		}
		used[v] = true
		rec(v+1, size, weight) // v unmatched
		for u := v + 1; u < n; u++ {
			if x, ok := w[[2]int{v, u}]; ok && !used[u] {
				used[u] = true
				rec(v+1, size+1, weight+x)
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, 0, 0)
	return bestSize, bestWeight
}

// TestMaxWeightMatchingBrute compares the matching with every matching of
// small random graphs, sparse and complete, with and without maximum
// cardinality, weights of both signs.
func TestMaxWeightMatchingBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 3000
	if testing.Short() {
		trials = 600
	}
	for trial := range trials {
		n := 1 + rng.IntN(10)
		density := rng.Float64()
		var edges []Edge
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < density || trial%4 == 0 {
					wt := int64(rng.IntN(41) - 10)
					if trial%3 == 0 {
						wt = int64(rng.IntN(5)) // many ties
					}
					if rng.IntN(2) == 0 {
						edges = append(edges, Edge{i, j, wt})
					} else {
						edges = append(edges, Edge{j, i, wt})
					}
				}
			}
		}
		maxCard := trial%2 == 0
		mate, err := MaxWeightMatching(n, edges, maxCard)
		if err != nil {
			t.Fatal(err)
		}
		size, weight := checkMatching(t, n, edges, mate)
		wantSize, wantWeight := bruteMatching(n, edges, maxCard)
		if weight != wantWeight || (maxCard && size != wantSize) {
			t.Fatalf("trial %d (n=%d maxCard=%v, edges %v): got %d edges weighing %d, want %d weighing %d",
				trial, n, maxCard, edges, size, weight, wantSize, wantWeight)
		}
	}
}

// checkMatching checks that mate is a matching along the edges and
// returns its size and weight.
func checkMatching(t *testing.T, n int, edges []Edge, mate []int) (int, int64) {
	t.Helper()
	w := make(map[[2]int]int64)
	for _, e := range edges {
		w[[2]int{min(e.I, e.J), max(e.I, e.J)}] = e.W
	}
	size, weight := 0, int64(0)
	for v, u := range mate {
		if u == -1 {
			continue
		}
		if u < 0 || u >= n || mate[u] != v {
			t.Fatalf("mate %v is not symmetric at %d", mate, v)
		}
		x, ok := w[[2]int{min(u, v), max(u, v)}]
		if !ok {
			t.Fatalf("mate %v matches %d-%d, which is no edge", mate, u, v)
		}
		if v < u {
			size++
			weight += x
		}
	}
	return size, weight
}

// TestMaxWeightMatchingKnown checks graphs with known answers, among them
// the blossom cases of the reference implementation's tests.
func TestMaxWeightMatchingKnown(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		edges   []Edge
		maxCard bool
		want    []int
	}{
		{"empty", 0, nil, false, []int{}},
		{"single", 2, []Edge{{0, 1, 1}}, false, []int{1, 0}},
		{"negative", 2, []Edge{{0, 1, -1}}, false, []int{-1, -1}},
		{"negative max card", 2, []Edge{{0, 1, -1}}, true, []int{1, 0}},
		{"path", 4, []Edge{{1, 2, 10}, {2, 3, 11}}, false, []int{-1, -1, 3, 2}},
		{"path 2", 5, []Edge{{1, 2, 5}, {2, 3, 11}, {3, 4, 5}}, false, []int{-1, -1, 3, 2, -1}},
		{"path max card", 5, []Edge{{1, 2, 5}, {2, 3, 11}, {3, 4, 5}}, true, []int{-1, 2, 1, 4, 3}},
		// S-blossom and use it for augmentation.
		{"s-blossom", 5, []Edge{{1, 2, 8}, {1, 3, 9}, {2, 3, 10}, {3, 4, 7}}, false, []int{-1, 2, 1, 4, 3}},
		{"s-blossom 2", 7, []Edge{{1, 2, 8}, {1, 3, 9}, {2, 3, 10}, {3, 4, 7}, {1, 6, 5}, {4, 5, 6}}, false, []int{-1, 6, 3, 2, 5, 4, 1}},
		// T-blossom: relabel as S after expansion.
		{"t-blossom", 7, []Edge{{1, 2, 9}, {1, 3, 8}, {2, 3, 10}, {1, 4, 5}, {4, 5, 4}, {1, 6, 3}}, false, []int{-1, 6, 3, 2, 5, 4, 1}},
		{"nested s-blossom", 7, []Edge{{1, 2, 9}, {1, 3, 9}, {2, 3, 10}, {2, 4, 8}, {3, 5, 8}, {4, 5, 10}, {5, 6, 6}}, false, []int{-1, 3, 4, 1, 2, 6, 5}},
		{"nested s-blossom relabel", 9, []Edge{{1, 2, 10}, {1, 7, 10}, {2, 3, 12}, {3, 4, 20}, {3, 5, 20}, {4, 5, 25}, {5, 6, 10}, {6, 7, 10}, {7, 8, 8}}, false, []int{-1, 2, 1, 4, 3, 6, 5, 8, 7}},
		{"nested s-blossom expand", 9, []Edge{{1, 2, 8}, {1, 3, 8}, {2, 3, 10}, {2, 4, 12}, {3, 5, 12}, {4, 5, 14}, {4, 6, 12}, {5, 7, 12}, {6, 7, 14}, {7, 8, 12}}, false, []int{-1, 2, 1, 5, 6, 3, 4, 8, 7}},
		{"s-blossom relabel t expand", 9, []Edge{{1, 2, 23}, {1, 5, 22}, {1, 6, 15}, {2, 3, 25}, {3, 4, 22}, {4, 5, 25}, {4, 8, 14}, {5, 7, 13}}, false, []int{-1, 6, 3, 2, 8, 7, 1, 5, 4}},
		{"nested s-blossom relabel t expand", 9, []Edge{{1, 2, 19}, {1, 3, 20}, {1, 8, 8}, {2, 3, 25}, {2, 4, 18}, {3, 5, 18}, {4, 5, 13}, {4, 7, 7}, {5, 6, 7}}, false, []int{-1, 8, 3, 2, 7, 6, 5, 4, 1}},
		{"nasty blossom", 11, []Edge{{1, 2, 45}, {1, 5, 45}, {2, 3, 50}, {3, 4, 45}, {4, 5, 50}, {1, 6, 30}, {3, 9, 35}, {4, 8, 35}, {5, 7, 26}, {9, 10, 5}}, false, []int{-1, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9}},
		{"nasty blossom 2", 11, []Edge{{1, 2, 45}, {1, 5, 45}, {2, 3, 50}, {3, 4, 45}, {4, 5, 50}, {1, 6, 30}, {3, 9, 35}, {4, 8, 26}, {5, 7, 40}, {9, 10, 5}}, false, []int{-1, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9}},
		{"nasty blossom least slack", 11, []Edge{{1, 2, 45}, {1, 5, 45}, {2, 3, 50}, {3, 4, 45}, {4, 5, 50}, {1, 6, 30}, {3, 9, 35}, {4, 8, 28}, {5, 7, 26}, {9, 10, 5}}, false, []int{-1, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9}},
		{"nested nasty blossom", 13, []Edge{{1, 2, 45}, {1, 7, 45}, {2, 3, 50}, {3, 4, 45}, {4, 5, 95}, {4, 6, 94}, {5, 6, 94}, {6, 7, 50}, {1, 8, 30}, {3, 11, 35}, {5, 9, 36}, {7, 10, 26}, {11, 12, 5}}, false, []int{-1, 8, 3, 2, 6, 9, 4, 10, 1, 5, 7, 12, 11}},
		{"nasty expand recursively", 11, []Edge{{1, 2, 40}, {1, 3, 40}, {2, 3, 60}, {2, 4, 55}, {3, 5, 55}, {4, 5, 50}, {1, 8, 15}, {5, 7, 30}, {7, 6, 10}, {8, 10, 10}, {4, 9, 30}}, false, []int{-1, 2, 1, 5, 9, 3, 7, 6, 10, 4, 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MaxWeightMatching(tt.n, tt.edges, tt.maxCard)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestMaxWeightMatchingRefuses(t *testing.T) {
	for _, tt := range []struct {
		name  string
		n     int
		edges []Edge
	}{
		{"out of range", 2, []Edge{{0, 2, 1}}},
		{"negative vertex", 2, []Edge{{-1, 1, 1}}},
		{"loop", 2, []Edge{{1, 1, 1}}},
		{"twice", 3, []Edge{{0, 1, 1}, {1, 0, 2}}},
		{"too heavy", 2, []Edge{{0, 1, 1 << 61}}},
	} {
		if _, err := MaxWeightMatching(tt.n, tt.edges, false); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}
