// Package viewer prepares games for the arena's web pages and holds the
// script and style that draw them.
//
// The Go side does everything that needs the rules: Replay plays a recorded
// game through the rules packages (arena/cheversi, arena/checkers) and
// returns the position text after every ply, the squares each move
// touched, and, for Cheversi, both sides' scores and the empty squares
// they attack. The pages' JavaScript (Script, with Style) only parses
// position text and draws it: it never decides what a move does.
//
// The same script draws the boards of report.html (an embedded sample of
// games, see package reports), of the live page (package live) and of the
// board a person plays on (package human): Script defines a global
// ArenaViewer object with
//
//	ArenaViewer.board(game, text, options)  an SVG board for a position text
//	ArenaViewer.viewer(root, source)        a filterable game list and a viewer
//
// A source gives the list of games (List, encoded compactly) and loads any
// one game's plies (Game) on request, from data embedded in the page or
// from a server.
//
// The pages served to a browser on the same machine (the live page, the
// human player's board) listen with Listen and answer through LocalOnly,
// which keeps other web sites out.
package viewer
