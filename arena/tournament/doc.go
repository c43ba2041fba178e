// Package tournament plays bot-versus-bot tournaments: Run takes a
// configuration (package config), lays out its schedule (package schedule)
// over the openings it selects, plays the games concurrently against real
// bot processes (package engine) and records every finished game durably
// in the output directory (package journal), so that an interrupted
// tournament can be resumed.
//
// # Running
//
// Run checks the output directory against the manifest (a configuration
// that changes the schedule is refused), takes its lock, reads the journal
// and rebuilds the game file from it, checks every bot's handshake, then
// plays the games the journal lacks on Config.Concurrency workers. Running
// the same configuration on the same directory again plays exactly the
// games the journal lacks: a crash of the arena loses at most the games in
// flight (a power loss also those of the journal's last sync interval).
// With Options.Shard it plays one slice of the schedule into a directory
// of its own; journal.Merge combines the slices.
//
// The bots' processes are kept alive from game to game in a pool and
// restarted only after they break (or after every game, for a bot with
// restart = "always"). Options.Drain stops a run after its games in
// flight. A Progress follows the run as a whole
// (the arena command draws its progress line from it); an Observer follows
// the games in flight (the live page).
//
// # Refereeing
//
// Every move is decoded and checked against the rules; an illegal move, a
// move too late, a crash or a protocol violation forfeits the game, with
// the kind and detail in the record (journal.Forfeit), and the tournament
// goes on.
//
// Each move's request carries the bot's clock (fixed time per move, base
// plus increment, or moves per period) and, for bots that declare they
// obey them, the configured node and depth limits. The last info line a
// bot writes before its move is recorded with the move. Optionally
// (config.ResignRule, config.DrawRule) the bots' reported scores end a game
// by agreement, recorded as journal.ReasonAdjudication; a sequential test
// (SPRT) can stop a two-bot match as soon as it decides.
//
// Each bot's stderr goes to logs/BOT.log in the output directory, capped
// per bot for the run (engine.DefaultLogLimit, keeping the newest output
// past the cap); arena.log holds forfeits and notices.
package tournament
