// Package reports renders a rating.Analysis: terminal tables, and the files
// of a report directory: report.md, standings.csv, report.json (every
// number) and report.html, a single self-contained page (inline CSS and
// SVG, no network) with charts of the ratings, the cross table and the
// side balance per opening.
//
// Percentages are shown with one decimal; Elo values are rounded to whole
// points in the tables, as rating programs print them. The JSON file keeps
// full precision.
package reports
