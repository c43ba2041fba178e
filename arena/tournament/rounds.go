package tournament

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"
)

// A Swiss or knockout is laid out round by round from its results
// (schedule.Rounds). The runner feeds the schedule every result it reads
// from the journal, in the journal's order, checking each game against the
// schedule as laid out by the results before it; then every result it
// records, through a roundsSource, which hands out each game once the
// results before it have laid it out. The pairings are thus a function of
// the results alone: a resumed run, a run killed with kill -9 and resumed,
// and a pool that plays the games elsewhere and records them in any order
// pair every round as an uninterrupted run does.

// NewRoundsManifest describes the Swiss or knockout tournament of cfg
// laid out by r.
func NewRoundsManifest(cfg *config.Config, r *schedule.Rounds) *journal.Manifest {
	plan := r.Plan()
	m := &journal.Manifest{
		Version:     journal.ManifestVersion,
		Name:        cfg.Name,
		Config:      cfg.Path,
		Created:     time.Now().UTC(),
		Fingerprint: r.Fingerprint(cfg.Rules),
		Games:       r.Expected(),
		Game:        cfg.Rules.Game(),
		Preset:      cfg.Rules.Preset(),
		Rules:       cfg.Rules.Settings(),
		Format:      cfg.Format.Kind,
		Rounds:      plan.Rounds,
		Bots:        cfg.BotNames(),
		Openings:    r.Openings,
		Plan:        &plan,
		Setups:      botSetups(cfg),
	}
	return m
}

// layRounds lays out the first round of a Swiss or knockout, which a run
// plays in one place: slices and stages (Options.Shard, Options.Until)
// are refused, since each round is paired from the results of the one
// before.
func layRounds(ctx context.Context, cfg *config.Config, opts Options) (*schedule.Rounds, error) {
	if opts.Shard != nil {
		return nil, fmt.Errorf("%w %s: a %s pairs each round from the results of the round before, so its games cannot be dealt into slices before they are played; play it in one place", schedule.ErrShard, opts.Shard, cfg.Format.Kind)
	}
	if opts.Until > 0 {
		return nil, fmt.Errorf("tournament: a %s is played to its end, not in stages", cfg.Format.Kind)
	}
	ops, err := config.LoadOpenings(ctx, cfg)
	if err != nil {
		return nil, err
	}
	r, err := schedule.NewRounds(cfg.Plan(), ops)
	if err != nil {
		return nil, cfg.KeyError([]string{"format"}, err)
	}
	return r, nil
}

// recordLaid checks a journal record against the game the results before
// it laid out, and feeds its result to the schedule.
func (r *runner) recordLaid(rec *journal.Record) error {
	g, ok := r.rounds.Game(rec.ID)
	if !ok {
		return fmt.Errorf("%w: %s holds game %d, which the results recorded before it do not lay out (the line was changed or moved, or comes from another tournament)",
			journal.ErrDamaged, journal.File, rec.ID)
	}
	if rec.White != g.White || rec.Black != g.Black || rec.Round != g.Round || rec.PairKey != g.PairKey || rec.Opening.Index != g.Opening+1 {
		return fmt.Errorf("%w: %s game %d is %s-%s (round %d, opening %d), but the results before it make it %s-%s (round %d, opening %d) (the line was changed, or comes from another tournament)",
			journal.ErrDamaged, journal.File, rec.ID, rec.White, rec.Black, rec.Round, rec.Opening.Index, g.White, g.Black, g.Round, g.Opening+1)
	}
	res, err := rec.GameResult()
	if err != nil {
		return fmt.Errorf("%w: %s game %d: %w", journal.ErrDamaged, journal.File, rec.ID, err)
	}
	if _, err := r.rounds.Record(rec.ID, res); err != nil {
		return fmt.Errorf("%w: %s game %d: %w", journal.ErrDamaged, journal.File, rec.ID, err)
	}
	return nil
}

// countLaid counts, for a Swiss or knockout, the games the run is to have
// recorded (those expected) and those of them still to play.
func (r *runner) countLaid() {
	if r.rounds.Finished() {
		r.goal, r.pending = r.recorded, 0
		return
	}
	r.goal = r.rounds.Expected()
	r.pending = max(1, r.goal-r.recorded)
}

// finishRounds sets the manifest's number of games to those played once a
// knockout is over, since its tiebreaks make it known only then.
func (r *runner) finishRounds() error {
	if r.rounds == nil || !r.rounds.Finished() || r.manifest.Games == r.recorded {
		return nil
	}
	r.manifest.Games = r.recorded
	return r.manifest.Write(r.dir)
}

// roundsSource hands out the games of a Swiss or knockout as the results
// lay them out: Next waits while every game laid out is in play and the
// tournament is not over.
type roundsSource struct {
	mu      sync.Mutex
	rounds  *schedule.Rounds
	queue   []schedule.Scheduled // laid out, neither handed out nor recorded
	changed chan struct{}        // closed when the queue grows or the tournament ends
	err     error                // a result the schedule refused
}

func newRoundsSource(rounds *schedule.Rounds) *roundsSource {
	s := &roundsSource{rounds: rounds, changed: make(chan struct{})}
	for _, g := range rounds.Games() {
		if _, ok := rounds.Result(g.ID); !ok {
			s.queue = append(s.queue, g)
		}
	}
	slices.SortStableFunc(s.queue, func(a, b schedule.Scheduled) int { return a.ID - b.ID })
	return s
}

func (s *roundsSource) Next(ctx context.Context) (schedule.Scheduled, bool) {
	for {
		s.mu.Lock()
		switch {
		case ctx.Err() != nil:
			s.mu.Unlock()
			return schedule.Scheduled{}, false
		case len(s.queue) > 0:
			g := s.queue[0]
			s.queue = s.queue[1:]
			s.mu.Unlock()
			return g, true
		case s.rounds.Finished() || s.err != nil:
			s.mu.Unlock()
			return schedule.Scheduled{}, false
		}
		wait := s.changed
		s.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return schedule.Scheduled{}, false
		}
	}
}

func (s *roundsSource) Recorded(rec *journal.Record) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	res, err := rec.GameResult()
	var more []schedule.Scheduled
	if err == nil {
		more, err = s.rounds.Record(rec.ID, res)
	}
	if err != nil {
		s.err = fmt.Errorf("game %d: %w", rec.ID, err)
	}
	s.queue = append(s.queue, more...)
	if len(more) > 0 || s.rounds.Finished() || s.err != nil {
		close(s.changed)
		s.changed = make(chan struct{})
	}
}

// Err returns the error of a result the schedule refused, which stops the
// run.
func (s *roundsSource) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

var _ Source = (*roundsSource)(nil)

// openingList returns the openings of the run's schedule.
func (r *runner) openingList() []openings.Opening {
	if r.rounds != nil {
		return r.rounds.Openings
	}
	return r.sched.Openings
}
