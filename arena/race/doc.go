// Package race decides, as games come in, which rule variants are still
// worth playing when a designer looks for the variant that brings the
// first mover's score nearest a target: a race between variants by
// successive elimination, with a stated family-wise error rate.
//
// # The data
//
// Every variant (an arm of the race) plays the same list of openings, in
// the same order, one game each, and reports the first mover's points on
// each: 1, ½ or 0. Games on the same opening are paired: the difference of
// two variants is estimated opening by opening, which removes what the
// openings themselves contribute when variants play alike on them. The
// race looks at the data whenever the caller asks (after each batch of
// openings, in a sweep) and stops the arms that are settled.
//
// # The stopping rules
//
// With target τ and precision δ, an arm whose first-mover score is μ is
// at distance |μ − τ| from the target. At each look an arm stops when its
// interval shows it to be
//
//   - outside: farther than δ from the target (its interval lies
//     wholly outside [τ − δ, τ + δ]);
//   - worse: farther from the target than another arm, by the paired
//     intervals below;
//   - on target: within δ of the target (its interval lies inside
//     [τ − δ, τ + δ]);
//
// and otherwise goes on until it has played MaxOpenings openings (budget).
// No arm stops before MinOpenings openings, nor is compared on fewer. When
// arms fall into groups (the same variants at several strengths, say), an
// arm is stopped as worse only against its own group; the paired
// difference of any two arms (Difference) is reported with the family's
// correction either way.
//
// Arm k is shown farther from the target than arm j when, with a = μk − τ
// and b = μj − τ, the intervals of the difference D = a − b and of the sum
// S = a + b (both paired, opening by opening) show D and S of the same sign
// (|a| − |b| ≥ min(±D, ±S) for that sign); or when the arms' own intervals
// fix the signs of a and b and the one contrast that is then their
// difference in distance is shown positive; or when k's interval keeps it
// farther from the target than j's reaches.
//
// # Error rate and multiplicity
//
// Every decision rests on confidence sequences: intervals that hold at
// every look at once, however many looks there are and whatever the
// stopping, so that looking after every batch costs nothing in validity
// and the interval an arm stops with is as valid as any. Each is Robbins'
// normal-mixture boundary with the variance estimated from the data
// (Waudby-Smith, Arnold, Wu and Ramdas, "Time-uniform central limit
// theory and asymptotic confidence sequences", Annals of Statistics,
// 2024): after n openings with sample variance σ̂², the mean is within
//
//	σ̂/n · √((n + 1/ρ²)(2 ln(1/α) + ln(1 + ρ²n)))
//
// of the estimate, at every n at once, with probability 1 − α; like any
// interval built on an estimated variance it holds asymptotically, which
// the simulations check at the sizes a sweep uses. ρ is tuned so that the
// interval is narrowest at MaxOpenings.
// The variance estimate adds one pseudo-observation at the largest
// variance the data allow, which keeps the first looks conservative.
//
// The family is every interval the race uses: one per arm and two per
// pair of arms (D and S). The correction is Bonferroni's over the family:
// half of the error rate Alpha is shared equally among the K arms'
// intervals, α/(2K) each, and half among the K(K − 1) contrast
// intervals, α/(2K(K − 1)) each. With probability at least 1 − Alpha
// every interval holds at every look, and then no arm within δ of the
// target is stopped as outside, no arm outside is stopped as on target,
// the arm nearest the target is never stopped as worse, and every
// reported interval (each arm's score, and the distance from the target
// derived from it) contains its true value. That is the family-wise error
// rate the race controls; the tests check it by simulation at the
// conditions where it binds (arms exactly δ from the target, arms exactly
// as far from it as each other), and show that the same looks with
// uncorrected fixed-sample intervals would not.
//
// Plan gives the number of openings an arm needs for an interval of a
// given half-width, the power calculation that sizes a sweep.
package race
