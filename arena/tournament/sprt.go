package tournament

import (
	"fmt"

	"github.com/arena-games/arena/arena/rating"
)

// sprtState follows the sequential test of a two-bot match (Config.SPRT)
// over the recorded games, from the first bot's side.
type sprtState struct {
	params           rating.SPRTParams
	player, opponent string
	games            []rating.Game
	result           rating.SPRTResult
}

func newSPRT(cfg *Config) *sprtState {
	if cfg.SPRT == nil || len(cfg.Bots) != 2 {
		return nil
	}
	return &sprtState{params: cfg.SPRT.Params(), player: cfg.Bots[0].Name, opponent: cfg.Bots[1].Name}
}

// add takes recorded games into the test and updates its result.
func (s *sprtState) add(recs ...Record) error {
	s.games = append(s.games, RatingGames(recs)...)
	wdl, pairs := rating.MatchCounts(s.games, s.player, s.opponent)
	res, err := rating.SPRT(s.params, wdl, pairs)
	if err != nil {
		return fmt.Errorf("sprt: %w", err)
	}
	s.result = res
	return nil
}

// decided reports whether the test has accepted a hypothesis. A nil
// sprtState (no test configured) never decides.
func (s *sprtState) decided() bool {
	return s != nil && s.result.Decision != rating.Continue
}

// String describes the test's state in one line.
func (s *sprtState) String() string {
	r := s.result
	unit := "games"
	if r.Pentanomial {
		unit = "game pairs"
	}
	verdict := "no decision yet"
	switch r.Decision {
	case rating.AcceptH0:
		verdict = fmt.Sprintf("H0 accepted (%s vs %s: %+g Elo rather than %+g)", s.player, s.opponent, s.params.Elo0, s.params.Elo1)
	case rating.AcceptH1:
		verdict = fmt.Sprintf("H1 accepted (%s vs %s: %+g Elo rather than %+g)", s.player, s.opponent, s.params.Elo1, s.params.Elo0)
	}
	return fmt.Sprintf("SPRT [%g, %g] alpha %g beta %g: LLR %.2f in (%.2f, %.2f) after %d %s: %s",
		s.params.Elo0, s.params.Elo1, s.params.Alpha, s.params.Beta, r.LLR, r.Lower, r.Upper, r.N, unit, verdict)
}
