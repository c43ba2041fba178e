// Package league keeps a league: a directory whose roster (RosterFile, a
// tournament configuration with a [league] table) grows one bot at a time.
// A bot that joins plays only its own games, a gauntlet against the bots
// already in the league (the pool, or a sample of it); the games played
// before it joined are never played again, and a bot taken off the roster
// keeps its games.
//
// Each bot's joining is a stage: a directory under StagesDir holding
// StageFile (the bot, its place and the pool it plays) and, when the pool
// is not empty, the gauntlet's configuration (StageConfig) and its output
// directory (GamesDir), a tournament of its own that resumes as any does.
// A stage's configuration is written once, when the bot joins: editing the
// roster later changes the games of bots that join later, never those
// already laid out.
//
// The ratings are one joint fit of every stage's games (History gives the
// fits as the league grew).
package league
