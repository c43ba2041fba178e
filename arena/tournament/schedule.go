package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arena-games/arena/arena/game"
)

// Scheduled is one game of the schedule.
type Scheduled struct {
	ID      int    // 1-based, stable: the same configuration gives the same IDs
	Round   int    // 1-based
	Opening int    // index into Schedule.Openings
	White   string // bot playing the white pieces
	Black   string // bot playing the black pieces
	// PairKey is shared by the two games that play one opening of one
	// pairing in one round with the colours reversed.
	PairKey string
}

// Schedule is every game of a tournament, in the order they are started.
type Schedule struct {
	Games    []Scheduled
	Openings []Opening
}

// ErrSchedule is wrapped by errors about impossible schedules.
var ErrSchedule = errors.New("bad schedule")

// NewSchedule lays out a tournament. For RoundRobin every pair of bots
// meets; for Gauntlet every bot in players meets every bot not in players.
// Each round plays every opening of every pairing twice, colours reversed;
// the games of a round are ordered by opening, then by pairing, the two
// colour assignments next to each other.
func NewSchedule(format string, rounds int, bots, players []string, openings []Opening) (*Schedule, error) {
	if rounds < 1 {
		return nil, fmt.Errorf("%w: rounds must be at least 1, got %d", ErrSchedule, rounds)
	}
	if len(openings) == 0 {
		return nil, fmt.Errorf("%w: no openings", ErrSchedule)
	}
	type pair struct{ a, b string }
	var pairs []pair
	switch format {
	case RoundRobin:
		for i := range bots {
			for j := i + 1; j < len(bots); j++ {
				pairs = append(pairs, pair{bots[i], bots[j]})
			}
		}
	case Gauntlet:
		for _, p := range players {
			if !slices.Contains(bots, p) {
				return nil, fmt.Errorf("%w: gauntlet player %q is not a bot", ErrSchedule, p)
			}
			for _, b := range bots {
				if !slices.Contains(players, b) {
					pairs = append(pairs, pair{p, b})
				}
			}
		}
	default:
		return nil, fmt.Errorf("%w: unknown format %q", ErrSchedule, format)
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("%w: no pairings (need at least two bots)", ErrSchedule)
	}
	s := &Schedule{Openings: openings, Games: make([]Scheduled, 0, rounds*len(openings)*len(pairs)*2)}
	for r := 1; r <= rounds; r++ {
		for o := range openings {
			for _, p := range pairs {
				key := fmt.Sprintf("r%d/o%d/%s/%s", r, o+1, p.a, p.b)
				s.Games = append(s.Games,
					Scheduled{ID: len(s.Games) + 1, Round: r, Opening: o, White: p.a, Black: p.b, PairKey: key},
					Scheduled{ID: len(s.Games) + 2, Round: r, Opening: o, White: p.b, Black: p.a, PairKey: key})
			}
		}
	}
	return s, nil
}

// Fingerprint identifies the schedule together with the rules: two runs
// with the same fingerprint play the same games. It is a hex SHA-256 digest.
func (s *Schedule) Fingerprint(rules game.Rules) string {
	h := sha256.New()
	// Every field is written %q-quoted, so no two documents collide.
	fmt.Fprintf(h, "arena schedule v1\ngame %q preset %q\n", rules.Game(), rules.Preset())
	for _, kv := range rules.Settings() {
		fmt.Fprintf(h, "rule %q %q\n", kv.Key, kv.Value)
	}
	for _, g := range s.Games {
		o := s.Openings[g.Opening]
		fmt.Fprintf(h, "game %d round %d opening %q %q white %q black %q pair %q\n",
			g.ID, g.Round, o.Name, strings.Join(o.Moves, " "), g.White, g.Black, g.PairKey)
	}
	return hex.EncodeToString(h.Sum(nil))
}
