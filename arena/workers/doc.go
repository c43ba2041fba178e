// Package workers plays a tournament on many machines: a coordinator
// (arena run --workers) hands batches of games to any number of workers
// (arena worker), which play them with their own bots and return each game
// as the journal record a local run would have written. The coordinator
// keeps everything a local run keeps, as a local run does: the one
// journal, the reports, the live page and the sequential test, which can
// stop a match across every worker. Its Coordinator is a tournament.GamePool
// (Options.Pool), the other implementation beside the local pool of bot
// processes.
//
// # Transport
//
// Coordinator and workers talk through NATS JetStream, never to each
// other: the coordinator connects to a NATS server (nats://) or starts
// one in its own process (listen://), whose state it keeps in the
// tournament's directory (StoreDir). Each tournament has an ID (a hash of
// its schedule's fingerprint and the creation of its directory) and:
//
//   - an entry in the bucket TournamentBucket: the configuration's text,
//     the schedule's fingerprint and the tournament's state (running or
//     stopped). Workers watch the bucket: it is how they find tournaments
//     and learn that one stopped.
//   - the subject arena.batches.ID of the work-queue stream BatchStream,
//     with one durable pull consumer shared by the workers. A batch holds
//     whole colour-reversed pairs (BatchPairs of them) with their
//     openings, and a token, a MAC of the tournament and the games' IDs
//     under a key kept in the tournament's directory. Acknowledgement is
//     explicit, with a deadline (AckWait) that a worker extends every
//     third of it while it plays; a worker that dies or is cut off goes
//     silent, and the batch goes to another after the deadline. A worker
//     that stops hands its batches back at once.
//   - the subject arena.results.ID of the work-queue stream ResultStream,
//     with the coordinator's durable consumer: each game played, sent as
//     soon as it ends, and the workers' word about themselves (ready, or
//     unable to play the tournament, and why). A worker sends a batch's
//     results before it acknowledges the batch.
//
// The coordinator keeps in the stream, topped up every 100 ms, twice as
// many batches no worker has taken as the workers that said they are
// ready can start at once, and two more.
//
// # Exactly once
//
// A game counts once it is in the journal. The coordinator records a
// game a worker returns only when it checks: of this tournament and
// schedule, handed out by this tournament (the token), the game the
// schedule has under its ID (players, round, opening, rules, and the
// random plies of a deferred opening, which the opening's seed gives),
// and legal to its recorded result, replayed through the rules. Anything
// else is refused and logged, and the game handed out again. A game
// returned twice (a worker that was slow, not dead, and the one that had
// its batch next) is recorded once. A game handed out whose batch is gone
// from the stream and whose result never came (a NATS server that lost it)
// is handed out again once the coordinator has waited AckWait for it.
//
// # Stopping
//
// A run whose every game is recorded is over. When the sequential test
// decides (or the journal fails), the coordinator hands out no more
// batches and marks the tournament stopped: the workers finish the game
// each is playing, which is recorded (it counts for the ratings, not for
// the test, as in a local run, which finishes its games in flight), and
// drop the rest of their batches; the coordinator withdraws the batches
// no worker has taken, and waits until every batch is gone (those of a
// worker that died come back after AckWait and are withdrawn). Finishing
// the games being played costs one game's time and wastes no play;
// finishing whole batches would keep every worker busy for games the test
// no longer reads. Once over, the tournament's entry, messages and
// consumers are removed from NATS.
//
// A coordinator that stops without the tournament being over (Ctrl-C, or
// kill -9) leaves its state in NATS: the workers go on with the batches
// they hold, whose results wait in the stream. Started again on the same
// directory it resumes from its journal and the stream: it first takes in
// the results that came meanwhile, then leaves the batches still in the
// stream to the workers, and hands out only the games in neither.
//
// # The workers' check
//
// A worker that cannot start a bot of the tournament says so to the
// coordinator, which logs it, and takes none of its batches. The
// coordinator also tests each worker's results against the others' (a
// chi-square test of homogeneity over the outcomes of the pairs each
// played, as fishtest does) and flags a worker that stands out: a machine
// too slow for the time control, or bots that are not the ones meant.
//
// # Solves
//
// The same workers solve Cheversi in work units: a SolvePool is the Pool
// of a solve.Driver. A solve is an entry of TournamentBucket of kind
// "solve" with its rules instead of a configuration; its units (positions
// to solve, each with a token, a MAC of the solve and the unit's key)
// go through BatchStream, and the units solved, as lines of a results
// file, through ResultStream, with the same deadlines and hand-backs as
// batches of games. The driver keeps the results file and hands out the
// units it needs; a worker solves Concurrency units at a time with a
// transposition table of SolveMemory they share.
package workers
