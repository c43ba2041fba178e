package tournament

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"
)

// Game is a game handed to a Player: its place in the schedule and the
// opening it starts from.
type Game struct {
	schedule.Scheduled
	Opening openings.Opening
}

// PlayerOptions adjusts a Player.
type PlayerOptions struct {
	// Concurrency is how many games are played at a time; 0 means the
	// configuration's.
	Concurrency int
	// Logs is the directory of the bots' logs, one file per bot (created
	// if needed).
	Logs string
	// Self is the arena executable that runs built-in bots, as in
	// Options.
	Self string
	// Notice, when set, is called with the lines a run writes to its
	// arena log: forfeits, bots restarted, the limits a bot runs under.
	Notice func(msg string)
	// Observer, when set, follows the games as they are played.
	Observer Observer
}

// Player plays the games it is handed on bot processes of this machine,
// as Run does, but records nothing: it gives each finished game's record
// to its caller. It is the part of a run that a worker does for a
// coordinator on another machine (package workers). Its bots' processes
// are kept alive from game to game until Close.
type Player struct {
	r     *runner
	local *localPool

	mu       sync.Mutex
	openings map[int]openings.Opening // of the games in flight, by ID
}

// NewPlayer starts one process of every bot of cfg and checks its
// handshake, as Run does before its first game; a bot that fails the
// check is an error wrapping ErrBot.
func NewPlayer(ctx context.Context, cfg *config.Config, opts PlayerOptions) (*Player, error) {
	if cfg.Rules == nil {
		return nil, errors.New("tournament: configuration without rules (use Load or Parse)")
	}
	own := *cfg // the worker's concurrency, not the configuration's
	if opts.Concurrency > 0 {
		own.Concurrency = opts.Concurrency
	}
	concurrency := own.Concurrency
	r := &runner{
		cfg:   &own,
		opts:  Options{Self: opts.Self, Observer: opts.Observer},
		rules: cfg.Rules, settings: cfg.Rules.Settings(), logDir: opts.Logs,
		pending: max(1, concurrency), noticed: map[string]bool{},
	}
	if opts.Notice != nil {
		r.opts.Progress = noticeProgress(opts.Notice)
		r.started = true
	}
	pl := &Player{r: r, openings: map[int]openings.Opening{}}
	r.openingOf = pl.opening
	if err := os.MkdirAll(opts.Logs, 0o755); err != nil {
		return nil, fmt.Errorf("bot logs: %w", err)
	}
	var err error
	if pl.local, err = r.startLocal(ctx); err != nil {
		r.release()
		return nil, err
	}
	for _, n := range r.notes {
		r.logf("%s", n)
	}
	r.notes = nil
	r.noteAffinity(pl.local.workers)
	return pl, nil
}

// opening returns the opening of a game in flight.
func (pl *Player) opening(g schedule.Scheduled) openings.Opening {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return pl.openings[g.ID]
}

// Concurrency returns how many games the Player plays at a time.
func (pl *Player) Concurrency() int { return pl.local.workers }

// Play plays the games next hands out, Concurrency at a time, until it
// hands out no more or ctx is done, and calls record with each game played
// to its end. Games abandoned when ctx is done are not given to record.
// Both may be called from several goroutines at once. Play returns when no
// game is in flight; it may then be called again.
func (pl *Player) Play(ctx context.Context, next func(context.Context) (Game, bool), record func(*journal.Record)) {
	pl.local.Play(ctx, func(ctx context.Context) (schedule.Scheduled, bool) {
		g, ok := next(ctx)
		if !ok {
			return schedule.Scheduled{}, false
		}
		pl.mu.Lock()
		pl.openings[g.ID] = g.Opening
		pl.mu.Unlock()
		return g.Scheduled, true
	}, func(rec *journal.Record) bool {
		pl.mu.Lock()
		delete(pl.openings, rec.ID)
		pl.mu.Unlock()
		record(rec)
		return true
	})
}

// Starts returns how many processes were started per bot.
func (pl *Player) Starts() map[string]int { return pl.local.engines.starts() }

// Close stops every bot process, in use or idle, and waits until all are
// reaped; games in flight are abandoned.
func (pl *Player) Close() {
	pl.local.engines.close()
	pl.r.release()
}

// noticeProgress is a Progress that passes on the notices alone.
type noticeProgress func(msg string)

func (n noticeProgress) Started(ProgressStart)            {}
func (n noticeProgress) Recorded(*journal.Record, string) {}
func (n noticeProgress) Notice(msg string)                { n(msg) }
func (n noticeProgress) Finished()                        {}
