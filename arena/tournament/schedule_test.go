package tournament_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/tournament"
)

func openingsN(n int) []tournament.Opening {
	out := make([]tournament.Opening, n)
	for i := range out {
		out[i] = tournament.Opening{Name: fmt.Sprintf("o%d", i+1), Moves: []string{fmt.Sprintf("m%d", i)}}
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
		{tournament.RoundRobin, 1, nil, 1, 10 * 2},
		{tournament.RoundRobin, 3, nil, 4, 3 * 10 * 4 * 2},
		{tournament.Gauntlet, 1, []string{"a"}, 2, 4 * 2 * 2},
		{tournament.Gauntlet, 2, []string{"a", "b"}, 1, 2 * 6 * 2},
	} {
		s, err := tournament.NewSchedule(c.format, c.rounds, bots, c.players, openingsN(c.openings))
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if len(s.Games) != c.want {
			t.Errorf("%s rounds=%d players=%v openings=%d: %d games, want %d", c.format, c.rounds, c.players, c.openings, len(s.Games), c.want)
		}
		meets := map[[2]string]int{}
		for i, g := range s.Games {
			if g.ID != i+1 {
				t.Errorf("game %d has ID %d", i+1, g.ID)
			}
			if g.White == g.Black {
				t.Errorf("game %d: %s plays itself", g.ID, g.White)
			}
			meets[[2]string{g.White, g.Black}]++
			if c.format == tournament.Gauntlet {
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
	s, err := tournament.NewSchedule(tournament.RoundRobin, 2, []string{"a", "b", "c"}, nil, openingsN(2))
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string][]tournament.Scheduled{}
	for _, g := range s.Games {
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
		{tournament.RoundRobin, 0, []string{"a", "b"}, nil, 1},
		{tournament.RoundRobin, 1, []string{"a", "b"}, nil, 0},
		{tournament.RoundRobin, 1, []string{"a"}, nil, 1},
		{"swiss", 1, []string{"a", "b"}, nil, 1},
		{tournament.Gauntlet, 1, []string{"a", "b"}, []string{"z"}, 1},
		{tournament.Gauntlet, 1, []string{"a", "b"}, []string{"a", "b"}, 1},
	} {
		if _, err := tournament.NewSchedule(c.format, c.rounds, c.bots, c.players, openingsN(c.openings)); !errors.Is(err, tournament.ErrSchedule) {
			t.Errorf("%+v: err = %v, want ErrSchedule", c, err)
		}
	}
}

func TestFingerprint(t *testing.T) {
	rules := rulesFor(t, "cheversi", "")
	fp := func(rounds int, bots []string, openings []tournament.Opening) string {
		s, err := tournament.NewSchedule(tournament.RoundRobin, rounds, bots, nil, openings)
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
	s, _ := tournament.NewSchedule(tournament.RoundRobin, 1, []string{"a", "b"}, nil, openingsN(2))
	if s.Fingerprint(rulesFor(t, "cheversi", "echeversi")) == base {
		t.Errorf("changing the rules keeps the fingerprint")
	}
}

func TestManifestCompatibleSays(t *testing.T) {
	stored := &tournament.Manifest{Fingerprint: "1", Game: "cheversi", Bots: []string{"a", "martian"}, Rules: []game.Setting{{Key: "touch", Value: "any"}}}
	for _, c := range []struct {
		change func(m *tournament.Manifest)
		want   string
	}{
		{func(m *tournament.Manifest) { m.Bots = []string{"a", "b"} }, "the list of bots was a, martian, the configuration says a, b"},
		{func(m *tournament.Manifest) { m.Rules = []game.Setting{{Key: "touch", Value: "none"}} }, "the rule set was touch=any"},
		{func(m *tournament.Manifest) { m.Rounds = 2 }, "the number of rounds was 0, the configuration says 2"},
	} {
		now := *stored
		now.Fingerprint = "2"
		c.change(&now)
		err := stored.Compatible(&now)
		if !errors.Is(err, tournament.ErrScheduleChanged) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compatible = %v, want it to say %q", err, c.want)
		}
	}
}
