package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/arena-games/arena/arena/rating"
)

// mdEscaper makes text safe inside a Markdown table cell: no table breaks,
// no emphasis or links, no raw HTML.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "#", `\#`, "\r", " ", "\n", " ",
)

func md(s string) string { return mdEscaper.Replace(s) }

// mdTable writes t as a Markdown table whose columns from rightFrom on are
// aligned right.
func mdTable(w io.Writer, t table, rightFrom int) {
	cells := make([]string, len(t.Header))
	for i, h := range t.Header {
		cells[i] = md(h)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	for i := range t.Header {
		if i >= rightFrom {
			cells[i] = "---:"
		} else {
			cells[i] = "---"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(cells, "|"))
	for _, row := range t.Rows {
		for i, c := range row {
			cells[i] = md(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells[:len(row)], " | "))
	}
	fmt.Fprintln(w)
	if len(t.Legend) > 0 {
		for _, l := range t.Legend {
			fmt.Fprintf(w, "- **%s**: %s.\n", md(l.Term), md(l.Text))
		}
		fmt.Fprintln(w)
	}
}

// WriteMarkdown writes report.md: the standings, the model, the side
// balance (overall, per player, per opening), the pairs, the likelihoods
// of superiority and the notes.
func WriteMarkdown(w io.Writer, m Meta, a *rating.Analysis) error {
	if a == nil {
		return ErrNoAnalysis
	}
	ew := &errWriter{w: w}
	mdHead(ew, m, a)

	fmt.Fprintf(ew, "## Standings\n\n")
	mdTable(ew, standingsTable(a), 2)
	if b := bestText(a); b != "" {
		fmt.Fprintf(ew, "%s\n\n%s\n\n", md(b), md(bestLegend))
	}
	if points := pointsTable(a); len(points.Rows) > 0 {
		fmt.Fprintf(ew, "## Standings by points\n\n")
		mdTable(ew, points, 2)
	}

	fmt.Fprintf(ew, "## Side balance\n\n%s\n\n", md(verdict(a)))
	if p := provedText(a); p != "" {
		fmt.Fprintf(ew, "%s\n\n", md(p))
	}
	mdTable(ew, sideTable(a), 1)

	fmt.Fprintf(ew, "### By player\n\n")
	mdTable(ew, byPlayerTable(a), 1)

	if openings := openingsTable(a); len(openings.Rows) > 0 {
		fmt.Fprintf(ew, "### By opening (strongest evidence of imbalance first)\n\n")
		mdTable(ew, openings, 2)
	}

	fmt.Fprintf(ew, "## Pairs\n\n")
	mdTable(ew, pairsTable(a), 2)

	if search := searchTable(m); len(search.Rows) > 0 {
		fmt.Fprintf(ew, "## Search\n\n")
		mdTable(ew, search, 1)
	}
	if latency := latencyTable(m); len(latency.Rows) > 0 {
		fmt.Fprintf(ew, "## Latency\n\n")
		mdTable(ew, latency, 1)
	}
	mdDesign(ew, m)

	if n := len(a.Players); n > 1 && n <= maxLOSMatrix {
		fmt.Fprintf(ew, "## Likelihood of superiority\n\n")
		mdTable(ew, losTable(a), 1)
	}
	mdTail(ew, a)
	return ew.err
}

// mdDesign writes the design metrics of the games, if m has them.
func mdDesign(ew *errWriter, m Meta) {
	d := m.Design
	if d == nil {
		return
	}
	rows := []designRow{{"these games", *d}}
	fmt.Fprintf(ew, "## Design metrics\n\nHow the games ended: %s.\n\n", md(endedText(*d)))
	mdTable(ew, designTable(rows), 1)
	if pt := pliesTable(rows); len(pt.Rows) > 0 {
		fmt.Fprintf(ew, "### Branching by ply\n\n")
		mdTable(ew, pt, 1)
	}
}

// mdHead writes the title and what the tournament is.
func mdHead(ew *errWriter, m Meta, a *rating.Analysis) {
	title := m.Name
	if title == "" {
		title = "Ratings"
	}
	fmt.Fprintf(ew, "# %s\n\n", md(title))
	if m.Game != "" {
		fmt.Fprintf(ew, "- Game: %s\n", md(m.Game))
	}
	if !m.Started.IsZero() {
		fmt.Fprintf(ew, "- Started: %s\n", when(m.Started))
	}
	if !m.Finished.IsZero() {
		fmt.Fprintf(ew, "- Finished: %s\n", when(m.Finished))
	}
	for _, s := range m.Sources {
		fmt.Fprintf(ew, "- Source: %s\n", md(s))
	}
	fmt.Fprintf(ew, "- Games: %s\n", md(runLine(m, a)))
	if m.Run != nil && m.Run.SPRT != "" {
		fmt.Fprintf(ew, "- Sequential test: %s\n", md(m.Run.SPRT))
	}
	fmt.Fprintf(ew, "- Players: %d\n", len(a.Players))
	fmt.Fprintf(ew, "- Rating %s\n\n", md(modelLine(a, true)))
	if m.Rules != "" {
		fmt.Fprintf(ew, "Rules:\n\n")
		for _, line := range strings.Split(strings.TrimRight(m.Rules, "\n"), "\n") {
			fmt.Fprintf(ew, "    %s\n", line)
		}
		fmt.Fprintln(ew)
	}
}

// losTable is the likelihood of superiority of every player over every
// other.
func losTable(a *rating.Analysis) table {
	t := table{Header: []string{""}}
	for _, p := range a.Players {
		t.Header = append(t.Header, p.Name)
	}
	for i, p := range a.Players {
		row := []string{p.Name}
		for j := range a.Players {
			if i == j {
				row = append(row, "")
			} else {
				row = append(row, losp(a.LOS[i][j]))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// mdTail writes the groups and the notes.
func mdTail(ew *errWriter, a *rating.Analysis) {
	if len(a.Groups) > 1 {
		fmt.Fprintf(ew, "## Groups\n\n")
		for _, g := range a.Groups {
			names := make([]string, len(g.Players))
			for i, n := range g.Players {
				names[i] = md(n)
			}
			fmt.Fprintf(ew, "%d. %s\n", g.Index+1, strings.Join(names, ", "))
		}
		fmt.Fprintln(ew)
	}
	if len(a.Notes) > 0 {
		fmt.Fprintf(ew, "## Notes\n\n")
		for _, n := range a.Notes {
			fmt.Fprintf(ew, "- %s.\n", md(n))
		}
		fmt.Fprintln(ew)
	}
}

// maxLOSMatrix is the largest field whose LOS matrix the Markdown report
// prints (report.json always has it).
const maxLOSMatrix = 24
