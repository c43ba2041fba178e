package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/arena-games/arena/arena/rating"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwarp"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/tw"
)

// newTable returns a table that keeps header text as given and aligns
// each column as asked. With maxWidth > 0 the table is at most that wide,
// its cells wrapped.
func newTable(w io.Writer, align []tw.Align, maxWidth int) *tablewriter.Table {
	wrap := tw.WrapNone
	if maxWidth > 0 {
		wrap = tw.WrapNormal
	}
	return tablewriter.NewTable(w, tablewriter.WithConfig(tablewriter.Config{
		MaxWidth: maxWidth,
		Header: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: wrap},
			Alignment:  tw.CellAlignment{Global: tw.AlignCenter},
		},
		Row: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: wrap},
			Alignment:  tw.CellAlignment{PerColumn: align},
		},
	}))
}

// WriteTerminal writes the standings and the side-balance summary as
// text tables, followed by a summary of the model and the notes. The fit's
// details (drawElo, display scale, prior) are left to the report files.
func WriteTerminal(w io.Writer, m Meta, a *rating.Analysis) error {
	return WriteTerminalWidth(w, m, a, 0)
}

// WriteTerminalWidth is WriteTerminal for a terminal of width columns (0:
// no limit). A table wider than that loses columns, least needed first
// (the report files keep them all), and text lines are wrapped.
func WriteTerminalWidth(w io.Writer, m Meta, a *rating.Analysis, width int) error {
	if a == nil {
		return ErrNoAnalysis
	}
	ew := &errWriter{w: w}
	if m.Name != "" {
		fmt.Fprintf(ew, "%s\n\n", wrapText(m.Name, width))
	}
	standingsAlign := func(_ int, header string) tw.Align {
		if header == "Player" {
			return tw.AlignLeft
		}
		return tw.AlignRight
	}
	// Narrower layouts: without the side scores and LOS, then without
	// W/D/L, then only the rating and the score.
	text, err := renderFitting(standingsTable(a), standingsAlign, width,
		[]string{"Score 1st", "Score 2nd", "LOS next"},
		[]string{"Score 1st", "Score 2nd", "LOS next", "W", "D", "L"},
		[]string{"Score 1st", "Score 2nd", "LOS next", "W", "D", "L", "Draws", "Games", "Group"})
	if err != nil {
		return err
	}
	io.WriteString(ew, text)
	if a.SideBalance.Forfeits > 0 && strings.Contains(text, "Score 1st") {
		// The legend of the report files, where it matters: a bot that
		// forfeited would otherwise seem to have scored nothing.
		n := a.SideBalance.Forfeits
		fmt.Fprintf(ew, "%s\n", wrapText(fmt.Sprintf("Score 1st and Score 2nd count only the games decided by play: the %s a forfeit decided %s left out (– where a bot has none left).",
			noun(n, "game", "games"), plural(n, "is", "are")), width))
	}
	fmt.Fprintf(ew, "%s\n", wrapText(fmt.Sprintf("%d games; %s.", a.Games, modelLine(a, false)), width))
	if b := bestText(a); b != "" {
		fmt.Fprintf(ew, "%s\n", wrapText(b, width))
	}
	if m.Run != nil || len(m.Sources) > 0 {
		fmt.Fprintf(ew, "%s\n", wrapText(runLine(m, a), width))
	}
	fmt.Fprintln(ew)
	if knockoutOrSwiss(a) {
		points := pointsTable(a)
		text, err := renderFitting(points, standingsAlign, width, []string{"H2H", "Buchholz", "SB"}, []string{"H2H", "Buchholz", "SB", "W", "D", "L", "Byes"})
		if err != nil {
			return err
		}
		fmt.Fprintf(ew, "%s\n", wrapText("Standings by points (ties broken by "+tiebreakWords(points)+"):", width))
		io.WriteString(ew, text)
		fmt.Fprintln(ew)
	}

	fmt.Fprintf(ew, "%s\n", wrapText(verdict(a), width))
	if p := provedText(a); p != "" {
		fmt.Fprintf(ew, "%s\n", wrapText(p, width))
	}
	side := sideTable(a)
	sideAlign := func(i int, _ string) tw.Align {
		if i == 0 {
			return tw.AlignLeft
		}
		return tw.AlignRight
	}
	// Narrower: without the reference's column.
	text, err = renderFitting(side, sideAlign, width, side.Header[min(2, len(side.Header)):])
	if err != nil {
		return err
	}
	io.WriteString(ew, text)
	if ref := a.SideBalance.Reference; ref != nil && strings.Contains(text, ref.Label) {
		fmt.Fprintf(ew, "%s\n", wrapText(capital(ref.Label)+": "+ref.Source+".", width))
	}
	for _, n := range a.Notes {
		fmt.Fprintf(ew, "%s\n", wrapText("Note: "+n+".", width))
	}
	return ew.err
}

// renderFitting renders t in the first layout that fits in width
// columns: all its columns, then without each set of columns in turn; when
// none fits, the last one with its cells wrapped to the width.
func renderFitting(t table, align func(i int, header string) tw.Align, width int, drops ...[]string) (string, error) {
	layouts := append([][]string{nil}, drops...)
	for n, drop := range layouts {
		var keep []int
		for i, h := range t.Header {
			if !slices.Contains(drop, h) {
				keep = append(keep, i)
			}
		}
		aligns := make([]tw.Align, len(keep))
		for j, i := range keep {
			aligns[j] = align(i, t.Header[i])
		}
		rows := make([][]string, len(t.Rows))
		for i, r := range t.Rows {
			rows[i] = pick(r, keep)
		}
		render := func(maxWidth int) (string, error) {
			var b strings.Builder
			tab := newTable(&b, aligns, maxWidth)
			tab.Header(toAny(pick(t.Header, keep))...)
			if err := tab.Bulk(rows); err != nil {
				return "", err
			}
			err := tab.Render()
			return b.String(), err
		}
		text, err := render(0)
		if err != nil || width <= 0 || textWidth(text) <= width {
			return text, err
		}
		if n == len(layouts)-1 {
			return render(width)
		}
	}
	panic("unreachable")
}

func pick(row []string, keep []int) []string {
	out := make([]string, len(keep))
	for j, i := range keep {
		out[j] = row[i]
	}
	return out
}

// textWidth returns the width in columns of the widest line of s.
func textWidth(s string) int {
	w := 0
	for _, line := range strings.Split(s, "\n") {
		w = max(w, twwidth.Width(line))
	}
	return w
}

// wrapText breaks s at spaces into lines of at most width columns (a
// word longer than that stays whole); width <= 0 leaves it as it is.
func wrapText(s string, width int) string {
	if width <= 0 || twwidth.Width(s) <= width {
		return s
	}
	lines, _ := twwarp.WrapString(s, width)
	return strings.Join(lines, "\n")
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// errWriter remembers the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// tiebreakWords names the tiebreaks of a points table in order.
func tiebreakWords(t table) string {
	words := "head to head, Sonneborn–Berger, wins"
	if slices.Contains(t.Header, "Buchholz") {
		words = "head to head, Buchholz, Sonneborn–Berger, wins"
	}
	return words
}
