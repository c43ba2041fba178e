// Package dirreport writes the reports of a tournament's output
// directory (package reports: report.md, report.html, report.json,
// standings.csv) from its manifest and journal, and gives the game
// viewers the directory's games.
//
// Write reads the journal one game at a time: its memory does not grow
// with the games beyond a bit per game ID. What must come out in the order
// of the IDs while the journal holds the games in any order (report.html's
// game list) goes through a temporary file next to the journal, a
// fixed-size entry per game ID (GameList), removed when done.
package dirreport
