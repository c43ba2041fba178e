package conformance

import (
	"context"
	"fmt"
)

// Run checks a bot program: here the built-in random bot, run by this
// package's test binary (an ordinary bot is any command line).
func ExampleRun() {
	cfg := fake("builtin:random") // Command, Env and time limits
	rep, err := Run(context.Background(), cfg, func(r Result) {
		if r.Name == "handshake" || r.Name == "quit" || r.Status == Fail {
			fmt.Println(r.Status, r.Name)
		}
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("passed:", rep.Passed(), "checks:", len(rep.Results), "skipped:", rep.Count(Skip))
	// Output:
	// PASS handshake
	// PASS quit
	// passed: true checks: 23 skipped: 6
}

// The random bot requests only the legal-move lists, so the checks of
// node and depth limits, the position text and info lines do not apply to
// it.
func ExampleReport_Count() {
	rep, err := Run(context.Background(), fake("builtin:random"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Results {
		if r.Status == Skip {
			fmt.Println(r.Name)
		}
	}
	// Output:
	// cheversi: go nodes
	// cheversi: go depth
	// checkers: go nodes
	// checkers: go depth
	// fen
	// info
}
