package tournament_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/tournament"
)

// remotePool is a GamePool as a pool of remote workers is one: it takes
// batches of games from next, has a Player of its own play them (on
// another configuration, as parsed on another machine), and hands every
// record back twice, the second copy after the batch's other games, as a
// worker whose batch went to another does.
type remotePool struct {
	t      *testing.T
	tour   *tournament.Tournament
	player *tournament.Player
	batch  int

	mu       sync.Mutex
	stopped  bool // record returned false
	afterDup int  // copies handed back after the run stopped
}

func (p *remotePool) Play(ctx context.Context, next func(context.Context) (schedule.Scheduled, bool), record func(*journal.Record) bool) {
	for {
		var games []tournament.Game
		for len(games) < p.batch {
			g, ok := next(ctx)
			if !ok {
				break
			}
			games = append(games, tournament.Game{Scheduled: g, Opening: p.tour.Openings[g.Opening]})
		}
		if len(games) == 0 {
			return
		}
		var recs []*journal.Record
		var mu sync.Mutex
		i := 0
		p.player.Play(ctx, func(context.Context) (tournament.Game, bool) {
			mu.Lock()
			defer mu.Unlock()
			if i == len(games) {
				return tournament.Game{}, false
			}
			i++
			return games[i-1], true
		}, func(rec *journal.Record) {
			mu.Lock()
			defer mu.Unlock()
			// As it travels: encoded and decoded.
			data, err := json.Marshal(rec)
			if err != nil {
				p.t.Error(err)
				return
			}
			var back journal.Record
			if err := json.Unmarshal(data, &back); err != nil {
				p.t.Error(err)
				return
			}
			recs = append(recs, &back)
		})
		for _, copies := range [][]*journal.Record{recs, recs} {
			for _, rec := range copies {
				more := record(rec)
				p.mu.Lock()
				if p.stopped {
					p.afterDup++
				}
				if !more {
					p.stopped = true
				}
				p.mu.Unlock()
			}
		}
		if p.stopped {
			return // drops what next would hand out: nothing, once stopped
		}
	}
}

// newRemotePool returns the Options.Pool of a remotePool whose Player
// plays the configuration at path, loaded again.
func newRemotePool(t *testing.T, path string, batch int, got **remotePool) func(context.Context, *tournament.Tournament) (tournament.GamePool, error) {
	return func(ctx context.Context, tour *tournament.Tournament) (tournament.GamePool, error) {
		if tour.Manifest == nil || tour.Openings == nil || tour.Game == nil || tour.Dir == "" || tour.Logf == nil || tour.Recorded == nil {
			t.Errorf("Tournament is missing a field: %+v", tour)
		}
		player, err := tournament.NewPlayer(ctx, loadConfig(t, path), tournament.PlayerOptions{Concurrency: 2, Logs: filepath.Join(t.TempDir(), "logs")})
		if err != nil {
			return nil, err
		}
		t.Cleanup(player.Close)
		p := &remotePool{t: t, tour: tour, player: player, batch: batch}
		*got = p
		return p, nil
	}
}

// TestPoolPlaysTournament: a tournament played through a pool other than
// the local one, which hands every game back twice, has the journal of a
// local run: every game once, the same games.
func TestPoolPlaysTournament(t *testing.T) {
	path := writeConfig(t, cheversiBody, "pool", testBot{"first", "first"}, testBot{"legal", "legal"}, testBot{"first2", "first"})
	local := filepath.Join(t.TempDir(), "local")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: local}); err != nil {
		t.Fatalf("local Run: %v", err)
	}
	out := filepath.Join(t.TempDir(), "pool")
	var pool *remotePool
	var notes noticeLog
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{
		Out: out, Pool: newRemotePool(t, path, 4, &pool), Progress: &notes,
	})
	if err != nil {
		t.Fatalf("Run with a pool: %v", err)
	}
	if !sum.Complete || sum.Played != sum.Total || sum.Starts != nil {
		t.Errorf("summary: complete %v, played %d of %d, starts %v; want all played, no bot started by the run", sum.Complete, sum.Played, sum.Total, sum.Starts)
	}
	recs := readRecords(t, out)
	checkComplete(t, recs, sum.Total)
	want := readRecords(t, local)
	byID := map[int]journal.Record{}
	for _, r := range want {
		byID[r.ID] = r
	}
	for _, r := range recs {
		w := byID[r.ID]
		if r.Result != w.Result || r.Reason != w.Reason || !slices.Equal(r.AllMoves(), w.AllMoves()) || r.White != w.White {
			t.Errorf("game %d: %s-%s %s %v; the local run's: %s-%s %s %v", r.ID, r.White, r.Black, r.Result, r.AllMoves(), w.White, w.Black, w.Result, w.AllMoves())
		}
	}
	if !strings.Contains(notes.String(), "by workers") {
		t.Errorf("the run's plan does not say the games go to the pool:\n%s", notes.String())
	}
	data, err := journal.ReadDirManifest(out)
	if err != nil || data == nil {
		t.Fatalf("manifest: %v", err)
	}
}

