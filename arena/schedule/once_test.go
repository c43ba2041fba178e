package schedule_test

import (
	"testing"

	"github.com/arena-games/arena/arena/schedule"
)

// TestOnce: every opening of every pairing is played once, the colours
// alternating from one opening to the next and from one round to the
// next; no game has a pair key.
func TestOnce(t *testing.T) {
	s, err := schedule.NewOnce(schedule.RoundRobin, 2, []string{"a", "b", "c"}, nil, openingsN(3))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2*3*3 || s.Pairs() != 0 || !s.Once() {
		t.Fatalf("Len %d Pairs %d Once %v, want 18 games, no pairs", s.Len(), s.Pairs(), s.Once())
	}
	type key struct {
		round, opening int
		white, black   string
	}
	seen := map[key]bool{}
	id := 0
	for g := range s.Games() {
		id++
		if g.ID != id || g.PairKey != "" {
			t.Errorf("game %+v: want ID %d and no pair key", g, id)
		}
		// Round-robin pairings in order: a-b, a-c, b-c; the first bot of
		// each has White on even openings of round 1, odd ones of round 2.
		pairing := [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}}[(id-1)%3]
		wantOpening := ((id - 1) / 3) % 3
		white, black := pairing[0], pairing[1]
		if (wantOpening+g.Round-1)%2 == 1 {
			white, black = black, white
		}
		if g.Opening != wantOpening || g.White != white || g.Black != black || g.Round != (id-1)/9+1 {
			t.Errorf("game %d: %+v, want round %d opening %d %s-%s", id, g, (id-1)/9+1, wantOpening, white, black)
		}
		k := key{g.Round, g.Opening, g.White, g.Black}
		if seen[k] {
			t.Errorf("game %d repeats %+v", id, k)
		}
		seen[k] = true
	}
}

// TestOnceSlices: the slices of a schedule played once, odd lengths
// included, hold every game once.
func TestOnceSlices(t *testing.T) {
	for _, c := range []struct{ rounds, bots, openings int }{{1, 2, 1}, {1, 2, 5}, {3, 3, 5}, {2, 2, 7}} {
		bots := []string{"a", "b", "c", "d", "e"}[:c.bots]
		s, err := schedule.NewOnce(schedule.RoundRobin, c.rounds, bots, nil, openingsN(c.openings))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 3, 4, 7, s.Len() + 2} {
			seen := map[int]bool{}
			for i := range n {
				sh := &schedule.Shard{Index: i, Count: n}
				count := 0
				for g := range s.Slice(sh) {
					count++
					if seen[g.ID] || !sh.Has(g.ID) {
						t.Errorf("%v N=%d: game %d repeated or not in slice %d", c, n, g.ID, i)
					}
					seen[g.ID] = true
				}
				if got := s.SliceLen(sh); got != count {
					t.Errorf("%v: SliceLen(%s) = %d, the slice has %d games", c, sh, got, count)
				}
			}
			if len(seen) != s.Len() {
				t.Errorf("%v N=%d: the slices hold %d of %d games", c, n, len(seen), s.Len())
			}
		}
	}
}

// TestOnceFingerprint: playing every opening once is another schedule.
func TestOnceFingerprint(t *testing.T) {
	rules := rulesFor(t, "cheversi", "")
	twice, _ := schedule.New(schedule.RoundRobin, 1, []string{"a", "b"}, nil, openingsN(4))
	once, err := schedule.NewOnce(schedule.RoundRobin, 1, []string{"a", "b"}, nil, openingsN(4))
	if err != nil {
		t.Fatal(err)
	}
	if once.Fingerprint(rules) == twice.Fingerprint(rules) {
		t.Error("the schedules played once and twice have one fingerprint")
	}
	again, _ := schedule.NewOnce(schedule.RoundRobin, 1, []string{"a", "b"}, nil, openingsN(4))
	if again.Fingerprint(rules) != once.Fingerprint(rules) {
		t.Error("the fingerprint of a schedule played once is not stable")
	}
}
