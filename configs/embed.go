package configs

import "embed"

// Files holds the example configurations (*.toml) and the ballot table.
//
//go:embed *.toml checkers-3move-ballots.tsv
var Files embed.FS
