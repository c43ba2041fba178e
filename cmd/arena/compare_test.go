package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/reports"
)

// handTournament lays out a finished tournament of config by hand, as Run
// leaves it, every game played from its opening with the first legal
// move, and returns its directory and records.
func handTournament(t *testing.T, text string) (string, []journal.Record) {
	t.Helper()
	cfg, err := config.Parse([]byte(text), "hand.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sched := configSchedule(t, cfg)
	dir := t.TempDir()
	m := tournament.NewManifest(cfg, sched)
	if err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	j, _, err := journal.Open(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	var recs []journal.Record
	for g := range sched.Games() {
		rec := playFirstMoves(t, cfg.Rules, g, m.Openings[g.Opening].Moves)
		if err := journal.Verify(&rec); err != nil {
			t.Fatal(err)
		}
		if err := j.Append(&rec); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, recs
}

const compareBots = `
[[bots]]
name = "a"
builtin = "expert"
args = ["--nodes", "300", "--seed", "1"]
[[bots]]
name = "b"
builtin = "expert"
args = ["--seed=2", "--nodes=300"]
`

func TestCompare(t *testing.T) {
	base, baseRecs := handTournament(t, "name = \"base\"\n[game]\nname = \"cheversi\"\n"+compareBots)
	touch, touchRecs := handTournament(t, "name = \"touch-any\"\n[game]\nname = \"cheversi\"\n[game.rules]\ntouch = \"any\"\n"+
		"[openings]\nplies = 2\ncount = 6\n[time]\nmove = \"1s\"\n"+compareBots)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := runCompare(context.Background(), []string{"--format", "json", base, "--out", out, touch}, &stdout, &stderr); err != nil {
		t.Fatalf("arena compare: %v\n%s", err, stderr.String())
	}
	var c reports.Comparison
	if err := json.Unmarshal(stdout.Bytes(), &c); err != nil {
		t.Fatalf("output is not a comparison: %v\n%s", err, stdout.String())
	}
	if len(c.Rows) != 2 || c.Baseline != 0 || c.Reference == nil {
		t.Fatalf("comparison of %d rows, baseline %d, reference %v; want 2, 0 and the human figure", len(c.Rows), c.Baseline, c.Reference)
	}
	for i, tc := range []struct {
		dir, name, rules string
		recs             []journal.Record
	}{
		{base, "base", "cheversi", baseRecs},
		{touch, "touch-any", "cheversi, touch=any", touchRecs},
	} {
		r := c.Rows[i]
		// The first mover's counts, from the records themselves.
		var want rating.WDL
		for _, rec := range tc.recs {
			switch rec.Result {
			case game.WhiteWins.String():
				want.Wins++
			case game.BlackWins.String():
				want.Losses++
			default:
				want.Draws++
			}
		}
		switch {
		case r.Name != tc.name || r.Dir != tc.dir || r.Rules() != tc.rules:
			t.Errorf("row %d: %q in %s, rules %q; want %q in %s, rules %q", i+1, r.Name, r.Dir, r.Rules(), tc.name, tc.dir, tc.rules)
		case r.Counts != want || r.Games != len(tc.recs) || r.FirstMover != "white":
			t.Errorf("row %d: counts %+v over %d games, first mover %s; want %+v over %d, white", i+1, r.Counts, r.Games, r.FirstMover, want, len(tc.recs))
		case r.Strength != "300 nodes" || r.Nodes != 300 || !slices.Equal(r.Bots, []string{"a", "b"}):
			t.Errorf("row %d: bots %v at %q (%d nodes), want a and b at 300 nodes", i+1, r.Bots, r.Strength, r.Nodes)
		case r.Pairs == nil || r.Pairs.Pairs() != len(tc.recs)/2:
			t.Errorf("row %d: pairs %v, want %d", i+1, r.Pairs, len(tc.recs)/2)
		case len(r.Fingerprint) != 64 || len(r.Results) != 64:
			t.Errorf("row %d: fingerprint %q, results digest %q", i+1, r.Fingerprint, r.Results)
		}
	}
	if c.Rows[1].Diff == nil {
		t.Error("no difference from the baseline")
	}
	for _, f := range []string{reports.CompareMarkdownFile, reports.CompareCSVFile, reports.CompareJSONFile, reports.CompareHTMLFile} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}

	// The journal's order does not change the results digest.
	slices.Reverse(baseRecs)
	if got := resultsDigest(baseRecs); got != c.Rows[0].Results {
		t.Errorf("results digest of the reversed journal %s, want %s", got, c.Rows[0].Results)
	}

	// The baseline by directory; the terminal table by default.
	stdout.Reset()
	if err := runCompare(context.Background(), []string{"--baseline", touch, base, touch}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "Δ vs #2") || !strings.Contains(stdout.String(), "cheversi, touch=any") {
		t.Errorf("terminal output:\n%s", stdout.String())
	}
}

func TestCompareErrors(t *testing.T) {
	base, _ := handTournament(t, "name = \"base\"\n[game]\nname = \"cheversi\"\n"+compareBots)
	for _, tc := range []struct {
		args  []string
		usage bool
	}{
		{[]string{}, true},
		{[]string{"--format", "pdf", base}, true},
		{[]string{"--baseline", "3", base}, true},
		{[]string{"--baseline", "elsewhere", base}, true},
		{[]string{base, t.TempDir()}, false},
	} {
		var stdout, stderr bytes.Buffer
		err := runCompare(context.Background(), tc.args, &stdout, &stderr)
		var ue usageError
		if err == nil || errors.As(err, &ue) != tc.usage {
			t.Errorf("arena compare %q: error %v, want a usage error %v", tc.args, err, tc.usage)
		}
	}
}

func TestStrength(t *testing.T) {
	setup := func(name, time string, args ...string) journal.BotSetup {
		return journal.BotSetup{Name: name, Builtin: "expert", Args: args, Time: time}
	}
	tests := []struct {
		setups    []journal.BotSetup
		want      string
		wantNodes int64
	}{
		{[]journal.BotSetup{setup("a", "1s/move", "--nodes", "500"), setup("b", "2s/move", "-nodes=500")}, "500 nodes", 500},
		{[]journal.BotSetup{setup("a", "1s+100ms"), setup("b", "1s+100ms", "--seed", "2")}, "1s+100ms", 0},
		{[]journal.BotSetup{setup("a", "1s/move", "--nodes", "500"), setup("b", "1s/move")}, "a 500 nodes; b 1s/move", 0},
		{[]journal.BotSetup{{Name: "a", Command: "x", Options: map[string]any{"Nodes": int64(900)}, Time: "1s/move"},
			{Name: "b", Command: "y", Options: map[string]any{"nodes": "900"}, Time: "1s/move"}}, "900 nodes", 900},
		{[]journal.BotSetup{{Name: "a", Builtin: "expert", Time: "10s/move, 700 nodes", Nodes: 700},
			{Name: "b", Builtin: "expert", Args: []string{"--nodes", "700"}, Time: "10s/move"}}, "700 nodes", 700},
		{nil, "", 0},
	}
	for _, tt := range tests {
		if got, n := strength(tt.setups); got != tt.want || n != tt.wantNodes {
			t.Errorf("strength(%+v) = %q, %d; want %q, %d", tt.setups, got, n, tt.want, tt.wantNodes)
		}
	}
}
