package journal

import (
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestJournalGroupCommit checks that a burst of games costs one sync, not
// one each, that a sync follows within the interval, and that Close syncs
// what is left.
func TestJournalGroupCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		syncs []time.Time
	)
	realSync := j.sync
	j.sync = func() error {
		mu.Lock()
		syncs = append(syncs, time.Now())
		mu.Unlock()
		return realSync()
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(syncs)
	}
	rec := Record{ID: 1, Result: "1-0", FirstMover: "white", Moves: []MoveRecord{}}
	began := time.Now()
	for i := range 100 {
		rec.ID = i + 1
		if err := j.Append(&rec); err != nil {
			t.Fatal(err)
		}
	}
	burst := time.Since(began)
	if n := count(); burst < SyncInterval && n > 0 {
		t.Errorf("%d syncs during a burst of 100 games in %v, want none before the interval", n, burst)
	}
	for deadline := time.Now().Add(10 * time.Second); count() == 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
	}
	if n := count(); n == 0 || n > 1+int(burst/SyncInterval) {
		t.Errorf("%d syncs for 100 games appended in %v, want 1 (one per %v)", n, burst, SyncInterval)
	}
	synced := count()
	rec.ID = 101
	if err := j.Append(&rec); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != synced+1 {
		t.Errorf("Close after one more game: %d syncs, want %d", n, synced+1)
	}
	if err := j.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	recs, err := Read(path)
	if err != nil || len(recs) != 101 {
		t.Errorf("journal holds %d games (%v), want 101", len(recs), err)
	}
}
