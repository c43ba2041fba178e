package reports

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/race"
	"github.com/arena-games/arena/arena/sweep"
)

// File names written by WriteSweepFiles.
const (
	SweepMarkdownFile = "sweep.md"
	SweepCSVFile      = "sweep.csv"
	SweepJSONFile     = "sweep.json"
	SweepHTMLFile     = "sweep.html"
)

// sweepRanking returns the variants of group g, nearest the target first.
func sweepRanking(s *sweep.Status, g int) []sweep.Variant {
	var out []sweep.Variant
	for _, v := range s.Variants {
		if v.Group == g {
			out = append(out, v)
		}
	}
	slices.SortStableFunc(out, func(a, b sweep.Variant) int { return cmp.Compare(a.Arm.Distance, b.Arm.Distance) })
	return out
}

// sweepNote explains the race's statistics.
func sweepNote(s *sweep.Status) string {
	c := s.Race
	stops := map[race.Reason]bool{race.Outside: true, race.Worse: true, race.OnTarget: true}
	if c.Stops != nil {
		stops = map[race.Reason]bool{}
		for _, r := range c.Stops {
			stops[r] = true
		}
	}
	var when []string
	if stops[race.Outside] {
		when = append(when, fmt.Sprintf("more than %s points from the target %s (outside)", trimPct(c.Precision), pct(c.Target)))
	}
	if stops[race.Worse] {
		when = append(when, "farther from it than another variant of its strength by paired differences (worse)")
	}
	if stops[race.OnTarget] {
		when = append(when, fmt.Sprintf("within %s points of it (on target)", trimPct(c.Precision)))
	}
	rule := fmt.Sprintf("Every variant plays every opening (%s): none stops early.", count(c.MaxOpenings))
	if len(when) > 0 {
		rule = fmt.Sprintf("A variant stops when its interval shows it %s, or after %s openings (budget); none is judged on fewer than %s.",
			strings.Join(when, ", "), count(c.MaxOpenings), count(c.MinOpenings))
	}
	return fmt.Sprintf("The variants play the same %s openings, one game each, looked at every %s openings, toward the target %s. %s "+
		"Intervals are time-uniform confidence sequences, valid at every look; the family-wise error rate over every variant and look is %s, "+
		"by Bonferroni's correction over the %d variants' intervals (%s each) and the %d paired contrasts' (%s each). "+
		"Distance is |score − target| with the interval that follows from the score's; Δ is the paired difference from the first variant of the same strength.",
		count(s.Openings), count(s.Batch), pct(c.Target), rule, trimFloatG(c.Alpha), c.Arms, trimFloatG(s.ArmAlpha), c.Arms*(c.Arms-1), trimFloatG(s.ContrastAlpha))
}

// trimPct formats a fraction in percentage points with at most one decimal.
func trimPct(x float64) string { return trimFloat(100 * x) }

