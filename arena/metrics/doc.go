// Package metrics computes the design metrics of a rule set from its
// games: the qualities a game designer accepts or rejects a rule set for
// besides its side balance — how long games last, how they end, how many
// are drawn, by how much they are won, how many choices the players have,
// and, from the evaluations bots send with their moves, how often the
// lead changes and when the game was decided.
//
// The functions are pure: they read Game values (one finished game each,
// built by the caller from whatever record it keeps) and return numbers. A
// Tally sums games up one at a time, keeping counts rather than games, and
// its Summary is a plain tree of numbers that encodes to JSON as is. Legal
// replays a game under its rules to give the legal moves the referee saw
// at every ply.
//
// # The metrics
//
// Every figure is over the games decided by play; games lost by a forfeit
// count only in Games and in how the games ended. "First mover" and
// "second mover" are the seats, whichever bot held them.
//
//   - Length: plies from the start position, the opening's included; mean,
//     standard deviation, quantiles and the distribution.
//   - Ended: how many games ended each way (by score, for want of a move,
//     by a draw rule, by a forfeit...).
//   - Draw rate: drawn games over games. Decisive: games with a winner over
//     games. Balance: 1 − |first mover's win rate − second mover's|.
//   - Margin (games that keep a score, such as Cheversi): the first
//     mover's final board score minus the second mover's, without any
//     komi; its distribution. Where the median margin lies is where a komi
//     would balance the games if the players did not change their play.
//   - Branching: legal moves in each position the game went through, the
//     opening's included, averaged over each game's positions, then over
//     the games. Forced: the share of a game's positions that had exactly
//     one legal move, averaged over the games. Both are also given ply by
//     ply, over every position seen at that ply.
//   - Lead changes: from the evaluations the bots sent with their moves,
//     each turned to the first mover's point of view, how often its sign
//     changed between consecutive evaluations that were not 0 (even); per
//     game, over games with at least two evaluations.
//   - Decided at: in a won game with evaluations, the ply (counted from 1,
//     the opening's plies included) of the first move from which the
//     winner's own evaluation never dropped below even again; when the
//     winner's last evaluation was below even, the game's last ply.
//   - Drama: in a won game, the share of its evaluations in which the
//     eventual winner was behind (below even); averaged over such games.
//
// # Where they differ from Ludii's
//
// Ludii's game-evaluation metrics (Browne, Stephenson and others; the
// Evaluation module of the Ludii player) are the reference, and the names
// follow theirs. Balance, drawishness (our draw rate), completion (our
// decisive share), duration (our length, in plies where Ludii counts turns)
// and the branching factor and decision moves (the complement of our
// forced share) are computed as Ludii computes them, per game then averaged
// over the games; they differ where noted:
//
//   - Ludii leaves timeouts out of drawishness; the arena has no timeouts
//     of the game and leaves out forfeits instead, from every figure.
//   - Ludii's branching factor counts the positions after the initial
//     placement moves of its setup; ours counts every position from the
//     start, the random opening's included, since they are positions of
//     the game.
//   - Ludii's lead change, drama and decisiveness re-evaluate every
//     position with its own UCT search after the game and compare every
//     player's evaluation. Ours take the evaluations the bots sent while
//     playing, in each bot's own unit, so they use only signs: a lead
//     change is a change of sign of the evaluation (Ludii counts a change
//     of the set of leading players, ties included, and counts the first
//     position as a change); drama is the share of evaluations in which the
//     winner was behind (Ludii's averages how far behind, in its own
//     evaluation's unit); and "decided at" is the ply after which the
//     winner never fell below even (Ludii's decisiveness is the first move
//     at which the winner's evaluation rose above the highest the other
//     players ever reached, as a fraction of the game; DecisivenessMoves.java
//     divides two integers there, so that each game counts 0 or 1).
package metrics
