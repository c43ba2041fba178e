// Package configs holds the example tournament configurations and the
// opening files they use (see README.md in this directory). Every shipped
// configuration is embedded so that tests can check that each one loads.
// The ACF 3-move ballot table here is the one package checkers embeds,
// from which a checkers tournament opens without naming a file.
package configs
