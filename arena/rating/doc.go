// Package rating computes ratings and side-balance statistics from finished
// games.
//
// The input is a slice of Game values: who played which colour, which colour
// moved first, the result from White's side, and optionally the opening and
// a key that ties two colour-reversed games together. Analyze turns them into
// an Analysis, a plain tree of numbers that the report writers render and
// that encodes to JSON as is. A Tally does the same game by game, keeping
// counts rather than games, so that its memory does not grow with their
// number.
//
// # Ratings
//
// Ratings come from a joint maximum-likelihood fit of every player's rating,
// the first mover's advantage and a draw parameter. Two models are offered:
//
//   - BayesElo (the default), the model of Rémi Coulom's bayeselo program:
//     with f(x) = 1/(1+10^(x/400)) and d the first mover's rating minus the
//     second mover's, P(first mover wins) = f(-d-adv+drawElo),
//     P(second mover wins) = f(d+adv+drawElo) and a draw takes the rest. Like
//     bayeselo it adds a prior of virtual draws (2 per player by default)
//     between every pair of players that met, so that perfect scores stay
//     finite, and it prints ratings multiplied by 4x/(1+x)^2 with
//     x = 10^(-drawElo/400).
//   - Ordo, the model of Miguel Ballicora's ordo program: a logistic
//     expected score E = 1/(1+exp(-b(R_first+adv-R_second))) with
//     b = ln(0.76/0.24)/202, draws counting half a point; ratings and
//     advantage are chosen so that expected points equal actual points, and
//     the draw rate between equal players is fitted separately. It adds no
//     prior: as ordo does, a player who won or lost every game is left out
//     of the fit and shown at the rating where that record has even odds,
//     a bound (PlayerStats.Bound). Only when even that leaves ratings
//     infinite are virtual draws added, and a note says so.
//
// Players that are not linked by games form separate groups; each group is
// centred (or anchored) on its own and ratings are only comparable within a
// group.
//
// # Intervals
//
// Every interval is at Options.Confidence (95 % by default) and is, unless
// said otherwise, estimate ± z·SE with z the normal quantile. Exactly:
//
//   - Ratings, BayesElo model: SE from the inverse of the ratings' block of
//     the information matrix (minus the Hessian of the log-likelihood, the
//     prior's virtual draws included), with the first mover's advantage and
//     drawElo held at their fitted values. This is what bayeselo's
//     covariance command computes, not its default interval; scaled to the
//     display scale.
//   - Ratings, Ordo model: SE from the sandwich estimate H⁻¹·M·H⁻¹ of the
//     score equations, ratings and advantage together: H is the
//     information of the equations with draws as half points and M the
//     variance of the scores under the fitted draw model. ordo itself gets
//     its errors by simulation (-s); the sandwich is the analytic
//     counterpart. Bounds have no interval.
//   - First mover's advantage: BayesElo, SE from the full inverse
//     information (ratings, advantage and drawElo all free), on the display
//     scale; Ordo, from the sandwich.
//   - Draw rate between equal players: BayesElo, drawElo ± z·SE (full
//     inverse information) mapped through tanh(ln 10·drawElo/800); Ordo,
//     whose rate solves "expected draws = drawn games", by the delta method
//     from the binomial spread of the number of draws, the ratings held. It
//     is shown only when games were drawn and, for BayesElo, the drawn
//     games outnumber the prior's virtual draws.
//   - LOS between two players: Φ(ΔR/SE(ΔR)) from the same covariance.
//   - A pair's Elo difference: the score's Elo ± half the width of
//     Elo(s ± z·SE) with the per-game (or per-pair) standard error, as
//     cutechess and fastchess compute it.
//   - A score (the first mover's, overall or per opening): the Wilson
//     interval with the effective sample size s(1-s)/SE², so that draws
//     narrow it.
//
// # Side balance
//
// The side balance is about the rules, not the bots: every first-mover
// figure (counted or fitted, overall, per player, per pair and per opening)
// is computed on the games decided by play, forfeits left out. Exact tests (the sign test) are always given; a z-test's
// p-value only where its normal approximation means something
// (MinNormalSample, MinEachSide). With many openings, each opening's
// p-value is adjusted by Benjamini–Hochberg and the openings are ranked by
// the adjusted value. A Verdict sums the record up for a reader.
//
// The package also exports the small statistics used for a pair of players
// (Elo difference with margin, LOS, pentanomial counts of colour-reversed
// game pairs), the sequential probability ratio test SPRT used to stop a
// match early (logistic or normalized Elo, as fastchess computes it), the
// Wilson score interval and the exact sign test.
package rating
