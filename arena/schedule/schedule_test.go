package schedule_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/game"
)

func openingsN(n int) []openings.Opening {
	out := make([]openings.Opening, n)
	for i := range out {
		out[i] = openings.Opening{Name: fmt.Sprintf("o%d", i+1), Moves: []string{fmt.Sprintf("m%d", i)}}
	}
	return out
}

func TestNewScheduleCounts(t *testing.T) {
	bots := []string{"a", "b", "c", "d", "e"}
	for _, c := range []struct {
		format   string
		rounds   int
		players  []string
		openings int
		want     int
	}{
		{schedule.RoundRobin, 1, nil, 1, 10 * 2},
		{schedule.RoundRobin, 3, nil, 4, 3 * 10 * 4 * 2},
		{schedule.Gauntlet, 1, []string{"a"}, 2, 4 * 2 * 2},
		{schedule.Gauntlet, 2, []string{"a", "b"}, 1, 2 * 6 * 2},
	} {
		s, err := schedule.New(c.format, c.rounds, bots, c.players, openingsN(c.openings))
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if s.Len() != c.want {
			t.Errorf("%s rounds=%d players=%v openings=%d: %d games, want %d", c.format, c.rounds, c.players, c.openings, s.Len(), c.want)
		}
		meets := map[[2]string]int{}
		i := 0
		for g := range s.Games() {
			if i++; g.ID != i {
				t.Errorf("game %d has ID %d", i, g.ID)
			}
			if g.White == g.Black {
				t.Errorf("game %d: %s plays itself", g.ID, g.White)
			}
			meets[[2]string{g.White, g.Black}]++
			if c.format == schedule.Gauntlet {
				pw, pb := contains(c.players, g.White), contains(c.players, g.Black)
				if pw == pb {
					t.Errorf("gauntlet game %s-%s: want one player and one opponent", g.White, g.Black)
				}
			}
		}
		// Every meeting is played as often with each colour.
		for m, n := range meets {
			if back := meets[[2]string{m[1], m[0]}]; back != n {
				t.Errorf("%s-%s played %d times, %s-%s %d times", m[0], m[1], n, m[1], m[0], back)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestNewSchedulePairs(t *testing.T) {
	s, err := schedule.New(schedule.RoundRobin, 2, []string{"a", "b", "c"}, nil, openingsN(2))
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string][]schedule.Scheduled{}
	for g := range s.Games() {
		byKey[g.PairKey] = append(byKey[g.PairKey], g)
	}
	if len(byKey) != 2*2*3 {
		t.Errorf("%d pair keys, want %d", len(byKey), 12)
	}
	for k, gs := range byKey {
		if len(gs) != 2 || gs[0].White != gs[1].Black || gs[0].Black != gs[1].White ||
			gs[0].Opening != gs[1].Opening || gs[0].Round != gs[1].Round || gs[1].ID != gs[0].ID+1 {
			t.Errorf("pair %s: %+v, want two adjacent games with colours reversed", k, gs)
		}
	}
}

func TestNewScheduleErrors(t *testing.T) {
	for _, c := range []struct {
		format   string
		rounds   int
		bots     []string
		players  []string
		openings int
	}{
		{schedule.RoundRobin, 0, []string{"a", "b"}, nil, 1},
		{schedule.RoundRobin, 1, []string{"a", "b"}, nil, 0},
		{schedule.RoundRobin, 1, []string{"a"}, nil, 1},
		{"swiss", 1, []string{"a", "b"}, nil, 1},
		{schedule.Gauntlet, 1, []string{"a", "b"}, []string{"z"}, 1},
		{schedule.Gauntlet, 1, []string{"a", "b"}, []string{"a", "b"}, 1},
	} {
		if _, err := schedule.New(c.format, c.rounds, c.bots, c.players, openingsN(c.openings)); !errors.Is(err, schedule.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrSchedule", c, err)
		}
	}
}

func TestFingerprint(t *testing.T) {
	rules := rulesFor(t, "cheversi", "")
	fp := func(rounds int, bots []string, openings []openings.Opening) string {
		s, err := schedule.New(schedule.RoundRobin, rounds, bots, nil, openings)
		if err != nil {
			t.Fatal(err)
		}
		return s.Fingerprint(rules)
	}
	base := fp(1, []string{"a", "b"}, openingsN(2))
	if again := fp(1, []string{"a", "b"}, openingsN(2)); again != base {
		t.Errorf("fingerprint not stable: %s vs %s", base, again)
	}
	changed := openingsN(2)
	changed[1].Moves[0] = "other"
	for name, other := range map[string]string{
		"rounds":   fp(2, []string{"a", "b"}, openingsN(2)),
		"bots":     fp(1, []string{"a", "c"}, openingsN(2)),
		"order":    fp(1, []string{"b", "a"}, openingsN(2)),
		"openings": fp(1, []string{"a", "b"}, changed),
	} {
		if other == base {
			t.Errorf("changing the %s keeps the fingerprint", name)
		}
	}
	s, _ := schedule.New(schedule.RoundRobin, 1, []string{"a", "b"}, nil, openingsN(2))
	if s.Fingerprint(rulesFor(t, "cheversi", "echeversi")) == base {
		t.Errorf("changing the rules keeps the fingerprint")
	}
}

func TestManifestCompatibleSays(t *testing.T) {
	stored := &journal.Manifest{Fingerprint: "1", Game: "cheversi", Bots: []string{"a", "martian"}, Rules: []game.Setting{{Key: "touch", Value: "any"}}}
	for _, c := range []struct {
		change func(m *journal.Manifest)
		want   string
	}{
		{func(m *journal.Manifest) { m.Bots = []string{"a", "b"} }, "the list of bots was a, martian, the configuration says a, b"},
		{func(m *journal.Manifest) { m.Rules = []game.Setting{{Key: "touch", Value: "none"}} }, "the rule set was touch=any"},
		{func(m *journal.Manifest) { m.Rounds = 2 }, "the number of rounds was 0, the configuration says 2"},
	} {
		now := *stored
		now.Fingerprint = "2"
		c.change(&now)
		err := stored.Compatible(&now)
		if !errors.Is(err, journal.ErrScheduleChanged) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compatible = %v, want it to say %q", err, c.want)
		}
	}
}

// referenceSchedule lays out a round-robin the plain way, every game in a
// slice: rounds, then openings, then pairings, the two colours next to
// each other.
func referenceSchedule(rounds int, bots []string, openings int) []schedule.Scheduled {
	var out []schedule.Scheduled
	for r := 1; r <= rounds; r++ {
		for o := range openings {
			for i := range bots {
				for j := i + 1; j < len(bots); j++ {
					a, b := bots[i], bots[j]
					key := fmt.Sprintf("r%d/o%d/%s/%s", r, o+1, a, b)
					out = append(out,
						schedule.Scheduled{ID: len(out) + 1, Round: r, Opening: o, White: a, Black: b, PairKey: key},
						schedule.Scheduled{ID: len(out) + 2, Round: r, Opening: o, White: b, Black: a, PairKey: key})
				}
			}
		}
	}
	return out
}

func TestScheduleGameByID(t *testing.T) {
	bots := []string{"a", "b", "c", "d"}
	want := referenceSchedule(3, bots, 5)
	s, err := schedule.New(schedule.RoundRobin, 3, bots, nil, openingsN(5))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != len(want) || s.Pairs() != len(want)/2 {
		t.Fatalf("Len = %d, Pairs = %d; want %d and %d", s.Len(), s.Pairs(), len(want), len(want)/2)
	}
	for _, w := range want {
		if got, ok := s.Game(w.ID); !ok || got != w {
			t.Errorf("Game(%d) = %+v, %v; want %+v", w.ID, got, ok, w)
		}
	}
	for _, id := range []int{-1, 0, len(want) + 1} {
		if g, ok := s.Game(id); ok {
			t.Errorf("Game(%d) = %+v, want none", id, g)
		}
	}
}

func TestScheduleSlices(t *testing.T) {
	for _, c := range []struct{ rounds, bots, openings int }{{1, 2, 1}, {3, 4, 5}, {2, 3, 7}, {1, 5, 1}} {
		bots := []string{"a", "b", "c", "d", "e"}[:c.bots]
		s, err := schedule.New(schedule.RoundRobin, c.rounds, bots, nil, openingsN(c.openings))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 3, 4, 7, 16, s.Pairs(), s.Pairs() + 3} {
			seen := map[int]int{} // game ID -> slice
			pairSlice := map[string]int{}
			for i := range n {
				sh := &schedule.Shard{Index: i, Count: n}
				count, last := 0, 0
				for g := range s.Slice(sh) {
					count++
					if g.ID <= last {
						t.Errorf("%v N=%d: slice %d: game %d after %d", c, n, i, g.ID, last)
					}
					last = g.ID
					if prev, dup := seen[g.ID]; dup {
						t.Errorf("%v: game %d in slices %d and %d of %d", c, g.ID, prev, i, n)
					}
					seen[g.ID] = i
					if !sh.Has(g.ID) {
						t.Errorf("%v: slice %s yields game %d but Has says no", c, sh, g.ID)
					}
					if want, ok := s.Game(g.ID); !ok || want != g {
						t.Errorf("%v: slice %s yields %+v, Game says %+v", c, sh, g, want)
					}
					if p, ok := pairSlice[g.PairKey]; ok && p != i {
						t.Errorf("%v N=%d: pair %s split between slices %d and %d", c, n, g.PairKey, p, i)
					}
					pairSlice[g.PairKey] = i
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

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want schedule.Shard
		ok   bool
	}{
		{"0/1", schedule.Shard{Index: 0, Count: 1}, true},
		{"3/16", schedule.Shard{Index: 3, Count: 16}, true},
		{"15/16", schedule.Shard{Index: 15, Count: 16}, true},
		{"5/4", schedule.Shard{}, false},
		{"4/4", schedule.Shard{}, false},
		{"0/0", schedule.Shard{}, false},
		{"-1/3", schedule.Shard{}, false},
		{"1/-3", schedule.Shard{}, false},
		{"a/b", schedule.Shard{}, false},
		{"3", schedule.Shard{}, false},
		{"1/2/3", schedule.Shard{}, false},
		{"", schedule.Shard{}, false},
		{" 1/2", schedule.Shard{}, false},
	} {
		got, err := schedule.ParseShard(c.in)
		if c.ok && (err != nil || got != c.want) {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if !c.ok && !errors.Is(err, schedule.ErrShard) {
			t.Errorf("ParseShard(%q) = %v, %v; want an error wrapping ErrShard", c.in, got, err)
		}
	}
	if s := (schedule.Shard{Index: 2, Count: 8}).String(); s != "2/8" {
		t.Errorf("String() = %q, want 2/8", s)
	}
}

func TestScheduleTooLarge(t *testing.T) {
	bots := []string{"a", "b", "c"}
	// 3 pairings × 2 colours × 1 opening: the largest round count allowed.
	rounds := schedule.MaxGames / 6
	s, err := schedule.New(schedule.RoundRobin, rounds, bots, nil, openingsN(1))
	if err != nil || s.Len() != rounds*6 {
		t.Fatalf("NewSchedule(%d rounds) = %v; want %d games", rounds, err, rounds*6)
	}
	last, ok := s.Game(s.Len())
	if !ok || last.Round != rounds || last.White != "c" || last.Black != "b" {
		t.Errorf("last game = %+v, %v", last, ok)
	}
	for _, r := range []int{rounds + 1, 1 << 62, int(^uint(0) >> 1)} {
		if _, err := schedule.New(schedule.RoundRobin, r, bots, nil, openingsN(1)); !errors.Is(err, schedule.ErrTooManyGames) {
			t.Errorf("NewSchedule(%d rounds): err = %v, want ErrTooManyGames", r, err)
		}
	}
}

// BenchmarkScheduleLarge lays out a schedule of 10⁷ games and computes its
// fingerprint, as Run does before the first game, reporting the bytes
// allocated; ns/game is the cost of the version 1 fingerprint, which is
// over every game.
func BenchmarkScheduleLarge(b *testing.B) {
	rules := rulesFor(b, "cheversi", "")
	bots := []string{"a", "b"}
	const rounds = 5_000_000
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := schedule.New(schedule.RoundRobin, rounds, bots, nil, openingsN(1))
			if err != nil {
				b.Fatal(err)
			}
			_ = s.Fingerprint(rules)
			g, _ := s.Game(s.Len())
			_ = g
		}
	})
	b.Run("v1", func(b *testing.B) {
		m := &journal.Manifest{Version: 1, Game: "cheversi", Preset: "cheversi", Rules: rules.Settings(),
			Format: schedule.RoundRobin, Rounds: rounds, Bots: bots, Openings: openingsN(1)}
		for b.Loop() {
			if _, err := m.Schedule(context.Background()); !errors.Is(err, journal.ErrScheduleChanged) {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(2*rounds), "ns/game")
	})
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/16", "5/4", "-1/3", "a/b", "1/2/3", "9223372036854775807/9223372036854775807", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sh, err := schedule.ParseShard(text)
		if err != nil {
			if !errors.Is(err, schedule.ErrShard) {
				t.Errorf("ParseShard(%q): error %v does not wrap ErrShard", text, err)
			}
			return
		}
		if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
			t.Errorf("ParseShard(%q) = %v, out of range", text, sh)
		}
		if again, err := schedule.ParseShard(sh.String()); err != nil || again != sh {
			t.Errorf("ParseShard(%q) = %v; its String %q parses as %v, %v", text, sh, sh.String(), again, err)
		}
	})
}

// rulesFor builds a game's rules under a preset ("" for its default).
func rulesFor(t testing.TB, name, preset string) game.Rules {
	t.Helper()
	r, err := games.New(name, preset, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
