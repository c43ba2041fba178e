package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/tournament"
)

func TestFitLine(t *testing.T) {
	parts := []linePart{
		{text: "a-long-tournament-name", keep: -1, shrink: true},
		{text: ": 23/96 games", keep: -1},
		{text: " (24%)", keep: 2},
		{text: ", 12.3 games/s", keep: 0},
		{text: ", ETA 6s", keep: 3},
		{text: ", leader alphabeta 10.5/14", keep: 1},
	}
	for _, c := range []struct {
		width int
		want  string
	}{
		{0, "a-long-tournament-name: 23/96 games (24%), 12.3 games/s, ETA 6s, leader alphabeta 10.5/14"},
		{100, "a-long-tournament-name: 23/96 games (24%), 12.3 games/s, ETA 6s, leader alphabeta 10.5/14"},
		{79, "a-long-tournament-name: 23/96 games (24%), ETA 6s, leader alphabeta 10.5/14"},
		{60, "a-long-tournament-name: 23/96 games (24%), ETA 6s"},
		{44, "a-long-tournament-name: 23/96 games, ETA 6s"},
		{36, "a-long-tournament-name: 23/96 games"},
		{30, "a-long-tournamen…: 23/96 games"},
		{14, "a…: 23/96 game"},
	} {
		got := fitLine(parts, c.width)
		if got != c.want {
			t.Errorf("fitLine(width %d) = %q, want %q", c.width, got, c.want)
		}
		if c.width > 0 && utf8.RuneCountInString(got) > c.width {
			t.Errorf("fitLine(width %d) is %d long", c.width, utf8.RuneCountInString(got))
		}
	}
}

// TestProgressFitsTerminal draws the live line at a terminal width: each
// redraw fits in one line, so the terminal never scrolls.
func TestProgressFitsTerminal(t *testing.T) {
	var out bytes.Buffer
	width := 40
	p := newProgress(&out, true, func() int { return width }, 0)
	p.Started(tournament.ProgressStart{Name: "quite-a-long-tournament-name", Games: 96, Tally: journal.NewTally([]string{"alphabeta", "greedy"})})
	p.mu.Lock()
	p.start = time.Now().Add(-time.Second)
	p.mu.Unlock()
	rec := &journal.Record{White: "alphabeta", Black: "greedy", Result: "1-0", Winner: "alphabeta"}
	for range 3 {
		p.Recorded(rec, "")
		p.tick()
	}
	width = 20 // the terminal was narrowed
	p.tick()
	p.Finished()
	draws := strings.Split(out.String(), "\r\x1b[K")[1:]
	if len(draws) < 4 {
		t.Fatalf("%d redraws, want at least 4: %q", len(draws), out.String())
	}
	for i, d := range draws {
		d = strings.TrimSuffix(d, "\n")
		limit := 39
		if i >= len(draws)-2 {
			limit = 19
		}
		if n := utf8.RuneCountInString(d); n > limit || strings.Contains(d, "\n") {
			t.Errorf("redraw %d is %d long (limit %d): %q", i, n, limit, d)
		}
		if !strings.Contains(d, "/96 games") {
			t.Errorf("redraw %d lost the count: %q", i, d)
		}
	}
}
