// Package tournament plays bot-versus-bot tournaments: it reads a TOML
// configuration (Load), lays out the games (NewSchedule over the openings
// of LoadOpenings), runs them concurrently against real bot processes
// (Run), and records every finished game durably so that an interrupted
// tournament can be resumed.
//
// # Configuration
//
// A configuration names the game and its rules (a preset plus switch
// overrides), the format (round-robin or gauntlet) and number of rounds,
// the openings, the time control, the adjudication rules and the bots. It
// is documented key by key in configs/README.md. Load rejects unknown
// keys, wrong types, duplicate bot names and missing executables before
// anything starts, each error naming the key and its line (*ConfigError).
//
// # Schedule
//
// A round plays every opening of every pairing twice, the colours
// reversed; the two games share a pair key. Game IDs are stable, and the
// schedule's Fingerprint, stored in the output directory's manifest,
// identifies it together with the rules. A Schedule computes each game from
// its ID (Game, Games), so its size costs no memory.
//
// A Shard is one of N slices of the schedule: colour-reversed pair k goes
// to slice k mod N. Run with Options.Shard plays one slice into a
// directory of its own; game IDs stay those of the whole schedule. Merge
// combines the slices' directories into one ordinary output directory, on
// which Run plays whatever games are still missing.
//
// # Output directory
//
// Run keeps, in the output directory:
//
//   - manifest.json: the tournament and its schedule fingerprint;
//   - games.jsonl: the journal, one JSON Record per finished game, each
//     appended with a single write before the game counts, and flushed to
//     stable storage in groups (at most JournalSyncInterval later, and
//     when Run returns);
//   - games.pgn (Cheversi) or games.pdn (checkers): the same games for
//     rating programs, rebuilt from the journal at every start;
//   - logs/BOT.log: each bot's stderr, capped per bot for the run
//     (engine.DefaultLogLimit, keeping the newest output past the cap);
//     arena.log: forfeits and notices;
//   - the rating reports, which package reports/dirreport writes from
//     the manifest and the journal.
//
// Running the same configuration on the same directory again plays exactly
// the games the journal lacks: a crash of the arena loses at most the
// games in flight (a power loss also those of the last sync interval),
// a torn last journal line is cut off, and a configuration that changes the
// schedule is refused (ErrScheduleChanged). A lock file keeps two runs off
// one directory.
//
// A journal is read one game at a time (ScanJournal): a resume, the
// reports of a directory (package dirreport) and Merge keep a bit per game
// ID and counts, never the records, so that their memory does not grow
// with the games. What must come out in the order of the IDs while the
// journal holds the games in any order (report.html's game list, a merged
// journal) goes through a temporary file next to the journal, a
// fixed-size entry per game ID, removed when done.
//
// # Refereeing
//
// Bot processes are started through package engine, checked once before
// the first game (handshake, the game they play), kept alive from game to
// game and restarted only after they break. Every move is decoded and
// checked against the rules; an illegal move, a move too late, a crash or
// a protocol violation forfeits the game, with the kind and detail in the
// record (Forfeit), and the tournament goes on. Replay and Verify check a
// recorded game against the rules.
//
// Each move's request carries the bot's clock (fixed time per move, base
// plus increment, or moves per period) and, for bots that declare they
// obey them, the configured node and depth limits. The last info line a
// bot writes before its move is recorded with the move (MoveRecord.Info).
// Optionally (ResignRule, DrawRule) the bots' reported scores end a game
// by agreement, recorded as ReasonAdjudication.
package tournament
