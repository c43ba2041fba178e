package tournament_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/reports/viewer"
)

// TestGameList: the games come in the journal's order, out of the order
// of their IDs; the list comes out as json.Marshal writes the viewer.List
// of the games sorted by ID, and says where each game's line is.
func TestGameList(t *testing.T) {
	root := t.TempDir()
	writeSynth(t, root, synthOptions{games: 200})
	recs, err := tournament.ReadJournal(filepath.Join(root, "whole", tournament.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	l, err := tournament.NewGameList(root)
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
	slices.SortFunc(sorted, func(a, b tournament.Record) int { return cmp.Compare(a.ID, b.ID) })
	if slices.EqualFunc(sorted, recs, func(a, b tournament.Record) bool { return a.ID == b.ID }) {
		t.Fatal("the journal holds the games in the order of their IDs; the test wants another")
	}
	list := viewer.NewList("cheversi")
	for i := range sorted {
		list.Add(tournament.ViewSummary(&sorted[i]))
	}
	want, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := l.WriteJSON(&got, "cheversi"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("WriteJSON =\n%.300s\nwant\n%.300s", got.Bytes(), want)
	}
}
