// Package arena holds no code: it is the root of the arena's core
// packages, which referee games between bot processes, play and record
// tournaments and compute their statistics.
//
// The packages form layers, each importing only those below it:
//
//	cmd/...                  the commands
//	reports/..., bots/...    reports and pages; the built-in bots and their SDK
//	arena/...                the core (this tree)
//	protocol                 the bot protocol
//
// Nothing under arena/ imports reports, bots, cmd or configs: what the
// core needs from above (the built-in bots a configuration may name, say)
// is registered or passed in by the command. The one arrow up is
// protocol's use of package game for colours and results. The test of
// this package checks the rule.
package arena
