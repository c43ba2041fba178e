package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/league"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/reports"
	"github.com/arena-games/arena/reports/dirreport"
)

func init() {
	register(command{
		name:    "league",
		summary: "grow a league: play only the games of the bots added to its roster, and rate its whole history",
		play: func(ctx context.Context, in *interrupts, args []string) error {
			return runLeague(ctx, in, args, os.Stdout, os.Stderr)
		},
	})
}

const leagueUsage = `[--quiet] DIR

Plays the league of directory DIR, whose roster is DIR/league.toml (a
configuration with a [league] table). Every bot of the roster that has not
joined the league joins it, in the roster's order: it plays a gauntlet
against the bots already there (or a sample of them, league.sample), and
nothing else is played again. A bot taken off the roster keeps its games.
A bot that cannot start is listed as not playing and joins on a later run.
The ratings are one joint fit of every game the league has played, written
to DIR as report.md, standings.csv, report.json and report.html, with each
bot's rating as the league grew in history.md, history.csv and
history.json.

Flags:`

// runLeague runs "arena league DIR".
func runLeague(ctx context.Context, in *interrupts, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("league", leagueUsage)
	quiet := fs.Bool("quiet", false, "no progress output, only the final table")
	dir, err := parseInterspersed(fs, args, "league directory")
	if err != nil {
		return err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	rosterPath := filepath.Join(dir, league.RosterFile)
	text, err := os.ReadFile(rosterPath)
	if err != nil {
		return fmt.Errorf("league %s: %w (a league directory holds its roster, %s)", dir, err, league.RosterFile)
	}
	cfg, err := config.Parse(text, rosterPath, dir)
	if err != nil {
		return err
	}
	roster, err := league.Open(dir, cfg)
	if err != nil {
		return err
	}
	in.resumeWith(commandLine(append([]string{"league"}, args...)))
	if err := sameRules(roster); err != nil {
		return err
	}
	// Until the games start, Ctrl-C has nothing to finish: it stops.
	prep, stopPrep := in.untilDrain(ctx)
	defer stopPrep()
	for _, name := range roster.Newcomers() {
		if err := startable(prep, cfg, name); err != nil {
			if prep.Err() != nil {
				return context.Canceled
			}
			fmt.Fprintf(stderr, "arena league: %s is not playing: %v; it joins on a later run once it starts\n", name, err)
			continue
		}
		pool := roster.Pool()
		if _, err := roster.Join(name, pool, text); err != nil {
			return fmt.Errorf("league: %s joins: %w", name, err)
		}
		if !*quiet {
			fmt.Fprintf(stderr, "%s joins the league against %d bots\n", name, len(pool))
		}
	}
	runErr := playStages(ctx, in, roster, stderr, *quiet)
	if errors.Is(runErr, context.Canceled) || ctx.Err() != nil {
		fmt.Fprintf(stderr, "stopped; to play the rest, run again:\n  %s\n", commandLine(append([]string{"league"}, args...)))
	}
	if err := writeLeague(stdout, stderr, roster); err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}

// sameRules checks that the roster plays the game and rules of the
// league's games so far (those of its first stage with games): a league
// rates one game under one rule set, and a newcomer under other rules
// would be rated against games it never played.
func sameRules(r *league.Roster) error {
	if len(r.Newcomers()) == 0 {
		return nil
	}
	for _, s := range r.Stages {
		if len(s.Pool) == 0 {
			continue
		}
		first, err := league.LoadStage(r.Dir, s)
		if err != nil {
			return fmt.Errorf("league stage of %s: %w", s.Bot, err)
		}
		if have, want := rulesOf(r.Config), rulesOf(first); have != want {
			return fmt.Errorf("%s plays %s, the league's games %s (%s): a league rates one game under one rule set; put the [game] table back or start another league", r.Config.Path, have, want, s.Config())
		}
		return nil
	}
	return nil
}

// rulesOf names a configuration's game and rules.
func rulesOf(cfg *config.Config) string {
	return fmt.Sprintf("%s (%s)", cfg.Game.Name, journal.RulesText(cfg.Rules.Settings()))
}

// startable starts the roster's bot name and stops it again: nil when it
// starts and answers the protocol's handshake.
func startable(ctx context.Context, cfg *config.Config, name string) error {
	for _, b := range cfg.Bots {
		if b.Name != name {
			continue
		}
		spec := engine.Spec{
			Name: b.Name, Command: b.Command, Args: b.Args, Dir: b.Dir, Env: b.Environ(),
			Options: b.OptionValues(), HandshakeTimeout: b.HandshakeTimeout, Policy: cfg.BotPolicy(b.Name),
		}
		if spec.Dir == "" {
			spec.Dir = cfg.Dir
		}
		if b.Builtin != "" {
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			spec.Command, spec.Args = exe, append([]string{"bot", b.Builtin}, b.Args...)
		}
		e, err := engine.Start(ctx, spec)
		if err != nil {
			return err
		}
		return e.Close()
	}
	return fmt.Errorf("no bot %q on the roster", name)
}

// playStages plays (or resumes) the games of every stage, in the order
// the bots joined; it stops at the first stage interrupted or refused.
func playStages(ctx context.Context, in *interrupts, r *league.Roster, stderr io.Writer, quiet bool) error {
	for _, s := range r.Stages {
		if len(s.Pool) == 0 {
			continue
		}
		cfg, err := league.LoadStage(r.Dir, s)
		if err != nil {
			return fmt.Errorf("league stage of %s: %w", s.Bot, err)
		}
		opts := tournament.Options{Out: s.Games(), Drain: in.drain}
		progressOptions(&opts, stderr, quiet)
		sum, err := tournament.Run(ctx, cfg, opts)
		if err != nil {
			return fmt.Errorf("league stage of %s: %w", s.Bot, err)
		}
		if !sum.Complete {
			return context.Canceled
		}
	}
	return nil
}

// leagueGames reads the games of every stage, named by the roster
// (synonyms resolved), one list per stage.
func leagueGames(r *league.Roster) ([][]rating.Game, *journal.Manifest, error) {
	out := make([][]rating.Game, len(r.Stages))
	var first *journal.Manifest
	for i, s := range r.Stages {
		if len(s.Pool) == 0 {
			continue
		}
		m, err := journal.ReadDirManifest(s.Games())
		if errors.Is(err, os.ErrNotExist) {
			continue // not started
		}
		if err != nil {
			return nil, nil, err
		}
		if first == nil {
			first = m
		}
		recs, err := journal.Read(filepath.Join(s.Games(), journal.File))
		if err != nil {
			return nil, nil, err
		}
		games := dirreport.RatingGames(recs)
		for j := range games {
			games[j].White, games[j].Black = r.Name(games[j].White), r.Name(games[j].Black)
		}
		out[i] = games
	}
	return out, first, nil
}

// writeLeague fits the ratings of the league's games, writes its reports
// and history, and prints the standings.
func writeLeague(stdout, stderr io.Writer, r *league.Roster) error {
	games, m, err := leagueGames(r)
	if err != nil {
		return err
	}
	var all []rating.Game
	for _, g := range games {
		all = append(all, g...)
	}
	if len(all) == 0 {
		fmt.Fprintf(stdout, "%s: %d bots joined, no games yet\n", r.Config.Name, len(r.Stages))
		return nil
	}
	opt := dirreport.RatingOptions(m)
	opt.Anchors = r.Config.League.Anchors
	a, err := rating.Analyze(all, opt)
	if errors.Is(err, rating.ErrUnknownPlayer) {
		return fmt.Errorf("%s: league.anchors: %w", r.Config.Path, err)
	}
	if err != nil {
		return err
	}
	meta := reports.Meta{Name: r.Config.Name, Game: m.Game, Rules: fmt.Sprintf("preset %s: %s", m.Preset, journal.RulesText(m.Rules))}
	if err := reports.WriteFiles(r.Dir, meta, a); err != nil {
		return err
	}
	hist, err := league.History(r.Stages, games, opt)
	if err != nil {
		return err
	}
	rows := make([]string, len(r.Stages))
	for i, s := range r.Stages {
		rows[i] = r.Name(s.Bot)
	}
	if err := writeHistory(r.Dir, r.Stages, rows, hist); err != nil {
		return err
	}
	if err := reports.WriteTerminalWidth(stdout, meta, a, terminalWidth(stdout)); err != nil {
		return err
	}
	if ret := r.Retired(); len(ret) > 0 {
		fmt.Fprintf(stdout, "Off the roster, their games kept: %s\n", strings.Join(ret, ", "))
	}
	fmt.Fprintf(stderr, "reports and history are in %s\n", r.Dir)
	return nil
}

// historyMaxStages bounds the columns of history.md: the latest stages;
// history.csv and history.json hold them all.
const historyMaxStages = 12

// writeHistory writes history.csv, history.json and history.md.
func writeHistory(dir string, stages []league.Stage, rows []string, hist []league.Point) error {
	var c strings.Builder
	w := csv.NewWriter(&c)
	w.Write([]string{"stage", "after", "bot", "elo", "games"})
	for _, p := range hist {
		w.Write([]string{strconv.Itoa(p.Stage), p.After, p.Bot, strconv.FormatFloat(p.Elo, 'f', 1, 64), strconv.Itoa(p.Games)})
	}
	w.Flush()
	j, err := json.MarshalIndent(hist, "", "  ")
	if err != nil {
		return err
	}
	for _, f := range []struct{ name, text string }{
		{"history.csv", c.String()},
		{"history.json", string(j) + "\n"},
		{"history.md", historyMarkdown(stages, rows, hist)},
	} {
		if err := writeAtomic(filepath.Join(dir, f.name), f.text); err != nil {
			return err
		}
	}
	return nil
}

// historyMarkdown is a table of each bot's rating (rows: the bots' names,
// in the order they joined) after each of the latest stages with games
// (columns).
func historyMarkdown(stages []league.Stage, rows []string, hist []league.Point) string {
	var cols []int
	at := map[[2]string]float64{}
	for _, p := range hist {
		if len(cols) == 0 || cols[len(cols)-1] != p.Stage {
			cols = append(cols, p.Stage)
		}
		at[[2]string{strconv.Itoa(p.Stage), p.Bot}] = p.Elo
	}
	omitted := max(0, len(cols)-historyMaxStages)
	cols = cols[omitted:]
	var b strings.Builder
	b.WriteString("# Ratings as the league grew\n\nEach column is the joint fit of every game played once the bot it names had joined.\n")
	if omitted > 0 {
		fmt.Fprintf(&b, "The %d earlier stages are in history.csv.\n", omitted)
	}
	b.WriteString("\n| bot |")
	for _, k := range cols {
		fmt.Fprintf(&b, " +%s |", stages[k-1].Bot)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(cols)) + "\n")
	for _, bot := range rows {
		fmt.Fprintf(&b, "| %s |", bot)
		for _, k := range cols {
			if elo, ok := at[[2]string{strconv.Itoa(k), bot}]; ok {
				fmt.Fprintf(&b, " %.0f |", elo)
			} else {
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// writeAtomic writes text to path through a temporary file, so that a
// reader never sees half of it.
func writeAtomic(path, text string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
