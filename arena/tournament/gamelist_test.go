package tournament_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/reports/viewer"
)

// TestGameList: the games come in the journal's order, out of the order
// of their IDs; the list comes out as json.Marshal writes the viewer.List
// of the games sorted by ID, and says where each game's line is.
func TestGameList(t *testing.T) {
	root := t.TempDir()
	writeSynth(t, root, synthOptions{games: 200})
	recs, err := journal.Read(filepath.Join(root, "whole", journal.File))
	if err != nil {
		t.Fatal(err)
	}
	l, err := dirreport.NewGameList(root)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i := range recs {
		if err := l.Add(&recs[i], int64(1000*recs[i].ID), recs[i].ID%7+1); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Add(&recs[3], 1, 1); err != nil { // again: kept as it was
		t.Fatal(err)
	}
	if l.Len() != len(recs) {
		t.Errorf("Len = %d, want %d", l.Len(), len(recs))
	}
	for _, id := range []int{0, 1, 77, 200, 201} {
		off, n, ok, err := l.Line(id)
		if err != nil {
			t.Fatal(err)
		}
		want := id >= 1 && id <= 200
		if ok != want || l.Has(id) != want || (ok && (off != int64(1000*id) || n != id%7+1)) {
			t.Errorf("Line(%d) = %d, %d, %v; want %d, %d, %v", id, off, n, ok, 1000*id, id%7+1, want)
		}
	}

	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, func(a, b journal.Record) int { return cmp.Compare(a.ID, b.ID) })
	if slices.EqualFunc(sorted, recs, func(a, b journal.Record) bool { return a.ID == b.ID }) {
		t.Fatal("the journal holds the games in the order of their IDs; the test wants another")
	}
	want := make([]*journal.Record, len(sorted))
	for i := range sorted {
		want[i] = &sorted[i]
	}
	if got, want := listJSON(t, l, want); !bytes.Equal(got, want) {
		t.Errorf("WriteJSON =\n%.300s\nwant\n%.300s", got, want)
	}
}

// listJSON returns what l.WriteJSON writes and what json.Marshal writes
// for the viewer.List of recs.
func listJSON(t *testing.T, l *dirreport.GameList, recs []*journal.Record) (got, want []byte) {
	t.Helper()
	list := viewer.NewList("cheversi")
	for _, r := range recs {
		list.Add(dirreport.ViewSummary(r))
	}
	want, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.WriteJSON(&buf, "cheversi"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), want
}

// TestGameListFailedAdd: a game whose entry could not be written (the
// file may not grow: a full disk, here the file size limit) is not in
// the list, half an entry left in the file or not, and is added when
// given again.
func TestGameListFailedAdd(t *testing.T) {
	root := t.TempDir()
	writeSynth(t, root, synthOptions{games: 3})
	recs, err := journal.Read(filepath.Join(root, "whole", journal.File))
	if err != nil {
		t.Fatal(err)
	}
	// Game 1 is given the ID whose 40-byte entry straddles 16 MiB.
	const limit, farID = 16 << 20, 16<<20/40 + 1
	byID := map[int]*journal.Record{}
	for i := range recs {
		if recs[i].ID == 1 {
			recs[i].ID = farID
		}
		byID[recs[i].ID] = &recs[i]
	}
	l, err := dirreport.NewGameList(root)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	// With the file limited to 16 MiB, half of the entry is written, then
	// the write fails.
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	low := lim
	low.Cur = limit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &low); err != nil {
		t.Skipf("cannot limit the file size: %v", err)
	}
	addErr := l.Add(byID[farID], 100, 10)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	if addErr == nil {
		t.Fatal("Add succeeded past the file size limit")
	}
	if l.Has(farID) || l.Len() != 0 {
		t.Errorf("after a failed Add: Has = %v, Len = %d; want false, 0", l.Has(farID), l.Len())
	}
	if _, _, ok, err := l.Line(farID); ok || err != nil {
		t.Errorf("Line after a failed Add: ok %v, err %v; want no game", ok, err)
	}

	// Games 2 and 3 come; the list holds them alone, until the failed game
	// comes again.
	for _, id := range []int{2, 3} {
		if err := l.Add(byID[id], int64(100*id), 10); err != nil {
			t.Fatal(err)
		}
	}
	check := func(ids ...int) {
		t.Helper()
		var recs []*journal.Record
		for _, id := range ids {
			recs = append(recs, byID[id])
		}
		if got, want := listJSON(t, l, recs); !bytes.Equal(got, want) || l.Len() != len(ids) {
			t.Errorf("games %v: Len = %d, WriteJSON =\n%.300s\nwant\n%.300s", ids, l.Len(), got, want)
		}
	}
	check(2, 3)
	if err := l.Add(byID[farID], 100, 10); err != nil {
		t.Fatal(err)
	}
	check(2, 3, farID)
	if off, n, ok, err := l.Line(farID); !ok || err != nil || off != 100 || n != 10 {
		t.Errorf("Line = %d, %d, %v, %v; want 100, 10, true, nil", off, n, ok, err)
	}
}
