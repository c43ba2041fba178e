package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// asArena returns the test binary, set up to run as the arena command in
// the processes the test starts.
func asArena(tb testing.TB) string {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Setenv(asArenaEnv, "1")
	return exe
}

// BenchmarkArena is arena bench as a Go benchmark: b.N plies, at
// concurrency 1 and 2, between two near-instant bots, reported against
// the floor of a raw pipe round trip between two processes.
func BenchmarkArena(b *testing.B) {
	self := asArena(b)
	for _, game := range []string{"cheversi", "checkers"} {
		b.Run(game, func(b *testing.B) {
			plies := 16 // a Cheversi game; checkers games are longer
			if game == "checkers" {
				plies = 60
			}
			games := max(2, b.N/plies)
			rep, err := bench(b.Context(), benchConfig{game: game, games: games, serial: games, concurrency: 2,
				bot: benchBotName, moveTime: 5 * time.Second, floorRounds: 5000, self: self})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(rep.floor().Nanoseconds()), "floor-ns")
			b.ReportMetric(rep.serial.perPly(rep.serial.wall).Seconds()/rep.floor().Seconds(), "c1-wall/floor")
			b.ReportMetric(float64(rep.serial.perPly(rep.serial.runnerCPU).Nanoseconds()), "c1-cpu-ns/ply")
			steady := rep.serial.steady
			b.ReportMetric(steady.perPly(steady.wall).Seconds()/rep.floor().Seconds(), "c1-steady-wall/floor")
			if f := rep.serial.fit; rep.serial.fitted {
				b.ReportMetric(float64(f.fixed.Nanoseconds()), "c1-fixed-cpu-ns/game")
				b.ReportMetric(float64(f.perPly.Nanoseconds()), "c1-fit-cpu-ns/ply")
			}
			b.ReportMetric(rep.parallel.pliesPerSecond(), "c2-plies/s")
			b.ReportMetric(float64(rep.parallel.perPly(rep.parallel.runnerCPU).Nanoseconds()), "c2-cpu-ns/ply")
		})
	}
}

// TestBench runs a short arena bench and checks that it reports every
// figure, and a heap that is not zero.
func TestBench(t *testing.T) {
	asArena(t)
	var stdout, stderr bytes.Buffer
	if err := runBench(t.Context(), []string{"--games", "20", "--serial-games", "4", "--quiet"}, &stdout, &stderr); err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr.String())
	}
	checkWidth(t, "arena bench", stdout.String())
	// A line wrapped to 80 columns goes on, indented, on the next.
	out := regexp.MustCompile(`\n +`).ReplaceAllString(stdout.String(), " ")
	for _, want := range []string{"floor: a raw pipe round trip", "concurrency 1: 4 games", "concurrency 2: 20 games",
		"x floor), runner CPU", "steady state (start-up and shutdown left out): wall", "CPUs"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "peak 0.0 MiB") {
		t.Errorf("heap peak reported as zero:\n%s", out)
	}
}

// TestBenchSteadyState checks that the steady state of a pass lies within
// the pass: some of its plies, in less wall time than the whole pass.
func TestBenchSteadyState(t *testing.T) {
	self := asArena(t)
	rep, err := bench(t.Context(), benchConfig{game: "checkers", games: 4, serial: 4, concurrency: 2,
		bot: benchBotName, moveTime: 5 * time.Second, floorRounds: 100, self: self})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []benchPass{rep.serial, rep.parallel} {
		s := p.steady
		if s.plies <= 0 || s.plies > p.plies {
			t.Errorf("concurrency %d: steady state of %d plies, want 1 to %d", p.concurrency, s.plies, p.plies)
		}
		if s.wall <= 0 || s.wall >= p.wall {
			t.Errorf("concurrency %d: steady state of %v, want more than 0 and less than the pass's %v", p.concurrency, s.wall, p.wall)
		}
		if s.runnerCPU < 0 || s.runnerCPU > p.runnerCPU {
			t.Errorf("concurrency %d: steady state runner CPU %v, want 0 to the pass's %v", p.concurrency, s.runnerCPU, p.runnerCPU)
		}
	}
}

// TestBenchAlphaBetaMoveTime checks that benchmarking a searching bot
// uses a short move time and shows progress.
func TestBenchAlphaBetaMoveTime(t *testing.T) {
	if testing.Short() {
		t.Skip("plays alphabeta games")
	}
	asArena(t)
	var stdout, stderr bytes.Buffer
	err := runBench(t.Context(), []string{"--bot", "alphabeta", "--games", "2", "--serial-games", "2"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "20ms a move") {
		t.Errorf("output does not give the short move time:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "games") {
		t.Errorf("no progress on stderr:\n%s", stderr.String())
	}
}

// TestBenchFit checks the split of each game's CPU time into a fixed part
// and a part per ply: exact on games that follow the line, robust to a few
// games slowed down, and refused on games of one length.
func TestBenchFit(t *testing.T) {
	var o benchObserver
	for i := range 200 {
		plies := float64(20 + i%50)
		cpu := 90 + 21*plies // µs
		if i%10 == 3 {
			cpu += 5000 // a game slowed down by something else
		}
		o.gamePlies, o.gameCPU = append(o.gamePlies, plies), append(o.gameCPU, cpu)
	}
	f, ok := o.fit()
	if !ok {
		t.Fatal("no fit on games of 20 to 69 plies")
	}
	if f.fixed != 90*time.Microsecond || f.perPly != 21*time.Microsecond {
		t.Errorf("fit = %v fixed + %v per ply, want 90µs + 21µs", f.fixed, f.perPly)
	}
	if f.games != 200 || f.minPlies != 20 || f.maxPlies != 69 {
		t.Errorf("fit over %d games of %d to %d plies, want 200 of 20 to 69", f.games, f.minPlies, f.maxPlies)
	}

	var same benchObserver
	for range 200 {
		same.gamePlies, same.gameCPU = append(same.gamePlies, 16), append(same.gameCPU, 500)
	}
	if f, ok := same.fit(); ok {
		t.Errorf("fit on games of one length = %+v, want none", f)
	}
}
