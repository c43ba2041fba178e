package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	rateGames   = flag.Int("rate.games", 20000, "games in the generated PGN of BenchmarkRate")
	ratePlayers = flag.Int("rate.players", 10, "players in the generated PGN of BenchmarkRate")
	rateOrdo    = flag.String("rate.ordo", "", "ordo binary that BenchmarkRate also runs on the same file, for a time ratio")
	rateFile    = flag.String("rate.file", "", "PGN file BenchmarkRate rates instead of generating one")
)

// writeBenchPGN writes n games in the form cutechess and fastchess give
// them: sixteen tag pairs, then about 80 plies of move text with an
// evaluation comment after every move. players players (at least two)
// whose strengths are spread 40 Elo apart, each game between two drawn at
// random, play with White a little stronger, so the file rates to
// something sensible; the moves are not legal chess, only its shape.
func writeBenchPGN(w io.Writer, n, players int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 7))
	bw := bufio.NewWriterSize(w, 1<<16)
	files, ranks, pieces := "abcdefgh", "12345678", []string{"", "", "", "N", "B", "R", "Q", "K"}
	spread := 40.0
	if players > 10 {
		spread = 400.0 / float64(players) * 10 / 3 // a 1,333-Elo field however many there are
	}
	for i := range n {
		white, black := rng.IntN(players), rng.IntN(players-1)
		if black >= white {
			black++
		}
		d := float64(white-black)*spread + 30
		e := 1 / (1 + math.Pow(10, -d/400))
		result := "1/2-1/2"
		switch u := rng.Float64(); {
		case u < e-0.15:
			result = "1-0"
		case u > e+0.15:
			result = "0-1"
		}
		fmt.Fprintf(bw, "[Event \"bench\"]\n[Site \"?\"]\n[Date \"2025.01.01\"]\n[Round \"%d\"]\n", i+1)
		fmt.Fprintf(bw, "[White \"Engine %02d\"]\n[Black \"Engine %02d\"]\n[Result \"%s\"]\n", white, black, result)
		fmt.Fprintf(bw, "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n")
		fmt.Fprintf(bw, "[GameDuration \"00:01:%02d\"]\n[GameEndTime \"2025-01-01T12:00:00.000 UTC\"]\n", rng.IntN(60))
		fmt.Fprintf(bw, "[GameStartTime \"2025-01-01T11:59:00.000 UTC\"]\n[Opening \"Opening %d\"]\n", i/2%500)
		plies := 60 + rng.IntN(50)
		fmt.Fprintf(bw, "[PlyCount \"%d\"]\n[SetUp \"1\"]\n[Termination \"adjudication\"]\n[TimeControl \"10+0.1\"]\n\n", plies)
		col := 0
		word := func(s string) {
			if col > 0 && col+1+len(s) > 79 {
				bw.WriteByte('\n')
				col = 0
			} else if col > 0 {
				bw.WriteByte(' ')
				col++
			}
			bw.WriteString(s)
			col += len(s)
		}
		for p := range plies {
			if p%2 == 0 {
				word(fmt.Sprintf("%d.", p/2+1))
			}
			word(pieces[rng.IntN(len(pieces))] + string(files[rng.IntN(8)]) + string(ranks[rng.IntN(8)]))
			word(fmt.Sprintf("{%+.2f/%d", rng.NormFloat64(), 8+rng.IntN(20)))
			word(fmt.Sprintf("%.3fs}", rng.Float64()))
		}
		word(result)
		bw.WriteString("\n\n")
	}
	return bw.Flush()
}

// benchPGN writes a file of *rateGames games into the benchmark's
// temporary directory and returns its path and size. (A benchmark that
// uses b.Loop runs its function once, so the file is written once.)
func benchPGN(b *testing.B) (string, int64) {
	if *rateFile != "" {
		st, err := os.Stat(*rateFile)
		if err != nil {
			b.Fatal(err)
		}
		return *rateFile, st.Size()
	}
	path := filepath.Join(b.TempDir(), "bench.pgn")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := writeBenchPGN(f, *rateGames, *ratePlayers, 1); err != nil {
		f.Close()
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, st.Size()
}

// BenchmarkRate runs `arena rate --model ordo` on a generated PGN file
// (-rate.games games, 20000 by default, about 2.7 KB each) and reports the
// throughput and the peak heap. With -rate.ordo PATH it also runs that
// ordo binary on the same file in the same iteration (`-W -D -G`, the
// same fit, outside the timed part) and reports both wall times and their
// ratio, so that the comparison holds on a loaded machine.
func BenchmarkRate(b *testing.B) {
	path, size := benchPGN(b)
	b.SetBytes(size)
	b.ResetTimer()
	b.ReportAllocs()
	var arenaTime, ordoTime time.Duration
	var peak uint64
	for b.Loop() {
		stop := watchHeap(&peak)
		start := time.Now()
		err := runRate(context.Background(), []string{"--model", "ordo", path}, io.Discard, io.Discard)
		arenaTime += time.Since(start)
		stop()
		if err != nil {
			b.Fatal(err)
		}
		if *rateOrdo != "" {
			b.StopTimer() // ns/op and MB/s are the arena's
			start := time.Now()
			out, err := exec.Command(*rateOrdo, "-q", "-W", "-D", "-G", "-p", path, "-o", os.DevNull).CombinedOutput()
			ordoTime += time.Since(start)
			if err != nil {
				b.Fatalf("%s: %v\n%s", *rateOrdo, err, out)
			}
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	if ordoTime > 0 {
		b.ReportMetric(arenaTime.Seconds()/float64(b.N), "arena-s/op")
		b.ReportMetric(ordoTime.Seconds()/float64(b.N), "ordo-s/op")
		b.ReportMetric(arenaTime.Seconds()/ordoTime.Seconds(), "x-ordo")
	}
}

// watchHeap samples the live heap every 20 ms and keeps the
// largest value in *peak until the returned function is called.
func watchHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // exits when done is closed
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapAlloc)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// TestWriteRatePGN writes the benchmark's PGN file to disk for measuring
// other tools on it, when ARENA_RATE_PGN is "PATH:GAMES:PLAYERS" (for
// example "/tmp/rate.pgn:1000000:1000"); otherwise it is skipped.
func TestWriteRatePGN(t *testing.T) {
	spec := os.Getenv("ARENA_RATE_PGN")
	if spec == "" {
		t.Skip("set ARENA_RATE_PGN=PATH:GAMES:PLAYERS to write a benchmark PGN file")
	}
	var path string
	var games, players int
	parts := strings.Split(spec, ":")
	if len(parts) != 3 {
		t.Fatalf("ARENA_RATE_PGN=%q: want PATH:GAMES:PLAYERS", spec)
	}
	path = parts[0]
	games, err1 := strconv.Atoi(parts[1])
	players, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || games < 1 || players < 2 {
		t.Fatalf("ARENA_RATE_PGN=%q: want PATH:GAMES:PLAYERS", spec)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeBenchPGN(f, games, players, 1); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
