package journal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"
)

// BenchmarkMergeManySlices merges the slice directories of a study of
// 1,000 openings (2,000 games of two bots) cut into 1,000 slices, their
// journals empty (--partial): what the merge costs beyond the games. The
// manifests hold the openings by digest, as a slice's manifest is written,
// or by copy, as they were before; peak-heap-MB is the largest heap seen
// during the merge, sampled every millisecond.
//
//	go test -run '^$' -bench MergeManySlices -benchtime=1x ./arena/journal
func BenchmarkMergeManySlices(b *testing.B) {
	const n, count = 1000, 1000
	ops := make([]openings.Opening, count)
	for i := range ops {
		ops[i] = openings.Opening{Name: fmt.Sprintf("opening %d", i+1), Moves: []string{"N@b1", "n@g8", fmt.Sprintf("P@a%d", 1+i%8)}, Seed: uint64(i)}
	}
	bots := []string{"a", "b"}
	s, err := schedule.New("round-robin", 1, bots, nil, ops)
	if err != nil {
		b.Fatal(err)
	}
	for _, byDigest := range []bool{false, true} {
		name := "by-copy"
		if byDigest {
			name = "by-digest"
		}
		b.Run(name, func(b *testing.B) {
			root := b.TempDir()
			dirs := make([]string, n)
			for i := range n {
				dirs[i] = filepath.Join(root, fmt.Sprint("slice-", i))
				if err := os.Mkdir(dirs[i], 0o755); err != nil {
					b.Fatal(err)
				}
				m := &journal.Manifest{
					Version: journal.ManifestVersion, Name: "study", Created: time.Unix(0, 0).UTC(),
					Fingerprint: s.FingerprintV2("cheversi", "cheversi", nil), Games: s.SliceLen(&schedule.Shard{Index: i, Count: n}),
					Game: "cheversi", Preset: "cheversi", Format: "round-robin", Rounds: 1, Bots: bots, Openings: ops,
				}
				if err := os.WriteFile(filepath.Join(dirs[i], journal.File), nil, 0o644); err != nil {
					b.Fatal(err)
				}
				m.Shard = &schedule.Shard{Index: i, Count: n}
				if byDigest {
					if err := m.Write(dirs[i]); err != nil {
						b.Fatal(err)
					}
					continue
				}
				// A slice's manifest as it was written before: the openings
				// copied in.
				data, err := json.Marshal(m)
				if err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dirs[i], journal.ManifestFile), data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			for range b.N {
				out := filepath.Join(b.TempDir(), "merged")
				runtime.GC()
				peak := peakHeap(func() {
					if _, err := journal.Merge(context.Background(), out, dirs, journal.MergeOptions{Partial: true}); err != nil {
						b.Fatal(err)
					}
				})
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			}
		})
	}
}

// peakHeap runs f and returns the largest heap in use seen meanwhile.
func peakHeap(f func()) uint64 {
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() { // ends when f has returned
		var max uint64
		var ms runtime.MemStats
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > max {
				max = ms.HeapInuse
			}
			select {
			case <-done:
				peak <- max
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	return <-peak
}
