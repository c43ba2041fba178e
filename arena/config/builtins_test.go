package config_test

import "github.com/arena-games/arena/bots/builtinbots"

// The configurations of the tests name built-in bots, as the arena
// command knows them.
func init() { builtinbots.Register() }
