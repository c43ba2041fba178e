package pgn

import (
	"testing"

	"github.com/arena-games/arena/arena/journal"
)

func TestMoveComment(t *testing.T) {
	score := func(n int) *int { return &n }
	tests := []struct {
		m    journal.MoveRecord
		want string
	}{
		{journal.MoveRecord{MS: 210.4, Info: &journal.SearchInfo{Depth: 12, Score: score(35)}}, "{+0.35/12 0.21s}"},
		{journal.MoveRecord{MS: 1234, Info: &journal.SearchInfo{Depth: 7, Score: score(-250)}}, "{-2.50/7 1.2s}"},
		{journal.MoveRecord{MS: 12345.6, Info: &journal.SearchInfo{Depth: 30, Score: score(0)}}, "{0.00/30 12s}"},
		{journal.MoveRecord{MS: 42.7, Info: &journal.SearchInfo{Depth: 1, Score: score(3)}}, "{+0.03/1 0.043s}"},
		{journal.MoveRecord{MS: 0.2, Info: &journal.SearchInfo{Depth: 1, Score: score(1)}}, "{+0.01/1 0s}"},
		{journal.MoveRecord{MS: 999.6}, "{1.0s}"},
		// A score is never dropped: info depth 0 score 100 (or a score
		// without a depth) is written with depth 0, as cutechess does.
		{journal.MoveRecord{MS: 5, Info: &journal.SearchInfo{Score: score(100)}}, "{+1.00/0 0.005s}"},
		{journal.MoveRecord{MS: 5, Info: &journal.SearchInfo{Score: score(-7)}}, "{-0.07/0 0.005s}"},
		// A depth without a score is no evaluation: the time alone.
		{journal.MoveRecord{MS: 5, Info: &journal.SearchInfo{Depth: 4, Nodes: 100}}, "{0.005s}"},
	}
	for _, tt := range tests {
		if got := string(appendMoveComment(nil, &tt.m)); got != tt.want {
			t.Errorf("comment for %+v = %s, want %s", tt.m, got, tt.want)
		}
	}
}

// BenchmarkAppendGameText measures writing one checkers game of 120 plies
// to the PDN file, with and without the search info of every move.
func BenchmarkAppendGameText(b *testing.B) {
	for _, withInfo := range []bool{false, true} {
		rec := journal.Record{ID: 1, Round: 1, Game: "checkers", White: "a", Black: "b", FirstMover: "black", Result: "1/2-1/2",
			Reason: "max-plies", Opening: journal.RecordOpening{Index: 1, Moves: []string{"9-13", "21-17", "5-9"}}}
		for i := range 117 {
			m := journal.MoveRecord{Move: "11x18x25", MS: float64(i) * 7.3}
			if withInfo {
				score := i*13 - 700
				m.Info = &journal.SearchInfo{Depth: 9, Score: &score, Nodes: 123456, TimeMS: 80, PV: []string{"11x18x25", "29x22"}}
			}
			rec.Moves = append(rec.Moves, m)
		}
		name := "plain"
		if withInfo {
			name = "info"
		}
		b.Run(name, func(b *testing.B) {
			var buf []byte
			for b.Loop() {
				buf = AppendRecord(buf[:0], &rec, "bench")
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}
