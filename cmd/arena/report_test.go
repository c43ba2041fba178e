package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports"
	"github.com/arena-games/arena/reports/dirreport"
)

// TestForfeitReasonsNameAFileThatExists checks where the printed
// standings send the reader for the reasons of forfeits: a run's
// arena.log, or, in a merged directory, which has none, the journal and
// the report's game list.
func TestForfeitReasonsNameAFileThatExists(t *testing.T) {
	run, merged := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(run, "arena.log"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := forfeitReasons(run); got != "reasons in "+filepath.Join(run, "arena.log") {
		t.Errorf("a run's directory: %q", got)
	}
	got := forfeitReasons(merged)
	if strings.Contains(got, "arena.log") || !strings.Contains(got, filepath.Join(merged, journal.File)) || !strings.Contains(got, "report.html") {
		t.Errorf("a merged directory: %q, want the journal and report.html", got)
	}
}

// TestSequentialVerdictWrapped checks that the sequential test's verdict
// printed under the standings is wrapped to the terminal's width, as the
// notes above it are.
func TestSequentialVerdictWrapped(t *testing.T) {
	var games []rating.Game
	for i := range 20 {
		g := rating.Game{White: "new", Black: "old", FirstMover: game.White, Result: game.WhiteWins}
		if i%2 == 1 {
			g.White, g.Black, g.Result = "old", "new", game.BlackWins
		}
		games = append(games, g)
	}
	a, err := rating.Analyze(games, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	verdict := "SPRT: H1 accepted (new is at least 5 Elo stronger than old) after 10 game pairs: LLR 2.95 (bounds -2.94 to 2.94), Elo 0 to 5, alpha 0.05, beta 0.05"
	rep := &dirreport.Report{
		Manifest: &journal.Manifest{Name: "m", Games: 20}, Games: 20, Analysis: a,
		Meta: reports.Meta{Run: &reports.RunStatus{Played: 20, Scheduled: 20, Finished: true, SPRT: verdict}},
	}
	var b bytes.Buffer
	if err := printReportWidth(&b, t.TempDir(), rep, 80); err != nil {
		t.Fatal(err)
	}
	checkWidth(t, "the standings", b.String())
	if !strings.Contains(strings.Join(strings.Fields(b.String()), " "), verdict) {
		t.Errorf("the verdict is missing:\n%s", b.String())
	}
}
