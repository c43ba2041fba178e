// Package configs holds the example tournament configurations and the
// opening files they use (see README.md in this directory). The ACF 3-move
// ballot table is embedded so that a checkers tournament has its standard
// openings without naming a file, and every shipped configuration is
// embedded so that tests can check that each one loads.
package configs
