package reports

import (
	"fmt"
	"io"
	"strconv"

	"github.com/arena-games/arena/arena/rating"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// newTable returns a table that keeps header text as given and aligns
// each column as asked.
func newTable(w io.Writer, align []tw.Align) *tablewriter.Table {
	return tablewriter.NewTable(w, tablewriter.WithConfig(tablewriter.Config{
		Header: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off},
			Alignment:  tw.CellAlignment{Global: tw.AlignCenter},
		},
		Row: tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off},
			Alignment:  tw.CellAlignment{PerColumn: align},
		},
	}))
}

// standingsHeader and standingsRows are shared by the terminal and the
// Markdown report.
func standingsHeader(a *rating.Analysis) []string {
	h := []string{"#", "Player", "Elo", "± " + level(a), "Games", "W", "D", "L", "Score", "Draws", "Score 1st", "Score 2nd", "LOS next"}
	if len(a.Groups) > 1 {
		h = append(h, "Group")
	}
	return h
}

func standingsRows(a *rating.Analysis) [][]string {
	rows := make([][]string, 0, len(a.Players))
	for _, p := range a.Players {
		row := []string{
			strconv.Itoa(p.Rank), p.Name, elo(p.Elo, signed(a)), fmt.Sprintf("%.0f", p.Interval),
			strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses),
			pct(p.Score), pct(p.DrawRatio), sideScore(p.FirstMover), sideScore(p.SecondMover), losNext(p),
		}
		if len(a.Groups) > 1 {
			row = append(row, strconv.Itoa(p.Group+1))
		}
		rows = append(rows, row)
	}
	return rows
}

// sideRows returns the side-balance summary: a label column, this
// tournament, and the reference when there is one.
func sideRows(a *rating.Analysis) (header []string, rows [][]string) {
	sb := a.SideBalance
	ref := sb.Reference
	header = []string{"First mover (" + sb.FirstMover + ")", "These games"}
	if ref != nil {
		header = append(header, ref.Label)
	}
	add := func(label, ours, theirs string) {
		row := []string{label, ours}
		if ref != nil {
			row = append(row, theirs)
		}
		rows = append(rows, row)
	}
	refOr := func(f func(*rating.ReferenceBalance) string) string {
		if ref == nil {
			return ""
		}
		return f(ref)
	}
	add("Games", strconv.Itoa(sb.Games), refOr(func(r *rating.ReferenceBalance) string { return strconv.Itoa(r.Games) }))
	add("Wins", fmt.Sprintf("%d (%s)", sb.Wins, pct(sb.WinRatio)),
		refOr(func(r *rating.ReferenceBalance) string { return fmt.Sprintf("%d (%s)", r.Wins, pct(r.WinRatio)) }))
	add("Draws", fmt.Sprintf("%d (%s)", sb.Draws, pct(sb.DrawRatio)),
		refOr(func(r *rating.ReferenceBalance) string { return fmt.Sprintf("%d (%s)", r.Draws, pct(r.DrawRatio)) }))
	add("Losses", fmt.Sprintf("%d (%s)", sb.Losses, pct(sb.LossRatio)),
		refOr(func(r *rating.ReferenceBalance) string { return fmt.Sprintf("%d (%s)", r.Losses, pct(r.LossRatio)) }))
	score := dash
	if sb.Games > 0 {
		score = fmt.Sprintf("%s [%s, %s]", pct(sb.Score), pct(sb.ScoreLow), pct(sb.ScoreHigh))
	}
	add("Score ("+level(a)+" interval)", score,
		refOr(func(r *rating.ReferenceBalance) string {
			return fmt.Sprintf("%s [%s, %s]", pct(r.Score), pct(r.ScoreLow), pct(r.ScoreHigh))
		}))
	z := dash
	if sb.Z != nil {
		z = fmt.Sprintf("%.2f", *sb.Z)
	}
	add("z-test", fmt.Sprintf("z = %s, p = %s", z, pvalue(sb.ZPValue)), dash)
	add("Sign test on decisive games", "p = "+pvalue(sb.SignTestP), dash)
	adv := "not determined"
	if sb.AdvantageElo != nil {
		adv = fmt.Sprintf("%s ± %s Elo", elop(sb.AdvantageElo), plusMinus(sb.AdvantageInterval))
	}
	add("Fitted advantage", adv, dash)
	if sb.Forfeits > 0 {
		add("Left out (forfeits)", strconv.Itoa(sb.Forfeits), dash)
	}
	if p := sb.Paired; p != nil {
		noun := "pairs"
		if p.Pairs == 1 {
			noun = "pair"
		}
		add("Colour-reversed pairs", fmt.Sprintf("%d %s %v, score %s, p = %s", p.Pairs, noun, p.Counts, pct(p.Score), pvalue(p.PValue)), dash)
	}
	return header, rows
}

// WriteTerminal writes the standings and the side-balance summary as
// text tables, followed by the model parameters and the notes.
func WriteTerminal(w io.Writer, m Meta, a *rating.Analysis) error {
	if a == nil {
		return ErrNoAnalysis
	}
	ew := &errWriter{w: w}
	if m.Name != "" {
		fmt.Fprintf(ew, "%s\n\n", m.Name)
	}
	t := newTable(ew, []tw.Align{tw.AlignRight, tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight,
		tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight})
	t.Header(toAny(standingsHeader(a))...)
	if err := t.Bulk(standingsRows(a)); err != nil {
		return err
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintf(ew, "%d games; %s.\n\n", a.Games, modelLine(a))

	header, rows := sideRows(a)
	t = newTable(ew, []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight})
	t.Header(toAny(header)...)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, n := range a.Notes {
		fmt.Fprintf(ew, "Note: %s.\n", n)
	}
	return ew.err
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
