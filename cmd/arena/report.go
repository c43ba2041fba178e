package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/arena-games/arena/arena/tournament"
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

func runReport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", "DIR")
	dir, err := parseInterspersed(fs, args, "tournament directory")
	if err != nil {
		return err
	}
	// The journal is the source of truth: rebuild the PGN/PDN file too.
	m, recs, err := tournament.LoadDir(dir)
	if err != nil {
		return err
	}
	if err := tournament.RewriteGameText(dir, m.Game, recs, m.Name); err != nil {
		return err
	}
	if err := printReports(stdout, dir, m, recs); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "reports written to %s\n", dir)
	return nil
}
