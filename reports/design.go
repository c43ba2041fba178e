package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/metrics"
)

// designRow is one set of games' design metrics under a name.
type designRow struct {
	Name    string
	Summary metrics.Summary
}

// designLegend explains the columns of designTable.
var designLegend = []legendItem{
	{"Games", "the games decided by play, of which every other figure is computed (forfeits are left out)"},
	{"Length", "plies from the start position, the opening's included: mean ± standard deviation, and the 10th to 90th percentile"},
	{"Draws", "drawn games; Decisive, games with a winner"},
	{"Balance", "1 − |first mover's win rate − second mover's| (Ludii's balance)"},
	{"Margin", "the first mover's final board score minus the second mover's, without any komi: mean ± standard deviation, and the median"},
	{"Branching", "legal moves per position, as the referee saw them, averaged over each game then over the games"},
	{"Forced", "positions with a single legal move, averaged over each game then over the games"},
	{"Lead changes", "changes of sign of the evaluations the bots sent with their moves, per game (games with two evaluations or more)"},
	{"Decided at", "in won games with evaluations, the ply from which the winner's evaluation never fell below even again: median (mean)"},
	{"Drama", "in won games with evaluations, the share of evaluations in which the eventual winner was behind"},
}

// designTable lays out the design metrics, one row per set of games.
func designTable(rows []designRow) table {
	t := table{Header: []string{"", "Games", "Length", "Draws", "Decisive", "Balance", "Margin", "Branching", "Forced",
		"Lead changes", "Decided at", "Drama"}, Legend: designLegend}
	for _, r := range rows {
		s := r.Summary
		row := []string{r.Name, strconv.Itoa(s.Played)}
		if s.Played == 0 {
			for range len(t.Header) - len(row) {
				row = append(row, dash)
			}
			t.Rows = append(t.Rows, row)
			continue
		}
		row = append(row, distSpread(s.Length, false), pct(s.DrawRate), pct(s.Decisive), fmt.Sprintf("%.3f", s.Balance),
			margin(s.Margin))
		if s.Branched > 0 {
			row = append(row, f1(s.Branching), pct(s.Forced))
		} else {
			row = append(row, dash, dash)
		}
		if s.LeadChanges.N > 0 {
			row = append(row, fmt.Sprintf("%.2f", s.LeadChanges.Mean))
		} else {
			row = append(row, dash)
		}
		if s.DecidedAt.N > 0 {
			row = append(row, fmt.Sprintf("%s (%s)", trimFloat(s.DecidedAt.Median), f1(s.DecidedAt.Mean)), pct(s.Drama))
		} else {
			row = append(row, dash, dash)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// distSpread formats a distribution as "mean ± sd (p10–p90)", with signs when
// signed.
func distSpread(d metrics.Distribution, signed bool) string {
	if d.N == 0 {
		return dash
	}
	mean := f1(d.Mean)
	if signed && d.Mean > 0 {
		mean = "+" + mean
	}
	return fmt.Sprintf("%s ± %s (%s–%s)", mean, f1(d.SD), trimFloat(d.P10), trimFloat(d.P90))
}

// margin formats the score-margin distribution: mean ± sd and the median.
func margin(d metrics.Distribution) string {
	if d.N == 0 {
		return dash
	}
	mean := f1(d.Mean)
	switch {
	case mean == "-0.0" || mean == "0.0":
		mean = "0.0"
	case d.Mean > 0:
		mean = "+" + mean
	}
	med := trimFloat(d.Median)
	if d.Median > 0 {
		med = "+" + med
	}
	return fmt.Sprintf("%s ± %s, median %s", mean, f1(d.SD), med)
}

// trimFloat formats x with at most one decimal, none when it is whole.
func trimFloat(x float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(x, 'f', 1, 64), ".0")
}

// pliesTable is the branching ply by ply: one column pair (legal moves,
// forced share) per set of games that has it.
func pliesTable(rows []designRow) table {
	t := table{Header: []string{"Ply"}, Legend: []legendItem{
		{"Legal", "the mean number of legal moves in the positions before that ply"},
		{"Forced", "the share of those positions with a single legal move"},
	}}
	var with []designRow
	n := 0
	for _, r := range rows {
		if len(r.Summary.ByPly) > 0 {
			with = append(with, r)
			n = max(n, len(r.Summary.ByPly))
		}
	}
	for _, r := range with {
		prefix := ""
		if len(with) > 1 {
			prefix = r.Name + ": "
		}
		t.Header = append(t.Header, prefix+"Legal", prefix+"Forced")
	}
	for ply := range n {
		row := []string{strconv.Itoa(ply + 1)}
		for _, r := range with {
			if ply < len(r.Summary.ByPly) {
				p := r.Summary.ByPly[ply]
				row = append(row, f1(p.Legal), pct(p.Forced))
			} else {
				row = append(row, dash, dash)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// endedText says how the games ended, most frequent first: "9,981 by
// score, 19 forfeit".
func endedText(s metrics.Summary) string {
	var parts []string
	for _, e := range s.Ended {
		reason := e.Reason
		if reason == "" {
			reason = "unknown"
		}
		parts = append(parts, count(e.Games)+" "+reason)
	}
	return strings.Join(parts, ", ")
}
