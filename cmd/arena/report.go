package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/pgn"

	"github.com/arena-games/arena/reports/dirreport"
)

func init() {
	register(command{
		name:    "report",
		summary: "rebuild the reports of a tournament from its journal",
		run: func(ctx context.Context, args []string) error {
			return runReport(ctx, args, os.Stdout, os.Stderr)
		},
	})
}

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", "DIR")
	dir, err := parseInterspersed(fs, args, "tournament directory")
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, journal.ManifestFile)); err != nil {
		if _, _, lerr := journal.LoadDir(dir); lerr != nil {
			return lerr // says what is wrong with dir
		}
		return err
	}
	// A run in progress appends to the PGN/PDN file: rebuilding it then
	// would lose its games. Take the run's lock, or leave that file alone
	// (the reports are written whole and renamed into place, so they do
	// not race with the run's).
	unlock, err := journal.LockDir(dir)
	running := errors.Is(err, journal.ErrOutputLocked)
	if err != nil && !running {
		return err
	}
	if !running {
		defer unlock()
	}
	// The journal is the source of truth: without a run, rebuild the
	// PGN/PDN file too.
	rep, err := dirreport.Write(ctx, dir, dirreport.Options{GameText: !running})
	if err != nil {
		return err
	}
	if running {
		fmt.Fprintf(stderr, "a run is in progress in %s: the reports cover the %d games recorded so far, and %s is left to the run\n",
			dir, rep.Games, pgn.FileName(rep.Manifest.Game))
	} else {
		fmt.Fprintf(stderr, "%s rebuilt from the journal (%d games), no run using the directory meanwhile\n",
			pgn.FileName(rep.Manifest.Game), rep.Games)
	}
	if err := printReport(stdout, dir, rep); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "reports written to %s\n", dir)
	return nil
}