// TestPoolStopsOnSPRT: once the sequential test decides, record returns
// false; the games the pool hands back after that are recorded (for the
// ratings) but do not move the test, and a copy is never recorded twice.
func TestPoolStopsOnSPRT(t *testing.T) {
	body := cheversiBody + "\n[format]\nrounds = 40\n\n[sprt]\nelo0 = 0\nelo1 = 50\n"
	path := writeConfig(t, body, "poolsprt", testBot{"first", "first"}, testBot{"loser", "illegal"})
	out := filepath.Join(t.TempDir(), "out")
	var pool *remotePool
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out, Pool: newRemotePool(t, path, 6, &pool)})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if sum.SPRT == nil || sum.SPRT.Decision != rating.AcceptH1 || sum.Complete {
		t.Fatalf("SPRT %+v, complete %v: want H1 accepted before the end", sum.SPRT, sum.Complete)
	}
	if !pool.stopped || pool.afterDup == 0 {
		t.Errorf("the pool was not told the run stopped (stopped %v, %d records handed back after)", pool.stopped, pool.afterDup)
	}
	recs := readRecords(t, out)
	ids := map[int]bool{}
	for _, r := range recs {
		if ids[r.ID] {
			t.Errorf("game %d recorded twice", r.ID)
		}
		ids[r.ID] = true
	}
	if len(recs) != sum.Recorded || len(recs)%6 != 0 {
		t.Errorf("journal has %d games, summary %d; want whole batches of 6", len(recs), sum.Recorded)
	}
	// The decision is the one a later run reads from the journal.
	again, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil || again.Played != 0 || *again.SPRT != *sum.SPRT {
		t.Errorf("second run: %v, played %d, SPRT %+v; want %+v", err, again.Played, again.SPRT, sum.SPRT)
	}
}

// TestPlayerRefusesBrokenBot: NewPlayer checks every bot first, as Run
// does, and says which one failed.
func TestPlayerRefusesBrokenBot(t *testing.T) {
	path := writeConfig(t, cheversiBody, "playerbroken", testBot{"first", "first"}, testBot{"mute", "nohandshake"})
	appendTOML(t, path, "handshake_timeout = \"300ms\"\n")
	cfg := loadConfig(t, path)
	_, err := tournament.NewPlayer(context.Background(), cfg, tournament.PlayerOptions{Logs: t.TempDir()})
	if !errors.Is(err, tournament.ErrBot) || !strings.Contains(err.Error(), "mute") {
		t.Errorf("NewPlayer with a bot that never answers: %v; want ErrBot naming it", err)
	}
}

// TestPlayerConcurrency: a Player plays as many games at a time as it is
// told, whatever the configuration says.
func TestPlayerConcurrency(t *testing.T) {
	path := writeConfig(t, cheversiBody, "playerconc", testBot{"a", "slow:50"}, testBot{"b", "slow:50"})
	cfg := loadConfig(t, path)
	player, err := tournament.NewPlayer(context.Background(), cfg, tournament.PlayerOptions{Concurrency: 3, Logs: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer player.Close()
	if player.Concurrency() != 3 || cfg.Concurrency != 2 {
		t.Fatalf("Concurrency %d (configuration's %d), want 3 (and the configuration's left at 2)", player.Concurrency(), cfg.Concurrency)
	}
	ops, err := config.LoadOpenings(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sched, err := tournament.Schedule(cfg, ops)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	inFlight, most, n := 0, 0, 0
	games := slices.Collect(sched.Games())
	player.Play(context.Background(), func(context.Context) (tournament.Game, bool) {
		mu.Lock()
		defer mu.Unlock()
		if n == len(games) {
			return tournament.Game{}, false
		}
		n++
		inFlight++
		most = max(most, inFlight)
		return tournament.Game{Scheduled: games[n-1], Opening: sched.Openings[games[n-1].Opening]}, true
	}, func(rec *journal.Record) {
		mu.Lock()
		defer mu.Unlock()
		inFlight--
		if err := journal.VerifyWith(cfg.Rules, rec); err != nil {
			t.Error(err)
		}
	})
	if most != 3 {
		t.Errorf("at most %d games at a time, want 3", most)
	}
}
