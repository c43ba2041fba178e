package dirreport

import (
	"math"
	"testing"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports"
)

func TestSearchStats(t *testing.T) {
	score := 5
	info := func(depth int, nodes int64) *journal.SearchInfo {
		return &journal.SearchInfo{Depth: depth, Nodes: nodes, Score: &score}
	}
	recs := []journal.Record{
		{ // checkers: Black ("a") moves first; after three opening plies White ("b") is to move
			White: "b", Black: "a", FirstMover: "black", Result: "1-0",
			Opening: journal.RecordOpening{Moves: []string{"9-13", "21-17", "5-9"}},
			Moves: []journal.MoveRecord{
				{Move: "25-21", MS: 100, Info: info(4, 1000)}, // b
				{Move: "1-5", MS: 300, Info: info(8, 5000)},   // a
				{Move: "17-14", MS: 50},                       // b, no info
			},
		},
		{ // Cheversi: White ("a") first, no opening
			White: "a", Black: "b", FirstMover: "white", Result: "0-1",
			Moves: []journal.MoveRecord{
				{Move: "K@e4", MS: 200, Info: &journal.SearchInfo{Text: "book"}}, // a: info without depth or nodes
				{Move: "Q@d5", MS: 150, Info: info(6, 0)},                        // b: depth only
			},
		},
	}
	got := searchStats(recs, []string{"a", "b", "idle"})
	want := []reports.BotSearch{
		{Bot: "a", Moves: 2, WithInfo: 2, AvgDepth: 8, NodesPerSecond: 5000 / 0.3, AvgMoveMS: 250},
		{Bot: "b", Moves: 3, WithInfo: 2, AvgDepth: 5, NodesPerSecond: 1000 / 0.1, AvgMoveMS: 100},
	}
	if len(got) != len(want) {
		t.Fatalf("searchStats = %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Bot != w.Bot || g.Moves != w.Moves || g.WithInfo != w.WithInfo || !near(g.AvgDepth, w.AvgDepth) ||
			!near(g.NodesPerSecond, w.NodesPerSecond) || !near(g.AvgMoveMS, w.AvgMoveMS) {
			t.Errorf("searchStats[%d] = %+v, want %+v", i, g, w)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
