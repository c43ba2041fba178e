// Package games maps game names to their rules packages, so that the
// command line, the configuration and the protocol can build a game.Rules
// from a game name, a preset and switch overrides.
package games
