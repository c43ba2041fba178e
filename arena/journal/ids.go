package journal

import (
	"iter"

	"math/bits"
	"slices"

	"github.com/arena-games/arena/arena/game"
)

// IDs is a set of game IDs kept as a bitmap: a bit per ID, in pages of
// 4096 IDs allocated as IDs arrive, so that the IDs of a journal of ten
// million games take about 1.3 MB. The zero IDs is empty and ready to use.
type IDs struct {
	pages map[int]*idPage // by ID / pageIDs
	n     int
}

// pageIDs is the number of IDs an idPage holds.
const pageIDs = 64 * 64

type idPage [pageIDs / 64]uint64

// Add adds id to the set and reports whether it was not there yet. IDs
// below 1 are never added.
func (s *IDs) Add(id int) bool {
	if id < 1 {
		return false
	}
	if s.pages == nil {
		s.pages = map[int]*idPage{}
	}
	p := s.pages[id/pageIDs]
	if p == nil {
		p = new(idPage)
		s.pages[id/pageIDs] = p
	}
	w, bit := &p[id%pageIDs/64], uint64(1)<<(id%64)
	if *w&bit != 0 {
		return false
	}
	*w |= bit
	s.n++
	return true
}

// Has reports whether id is in the set.
func (s *IDs) Has(id int) bool {
	if id < 1 {
		return false
	}
	p := s.pages[id/pageIDs]
	return p != nil && p[id%pageIDs/64]&(uint64(1)<<(id%64)) != 0
}

// Len returns the number of IDs in the set.
func (s *IDs) Len() int { return s.n }

// All iterates over the IDs in increasing order.
func (s *IDs) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, k := range sortedKeys(s.pages) {
			for i, w := range s.pages[k] {
				for w != 0 {
					b := bits.TrailingZeros64(w)
					w &^= 1 << b
					if !yield(k*pageIDs + i*64 + b) {
						return
					}
				}
			}
		}
	}
}

// Results are the results of games by ID, kept as two bits per game in
// pages of 4096 IDs allocated as IDs arrive. The zero Results is empty and
// ready to use.
type Results struct {
	pages map[int]*resultPage // by ID / pageIDs
	n     int
}

// resultPage holds the results of 4096 IDs: 0 for none, else the
// game.Result.
type resultPage [pageIDs * 2 / 64]uint64

// Set records the result of game id, a final result; IDs below 1 and
// other results are not recorded.
func (s *Results) Set(id int, res game.Result) {
	if id < 1 || (res != game.WhiteWins && res != game.BlackWins && res != game.Draw) {
		return
	}
	if s.pages == nil {
		s.pages = map[int]*resultPage{}
	}
	p := s.pages[id/pageIDs]
	if p == nil {
		p = new(resultPage)
		s.pages[id/pageIDs] = p
	}
	i := id % pageIDs * 2
	w, shift := &p[i/64], uint(i%64)
	if *w>>shift&3 == 0 {
		s.n++
	}
	*w = *w&^(3<<shift) | uint64(res)<<shift
}

// Len returns the number of games with a result.
func (s *Results) Len() int { return s.n }

// All iterates over the games in increasing order of ID, with their
// results.
func (s *Results) All() iter.Seq2[int, game.Result] {
	return func(yield func(int, game.Result) bool) {
		for _, k := range sortedKeys(s.pages) {
			for i, w := range s.pages[k] {
				for w != 0 {
					b := bits.TrailingZeros64(w) &^ 1
					res := game.Result(w >> b & 3)
					w &^= 3 << b
					if !yield(k*pageIDs+(i*64+b)/2, res) {
						return
					}
				}
			}
		}
	}
}

// sortedKeys returns the keys of m in increasing order.
func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
