package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/metrics"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports"
)

func init() {
	register(command{
		name:    "compare",
		summary: "set the side balance of several tournaments side by side",
		run: func(ctx context.Context, args []string) error {
			return runCompare(ctx, args, os.Stdout, os.Stderr)
		},
	})
}

// compareFormats are the values of compare's --format flag.
var compareFormats = map[string]func(io.Writer, *reports.Comparison) error{
	"terminal": nil, // to the width of the terminal
	"markdown": reports.WriteCompareMarkdown,
	"csv":      reports.WriteCompareCSV,
	"json":     reports.WriteCompareJSON,
	"html":     reports.WriteCompareHTML,
	"svg":      reports.WriteCompareSVG,
}

// runCompare runs "arena compare [flags] DIR...": the side balance of each
// tournament directory (or merged shards), one row each, compared with a
// baseline.
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", "[--baseline N|DIR] [--format F] [--out DIR] DIR...")
	baseline := fs.String("baseline", "1", "the tournament the others are compared with: its `position` among the directories (from 1) or its directory")
	format := fs.String("format", "terminal", "what to print: terminal, markdown, csv, json, html or svg (the chart alone)")
	out := fs.String("out", "", "also write compare.md, compare.csv, compare.json and compare.html into this `directory`")
	dirs, err := parsePositional(fs, args)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		return usagef("missing tournament directories")
	}
	write, ok := compareFormats[*format]
	if !ok {
		return usagef("unknown format %q (want terminal, markdown, csv, json, html or svg)", *format)
	}
	base, err := baselineIndex(*baseline, dirs)
	if err != nil {
		return err
	}
	entries := make([]reports.CompareEntry, len(dirs))
	for i, dir := range dirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if entries[i], err = compareEntry(dir); err != nil {
			return err
		}
	}
	c, err := reports.Compare(entries, base, 0)
	if err != nil {
		return err
	}
	if write == nil {
		err = reports.WriteCompareTerminalWidth(stdout, c, terminalWidth(stdout))
	} else {
		err = write(stdout, c)
	}
	if err != nil {
		return err
	}
	if *out != "" {
		if err := reports.WriteCompareFiles(*out, c); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "comparison written to %s\n", *out)
	}
	return nil
}

// baselineIndex resolves --baseline: a position among dirs (from 1) or one
// of dirs.
func baselineIndex(s string, dirs []string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 || n > len(dirs) {
			return 0, usagef("--baseline %d: want a position from 1 to %d", n, len(dirs))
		}
		return n - 1, nil
	}
	clean := filepath.Clean(s)
	for i, d := range dirs {
		if filepath.Clean(d) == clean {
			return i, nil
		}
	}
	return 0, usagef("--baseline %q is neither a position nor one of the directories", s)
}

// compareEntry reads a tournament directory's manifest and journal, one
// game at a time, and returns its side balance for a comparison.
func compareEntry(dir string) (reports.CompareEntry, error) {
	var g compareGames
	m, err := journal.ScanDir(dir, g.add)
	if err != nil {
		return reports.CompareEntry{}, err
	}
	return compareEntryOfGames(dir, m, &g)
}

// compareGames is what a comparison keeps of a tournament's games: their
// rating tally and their results by ID.
type compareGames struct {
	n       int // games
	rated   int // games given to the tally
	tally   rating.Tally
	err     error // the first game the tally refused
	results journal.Results
	// design sums up the games' design metrics (designed of them), under
	// rules, the rules of the first game (nil while unknown; noRules once
	// they do not build, for records that do not name them).
	design   metrics.Tally
	designed int
	rules    game.Rules
	noRules  bool
}

func (g *compareGames) add(r *journal.Record) error {
	g.n++
	if g.rules == nil && !g.noRules {
		rules, err := journal.RulesOf(r)
		g.rules, g.noRules = rules, err != nil
	}
	if mg, err := journal.MetricsGame(g.rules, r); err == nil {
		g.design.Add(mg)
		g.designed++
	}
	if res, err := r.GameResult(); err == nil {
		g.results.Set(r.ID, res)
	}
	if rg, ok := dirreport.RatingGame(r); ok {
		g.rated++
		if err := g.tally.Add(rg); err != nil && g.err == nil {
			g.err = fmt.Errorf("game %d: %w", g.rated, err)
		}
	}
	return nil
}

