package conformance

import (
	"context"
	"fmt"
)

// Run checks a bot program: here the built-in random bot, run by this
// package's test binary (an ordinary bot is any command line).
func ExampleRun() {
	cfg := fake("builtin:random") // Command, Env and short time limits
	rep, err := Run(context.Background(), cfg, func(r Result) {
		if r.Name == "handshake" || r.Name == "quit" || r.Status != Pass {
			fmt.Println(r.Status, r.Name)
		}
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("passed:", rep.Passed(), "checks:", len(rep.Results))
	// Output:
	// PASS handshake
	// SKIP legalmoves
	// PASS quit
	// passed: true checks: 17
}
