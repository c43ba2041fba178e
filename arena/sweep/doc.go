// Package sweep runs a sweep over rule variants: every variant of a
// game's rules (a grid of switch values, a list of switch sets, komi
// values) is played on the same openings, one game each, batch after
// batch, and a race (package race) stops each variant as soon as its
// first mover's score is shown outside the tolerance around the target,
// farther from the target than another variant's, or within the
// tolerance. The result ranks the variants by their distance from the
// target, with intervals that hold for the whole family at once, and
// gives each variant's design metrics (package metrics).
//
// # Configuration
//
// A sweep is a tournament configuration (config.Config: the game and its
// base rules, the openings, the bots and their limits) with a [sweep]
// table:
//
//	[sweep]
//	target = 0.5         # the first mover's score aimed at
//	precision = 0.02     # how near the target counts as on target
//	alpha = 0.05         # the family-wise error rate
//	batch = 200          # openings between looks
//	min_openings = 200   # the fewest a variant is judged on (default: batch)
//	nodes = [1000, 10000] # strengths: every bot's node limit, one race each
//	stop = ["outside", "worse", "on-target"] # why variants stop early ([] for never)
//	exclude = ["other.toml"] # configurations whose openings are left out
//	reference = "..."    # a figure to set beside the result
//
//	[sweep.grid]         # every combination of these values is a variant
//	komi = [0, 0.5, 1]
//	touch = ["opponent", "any"]
//
//	[[sweep.variants]]   # and these switch sets
//	touch = "none"
//
// The base's openings are the list every variant plays, in order, once
// each (the colours alternating from one opening to the next): the
// length of the list is the most openings a variant plays. Random
// openings are drawn under the base rules and kept only when they are
// legal under every variant and repeat none of the excluded
// configurations' openings, by moves or by position; openings drawn in
// play (openings.after) are shared by their seeds.
//
// # Running
//
// Run plays the sweep in an output directory that holds the shared
// openings and one tournament directory per variant and strength
// (arms/). Every game is in a journal before it counts, and the race is
// computed again from the journals on every run, so a sweep killed at any
// point (kill -9 included) resumes where it stopped and reaches the same
// decisions. With a shard, a run plays its slice of every batch and reads
// the other slices' journals (a shared directory, as on a cluster) before
// each look, waiting for them if need be: every slice takes the same
// decisions.
package sweep