// trimFloatG formats a small number in its shortest form.
func trimFloatG(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// armStatus says where a variant is in the race: "running" or "outside,
// look 3".
func armStatus(a race.Arm) string {
	if a.Reason == race.Running {
		return "running"
	}
	return fmt.Sprintf("%s, look %d", a.Reason, a.Look)
}

// sweepTable is the race, one row per variant, nearest the target first
// within each strength.
func sweepTable(s *sweep.Status) table {
	t := table{Header: []string{"#", "Variant", "Strength", "Openings", "W / D / L", "1st score", "Distance", "Δ vs first", "Status"},
		Legend: []legendItem{
			{"#", "the rank within the strength, by distance from the target"},
			{"Openings", "the openings the variant played, one game each"},
			{"W / D / L", "the first mover's wins, draws and losses"},
			{"1st score", "the first mover's score, draws counting half, with its interval"},
			{"Distance", "from the target, in percentage points, with its interval"},
			{"Δ vs first", "the paired difference of the first mover's score from the first variant of the same strength, in percentage points, with its interval"},
			{"Status", "running, or why the variant stopped and at which look"},
		}}
	if g := s.Groups(); g > 1 {
		first := ""
		for _, v := range s.Variants {
			if v.Group == 0 {
				first = v.Strength
				break
			}
		}
		h := "Δ vs " + first
		t.Header = append(t.Header[:8], h, "Status")
		t.Legend = append(t.Legend[:len(t.Legend)-1], legendItem{h, "the paired difference of the first mover's score from the same variant at " + first + ", in percentage points, with its interval"},
			t.Legend[len(t.Legend)-1])
	}
	for g := range s.Groups() {
		for rank, v := range sweepRanking(s, g) {
			a := v.Arm
			score, dist := dash, dash
			if a.Openings > 0 {
				score = fmt.Sprintf("%s [%s, %s]", pct(a.Score), pct(a.Lo), pct(a.Hi))
				dist = fmt.Sprintf("%s [%s, %s]", f1(100*a.Distance), f1(100*a.DistLo), f1(100*a.DistHi))
			}
			diff := dash
			if d := v.Versus; d != nil {
				diff = fmt.Sprintf("%s [%s, %s]", pctSigned(d.Estimate), pctSigned(d.Lo), pctSigned(d.Hi))
			}
			row := []string{strconv.Itoa(rank + 1), v.Name, v.Strength, count(a.Openings),
				wdl(v.Counts.Wins, v.Counts.Draws, v.Counts.Losses), score, dist, diff}
			if s.Groups() > 1 {
				vs := dash
				if d := v.VersusStrength; d != nil {
					vs = fmt.Sprintf("%s [%s, %s]", pctSigned(d.Estimate), pctSigned(d.Lo), pctSigned(d.Hi))
				}
				row = append(row, vs)
			}
			t.Rows = append(t.Rows, append(row, armStatus(a)))
		}
	}
	addProved(&t, s)
	return t
}

// provedHeader heads the sweep table's column of what is proved of each
// variant.
const provedHeader = "Perfect play"

// provedResult is the result of what is proved, "" for nothing.
func provedResult(p *game.Solution) string {
	if p == nil {
		return ""
	}
	return p.Result
}

// provedLegend returns the legend of t's column of what is proved, ""
// when it has none.
func provedLegend(t table) string {
	for _, l := range t.Legend {
		if l.Term == provedHeader {
			return l.Text
		}
	}
	return ""
}

// addProved adds, before the status, the column of what is proved of each
// variant from the start position with perfect play, when something is of
// any.
func addProved(t *table, s *sweep.Status) {
	var source string
	cells := make([]string, 0, len(t.Rows))
	for g := range s.Groups() {
		for _, v := range sweepRanking(s, g) {
			cell := dash
			if p := v.Proved; p != nil {
				cell, source = p.Result, p.Source
			}
			cells = append(cells, cell)
		}
	}
	if source == "" {
		return
	}
	last := len(t.Header) - 1
	t.Header = slices.Insert(t.Header, last, provedHeader)
	for i := range t.Rows {
		t.Rows[i] = slices.Insert(t.Rows[i], last, cells[i])
	}
	t.Legend = slices.Insert(t.Legend, len(t.Legend)-1, legendItem{provedHeader,
		"the variant's value from the start position when both sides play perfectly, as far as it is proved (" + dash + ": not proved); " + source})
}

// sweepDesignRows are the variants' design metrics in the race table's
// order.
func sweepDesignRows(s *sweep.Status) []designRow {
	var rows []designRow
	for g := range s.Groups() {
		for _, v := range sweepRanking(s, g) {
			name := v.Name
			if s.Groups() > 1 {
				name += ", " + v.Strength
			}
			rows = append(rows, designRow{name, v.Metrics})
		}
	}
	return rows
}

// sweepTitle names the sweep and what it aims at.
func sweepTitle(s *sweep.Status) string {
	rules := s.Preset
	for _, b := range s.Base {
		rules += ", " + b.Key + "=" + b.Value
	}
	return fmt.Sprintf("Sweep %s: %s (%s), first mover's score toward %s", s.Name, s.Game, rules, pct(s.Race.Target))
}

// sweepProgress sums the race up in a line: looks, variants running.
func sweepProgress(s *sweep.Status) string {
	state := "running"
	if s.Done {
		state = "done"
	}
	names := make([]string, 0, len(s.Variants))
	for _, v := range s.Active() {
		n := v.Name
		if s.Groups() > 1 {
			n += " (" + v.Strength + ")"
		}
		names = append(names, n)
	}
	line := fmt.Sprintf("%s after %s; %d of %d variants in the race", state, noun(s.Looks, "look", "looks"), len(names), len(s.Variants))
	if len(names) > 0 {
		line += ": " + strings.Join(names, ", ")
	}
	return line + "."
}

// WriteSweepTerminal writes the race and the design metrics as text
// tables for a terminal of width columns (0: no limit).
func WriteSweepTerminal(w io.Writer, s *sweep.Status, width int) error {
	ew := &errWriter{w: w}
	fmt.Fprintln(ew, wrapText(sweepTitle(s), width))
	fmt.Fprintln(ew, wrapText(sweepProgress(s), width))
	fmt.Fprintln(ew)
	right := func(_ int, h string) tw.Align {
		if h == "Variant" || h == "Strength" || h == provedHeader || h == "Status" {
			return tw.AlignLeft
		}
		return tw.AlignRight
	}
	vs := ""
	if g := s.Groups(); g > 1 {
		vs = sweepTable(s).Header[8]
	}
	drops := [][]string{{"W / D / L"}, {"W / D / L", vs}, {"W / D / L", vs, "Δ vs first"}, {"W / D / L", vs, "Δ vs first", "Openings"}}
	if s.Groups() == 1 {
		drops = append(drops, []string{"W / D / L", vs, "Δ vs first", "Openings", "Strength"})
	}
	drops = append(drops, append(slices.Clone(drops[len(drops)-1]), provedHeader))
	text, err := renderFitting(sweepTable(s), right, width, drops...)
	if err != nil {
		return err
	}
	io.WriteString(ew, text)
	if p := provedLegend(sweepTable(s)); p != "" && strings.Contains(text, provedHeader) {
		fmt.Fprintln(ew, wrapText(provedHeader+": "+p+".", width))
	}
	if s.Reference != "" {
		fmt.Fprintln(ew, wrapText(s.Reference, width))
	}
	fmt.Fprintln(ew, wrapText(sweepNote(s), width))
	fmt.Fprintln(ew)
	left := func(i int, _ string) tw.Align {
		if i == 0 {
			return tw.AlignLeft
		}
		return tw.AlignRight
	}
	text, err = renderFitting(designTable(sweepDesignRows(s)), left, width,
		[]string{"Balance", "Decisive"}, []string{"Balance", "Decisive", "Drama", "Length"},
		[]string{"Balance", "Decisive", "Drama", "Length", "Forced", "Lead changes"})
	if err != nil {
		return err
	}
	io.WriteString(ew, text)
	return ew.err
}

// WriteSweepMarkdown writes sweep.md: the race, the note on its
// statistics, the design metrics and the branching ply by ply.
func WriteSweepMarkdown(w io.Writer, s *sweep.Status) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "# %s\n\n%s\n\n", md(sweepTitle(s)), md(sweepProgress(s)))
	fmt.Fprintf(ew, "## The race\n\n")
	mdTable(ew, sweepTable(s), 3)
	if s.Reference != "" {
		fmt.Fprintf(ew, "%s\n\n", md(s.Reference))
	}
	fmt.Fprintf(ew, "%s\n\n", md(sweepNote(s)))
	fmt.Fprintf(ew, "## Design metrics\n\n")
	rows := sweepDesignRows(s)
	mdTable(ew, designTable(rows), 1)
	if pt := pliesTable(rows); len(pt.Rows) > 0 {
		fmt.Fprintf(ew, "## Branching by ply\n\n")
		mdTable(ew, pt, 1)
	}
	if s.Key != "" {
		fmt.Fprintf(ew, "Data key: `%s`\n", s.Key)
	}
	return ew.err
}

