package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// transportConfig is a match of two built-in bots (%[2]s, with the
// arguments %[3]s): random movers cost the bots next to nothing, so that
// what a game costs the arena and its transport shows; alphabeta at 10,000
// nodes plays games of a realistic length.
const transportConfig = `name = "transport"
seed = 11
[game]
name = "cheversi"
[openings]
plies = 2
count = %[1]d
[time]
move = "10s"
[[bots]]
name = "b1"
builtin = "%[2]s"
args = %[3]s
[[bots]]
name = "b2"
builtin = "%[2]s"
args = %[3]s
`

// BenchmarkWorkersTransport measures the cost of the transport: the games
// per second of a tournament played by a local arena run at concurrency 4,
// and by a coordinator (arena run --workers, with its NATS server inside)
// with 1, 2 and 4 worker processes playing 4 games at a time between
// them, for games that cost the bots nothing (random) and games of a
// realistic length (alphabeta). Each pass plays the whole tournament, from
// the start of the arena to its end (the workers' start and the NATS
// server's included); it reports games/s and, with workers, the CPU the
// coordinator used per game and as a share of one CPU over the run. Run it
// with -benchtime=1x: one pass per configuration.
//
//	go test -run '^$' -bench WorkersTransport -benchtime=1x ./cmd/arena
func BenchmarkWorkersTransport(b *testing.B) {
	exe := buildArena(b)
	for _, bots := range []struct {
		name, builtin, args string
		openings            int
	}{
		{"random", "random", "[]", 1000},
		{"alphabeta", "alphabeta", `["--nodes", "10000"]`, 150},
	} {
		config := filepath.Join(b.TempDir(), "transport.toml")
		os.WriteFile(config, []byte(fmt.Sprintf(transportConfig, bots.openings, bots.builtin, bots.args)), 0o644)
		games := 2 * bots.openings
		b.Run(bots.name+"/local", func(b *testing.B) {
			for range b.N {
				out := filepath.Join(b.TempDir(), "out")
				began := time.Now()
				p := start(b, exe, "local", "run", "--quiet", "--concurrency", "4", "--out", out, config)
				waitB(b, p, 20*time.Minute)
				b.ReportMetric(float64(games)/time.Since(began).Seconds(), "games/s")
				b.ReportMetric(0, "ns/op")
			}
		})
		for _, n := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/workers=%d", bots.name, n), func(b *testing.B) {
				for range b.N {
					benchWorkers(b, exe, config, n, games)
				}
			})
		}
	}
}

// benchWorkers plays the tournament of config with a coordinator and n
// workers, and reports the rate and the coordinator's CPU.
func benchWorkers(b *testing.B, exe, config string, n, games int) {
	out := filepath.Join(b.TempDir(), "out")
	began := time.Now()
	coord := start(b, exe, "coordinator", "run", "--quiet", "--out", out, "--workers", "listen://127.0.0.1:0", config)
	url := workerURL(b, out)
	for i := range n {
		start(b, exe, fmt.Sprint("w", i), "worker", "--once", "--concurrency", fmt.Sprint(4/n), url)
	}
	waitB(b, coord, 20*time.Minute)
	if got := journalGames(out); got != games {
		b.Fatalf("%d games recorded, want %d", got, games)
	}
	elapsed := time.Since(began)
	b.ReportMetric(float64(games)/elapsed.Seconds(), "games/s")
	b.ReportMetric(0, "ns/op")
	// The coordinator's own CPU (its NATS server's included): it starts no
	// bot.
	cpu := coord.cmd.ProcessState.UserTime() + coord.cmd.ProcessState.SystemTime()
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(games), "coord-cpu-ms/game")
	b.ReportMetric(100*cpu.Seconds()/elapsed.Seconds(), "coord-cpu-%")
}

func waitB(b *testing.B, p *proc, within time.Duration) {
	b.Helper()
	select {
	case <-p.done:
	case <-time.After(within):
		b.Fatalf("%s still running after %v", p.name, within)
	}
	if p.err != nil {
		b.Fatalf("%s: %v\n%s", p.name, p.err, strings.TrimSpace(p.stderr.String()))
	}
}
