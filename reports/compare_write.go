package reports

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/arena-games/arena/arena/metrics"
)

// File names written by WriteCompareFiles.
const (
	CompareMarkdownFile = "compare.md"
	CompareCSVFile      = "compare.csv"
	CompareJSONFile     = "compare.json"
	CompareHTMLFile     = "compare.html"
)

// compareNote explains the intervals and the difference column.
func compareNote(c *Comparison) string {
	return fmt.Sprintf("1st score is the first mover's score (draws count half) with its %s interval, "+
		"from the colour-reversed pairs where the games come in pairs (the two games of an opening are alike), "+
		"else from the games; Δ is the difference from tournament #%d in percentage points, the two independent, "+
		"and p the two-sided p-value of no difference.", strings.TrimSuffix(fmt.Sprintf("%.1f", 100*c.Confidence), ".0")+"%", c.Baseline+1)
}

// WriteCompareTerminal writes the comparison as a text table with a note
// on its statistics.
func WriteCompareTerminal(w io.Writer, c *Comparison) error {
	return WriteCompareTerminalWidth(w, c, 0)
}

// WriteCompareTerminalWidth is WriteCompareTerminal for a terminal of
// width columns (0: no limit): a table wider than that loses columns,
// least needed first (the files keep them all), and the note is wrapped.
func WriteCompareTerminalWidth(w io.Writer, c *Comparison, width int) error {
	ew := &errWriter{w: w}
	t := compareTable(c)
	align := func(i int, _ string) tw.Align {
		if i >= 1 && i <= 4 || i == 6 {
			return tw.AlignLeft
		}
		return tw.AlignRight
	}
	text, err := renderFitting(t, align, width,
		[]string{"Decisive", "1st", "W / D / L"},
		[]string{"Decisive", "1st", "W / D / L", "Bots", "p"},
		[]string{"Decisive", "1st", "W / D / L", "Bots", "p", "Draws", "Tournament"},
		[]string{"Decisive", "1st", "W / D / L", "Bots", "p", "Draws", "Tournament", provedHeader})
	if err != nil {
		return err
	}
	io.WriteString(ew, text)
	fmt.Fprintln(ew, wrapText(compareNote(c), width))
	if p := provedLegend(t); p != "" && strings.Contains(text, provedHeader) {
		fmt.Fprintln(ew, wrapText(provedHeader+": "+p+".", width))
	}
	if rows := compareDesignRows(c); len(rows) > 0 {
		left := func(i int, _ string) tw.Align {
			if i == 0 {
				return tw.AlignLeft
			}
			return tw.AlignRight
		}
		text, err := renderFitting(designTable(rows), left, width,
			[]string{"Balance", "Decisive"}, []string{"Balance", "Decisive", "Drama", "Length"},
			[]string{"Balance", "Decisive", "Drama", "Length", "Forced", "Lead changes"})
		if err != nil {
			return err
		}
		fmt.Fprintln(ew)
		io.WriteString(ew, text)
	}
	return ew.err
}

// WriteCompareMarkdown writes the comparison as a Markdown table followed
// by the note on its statistics.
func WriteCompareMarkdown(w io.Writer, c *Comparison) error {
	ew := &errWriter{w: w}
	mdTable(ew, compareTable(c), 5)
	fmt.Fprintln(ew, md(compareNote(c)))
	if rows := compareDesignRows(c); len(rows) > 0 {
		fmt.Fprintf(ew, "\n## Design metrics\n\n")
		mdTable(ew, designTable(rows), 1)
		if pt := pliesTable(rows); len(pt.Rows) > 0 {
			fmt.Fprintf(ew, "### Branching by ply\n\n")
			mdTable(ew, pt, 1)
		}
	}
	return ew.err
}

// WriteCompareMarkdownTable writes the comparison's Markdown table alone,
// for documents that explain its columns once for several tables.
func WriteCompareMarkdownTable(w io.Writer, c *Comparison) error {
	ew := &errWriter{w: w}
	t := compareTable(c)
	t.Legend = nil
	mdTable(ew, t, 5)
	return ew.err
}