// compareEntryOfGames returns the side balance of the tournament m
// describes, read from dir, whose games g sums up.
func compareEntryOfGames(dir string, m *journal.Manifest, g *compareGames) (reports.CompareEntry, error) {
	if g.n == 0 {
		return reports.CompareEntry{}, fmt.Errorf("%s: no games played yet", dir)
	}
	if g.err != nil {
		return reports.CompareEntry{}, fmt.Errorf("%s: %w", dir, g.err)
	}
	a, err := g.tally.Analyze(dirreport.RatingOptions(m))
	if err != nil {
		return reports.CompareEntry{}, fmt.Errorf("%s: %w", dir, err)
	}
	switches, err := changedSwitches(m)
	if err != nil {
		return reports.CompareEntry{}, fmt.Errorf("%s: %w", dir, err)
	}
	sb := a.SideBalance
	e := reports.CompareEntry{
		Name: m.Name, Dir: dir, Game: m.Game, Preset: m.Preset, Switches: switches,
		Bots: m.Bots, Fingerprint: m.Fingerprint, Results: g.digest(),
		FirstMover: sb.FirstMover,
		Counts:     rating.WDL{Wins: sb.Wins, Draws: sb.Draws, Losses: sb.Losses},
		Forfeits:   sb.Forfeits,
	}
	if sb.Paired != nil && sb.Paired.Pairs > 0 {
		p := sb.Paired.Counts
		e.Pairs = &p
	}
	e.Strength, e.Nodes = strength(m.Setups)
	if g.designed > 0 {
		d := g.design.Summary()
		e.Design = &d
	}
	return e, nil
}

// changedSwitches returns the rule switches of m whose values differ from
// its preset's.
func changedSwitches(m *journal.Manifest) ([]game.Setting, error) {
	rules, err := games.New(m.Game, m.Preset, nil)
	if err != nil {
		return nil, err
	}
	def := map[string]string{}
	for _, s := range rules.Settings() {
		def[s.Key] = s.Value
	}
	var out []game.Setting
	for _, s := range m.Rules {
		if v, ok := def[s.Key]; !ok || v != s.Value {
			out = append(out, s)
		}
	}
	return out, nil
}

// resultsDigest returns the SHA-256 of every game's id and result, one
// "id result" line each in the order of ids: the same for the same games
// in whatever order the journal holds them.
func resultsDigest(recs []journal.Record) string {
	var g compareGames
	for i := range recs {
		g.add(&recs[i])
	}
	return g.digest()
}

// digest returns the resultsDigest of the games.
func (g *compareGames) digest() string {
	h := sha256.New()
	var line []byte
	for id, res := range g.results.All() {
		line = strconv.AppendInt(line[:0], int64(id), 10)
		line = append(line, ' ')
		line = append(line, res.String()...)
		line = append(line, '\n')
		h.Write(line)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// strength describes how hard the bots searched: their common node limit
// ("20000 nodes"), else their common time control, else each bot's. It
// returns the common node limit too, 0 when there is none.
func strength(setups []journal.BotSetup) (string, int64) {
	if len(setups) == 0 {
		return "", 0
	}
	nodes := make([]int64, len(setups))
	for i, s := range setups {
		nodes[i] = nodeLimit(s)
	}
	if nodes[0] > 0 && !slices.ContainsFunc(nodes, func(n int64) bool { return n != nodes[0] }) {
		return strconv.FormatInt(nodes[0], 10) + " nodes", nodes[0]
	}
	if !slices.ContainsFunc(nodes, func(n int64) bool { return n > 0 }) &&
		!slices.ContainsFunc(setups, func(s journal.BotSetup) bool { return s.Time != setups[0].Time }) {
		return setups[0].Time, 0
	}
	parts := make([]string, len(setups))
	for i, s := range setups {
		what := s.Time
		if nodes[i] > 0 {
			what = strconv.FormatInt(nodes[i], 10) + " nodes"
		}
		parts[i] = s.Name + " " + what
	}
	return strings.Join(parts, "; "), 0
}

// nodeLimit returns the node limit per move a bot played under: the one
// the arena sends it, else its --nodes argument or its Nodes option, 0
// when it has none.
func nodeLimit(s journal.BotSetup) int64 {
	if s.Nodes > 0 {
		return s.Nodes
	}
	for i, a := range s.Args {
		name, value, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "nodes" || !strings.HasPrefix(a, "-") {
			continue
		}
		if !eq && i+1 < len(s.Args) {
			value = s.Args[i+1]
		}
		if n, err := strconv.ParseInt(value, 10, 64); err == nil && n > 0 {
			return n
		}
	}
	for k, v := range s.Options {
		if !strings.EqualFold(k, "nodes") {
			continue
		}
		switch x := v.(type) {
		case int64:
			return x
		case float64:
			return int64(x)
		case string:
			n, _ := strconv.ParseInt(x, 10, 64)
			return n
		}
	}
	return 0
}
