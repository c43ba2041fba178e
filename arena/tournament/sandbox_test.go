package tournament_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/sandbox"
	"github.com/arena-games/arena/arena/tournament"
)

// TestMemoryLimitForfeit plays a bot that allocates until it dies under a
// memory limit, with the bots pinned to CPUs: it forfeits each game with
// the limit named, and the tournament goes on to the end.
func TestMemoryLimitForfeit(t *testing.T) {
	if f := sandbox.Probe(); !f.Memory {
		if os.Getenv("ARENA_REQUIRE_SANDBOX") != "" {
			t.Fatalf("this machine has no cgroup memory controller the arena may use (%v; ARENA_REQUIRE_SANDBOX is set)", f)
		}
		t.Skipf("this machine has no cgroup memory controller the arena may use (%v)", f)
	}
	path := writeConfig(t, `
name = "hog"
concurrency = 2
affinity = "auto"
[game]
name = "cheversi"
[openings]
plies = 2
count = 2
[time]
move = "20s"
[limits]
memory = "128MiB"
processes = 64
`, "hog", testBot{"hog", "hog"}, testBot{"fair", "random:3"})
	out := filepath.Join(t.TempDir(), "out")
	sum, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !sum.Complete {
		t.Fatalf("the tournament did not finish: %+v", sum)
	}
	recs := readRecords(t, out)
	if len(recs) != 4 {
		t.Fatalf("%d games, want 4", len(recs))
	}
	for _, r := range recs {
		f := r.Forfeit
		if f == nil || f.Bot != "hog" || f.Kind != journal.ForfeitLimit || !strings.Contains(f.Detail, "memory limit 128 MiB") {
			t.Errorf("game %d: forfeit %+v, want hog's, of kind %q, naming its memory limit", r.ID, f, journal.ForfeitLimit)
		}
	}
}
