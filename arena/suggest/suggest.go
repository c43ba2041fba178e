package suggest

import "strings"

// Closest returns the candidate nearest to word, or "" when none is near
// enough to be a likely typing slip: at most one edit in every three
// letters of the longer (and at most three), an edit being a letter
// inserted, deleted or changed, or two neighbouring letters swapped.
// Letter case is ignored. Of equally near candidates the first is taken.
func Closest(word string, candidates []string) string {
	best, bestDist := "", 0
	lw := strings.ToLower(word)
	for _, c := range candidates {
		if c == "" {
			continue
		}
		d := distance(lw, strings.ToLower(c))
		limit := min(3, max(1, max(len(lw), len(c))/3))
		if d <= limit && (best == "" || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// Hint returns " (did you mean X?)" for the closest candidate, or ""
// when there is none.
func Hint(word string, candidates []string) string {
	if c := Closest(word, candidates); c != "" {
		return " (did you mean " + c + "?)"
	}
	return ""
}

// distance is the optimal string alignment distance of a and b: the
// fewest insertions, deletions, changes and swaps of neighbouring letters
// that turn one into the other.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance of ra[:i] and rb[:j]; three rows suffice.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
