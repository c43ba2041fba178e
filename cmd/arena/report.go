package main

import (
	"context"
	"fmt"
	"io"
	"os"
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
	if err := printReports(stdout, dir); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "reports written to %s\n", dir)
	return nil
}
