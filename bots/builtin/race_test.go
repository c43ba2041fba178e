//go:build race

package builtin

// raceEnabled is set when the tests run under the race detector, which
// slows the search down by an order of magnitude.
const raceEnabled = true
