// Package rating computes ratings and side-balance statistics from finished
// games.
//
// The input is a slice of Game values: who played which colour, which colour
// moved first, the result from White's side, and optionally the opening and
// a key that ties two colour-reversed games together. Analyze turns them into
// an Analysis, a plain tree of numbers that the report writers render and
// that encodes to JSON as is.
//
// Ratings come from a joint maximum-likelihood fit of every player's rating,
// the first mover's advantage and a draw parameter. Two models are offered:
//
//   - BayesElo (the default), the model of Rémi Coulom's bayeselo program:
//     with f(x) = 1/(1+10^(x/400)) and d the first mover's rating minus the
//     second mover's, P(first mover wins) = f(-d-adv+drawElo),
//     P(second mover wins) = f(d+adv+drawElo) and a draw takes the rest. Like
//     bayeselo it adds a prior of virtual draws (2 by default) between every
//     pair of players that met, so that perfect scores stay finite, and it
//     prints ratings multiplied by 4x/(1+x)^2 with x = 10^(-drawElo/400).
//   - Ordo, the model of Miguel Ballicora's ordo program: a logistic
//     expected score E = 1/(1+exp(-b(R_first+adv-R_second))) with
//     b = ln(0.76/0.24)/202, draws counting half a point; ratings and
//     advantage are chosen so that expected points equal actual points, and
//     the draw rate between equal players is fitted separately.
//
// Intervals and likelihoods of superiority (LOS) come from the covariance of
// the fit, the inverse of its information matrix. Players that are not
// linked by games form separate groups; each group is centred (or anchored)
// on its own and ratings are only comparable within a group.
//
// The package also exports the small statistics used for a pair of players
// (Elo difference with margin, LOS, pentanomial counts of colour-reversed
// game pairs), the sequential probability ratio test SPRT used to stop a
// match early, the Wilson score interval and the exact sign test.
package rating
