// Package builtinbots makes the arena's built-in bots known to the
// configuration: the engines of package builtin and the human player of
// package human, which the arena executable runs as `arena bot NAME`.
package builtinbots
