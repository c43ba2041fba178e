package tournament_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/reports/live"
	"github.com/arena-games/arena/reports/viewer"
)

// BenchmarkTournamentLive is BenchmarkTournament with and without the live
// page following the games (as arena run --serve does) and four browsers
// reading its event stream: the difference is what the Observer hook and
// the page cost the tournament. Compare the two in one run.
func BenchmarkTournamentLive(b *testing.B) {
	for _, gameName := range []string{"cheversi", "checkers"} {
		for _, served := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/served=%v", gameName, served), func(b *testing.B) {
				rounds := max(1, b.N/2)
				cfg := instantConfig(b, gameName, rounds)
				out := filepath.Join(b.TempDir(), "out")
				opts := tournament.Options{Out: out}
				if served {
					srv, stop := servePage(b, out)
					defer stop()
					opts.Observer = srv
				}
				b.ResetTimer()
				start := time.Now()
				sum, err := tournament.Run(context.Background(), cfg, opts)
				if err != nil {
					b.Fatal(err)
				}
				secs := time.Since(start).Seconds()
				b.ReportMetric(float64(sum.Plies)/secs, "plies/s")
				b.ReportMetric(float64(sum.Played)/secs, "games/s")
			})
		}
	}
}

// servePage serves the live page of dir with four browsers following it
// and returns the server and the function that stops them.
func servePage(b *testing.B, dir string) (*live.Server, func()) {
	srv := live.New(dir, live.Options{InRun: true})
	l, err := viewer.Listen("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); srv.Run(ctx) }()
	go func() { defer wg.Done(); srv.Serve(ctx, l) }()
	for range 4 {
		req, _ := http.NewRequestWithContext(ctx, "GET", viewer.URL(l)+"api/events", nil)
		wg.Add(1)
		go func() { // reads until the server stops
			defer wg.Done()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
			}
		}()
	}
	return srv, func() {
		cancel()
		wg.Wait()
	}
}
