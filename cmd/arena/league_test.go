package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/league"
)

const leagueHead = `name = "ladder"
seed = 11
concurrency = 2

[game]
name = "cheversi"

[openings]
plies = 2
count = 1

[time]
move = "10s"

[league]
`

// leagueBot is the roster entry of a built-in bot.
func leagueBot(name, builtin string, args ...string) string {
	s := fmt.Sprintf("\n[[bots]]\nname = %q\nbuiltin = %q\n", name, builtin)
	if len(args) > 0 {
		q := make([]string, len(args))
		for i, a := range args {
			q[i] = fmt.Sprintf("%q", a)
		}
		s += "args = [" + strings.Join(q, ", ") + "]\n"
	}
	return s
}

// ratedElo reads the ratings of a report.json.
func ratedElo(t *testing.T, path string) map[string]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Analysis struct {
			Players []struct {
				Name string  `json:"name"`
				Elo  float64 `json:"elo"`
			} `json:"players"`
		} `json:"analysis"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, p := range rep.Analysis.Players {
		out[p.Name] = p.Elo
	}
	return out
}

// stageJournals returns the journal text of every stage with games, by
// stage directory.
func stageJournals(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	stages, err := league.Stages(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, s := range stages {
		if data, err := os.ReadFile(filepath.Join(s.Games(), journal.File)); err == nil {
			out[s.Dir] = data
		}
	}
	return out
}

// TestLeagueGrows grows a league from 4 bots to 8 in four additions and
// checks that each addition plays only the newcomer's games against the
// pool, leaves every earlier game as it was, and that the league's
// ratings are those `arena rate` fits to the same games as one
// all-play-all.
func TestLeagueGrows(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 56 games")
	}
	dir := t.TempDir()
	bots := []string{
		leagueBot("random", "random", "--seed", "3"),
		leagueBot("greedy", "greedy"),
		leagueBot("ab100", "alphabeta", "--nodes", "100"),
		leagueBot("ab400", "alphabeta", "--nodes", "400"),
		leagueBot("ab1600", "alphabeta", "--nodes", "1600"),
		leagueBot("ab6400", "alphabeta", "--nodes", "6400"),
		leagueBot("expert", "expert", "--nodes", "2000"),
		leagueBot("random2", "random", "--seed", "9"),
	}
	roster := filepath.Join(dir, league.RosterFile)
	var before map[string][]byte
	for n := 4; n <= 8; n++ {
		if err := os.WriteFile(roster, []byte(leagueHead+strings.Join(bots[:n], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runArena(t, "league", "--quiet", dir)
		if code != 0 {
			t.Fatalf("league of %d: exit %d\n%s%s", n, code, stdout, stderr)
		}
		after := stageJournals(t, dir)
		for d, text := range before {
			if !bytes.Equal(after[d], text) {
				t.Errorf("league of %d: the games of %s changed", n, filepath.Base(d))
			}
		}
		stages, err := league.Stages(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(stages) != n {
			t.Fatalf("league of %d: %d stages", n, len(stages))
		}
		newcomers := stages[len(before)+1:]
		if n == 4 {
			newcomers = stages
		}
		for _, s := range newcomers {
			recs, err := journal.Read(filepath.Join(s.Games(), journal.File))
			if s.Index == 1 {
				if !os.IsNotExist(err) && len(recs) > 0 {
					t.Errorf("the first bot played %d games, want none", len(recs))
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 2*(s.Index-1) {
				t.Errorf("%s: %d games, want %d (two against each of the %d before it)", s.Bot, len(recs), 2*(s.Index-1), s.Index-1)
			}
			for _, r := range recs {
				if r.White != s.Bot && r.Black != s.Bot {
					t.Errorf("%s's stage holds %s-%s, a game of the pool", s.Bot, r.White, r.Black)
				}
			}
		}
		before = after
	}

	// Every pair met twice: the league is an all-play-all, and its
	// ratings are what one fit of the same games, read back from the
	// stages' PGN files by arena rate, gives.
	met := map[string]int{}
	var pgns []string
	for d := range before {
		recs, err := journal.Read(filepath.Join(d, league.GamesDir, journal.File))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			p := []string{r.White, r.Black}
			slices.Sort(p)
			met[p[0]+"-"+p[1]]++
		}
		pgns = append(pgns, filepath.Join(d, league.GamesDir, "games.pgn"))
	}
	if len(met) != 28 {
		t.Errorf("%d pairs met, want 28", len(met))
	}
	for p, n := range met {
		if n != 2 {
			t.Errorf("%s met %d times, want 2", p, n)
		}
	}
	slices.Sort(pgns)
	out := filepath.Join(t.TempDir(), "rated")
	if code, stdout, stderr := runArena(t, append([]string{"rate", "--out", out}, pgns...)...); code != 0 {
		t.Fatalf("arena rate: exit %d\n%s%s", code, stdout, stderr)
	}
	got, want := ratedElo(t, filepath.Join(dir, "report.json")), ratedElo(t, filepath.Join(out, "report.json"))
	if len(got) != 8 || len(want) != 8 {
		t.Fatalf("league rates %v, arena rate %v", got, want)
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || math.Abs(g-w) > 0.5 {
			t.Errorf("%s: league %.1f, one fit of the same games %.1f", name, g, w)
		}
	}
	hist, err := os.ReadFile(filepath.Join(dir, "history.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// Ratings after stages 2 to 8: 2 + 3 + ... + 8 rows, and a header.
	if lines := strings.Count(string(hist), "\n"); lines != 1+35 {
		t.Errorf("history.csv has %d lines, want 36:\n%s", lines, hist)
	}
}

// TestLeagueBadRoster checks that a roster in error is refused with the
// key and line at fault, before any bot joins.
func TestLeagueBadRoster(t *testing.T) {
	two := leagueBot("a", "random") + leagueBot("b", "greedy")
	for _, c := range []struct {
		name, roster string
		want         []string
	}{
		{"duplicate", leagueHead + two + leagueBot("a", "greedy"), []string{"league.toml:", "duplicate", `"a"`}},
		{"sample", strings.Replace(leagueHead, "[league]\n", "[league]\nsample = \"many\"\n", 1) + two, []string{"league.toml:16", "sample"}},
		{"negative", strings.Replace(leagueHead, "[league]\n", "[league]\nsample = -2\n", 1) + two, []string{"league.toml:16", "league.sample", "got -2"}},
		{"no table", strings.Replace(leagueHead, "[league]\n", "", 1) + two, []string{"no [league] table"}},
		{"format", strings.Replace(leagueHead, "[league]\n", "[format]\nkind = \"swiss\"\n[league]\n", 1) + two, []string{"format.kind", "league lays out its own games"}},
		{"synonym", leagueHead + "synonyms = { b = [\"a\"] }\n" + two, []string{"league.synonyms.b", `"a" is already the name of "a"`}},
		{"not toml", leagueHead + "[[bots]\n" + two, []string{"league.toml:16"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, league.RosterFile), []byte(c.roster), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runArena(t, "league", dir)
			if code == 0 {
				t.Fatalf("exit 0 on a bad roster")
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("error %q does not say %q", stderr, w)
				}
			}
			if strings.Contains(stderr, "goroutine") {
				t.Errorf("a stack trace: %s", stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, league.StagesDir)); !os.IsNotExist(err) {
				t.Errorf("a bot joined a league whose roster is refused (%v)", err)
			}
		})
	}
}

// TestLeagueChanges checks what a league does with a bot that cannot
// start (listed as not playing, the others play), a bot taken off the
// roster (its games kept and rated), a bot renamed with its earlier name
// as a synonym (no new games, rated under its new name), and a stage file
// edited into nonsense (refused, nothing lost).
func TestLeagueChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a league")
	}
	dir := t.TempDir()
	roster := filepath.Join(dir, league.RosterFile)
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(roster, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b, c := leagueBot("a", "random"), leagueBot("b", "greedy"), leagueBot("c", "alphabeta", "--nodes", "200")
	broken := "\n[[bots]]\nname = \"broken\"\ncommand = \"false\"\n"
	write(leagueHead + a + broken + b + c)
	code, stdout, stderr := runArena(t, "league", "--quiet", dir)
	if code != 0 || !strings.Contains(stderr, "broken is not playing") {
		t.Fatalf("exit %d, want 0 and broken listed as not playing:\n%s%s", code, stdout, stderr)
	}
	stages, err := league.Stages(dir)
	if err != nil {
		t.Fatal(err)
	}
	var joined []string
	for _, s := range stages {
		joined = append(joined, s.Bot)
	}
	if !slices.Equal(joined, []string{"a", "b", "c"}) {
		t.Fatalf("joined %v, want a, b and c", joined)
	}
	games := stageJournals(t, dir)

	// c off the roster, b renamed bee: nothing is played, c keeps its
	// games and bee has b's.
	write(strings.Replace(leagueHead, "[league]\n", "[league]\nsynonyms = { bee = [\"b\"] }\n", 1) + a + strings.Replace(b, `"b"`, `"bee"`, 1))
	code, stdout, stderr = runArena(t, "league", "--quiet", dir)
	if code != 0 || !strings.Contains(stdout, "Off the roster, their games kept: c") {
		t.Fatalf("exit %d:\n%s%s", code, stdout, stderr)
	}
	if after := stageJournals(t, dir); len(after) != len(games) {
		t.Errorf("%d stages with games, want %d", len(after), len(games))
	}
	elo := ratedElo(t, filepath.Join(dir, "report.json"))
	if _, ok := elo["c"]; !ok || len(elo) != 3 {
		t.Errorf("rated %v, want a, bee and c", elo)
	}
	if _, ok := elo["bee"]; !ok {
		t.Errorf("rated %v: b's games are not bee's", elo)
	}

	// A newcomer under other rules.
	write(strings.Replace(leagueHead, "name = \"cheversi\"\n", "name = \"cheversi\"\npreset = \"echeversi\"\n", 1) + a + b + leagueBot("d", "greedy"))
	code, _, stderr = runArena(t, "league", "--quiet", dir)
	if code == 0 || !strings.Contains(stderr, "one rule set") {
		t.Errorf("exit %d on a roster of other rules, want an error: %s", code, stderr)
	}
	if now, err := league.Stages(dir); err != nil || len(now) != 3 {
		t.Errorf("%d stages (%v) after a roster of other rules, want 3", len(now), err)
	}

	// A stage file edited into nonsense.
	path := filepath.Join(stages[1].Dir, league.StageFile)
	if err := os.WriteFile(path, []byte(`{"index": "two"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runArena(t, "league", dir)
	if code == 0 || !strings.Contains(stderr, path) {
		t.Errorf("exit %d on a damaged stage, want an error naming %s: %s", code, path, stderr)
	}
	for d, text := range games {
		if now, err := os.ReadFile(filepath.Join(d, league.GamesDir, journal.File)); err != nil || !bytes.Equal(now, text) {
			t.Errorf("the games of %s changed (%v)", d, err)
		}
	}
}

// TestRunRefusesRoster checks that arena run points a league's roster to
// arena league rather than playing it as a round-robin.
func TestRunRefusesRoster(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, league.RosterFile)
	if err := os.WriteFile(path, []byte(leagueHead+leagueBot("a", "random")+leagueBot("b", "greedy")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runArena(t, "run", "--out", filepath.Join(dir, "out"), path)
	if code != 2 || !strings.Contains(stderr, "arena league "+dir) {
		t.Errorf("arena run on a roster: exit %d, %s; want 2 and arena league %s", code, stderr, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("arena run on a roster wrote its output (%v)", err)
	}
}
