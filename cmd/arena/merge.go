package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports/dirreport"
)

func init() {
	register(command{
		name:    "merge",
		summary: "combine the slices of a tournament played with run --shard into one directory",
		run: func(ctx context.Context, args []string) error {
			return runMerge(ctx, args, os.Stdout, os.Stderr)
		},
	})
}

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", "--out DIR [--partial] SLICE_DIR...")
	out := fs.String("out", "", "the merged tournament's output directory: new, empty, or holding this tournament (required)")
	partial := fs.Bool("partial", false, "write the merge even when games are missing (arena run --out DIR CONFIG plays them)")
	dirs, err := parsePositional(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		return usagef("--out is required")
	case len(dirs) == 0:
		return usagef("missing the slice directories to merge")
	}
	sum, err := journal.Merge(ctx, *out, dirs, journal.MergeOptions{Partial: *partial})
	if errors.Is(err, journal.ErrIncomplete) {
		return fmt.Errorf("%w\n(nothing written: play the missing games of those slices and merge again, or merge with --partial and play them with arena run --out %s CONFIG)", err, shellQuote(*out))
	}
	if err != nil {
		return err
	}
	m := sum.Manifest
	// The game file and the reports are written from the merged journal,
	// as arena report writes them, under the directory's lock.
	unlock, err := journal.LockDir(*out)
	if err != nil {
		return err
	}
	defer unlock()
	rep, err := dirreport.Write(ctx, *out, dirreport.Options{GameText: true})
	if err != nil {
		return err
	}
	if err := printReport(stdout, *out, rep); err != nil {
		return err
	}
	if text := sum.MissingText(); text != "" {
		fmt.Fprintf(stderr, "%s; to play them: arena run --out %s CONFIG\n", text, shellQuote(*out))
	}
	fmt.Fprintf(stderr, "merged %d of %d games from %d slice directories into %s\n", sum.Games, m.Games, len(dirs), *out)
	return nil
}
