// Package config reads tournament configurations: TOML files documented key
// by key in configs/README.md, and the keys set on top of them from the
// command line (Override, Document).
//
// A configuration names the game and its rules (a preset plus switch
// overrides), the format (round-robin or gauntlet) and number of rounds,
// the openings, the time control, the adjudication rules and the bots. Load
// rejects unknown keys, wrong types, duplicate bot names and missing
// executables before anything starts, each error naming the key and its
// line, or the flag that set it (*Error). The decoder does not say where a
// key is, so the package scans the document for the lines of its keys
// itself (keyLines).
//
// The built-in bots a configuration may name with builtin are those the
// program that runs them registers (RegisterBuiltin). LoadOpenings returns
// the openings a configuration selects, each checked under its rules.
package config
