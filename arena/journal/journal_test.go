package journal_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/journal"
)

func sampleRecord(id int) journal.Record {
	return journal.Record{
		ID: id, Round: 1, PairKey: "r1/o1/a/b",
		Opening: journal.RecordOpening{Index: 1, Name: "start position", Moves: []string{}},
		Game:    "cheversi", Preset: "cheversi",
		White: "a", Black: "b", FirstMover: "white",
		Moves:  []journal.MoveRecord{{Move: "K@e4", MS: 0.25}},
		Result: "0-1", Winner: "b", Reason: journal.ReasonForfeit,
		Forfeit: &journal.Forfeit{Kind: journal.ForfeitTime, Bot: "a", Detail: "slow"},
		Start:   time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

func line(t testing.TB, r journal.Record) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func TestDecodeJournal(t *testing.T) {
	l1, l2, l3 := line(t, sampleRecord(1)), line(t, sampleRecord(2)), line(t, sampleRecord(3))
	for _, c := range []struct {
		name     string
		data     string
		ids      []int
		good     int
		wantErr  bool
		errMatch string
	}{
		{"empty", "", nil, 0, false, ""},
		{"complete", l1 + l2, []int{1, 2}, len(l1 + l2), false, ""},
		{"torn without newline", l1 + l2 + l3[:20], []int{1, 2}, len(l1 + l2), false, ""},
		{"torn last line with newline", l1 + l2[:30] + "\n", []int{1}, len(l1), false, ""},
		{"trailing zeros", l1 + "\x00\x00\x00", []int{1}, len(l1), false, ""},
		{"bad middle line", l1 + "{oops}\n" + l2, nil, 0, true, "line 2"},
		{"empty middle line", l1 + "\n" + l2, nil, 0, true, "line 2 is empty"},
		{"duplicate", l1 + l2 + l1, nil, 0, true, "game 1 already recorded on line 1"},
		{"bad result", strings.Replace(l1, `"0-1"`, `"2-0"`, 1) + l2, nil, 0, true, "line 1"},
		{"unfinished", strings.Replace(l1, `"0-1"`, `"*"`, 1) + l2, nil, 0, true, "not a final result"},
	} {
		recs, good, err := journal.Decode([]byte(c.data))
		if c.wantErr {
			if !errors.Is(err, journal.ErrDamaged) || !strings.Contains(err.Error(), c.errMatch) {
				t.Errorf("%s: err = %v, want ErrJournal with %q", c.name, err, c.errMatch)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var ids []int
		for _, r := range recs {
			ids = append(ids, r.ID)
		}
		if len(ids) != len(c.ids) || good != c.good {
			t.Errorf("%s: ids %v good %d, want %v %d", c.name, ids, good, c.ids, c.good)
		}
	}
}

func TestJournalAppendAndRepair(t *testing.T) {
	path := filepath.Join(t.TempDir(), journal.File)
	j, recs, err := journal.Open(path)
	if err != nil || len(recs) != 0 {
		t.Fatalf("OpenJournal(new) = %v, %v", recs, err)
	}
	for id := 1; id <= 3; id++ {
		r := sampleRecord(id)
		if err := j.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(&journal.Record{ID: 9}); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Append after Close: %v, want os.ErrClosed", err)
	}
	// A torn write at the end is cut off when the journal is reopened.
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"id":4,"rou`)
	f.Close()
	j, recs, err = journal.Open(path)
	if err != nil || len(recs) != 3 {
		t.Fatalf("OpenJournal(torn) = %d games, %v; want 3", len(recs), err)
	}
	r := sampleRecord(4)
	if err := j.Append(&r); err != nil {
		t.Fatal(err)
	}
	j.Close()
	recs, err = journal.Read(path)
	if err != nil || len(recs) != 4 || recs[3].ID != 4 {
		t.Fatalf("ReadJournal after repair = %d games, %v; want 4", len(recs), err)
	}
	if got := recs[0]; got.Forfeit == nil || got.Forfeit.Kind != journal.ForfeitTime || !got.Start.Equal(sampleRecord(1).Start) {
		t.Errorf("record did not round-trip: %+v", got)
	}
	// Damage before the end is not repaired silently.
	data, _ := os.ReadFile(path)
	os.WriteFile(path, append([]byte("garbage\n"), data...), 0o644)
	if _, _, err := journal.Open(path); !errors.Is(err, journal.ErrDamaged) {
		t.Errorf("OpenJournal(damaged) err = %v, want ErrJournal", err)
	}
}

func FuzzDecodeJournal(f *testing.F) {
	f.Add([]byte(line(f, sampleRecord(1)) + line(f, sampleRecord(2))))
	f.Add([]byte(line(f, sampleRecord(1)) + `{"id":2`))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, good, err := journal.Decode(data)
		if err != nil {
			if !errors.Is(err, journal.ErrDamaged) {
				t.Errorf("error does not wrap ErrJournal: %v", err)
			}
			return
		}
		if good < 0 || good > len(data) || (good > 0 && data[good-1] != '\n') {
			t.Fatalf("good = %d of %d bytes, not at a line end", good, len(data))
		}
		// The good prefix decodes to the same games with nothing torn.
		again, good2, err := journal.Decode(data[:good])
		if err != nil || good2 != good || len(again) != len(recs) {
			t.Errorf("prefix: %d games good %d err %v; want %d games good %d", len(again), good2, err, len(recs), good)
		}
	})
}

// BenchmarkDecodeJournalLine measures DecodeJournal on one line, as the
// live page decodes each line it follows.
func BenchmarkDecodeJournalLine(b *testing.B) {
	data := []byte(line(b, sampleRecord(7)))
	b.ReportAllocs()
	for b.Loop() {
		recs, _, err := journal.Decode(data)
		if err != nil || len(recs) != 1 {
			b.Fatalf("DecodeJournal = %d games, %v", len(recs), err)
		}
	}
}
