package pairing

// Bracket returns the first-round slots of a knockout bracket for n
// players seeded 0 (the top seed) to n-1: slot 2k meets slot 2k+1, and
// the winners of slots 4k..4k+3 meet in the second round, and so on. The
// bracket has the next power of two of slots; a slot holding -1 is a bye
// for its opponent, so the top seeds get the byes. Seeds are placed as
// usual: with every higher seed winning, the top two meet in the final,
// the top four in the semi-finals, and seed k meets seed 2^r-1-k in the
// round of 2^r.
func Bracket(n int) []int {
	if n < 1 {
		return nil
	}
	slots := []int{0}
	for len(slots) < n {
		next := make([]int, 0, 2*len(slots))
		for _, s := range slots {
			next = append(next, s, 2*len(slots)-1-s)
		}
		slots = next
	}
	if len(slots) == 1 {
		return []int{0, -1}
	}
	for i, s := range slots {
		if s >= n {
			slots[i] = -1
		}
	}
	return slots
}
