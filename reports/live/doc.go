// Package live serves a read-only web page that follows a tournament as it
// runs: its progress, the standings with their rating intervals, the side
// balance so far, the games in flight with their boards moving, and every
// finished game in the game viewer of package viewer.
//
// A Server follows a tournament's output directory by reading its journal
// as it grows, so it serves a finished tournament, one another process is
// running, and one this process runs alike. Only when it runs inside the
// process playing the games (arena run --serve), passed to tournament.Run
// as its Observer, does it see the games in flight.
//
// The tournament never waits for the page: the Observer methods only
// append to memory under a short lock and mark the state dirty; a single
// goroutine turns that into a snapshot a few times a second, coalescing
// any number of moves, and each browser is sent the newest snapshot when
// it can take it. A browser that stops reading is disconnected after a
// write timeout.
//
// The server answers only its fixed routes: the page, its script and style
// (embedded in the binary) and JSON generated from the journal. No part of
// a request path is used to open a file. It binds to the loopback
// interface unless told otherwise, and then answers only requests that name
// a loopback host, so other sites cannot read it through a browser.
package live