// WriteCompareCSV writes one row per tournament with a header row:
// percentages are numbers from 0 to 100 with two decimals, differences in
// percentage points; undefined values are empty.
func WriteCompareCSV(w io.Writer, c *Comparison) error {
	cw := csv.NewWriter(w)
	header := []string{"index", "name", "dir", "game", "preset", "switches", "bots", "strength", "nodes",
		"fingerprint", "results", "first_mover", "games", "wins", "draws", "losses", "forfeits", "pairs",
		"score_pct", "low_pct", "high_pct", "interval_from", "draw_pct", "decisive_pct",
		"baseline", "diff_pct", "diff_low_pct", "diff_high_pct", "diff_p",
		"length_mean", "length_sd", "balance", "margin_mean", "margin_sd", "margin_median", "branching", "forced_pct",
		"lead_changes", "decided_at_median", "drama_pct", "perfect_play"}
	if err := cw.Write(header); err != nil {
		return err
	}
	p2 := func(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) }
	opt := func(x *float64, f func(float64) string) string {
		if x == nil {
			return ""
		}
		return f(*x)
	}
	for i, r := range c.Rows {
		var sw []string
		for _, s := range r.Switches {
			sw = append(sw, s.Key+"="+s.Value)
		}
		pairs := ""
		if r.Pairs != nil {
			pairs = strings.Trim(fmt.Sprint(*r.Pairs), "[]")
		}
		nodes := ""
		if r.Nodes > 0 {
			nodes = strconv.FormatInt(r.Nodes, 10)
		}
		score, low, high, draw, decisive := "", "", "", "", ""
		if r.Games > 0 {
			score, low, high, draw, decisive = p2(r.Score), p2(r.Low), p2(r.High), p2(r.DrawRatio), p2(r.Decisive)
		}
		row := []string{
			strconv.Itoa(i + 1), r.Name, r.Dir, r.Game, r.Preset, strings.Join(sw, " "), strings.Join(r.Bots, " "),
			r.Strength, nodes, r.Fingerprint, r.Results, r.FirstMover,
			strconv.Itoa(r.Games), strconv.Itoa(r.Counts.Wins), strconv.Itoa(r.Counts.Draws), strconv.Itoa(r.Counts.Losses),
			strconv.Itoa(r.Forfeits), pairs, score, low, high, r.IntervalFrom, draw, decisive,
			strconv.FormatBool(i == c.Baseline), opt(r.Diff, p2), opt(r.DiffLow, p2), opt(r.DiffHigh, p2),
			opt(r.DiffP, func(p float64) string { return strconv.FormatFloat(p, 'g', 4, 64) }),
		}
		row = append(row, designCSV(r.Design)...)
		row = append(row, provedResult(r.Proved))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteCompareJSON writes the whole comparison, entries and statistics,
// as indented JSON. ReadCompareJSON reads it back.
func WriteCompareJSON(w io.Writer, c *Comparison) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(c)
}

// ReadCompareJSON reads a comparison written by WriteCompareJSON and
// returns its entries and baseline, from which Compare rebuilds every
// statistic.
func ReadCompareJSON(r io.Reader) (entries []CompareEntry, baseline int, confidence float64, err error) {
	var c Comparison
	dec := json.NewDecoder(r)
	if err := dec.Decode(&c); err != nil {
		return nil, 0, 0, fmt.Errorf("read comparison: %w", err)
	}
	entries = make([]CompareEntry, len(c.Rows))
	for i, row := range c.Rows {
		entries[i] = row.CompareEntry
	}
	return entries, c.Baseline, c.Confidence, nil
}

// WriteCompareFiles writes compare.md, compare.csv, compare.json and
// compare.html into dir, creating it if needed; each file is written to a
// temporary name first and renamed.
func WriteCompareFiles(dir string, c *Comparison) error {
	with := func(f func(io.Writer, *Comparison) error) func(io.Writer) error {
		return func(w io.Writer) error { return f(w, c) }
	}
	return writeFiles(dir, []fileWriter{
		{CompareMarkdownFile, with(WriteCompareMarkdown)},
		{CompareCSVFile, with(WriteCompareCSV)},
		{CompareJSONFile, with(WriteCompareJSON)},
		{CompareHTMLFile, with(WriteCompareHTML)},
	})
}

// designCSV formats the design metrics' columns of the comparison's CSV:
// empty when they are not known.
func designCSV(d *metrics.Summary) []string {
	if d == nil || d.Played == 0 {
		return make([]string, 11)
	}
	f3 := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	p2 := func(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) }
	out := []string{f3(d.Length.Mean), f3(d.Length.SD), f3(d.Balance), "", "", "", "", "", "", "", ""}
	if d.Margin.N > 0 {
		out[3], out[4], out[5] = f3(d.Margin.Mean), f3(d.Margin.SD), f3(d.Margin.Median)
	}
	if d.Branched > 0 {
		out[6], out[7] = f3(d.Branching), p2(d.Forced)
	}
	if d.LeadChanges.N > 0 {
		out[8] = f3(d.LeadChanges.Mean)
	}
	if d.DecidedAt.N > 0 {
		out[9], out[10] = f3(d.DecidedAt.Median), p2(d.Drama)
	}
	return out
}
