package tournament

import (
	"maps"
	"slices"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/sandbox"
	"github.com/arena-games/arena/arena/schedule"
)

// NewManifest describes the whole tournament of cfg with schedule s.
func NewManifest(cfg *config.Config, s *schedule.Schedule) *journal.Manifest {
	return &journal.Manifest{
		Version:     journal.ManifestVersion,
		Name:        cfg.Name,
		Config:      cfg.Path,
		Created:     time.Now().UTC(),
		Fingerprint: s.Fingerprint(cfg.Rules),
		Games:       s.Len(),
		Game:        cfg.Rules.Game(),
		Preset:      cfg.Rules.Preset(),
		Rules:       cfg.Rules.Settings(),
		Format:      cfg.Format.Kind,
		Rounds:      cfg.Format.Rounds,
		Bots:        cfg.BotNames(),
		Players:     slices.Clone(cfg.Format.Players),
		Once:        s.Once(),
		Openings:    s.Openings,
		SPRT:        sprtParams(cfg),
		Setups:      botSetups(cfg),
	}
}

// sprtParams returns the parameters of cfg's sequential test, nil without
// one.
func sprtParams(cfg *config.Config) *rating.SPRTParams {
	if cfg.SPRT == nil {
		return nil
	}
	p := cfg.SPRT.Params()
	return &p
}

// botSetups returns the setup of each bot of cfg.
func botSetups(cfg *config.Config) []journal.BotSetup {
	out := make([]journal.BotSetup, len(cfg.Bots))
	for i, b := range cfg.Bots {
		tc := cfg.BotTime(b.Name)
		out[i] = journal.BotSetup{
			Name: b.Name, Builtin: b.Builtin, Command: b.Command, Args: slices.Clone(b.Args), Options: maps.Clone(b.Options),
			Time: tc.String(), Nodes: tc.Nodes, Depth: tc.Depth,
			MarginMS: float64(tc.Margin) / float64(time.Millisecond),
		}
		if pol := cfg.BotPolicy(b.Name); !pol.Limits.IsZero() || pol.Isolate {
			out[i].Limits = sandbox.Probe().Describe(&pol)
		}
	}
	return out
}

// Schedule lays out the schedule of cfg on its openings: schedule.New, or
// schedule.NewOnce when the configuration plays every opening once.
func Schedule(cfg *config.Config, openings []openings.Opening) (*schedule.Schedule, error) {
	layout := schedule.New
	if cfg.Openings.Once {
		layout = schedule.NewOnce
	}
	return layout(cfg.Format.Kind, cfg.Format.Rounds, cfg.BotNames(), cfg.Format.Players, openings)
}
