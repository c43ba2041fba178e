// Package schedule lays out the games of a round-robin or gauntlet
// tournament.
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
package schedule
