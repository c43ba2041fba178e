package config

import (
	"slices"
	"sync"
)

// Builtin is a bot the arena executable runs itself, as
// `arena bot NAME ARGS...` (Options.Self), which a configuration names
// with a bot's builtin key.
type Builtin struct {
	Name string
	// Solo marks a bot that plays one game at a time, such as a person at
	// a board page: a tournament with one plays one game at a time.
	Solo bool
}

// builtins are the registered built-in bots, in the order registered.
var builtins struct {
	mu   sync.Mutex
	list []Builtin
}

// RegisterBuiltin makes bots known as built-in bots, so that a
// configuration may name them with builtin. The program that runs them
// (the arena command, which provides `arena bot NAME`) registers them
// before it loads a configuration. Registering a name again replaces it.
func RegisterBuiltin(bots ...Builtin) {
	builtins.mu.Lock()
	defer builtins.mu.Unlock()
	for _, b := range bots {
		if i := slices.IndexFunc(builtins.list, func(o Builtin) bool { return o.Name == b.Name }); i >= 0 {
			builtins.list[i] = b
			continue
		}
		builtins.list = append(builtins.list, b)
	}
}

// builtinNames lists the registered built-in bots' names.
func builtinNames() []string {
	builtins.mu.Lock()
	defer builtins.mu.Unlock()
	names := make([]string, len(builtins.list))
	for i, b := range builtins.list {
		names[i] = b.Name
	}
	return names
}

// soloBuiltin reports whether the named built-in bot plays one game at a
// time.
func soloBuiltin(name string) bool {
	builtins.mu.Lock()
	defer builtins.mu.Unlock()
	i := slices.IndexFunc(builtins.list, func(b Builtin) bool { return b.Name == name })
	return i >= 0 && builtins.list[i].Solo
}
