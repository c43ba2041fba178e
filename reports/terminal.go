package reports

import (
	"fmt"
	"io"

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
	st := standingsTable(a)
	t.Header(toAny(st.Header)...)
	if err := t.Bulk(st.Rows); err != nil {
		return err
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintf(ew, "%d games; %s.\n", a.Games, modelLine(a))
	if m.Run != nil || len(m.Sources) > 0 {
		fmt.Fprintf(ew, "%s\n", runLine(m, a))
	}
	fmt.Fprintln(ew)

	fmt.Fprintf(ew, "%s\n", verdict(a))
	side := sideTable(a)
	t = newTable(ew, []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight})
	t.Header(toAny(side.Header)...)
	if err := t.Bulk(side.Rows); err != nil {
		return err
	}
	if err := t.Render(); err != nil {
		return err
	}
	if ref := a.SideBalance.Reference; ref != nil {
		fmt.Fprintf(ew, "%s: %s.\n", capital(ref.Label), ref.Source)
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