// WriteSweepMarkdownTables writes the race's table and the design
// metrics' as Markdown tables alone, without titles, legends or notes, for
// documents that explain them once for several sweeps.
func WriteSweepMarkdownTables(w io.Writer, s *sweep.Status) error {
	ew := &errWriter{w: w}
	race := sweepTable(s)
	race.Legend = nil
	mdTable(ew, race, 3)
	design := designTable(sweepDesignRows(s))
	design.Legend = nil
	mdTable(ew, design, 1)
	return ew.err
}

// WriteSweepCSV writes one row per variant with a header row: fractions as
// percentages with two decimals, differences in percentage points.
func WriteSweepCSV(w io.Writer, s *sweep.Status) error {
	cw := csv.NewWriter(w)
	header := []string{"variant", "switches", "strength", "group", "openings", "wins", "draws", "losses", "forfeits",
		"score_pct", "low_pct", "high_pct", "distance_pct", "distance_low_pct", "distance_high_pct",
		"diff_pct", "diff_low_pct", "diff_high_pct", "status", "look", "versus",
		"length_mean", "length_sd", "draw_pct", "decisive_pct", "balance", "margin_mean", "margin_sd", "margin_median",
		"branching", "forced_pct", "lead_changes", "decided_at_median", "decided_at_mean", "drama_pct", "perfect_play"}
	if err := cw.Write(header); err != nil {
		return err
	}
	p2 := func(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) }
	f3 := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	for _, v := range s.Variants {
		a, m := v.Arm, v.Metrics
		var sw []string
		for _, x := range v.Switches {
			sw = append(sw, x.Key+"="+x.Value)
		}
		diff, dlo, dhi := "", "", ""
		if d := v.Versus; d != nil {
			diff, dlo, dhi = p2(d.Estimate), p2(d.Lo), p2(d.Hi)
		}
		versus := ""
		if a.Versus >= 0 {
			versus = s.Variants[a.Versus].Name
		}
		row := []string{v.Name, strings.Join(sw, " "), v.Strength, strconv.Itoa(v.Group), strconv.Itoa(a.Openings),
			strconv.Itoa(v.Counts.Wins), strconv.Itoa(v.Counts.Draws), strconv.Itoa(v.Counts.Losses), strconv.Itoa(v.Forfeits),
			p2(a.Score), p2(a.Lo), p2(a.Hi), p2(a.Distance), p2(a.DistLo), p2(a.DistHi), diff, dlo, dhi,
			string(a.Reason), strconv.Itoa(a.Look), versus,
			f3(m.Length.Mean), f3(m.Length.SD), p2(m.DrawRate), p2(m.Decisive), f3(m.Balance),
			f3(m.Margin.Mean), f3(m.Margin.SD), f3(m.Margin.Median), f3(m.Branching), p2(m.Forced),
			f3(m.LeadChanges.Mean), f3(m.DecidedAt.Median), f3(m.DecidedAt.Mean), p2(m.Drama), provedResult(v.Proved)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteSweepJSON writes the whole sweep as indented JSON.
func WriteSweepJSON(w io.Writer, s *sweep.Status) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(s)
}

// WriteSweepFiles writes sweep.md, sweep.csv, sweep.json and sweep.html
// into dir, creating it if needed; each file is written to a temporary
// name first and renamed.
func WriteSweepFiles(dir string, s *sweep.Status) error {
	with := func(f func(io.Writer, *sweep.Status) error) func(io.Writer) error {
		return func(w io.Writer) error { return f(w, s) }
	}
	return writeFiles(dir, []fileWriter{
		{SweepMarkdownFile, with(WriteSweepMarkdown)},
		{SweepCSVFile, with(WriteSweepCSV)},
		{SweepJSONFile, with(WriteSweepJSON)},
		{SweepHTMLFile, with(WriteSweepHTML)},
	})
}
