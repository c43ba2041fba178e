// Package games is the registry of the games the arena referees: it maps
// a game's name to its rules package, so that the command line, the
// configuration and the protocol can build a game.Rules from a game name,
// a preset and switch overrides. Cheversi and checkers are registered by
// the package itself; a program may Register a game of its own.
//
// This package and the rules packages are the only ones that know the
// games by name. What generic code needs to know of a game it asks of the
// game's rules through the optional interfaces of package game; Default
// gives the rules to ask when only the name is known.
package games
