package schedule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/openings"

	"github.com/arena-games/arena/arena/game"
)

// fingerprintV1Reference is the version 1 fingerprint as it was first
// written: one formatted line per game of the schedule.
func fingerprintV1Reference(s *Schedule, gameName, preset string, settings []game.Setting) string {
	h := sha256.New()
	fmt.Fprintf(h, "arena schedule v1\ngame %q preset %q\n", gameName, preset)
	for _, kv := range settings {
		fmt.Fprintf(h, "rule %q %q\n", kv.Key, kv.Value)
	}
	for g := range s.Games() {
		o := s.Openings[g.Opening]
		fmt.Fprintf(h, "game %d round %d opening %q %q white %q black %q pair %q\n",
			g.ID, g.Round, o.Name, strings.Join(o.Moves, " "), g.White, g.Black, g.PairKey)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestFingerprintV1Reference(t *testing.T) {
	openings := []openings.Opening{{Name: "plain", Moves: []string{"a", "b"}}, {Name: `quote " and é`, Moves: []string{"\x00\xff"}}, {Moves: []string{}}}
	settings := []game.Setting{{Key: "k", Value: "v\n"}}
	for _, c := range []struct {
		format  string
		rounds  int
		bots    []string
		players []string
	}{
		{RoundRobin, 1, []string{"a", "b"}, nil},
		{RoundRobin, 3, []string{"x.1", "y+2", "z-3", "w_4"}, nil},
		{Gauntlet, 2, []string{"new", "old", "older"}, []string{"new"}},
		{RoundRobin, 1, []string{"é\"", "\xff/\\", "b"}, nil}, // names a configuration refuses, as a manifest may hold
	} {
		s, err := New(c.format, c.rounds, c.bots, c.players, openings)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.FingerprintV1(context.Background(), "cheversi", "p\"", settings)
		if want := fingerprintV1Reference(s, "cheversi", "p\"", settings); err != nil || got != want {
			t.Errorf("%+v: fingerprintV1 = %s, %v; want %s", c, got, err, want)
		}
	}
	s, _ := New(RoundRobin, 1000, []string{"a", "b"}, nil, openings)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.FingerprintV1(ctx, "cheversi", "", nil); err != context.Canceled {
		t.Errorf("canceled: err = %v, want context.Canceled", err)
	}
}
