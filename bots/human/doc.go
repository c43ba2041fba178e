// Package human is a bot played by a person: a protocol bot process, like
// any other, that asks the person for its moves on a board in the
// browser.
//
// "arena bot human --listen ADDR" speaks the arena protocol on standard
// input and output (through package sdk) and serves a page on ADDR where
// the person sees the position, the clock and the legal moves, and moves
// by clicking: in Cheversi a piece, then an empty square; in checkers a
// piece, then the square it goes to (the page asks which way when two
// capture paths join the same squares). The arena referees the move as it
// referees every bot's. Each click is first checked here against the
// rules package; a move the rules refuse is refused on the page with the
// rules' reason, and the person tries again while the clock runs. The
// clock is the arena's: a person who runs out of time loses on time.
//
// Because the person is a bot process, a tournament names one in its
// configuration like any bot (builtin = "human", args = ["--listen",
// "127.0.0.1:8765"]), and its games go to the same journal, PGN and
// ratings. arena play sets such a tournament up from the command line.
// A person plays one game at a time, so such a tournament has a
// concurrency of 1.
//
// The page is for the person at this machine: it binds to the loopback
// interface by default, answers only loopback host names, and accepts
// moves only from its own page (a JSON request from the same origin).
package human
