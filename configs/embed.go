package configs

import "embed"

// Ballots is checkers-3move-ballots.tsv: the 174 ACF 3-move ballots in ACF
// order with their class (crossboard, mailplay/new or barred), their CTD
// mark, name and the position after the three plies.
//
//go:embed checkers-3move-ballots.tsv
var Ballots []byte

// Files holds the example configurations (*.toml) and the ballot table.
//
//go:embed *.toml checkers-3move-ballots.tsv
var Files embed.FS
