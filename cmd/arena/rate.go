package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	fs.SetOutput(stderr)
	model := fs.String("model", "bayeselo", "rating model: bayeselo or ordo")
	anchor := fs.String("anchor", "", "fix this player's rating at --offset instead of centring the ratings")
	offset := fs.Float64("offset", 0, "rating of the anchor, or average rating when centred")
	out := fs.String("out", "", "also write report.md, standings.csv, report.json and report.html to this directory")

	// Flags may come before, between and after the files; "--" ends them.
	var files, rest []string
	flagArgs := args
	if i := slices.Index(args, "--"); i >= 0 {
		flagArgs, rest = args[:i], args[i+1:]
	}
	for {
		if err := parseFlags(fs, flagArgs); err != nil {
			return err
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		files = append(files, left[0])
		flagArgs = left[1:]
	}
	files = append(files, rest...)
	if len(files) == 0 {
		return usagef("no input files")
	}
	m, err := rating.ParseModel(*model)
	if err != nil {
		return usagef("--model %q: want bayeselo or ordo", *model)
	}

	var games []rating.Game
	var skipped skipLog
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		recs, err := pgn.ReadFile(file)
		if err != nil {
			return err
		}
		games = append(games, pgnGames(file, recs, &skipped)...)
	}
	skipped.report(stderr)
	if len(games) == 0 {
		return fmt.Errorf("no finished games in %s", strings.Join(files, ", "))
	}
	a, err := rating.Analyze(games, rating.Options{Model: m, Anchor: *anchor, Offset: *offset})
	if errors.Is(err, rating.ErrUnknownPlayer) {
		return usagef("--anchor: %v", err)
	}
	if err != nil {
		return err
	}
	meta := reports.Meta{Name: rateTitle(files), Sources: files}
	if err := reports.WriteTerminal(stdout, meta, a); err != nil {
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

// pgnGames converts a file's records to rating games. Games with the same
// PairKey tag (the arena writes one) are a colour-reversed pair; without
// that tag, two consecutive games with the same opening and the players'
// colours swapped are one, as cutechess and fastchess play them. A game
// whose Termination tag records a forfeit is marked as one, so that it
// counts for the ratings but not for the side balance.
func pgnGames(file string, recs []pgn.Record, skipped *skipLog) []rating.Game {
	var out []rating.Game
	prev := -1 // index in out of a game that may start a pair
	for i := range recs {
		r := &recs[i]
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
			skipped.add(skip, file, r.Line)
			prev = -1
			continue
		}
		g := rating.Game{
			White: white, Black: black,
			FirstMover: r.FirstMover(),
			Result:     r.Result,
			Opening:    r.Opening(),
			Forfeit:    r.Forfeit(),
		}
		if key := r.Tag("PairKey"); key != "" {
			// The arena's own files name the pairs.
			g.PairKey = file + "#" + key
			out = append(out, g)
			prev = -1
			continue
		}
		if prev >= 0 && out[prev].PairKey == "" && g.Opening != "" && g.Opening == out[prev].Opening &&
			g.White == out[prev].Black && g.Black == out[prev].White {
			key := fmt.Sprintf("%s#%d", file, i)
			out[prev].PairKey, g.PairKey = key, key
			out = append(out, g)
			prev = -1
			continue
		}
		out = append(out, g)
		prev = len(out) - 1
	}
	return out
}
