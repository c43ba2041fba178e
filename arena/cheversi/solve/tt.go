package solve

import (
	"math/bits"
	"sync/atomic"

	"github.com/arena-games/arena/arena/cheversi"
)

// Table is a transposition table: bounds on the exact value of positions,
// keyed by a 64-bit position hash. It is safe for concurrent use by several
// searches: each entry is two 64-bit words written and read atomically, the
// first holding the key XORed with the second, so a torn entry (one word
// from each of two writers) fails the key check instead of giving wrong
// bounds.
//
// Entries sit in buckets of four that fill one 64-byte cache line; a new
// entry replaces, within its bucket, the one that took the least work to
// compute.
type Table struct {
	slots []atomic.Uint64 // 8 words a bucket: key^data, data for each of 4 entries
	mask  uint64          // buckets - 1
}

// entrySize is the size in bytes of one entry.
const entrySize = 16

// NewTable returns a table of at most sizeBytes bytes (a power of two
// number of buckets; at least one).
func NewTable(sizeBytes int64) *Table {
	buckets := uint64(1)
	for buckets*2*4*entrySize <= uint64(max(sizeBytes, 0)) {
		buckets *= 2
	}
	return &Table{slots: make([]atomic.Uint64, buckets*8), mask: buckets - 1}
}

// Bytes returns the table's size in bytes.
func (t *Table) Bytes() int64 { return int64(len(t.slots)) * 8 }

// Clear empties the table.
func (t *Table) Clear() {
	for i := range t.slots {
		t.slots[i].Store(0)
	}
}

// An entry's data word: lower bound, upper bound, best move and work.
//
//	bits  0-15  lower bound + boundBias
//	bits 16-31  upper bound + boundBias
//	bits 32-47  best move (a cheversi.Move, 0 for none)
//	bits 48-55  work: log2 of the positions searched to find the bounds
//	bits 56-63  always 1, so that no stored data word is 0
const boundBias = 1 << 14

type entry struct {
	lo, hi int
	move   cheversi.Move
	work   uint8
}

func (e entry) pack() uint64 {
	return uint64(e.lo+boundBias)&0xffff | (uint64(e.hi+boundBias)&0xffff)<<16 |
		uint64(e.move)<<32 | uint64(e.work)<<48 | 1<<56
}

func unpack(d uint64) entry {
	return entry{
		lo:   int(d&0xffff) - boundBias,
		hi:   int(d>>16&0xffff) - boundBias,
		move: cheversi.Move(d >> 32 & 0xffff),
		work: uint8(d >> 48),
	}
}

// probe returns the entry stored for key.
func (t *Table) probe(key uint64) (entry, bool) {
	b := (key & t.mask) * 8
	for i := uint64(0); i < 8; i += 2 {
		d := t.slots[b+i+1].Load()
		if d != 0 && t.slots[b+i].Load()^d == key {
			return unpack(d), true
		}
	}
	return entry{}, false
}

// store records e for key, over an earlier entry of the same key or the
// entry of the bucket that took the least work.
func (t *Table) store(key uint64, e entry) {
	b := (key & t.mask) * 8
	victim, least := b, uint8(255)
	for i := uint64(0); i < 8; i += 2 {
		d := t.slots[b+i+1].Load()
		if d == 0 || t.slots[b+i].Load()^d == key {
			victim = b + i
			break
		}
		if w := uint8(d >> 48); w < least {
			victim, least = b+i, w
		}
	}
	d := e.pack()
	t.slots[victim].Store(key ^ d)
	t.slots[victim+1].Store(d)
}

// workOf returns the work byte for n positions searched: its log2, rounded up.
func workOf(n uint64) uint8 { return uint8(bits.Len64(n)) }
