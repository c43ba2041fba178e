// Package reports renders a rating.Analysis: terminal tables, and the files
// of a report directory: report.md, standings.csv, report.json (every
// number) and report.html, a single self-contained page (inline CSS and
// SVG, no network) with charts of the ratings, the cross table and the
// side balance per opening. Given the tournament's games (Meta.Games),
// report.html also lists the games, filterable by bot, opponent, opening,
// result and reason, and replays any of them on a board (package viewer
// draws it); the rows of the opening and pair tables link to their games.
// A report embeds the moves of at most MaxGameBytes of games, so that its
// size stays bounded however long the tournament.
//
// Compare sets the side balance of several tournaments side by side (the
// first mover's score with its interval, draws, decisive games and the
// difference from a baseline); WriteCompareFiles and its siblings render
// it as a terminal table, Markdown, CSV, JSON (which ReadCompareJSON reads
// back) and an HTML page with a chart of the score against the node limit.
//
// Percentages are shown with one decimal; Elo values are rounded to whole
// points in the tables, as rating programs print them. The JSON file keeps
// full precision.
package reports
