// Package pairing pairs the players of a Swiss tournament round by round,
// seeds knockout brackets, and finds maximum-weight matchings, on which
// the Swiss pairing rests.
//
// # The Swiss system
//
// Swiss pairs one round from the players' points and history. It is a
// Dutch-style system (the FIDE Dutch system's principles, C.04.3), adapted
// to the arena, where every pairing plays a colour-reversed pair of games
// on one opening, and solved exactly: every possible pairing of the round
// (and, with an odd number of players, every possible bye) is priced, and
// the round is the cheapest perfect matching (MaxWeightMatching), as
// bbpPairings pairs the Dutch system. The criteria, each outweighing all
// the later ones together:
//
//  1. No two players meet twice and no player gets a second bye, unless
//     the round cannot be paired otherwise (more rounds than there are
//     opponents); then as few rematches and second byes as possible.
//  2. Players meet players with the same points: the sum over the round's
//     pairings of the squared difference of the two players' points is as
//     small as possible. The bye goes to a player with the fewest points
//     (it counts as a pairing with the lowest score).
//  3. No player floats the same way twice running: one who met a player
//     with fewer points in its last round is not the one who meets a
//     player with fewer points again, nor, the other way, one who met a
//     player with more points.
//  4. Within a score group, ranked by seed, the k-th of the top half meets
//     the k-th of the bottom half; the player floating down from a group
//     is its lowest-ranked and meets the highest-ranked of the group
//     below; the bye goes to the lowest-ranked player.
//
// Ranks are by points, then by seed (the player's index). Colours do not
// constrain the pairing: each player has White in one game of every round
// and Black in the other. Who has White in the first game of the pair
// follows the FIDE rules' spirit: the player who had it less often, then
// the one who had Black first in the last round, then, on the top board
// and every second board below it, the higher-ranked player.
//
// The FIDE system differs in what the arena does not need (absolute
// colour criteria, since colours are always balanced) and in how it
// weighs score differences: it minimises the number of players paired
// outside their score group before their score differences, where Swiss
// minimises the sum of the squared differences (one player floating two
// score groups costs more than two floating one).
//
// A round is deterministic: the same players with the same history always
// get the same pairings, whatever the machine, so that a tournament
// resumed from its journal, or played by workers in any order, pairs its
// rounds as an uninterrupted run would.
package pairing
