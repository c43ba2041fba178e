package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/pgn"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports"
)

func init() {
	register(command{
		name:    "rate",
		summary: "rate the games of PGN/PDN files",
		run: func(ctx context.Context, args []string) error {
			return runRate(ctx, args, os.Stdout, os.Stderr)
		},
	})
}

const rateUsage = "[--model bayeselo|ordo] [--anchor NAME] [--offset ELO] [--out DIR] FILE.pgn..."

// runRate rates every finished game of the files and prints the standings
// and the side balance; with --out it also writes the report files.
func runRate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rate", rateUsage)
	model := fs.String("model", "bayeselo", "rating model: bayeselo or ordo")
	anchor := fs.String("anchor", "", "fix this player's rating at --offset instead of centring the ratings")
	offset := fs.Float64("offset", 0, "rating of the anchor, or average rating when centred")
	out := fs.String("out", "", "also write report.md, standings.csv, report.json and report.html to this directory")

	// Flags may come before, between and after the files; "--" ends them.
	files, err := parsePositional(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("no input files")
	}
	m, err := rating.ParseModel(*model)
	if err != nil {
		return usagef("--model %q: want bayeselo or ordo", *model)
	}

	var im importer
	for _, file := range files {
		if err := im.readFile(ctx, file); err != nil {
			return err
		}
	}
	im.skipped.report(stderr)
	if im.tally.Games() == 0 {
		return fmt.Errorf("no finished games in %s", strings.Join(files, ", "))
	}
	opt := rating.Options{Model: m, Anchor: *anchor, Offset: *offset}
	var rules string
	if im.setting.known() {
		// The arena's own files: the same reference as its own reports.
		opt.Reference = dirreport.Reference(im.setting.game, im.setting.preset, im.setting.rules)
		opt.Proved = dirreport.Proved(im.setting.game, im.setting.preset, im.setting.rules)
		rules = fmt.Sprintf("preset %s: %s", im.setting.preset, im.setting.rules)
	}
	a, err := im.tally.Analyze(opt)
	if errors.Is(err, rating.ErrUnknownPlayer) {
		return usagef("--anchor: %v", err)
	}
	if err != nil {
		return err
	}
	meta := reports.Meta{Name: rateTitle(files), Sources: files, Game: im.setting.game, Rules: rules}
	if err := reports.WriteTerminalWidth(stdout, meta, a, terminalWidth(stdout)); err != nil {
		return err
	}
	if *out != "" {
		if err := reports.WriteFiles(*out, meta, a); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "reports written to %s\n", *out)
	}
	return nil
}

func rateTitle(files []string) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	return "Ratings: " + strings.Join(names, ", ")
}

// skipLog counts the records that cannot be rated, with the first place
// each reason occurred.
type skipLog struct {
	reasons []string
	count   map[string]int
	first   map[string]string
}

// add counts a record of file, starting on line, skipped for reason.
func (s *skipLog) add(reason, file string, line int) {
	if s.count == nil {
		s.count, s.first = map[string]int{}, map[string]string{}
	}
	if s.count[reason] == 0 {
		s.reasons = append(s.reasons, reason)
		s.first[reason] = fmt.Sprintf("%s:%d", file, line)
	}
	s.count[reason]++
}

func (s *skipLog) report(w io.Writer) {
	for _, r := range s.reasons {
		games := "games"
		if s.count[r] == 1 {
			games = "game"
		}
		fmt.Fprintf(w, "arena rate: skipped %d %s %s (first at %s)\n", s.count[r], games, r, s.first[r])
	}
}

// importer rates the records of PGN/PDN files one at a time: the files are
// streamed, the move text is skipped, the games go into a rating.Tally
// that keeps counts, not games, and the names that recur (players,
// openings) are stored once. Its memory does not grow with the number of
// games.
type importer struct {
	tally   rating.Tally
	skipped skipLog
	strs    map[string]string
	files   int // files read so far
	// setting is the game, preset and rules that every rated game names in
	// the tags the arena writes (Game, Variant, Rules); see setting.add.
	setting setting
}

// setting is what the arena's own files say about the rules of their
// games.
type setting struct {
	game, preset, rules string
	seen, mixed         bool
}

