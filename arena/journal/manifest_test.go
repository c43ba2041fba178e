package journal_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/arena-games/arena/arena/journal"
)

// TestFingerprintV1 checks that a directory written with a version 1
// manifest (a fingerprint over every game) still checks out.
func TestFingerprintV1(t *testing.T) {
	m, err := journal.ReadManifest(filepath.Join("testdata", "v1"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != 1 {
		t.Fatalf("testdata manifest has version %d, want 1", m.Version)
	}
	s, err := m.Schedule(context.Background())
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	if s.Len() != m.Games {
		t.Errorf("%d games, the manifest says %d", s.Len(), m.Games)
	}
	m.Rounds = 3
	if _, err := m.Schedule(context.Background()); !errors.Is(err, journal.ErrScheduleChanged) {
		t.Errorf("Schedule with a changed round count: err = %v, want ErrScheduleChanged", err)
	}
}
