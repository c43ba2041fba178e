// Package journal keeps the record of a tournament in its output
// directory: the games played (Record), the journal that holds them, the
// manifest that says which tournament the directory holds, and the lock
// that keeps two runs off one directory.
//
// # Output directory
//
//   - manifest.json: the tournament and its schedule fingerprint
//     (Manifest);
//   - games.jsonl: the journal, one JSON Record per finished game, each
//     appended with a single write before the game counts, and flushed to
//     stable storage in groups (at most SyncInterval later, and when the
//     Journal is closed);
//   - .lock: held by the process writing to the directory (LockDir).
//
// The game file (games.pgn or games.pdn, package pgn), the reports
// (package dirreport) and the logs of the run are derived from these.
//
// A journal is read one game at a time (Scan): a resume, the reports of a
// directory and Merge keep a bit per game ID (IDs) and counts, never the
// records, so that their memory does not grow with the games. Merge
// combines the directories of the slices of a tournament (played apart, see
// schedule.Shard) into one; what must come out in the order of the IDs
// while the journals hold the games in any order goes through a temporary
// file, a fixed-size entry per game ID, removed when done.
//
// A torn last journal line, which a crash in the middle of a write leaves,
// is cut off when the journal is opened for appending; any other damage is
// an error wrapping ErrDamaged. Replay and Verify check a recorded game
// against the rules it names; Tally sums up the standings.
package journal
