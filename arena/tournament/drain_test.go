package tournament_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/tournament"
)

// drainAfter closes drain once n games are recorded, and counts the games
// started and ended.
type drainAfter struct {
	n     int
	drain chan struct{}

	mu               sync.Mutex
	recorded         int
	started, endedAt int // games started; games started when drain closed
}

func (d *drainAfter) Started(tournament.ProgressStart) {}
func (d *drainAfter) Notice(string)                    {}
func (d *drainAfter) Finished()                        {}
func (d *drainAfter) Recorded(*journal.Record, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.recorded++
	if d.recorded == d.n {
		d.endedAt = d.started
		close(d.drain)
	}
}
func (d *drainAfter) GameStarted(journal.Record) {
	d.mu.Lock()
	d.started++
	d.mu.Unlock()
}
func (d *drainAfter) Moved(int, journal.MoveRecord) {}
func (d *drainAfter) GameEnded(int)                 {}

// TestDrainFinishesGamesInFlight closes Options.Drain once the first game
// is recorded: no game starts after that, every game in flight is played
// to its end and recorded, Run says it stopped early, and a later run
// plays the rest.
func TestDrainFinishesGamesInFlight(t *testing.T) {
	body := "name = \"drain\"\nconcurrency = 3\n[game]\nname = \"cheversi\"\n[openings]\nplies = 1\ncount = 6\n[time]\nmove = \"5s\"\n"
	path := writeConfig(t, body, "drain", testBot{"a", "slowhash:1"}, testBot{"b", "slowhash:2"})
	cfg := loadConfig(t, path)
	out := t.TempDir()
	d := &drainAfter{n: 1, drain: make(chan struct{})}
	sum, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out, Progress: d, Observer: d, Drain: d.drain})
	if !errors.Is(err, context.Canceled) || sum == nil || sum.Complete {
		t.Fatalf("Run: %v (summary %+v), want a stop short of the whole schedule", err, sum)
	}
	d.mu.Lock()
	started, endedAt, recorded := d.started, d.endedAt, d.recorded
	d.mu.Unlock()
	if started != endedAt || recorded != started || sum.Played != started || started < 2 {
		t.Errorf("%d games started (%d when drained), %d recorded, %d played: want every game in flight finished and none started after", started, endedAt, recorded, sum.Played)
	}
	if recs := readRecords(t, out); len(recs) != started {
		t.Errorf("the journal holds %d games, want the %d played", len(recs), started)
	}
	sum, err = tournament.Run(context.Background(), cfg, tournament.Options{Out: out})
	if err != nil || !sum.Complete || sum.Played != 12-started {
		t.Errorf("resume: %v, played %d, complete %v; want the other %d", err, sum.Played, sum.Complete, 12-started)
	}
}

// TestDrainBeforeTheGames closes Options.Drain before the run starts: it
// stops as a canceled context does, nothing played.
func TestDrainBeforeTheGames(t *testing.T) {
	path := writeConfig(t, "name = \"early\"\n[game]\nname = \"cheversi\"\n", "early", testBot{"a", "first"}, testBot{"b", "first"})
	drain := make(chan struct{})
	close(drain)
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: t.TempDir(), Drain: drain})
	if !errors.Is(err, context.Canceled) || sum != nil && sum.Played > 0 {
		t.Errorf("Run: %v, %+v; want it canceled with nothing played", err, sum)
	}
}

// TestRestartAlways plays a bot with restart = "always": a process of its
// own for every game it plays, while the other bot keeps its processes.
func TestRestartAlways(t *testing.T) {
	body := "name = \"restart\"\nconcurrency = 1\n[game]\nname = \"cheversi\"\n[openings]\nplies = 1\ncount = 3\n[time]\nmove = \"5s\"\n"
	path := writeConfig(t, body, "restart", testBot{"fresh", "hash:1"}, testBot{"kept", "hash:2"})
	cfg := loadConfig(t, path)
	for i := range cfg.Bots {
		if cfg.Bots[i].Name == "fresh" {
			cfg.Bots[i].Restart = "always"
		}
	}
	sum, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: t.TempDir()})
	if err != nil || !sum.Complete {
		t.Fatalf("Run: %v", err)
	}
	if sum.Starts["fresh"] != 6 || sum.Starts["kept"] != 1 {
		t.Errorf("processes started: %v; want fresh 6 (one a game) and kept 1", sum.Starts)
	}
}