// add takes one game's tags into account: the setting stays known while
// every game names the same one.
func (s *setting) add(r *pgn.Record) {
	g := setting{game: r.Tag("Game"), preset: r.Tag("Variant"), rules: r.Tag("Rules")}
	switch {
	case s.mixed:
	case !s.seen:
		s.game, s.preset, s.rules, s.seen = g.game, g.preset, g.rules, true
	case g.game != s.game || g.preset != s.preset || g.rules != s.rules:
		s.mixed = true
	}
}

// known reports whether every game named the same setting.
func (s *setting) known() bool { return s.seen && !s.mixed && s.game != "" && s.preset != "" }

// intern returns s, stored once however many records repeat it.
func (im *importer) intern(s string) string {
	if v, ok := im.strs[s]; ok {
		return v
	}
	if im.strs == nil {
		im.strs = make(map[string]string)
	}
	v := strings.Clone(s)
	im.strs[v] = v
	return v
}

// readFile adds the games of one file. Games with the same PairKey tag
// (the arena writes one) are a colour-reversed pair; without that tag, two
// consecutive games with the same opening and the players' colours
// swapped are one, as cutechess and fastchess play them. A game whose
// Termination tag records a forfeit is marked as one, so that it counts
// for the ratings but not for the side balance. A file that holds no tag
// pair at all is not PGN/PDN, and an error.
func (im *importer) readFile(ctx context.Context, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	rd := pgn.NewReader(f, file)
	im.files++
	pairs := filePairs{im: im, keyPrefix: strconv.Itoa(im.files) + "#"} // pair keys are per file
	records, tagged := 0, false
	for ; ; records++ {
		if records%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *pgn.SyntaxError
			if !errors.As(err, &se) {
				err = fmt.Errorf("%s: %w", file, err)
			}
			return err
		}
		tagged = tagged || len(r.Tags) > 0
		g, ok := im.game(file, r)
		if err := pairs.take(g, ok, r.Tag("PairKey"), records); err != nil {
			return fmt.Errorf("%s:%d: %w", file, r.Line, err)
		}
	}
	if err := pairs.flush(); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if records > 0 && !tagged {
		return fmt.Errorf("%s is not a PGN/PDN file: none of its %d records has a tag pair", file, records)
	}
	return nil
}

// filePairs finds the colour-reversed pairs among the games of a file as
// they come, and gives the games to the tally.
type filePairs struct {
	im        *importer
	keyPrefix string
	// prev is a game that may start a pair with the next one: it waits
	// here until the next one says.
	prev *rating.Game
}

// take takes in the game of record n of the file (ok false when it is not
// one to rate), whose PairKey tag says pairKey.
func (p *filePairs) take(g rating.Game, ok bool, pairKey string, n int) error {
	prev := p.prev
	switch {
	case !ok:
		return p.flush()
	case pairKey != "":
		// The arena's own files name the pairs.
		g.PairKey = p.keyPrefix + pairKey
	case prev != nil && g.Opening != "" && g.Opening == prev.Opening && g.White == prev.Black && g.Black == prev.White:
		key := p.keyPrefix + strconv.Itoa(n)
		prev.PairKey, g.PairKey = key, key
	default:
		if err := p.flush(); err != nil {
			return err
		}
		p.prev = &g
		return nil
	}
	if err := p.flush(); err != nil {
		return err
	}
	return p.im.tally.Add(g)
}

// flush gives the waiting game, if any, to the tally.
func (p *filePairs) flush() error {
	if p.prev == nil {
		return nil
	}
	g := *p.prev
	p.prev = nil
	return p.im.tally.Add(g)
}

// game converts a record, or counts it as skipped and reports false.
func (im *importer) game(file string, r *pgn.Record) (rating.Game, bool) {
	white, black := r.White(), r.Black()
	skip := ""
	switch {
	case r.Result == game.Ongoing:
		skip = "that did not finish"
	case white == "" || black == "":
		skip = "without both player names"
	case white == black:
		skip = "of a player against itself"
	}
	if skip != "" {
		im.skipped.add(skip, file, r.Line)
		return rating.Game{}, false
	}
	im.setting.add(r)
	return rating.Game{
		White: im.intern(white), Black: im.intern(black),
		FirstMover:   r.FirstMover(),
		Result:       r.Result,
		Opening:      im.intern(r.Opening()),
		OpeningMoves: im.intern(r.OpeningMoves()),
		Forfeit:      r.Forfeit(),
	}, true
}
