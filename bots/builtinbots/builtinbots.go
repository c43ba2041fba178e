package builtinbots

import (
	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/bots/builtin"
	"github.com/arena-games/arena/bots/human"
)

// Register registers the built-in bots (config.RegisterBuiltin): the
// engines in the order of builtin.Names, then the human player, who plays
// one game at a time. It is for the programs that run them as
// `SELF bot NAME`: the arena command, and the test binaries that stand in
// for it.
func Register() {
	for _, name := range builtin.Names() {
		config.RegisterBuiltin(config.Builtin{Name: name})
	}
	config.RegisterBuiltin(config.Builtin{Name: human.Name, Solo: true})
}
