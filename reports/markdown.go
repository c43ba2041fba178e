package reports

import (
	"fmt"
	"io"
	"strconv"
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

func mdTable(w io.Writer, header []string, rightFrom int, rows [][]string) {
	cells := make([]string, len(header))
	for i, h := range header {
		cells[i] = md(h)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	for i := range header {
		if i >= rightFrom {
			cells[i] = "---:"
		} else {
			cells[i] = "---"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(cells, "|"))
	for _, row := range rows {
		for i, c := range row {
			cells[i] = md(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells[:len(row)], " | "))
	}
	fmt.Fprintln(w)
}

// WriteMarkdown writes report.md: the standings, the model, the side
// balance (overall, per player, per opening), the pairs, the likelihoods
// of superiority and the notes.
func WriteMarkdown(w io.Writer, m Meta, a *rating.Analysis) error {
	if a == nil {
		return ErrNoAnalysis
	}
	ew := &errWriter{w: w}
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
	fmt.Fprintf(ew, "- Games: %d, players: %d\n", a.Games, len(a.Players))
	fmt.Fprintf(ew, "- Rating %s\n\n", md(modelLine(a)))
	if m.Rules != "" {
		fmt.Fprintf(ew, "Rules:\n\n")
		for _, line := range strings.Split(strings.TrimRight(m.Rules, "\n"), "\n") {
			fmt.Fprintf(ew, "    %s\n", line)
		}
		fmt.Fprintln(ew)
	}

	fmt.Fprintf(ew, "## Standings\n\n")
	mdTable(ew, standingsHeader(a), 2, standingsRows(a))
	fmt.Fprintf(ew, "Elo ± is the half-width of the %s interval; Score 1st and Score 2nd are the scores as first and second mover; LOS next is the likelihood of superiority over the next player.\n\n", level(a))

	fmt.Fprintf(ew, "## Side balance\n\n")
	header, rows := sideRows(a)
	mdTable(ew, header, 1, rows)

	fmt.Fprintf(ew, "### By player\n\n")
	var prow [][]string
	for _, p := range a.Players {
		prow = append(prow, []string{
			p.Name,
			wdl(p.FirstMover.Wins, p.FirstMover.Draws, p.FirstMover.Losses), sideScore(p.FirstMover),
			wdl(p.SecondMover.Wins, p.SecondMover.Draws, p.SecondMover.Losses), sideScore(p.SecondMover),
		})
	}
	mdTable(ew, []string{"Player", "As first mover W / D / L", "Score", "As second mover W / D / L", "Score"}, 1, prow)

	if len(a.SideBalance.Openings) > 0 {
		fmt.Fprintf(ew, "### By opening (most unbalanced first)\n\n")
		var orow [][]string
		for _, o := range a.SideBalance.Openings {
			orow = append(orow, []string{
				o.Opening, strconv.Itoa(o.Games), wdl(o.Wins, o.Draws, o.Losses),
				fmt.Sprintf("%s [%s, %s]", pct(o.Score), pct(o.ScoreLow), pct(o.ScoreHigh)), pvalue(o.SignTestP),
			})
		}
		mdTable(ew, []string{"Opening", "Games", "First mover W / D / L", "Score (" + level(a) + ")", "Sign test p"}, 1, orow)
	}

	fmt.Fprintf(ew, "## Pairs\n\n")
	var rrow [][]string
	for _, p := range a.Pairs {
		penta := dash
		if p.Pentanomial != nil {
			penta = fmt.Sprintf("%v: %s ± %s", p.Pentanomial.Counts, elop(p.Pentanomial.Elo), plusMinus(p.Pentanomial.Margin))
		}
		rrow = append(rrow, []string{
			p.A, p.B, strconv.Itoa(p.Games), wdl(p.Wins, p.Draws, p.Losses), pct(p.Score),
			fmt.Sprintf("%s ± %s", elop(p.Elo), plusMinus(p.Margin)), los(p.LOS), pct(p.DrawRatio), penta,
		})
	}
	mdTable(ew, []string{"A", "B", "Games", "A's W / D / L", "A's score", "Elo diff", "LOS", "Draws", "Pairs LL, LD, WL+DD, WD, WW: Elo"}, 2, rrow)

	if n := len(a.Players); n > 1 && n <= maxLOSMatrix {
		fmt.Fprintf(ew, "## Likelihood of superiority\n\n")
		header := []string{""}
		var lrow [][]string
		for _, p := range a.Players {
			header = append(header, p.Name)
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
			lrow = append(lrow, row)
		}
		mdTable(ew, header, 1, lrow)
	}
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
	return ew.err
}

// maxLOSMatrix is the largest field whose LOS matrix the Markdown report
// prints (report.json always has it).
const maxLOSMatrix = 24
