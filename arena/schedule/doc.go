// Package schedule lays out the games of a tournament: round-robin and
// gauntlet schedules (New), fixed before the first game, and Swiss and
// knockout schedules (NewRounds), laid out round by round from the
// results.
//
// A round plays every opening of every pairing twice, the colours
// reversed; the two games share a pair key. Game IDs are stable, and the
// schedule's Fingerprint identifies it together with the rules. A Schedule
// computes each game from its ID (Game, Games), so its size costs no
// memory.
//
// A Shard is one of N slices of the schedule: colour-reversed pair k goes
// to slice k mod N, so that each slice is an even sample of the whole and
// can be played by a batch job of its own; game IDs stay those of the whole
// schedule.
//
// A Swiss or knockout schedule (Rounds) is a function of its plan, its
// openings and the results recorded: each Swiss round is paired by package
// pairing once the round before is recorded, and each knockout match
// lays out its next games (the regular ones, a tiebreak pair, the decider)
// once its last ones are recorded and its entrants are known. Game IDs are
// fixed by the structure (a Swiss round's boards, a knockout match's block
// of IDs), so the same results give the same games in whatever order they
// are recorded.
package schedule
