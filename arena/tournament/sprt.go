package tournament

import (
	"fmt"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/rating"
)

// SPRT follows the sequential test of a two-bot match (Config.SPRT)
// from the first bot's side. It takes the games in the order they are
// recorded, the journal's order, and decides at the first game that takes
// the test across a bound; games recorded after that (those in flight when
// it decided) count for the ratings, not for the test. A later run reads
// the journal in the same order, so it and the reports give the ratio and
// the number of games or pairs of the live decision.
type SPRT struct {
	params           rating.SPRTParams
	player, opponent string

	paired bool // the games come in colour-reversed pairs
	games  rating.WDL
	pairs  rating.Pentanomial
	open   map[string]float64 // the player's points in the first game of an incomplete pair
	result rating.SPRTResult
}

func newSPRT(cfg *config.Config) *SPRT {
	if cfg.SPRT == nil || len(cfg.Bots) != 2 {
		return nil
	}
	return NewSPRT(cfg.SPRT.Params(), cfg.Bots[0].Name, cfg.Bots[1].Name)
}

// NewSPRT returns the test of player against opponent with the given
// parameters (validated: see rating.SPRTParams.Validate), before any game.
func NewSPRT(p rating.SPRTParams, player, opponent string) *SPRT {
	s := &SPRT{params: p, player: player, opponent: opponent, open: map[string]float64{}}
	s.result, _ = rating.SPRT(p, rating.WDL{}, rating.Pentanomial{}) // the parameters are validated with the configuration
	return s
}

// Add takes a recorded game into the test, unless it has decided. The
// games are taken in the order they were recorded.
func (s *SPRT) Add(r *journal.Record) error {
	if s.Decided() {
		return nil
	}
	if _, err := r.GameResult(); err != nil {
		return nil
	}
	if !((r.White == s.player && r.Black == s.opponent) || (r.White == s.opponent && r.Black == s.player)) {
		return nil
	}
	return s.take(r.Points(s.player), r.PairKey)
}

// take counts one game, in which the player took points, and recomputes
// the test.
func (s *SPRT) take(points float64, pairKey string) error {
	switch points {
	case 1:
		s.games.Wins++
	case 0:
		s.games.Losses++
	default:
		s.games.Draws++
	}
	if pairKey != "" {
		s.paired = true
		if first, ok := s.open[pairKey]; ok {
			delete(s.open, pairKey)
			s.pairs[int(2*(first+points)+0.5)]++
		} else {
			s.open[pairKey] = points
		}
	}
	games := s.games
	if s.paired {
		games = rating.WDL{} // the test runs on the pairs
	}
	res, err := rating.SPRT(s.params, games, s.pairs)
	if err != nil {
		return fmt.Errorf("sprt: %w", err)
	}
	s.result = res
	return nil
}

// Decided reports whether the test has accepted a hypothesis. A nil
// SPRT (no test configured) never decides.
func (s *SPRT) Decided() bool {
	return s != nil && s.result.Decision != rating.Continue
}

// String describes the test's state in one line, e.g.
// "SPRT, logistic Elo, H0 +0 H1 +5, alpha 0.05 beta 0.05: LLR 2.96 reached the upper bound 2.94 after 120 game pairs: H1 accepted (new is +5 Elo rather than +0 against old)".
func (s *SPRT) String() string {
	return sprtText(s.params, s.result, s.player, s.opponent)
}

// sprtText describes a test's state in one line.
func sprtText(p rating.SPRTParams, r rating.SPRTResult, player, opponent string) string {
	unit := SPRTUnit(r)
	head := fmt.Sprintf("SPRT, %s Elo, H0 %+g H1 %+g, alpha %g beta %g: LLR %.2f", r.Model, p.Elo0, p.Elo1, p.Alpha, p.Beta, r.LLR)
	switch r.Decision {
	case rating.AcceptH0:
		return fmt.Sprintf("%s reached the lower bound %.2f after %d %s: H0 accepted (%s is %+g Elo rather than %+g against %s)",
			head, r.Lower, r.N, unit, player, p.Elo0, p.Elo1, opponent)
	case rating.AcceptH1:
		return fmt.Sprintf("%s reached the upper bound %.2f after %d %s: H1 accepted (%s is %+g Elo rather than %+g against %s)",
			head, r.Upper, r.N, unit, player, p.Elo1, p.Elo0, opponent)
	}
	return fmt.Sprintf("%s after %d %s, between the bounds %.2f and %.2f: no decision yet", head, r.N, unit, r.Lower, r.Upper)
}

// SPRTUnit names what a test's N counts: "games", "game pairs", "game
// pair"...
func SPRTUnit(r rating.SPRTResult) string {
	unit := "games"
	if r.Pentanomial {
		unit = "game pairs"
	}
	if r.N == 1 {
		unit = unit[:len(unit)-1]
	}
	return unit
}

// Short describes the test's state for a progress line: "LLR 1.23 in
// (-2.94, 2.94)", or "LLR 2.96 ≥ 2.94: H1" once it has decided; "" for a
// nil SPRT (no test configured).
func (s *SPRT) Short() string {
	if s == nil {
		return ""
	}
	r := s.result
	switch r.Decision {
	case rating.AcceptH0:
		return fmt.Sprintf("LLR %.2f ≤ %.2f: H0", r.LLR, r.Lower)
	case rating.AcceptH1:
		return fmt.Sprintf("LLR %.2f ≥ %.2f: H1", r.LLR, r.Upper)
	}
	return fmt.Sprintf("LLR %.2f in (%.2f, %.2f)", r.LLR, r.Lower, r.Upper)
}

// Result returns the test's state.
func (s *SPRT) Result() rating.SPRTResult { return s.result }
