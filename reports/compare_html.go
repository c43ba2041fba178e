package reports

import (
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

//go:embed compare.html.tmpl
var compareSource string

var compareTemplate = template.Must(template.New("compare").Parse(compareSource))

// Geometry of the comparison chart (SVG user units).
const (
	cmpWidth   = 860.0
	cmpHeight  = 440.0
	cmpLeft    = 64.0
	cmpRight   = 600.0 // the legend is to the right of the plot
	cmpTop     = 16.0
	cmpBottom  = 392.0
	cmpLegendX = 624.0
)

// seriesColours are the colours of the chart's lines, one per rule set.
var seriesColours = []string{"#2a6fb0", "#e08a2c", "#3a9a4a", "#c0392b", "#8e44ad", "#16a085", "#7f6000", "#d35400", "#2c3e50", "#b03a8a"}

type cmpPoint struct {
	X, Y, Y1, Y2, Title string
}

type cmpSeries struct {
	Label, Colour, Points string // Points: the polyline's "x,y x,y ..."
	Dots                  []cmpPoint
	LegendY, LegendTextY  string
}

type cmpLine struct {
	Y, Label, LabelY string
}

type cmpChart struct {
	Width, Height                         string
	PlotLeft, PlotRight, PlotTop, PlotBot string
	LegendX, LegendTextX                  string
	XTicks, YTicks                        []tick
	XLabelX, XLabelY, YLabelX, YLabelY    string
	Half                                  *cmpLine
	Reference                             *cmpLine
	Series                                []cmpSeries
	Off                                   []string // rows without a common node limit, not drawn
}

type compareView struct {
	Title, Note   string
	Table         table
	Chart         *cmpChart
	Design, Plies table
}

// WriteCompareHTML writes compare.html: one self-contained page with the
// comparison table and an SVG chart of the first mover's score, with its
// interval, against the node limit (log scale), one line per rule set,
// the human figure as a reference line. Names are escaped.
func WriteCompareHTML(w io.Writer, c *Comparison) error {
	v := compareView{Title: "Side balance compared", Note: compareNote(c), Table: compareTable(c), Chart: compareChart(c)}
	if rows := compareDesignRows(c); len(rows) > 0 {
		v.Design, v.Plies = designTable(rows), pliesTable(rows)
	}
	ew := &errWriter{w: w}
	if err := compareTemplate.Execute(ew, v); err != nil {
		return err
	}
	return ew.err
}

// ErrNoChart means a comparison without a tournament to draw: none has a
// common node limit and games.
var ErrNoChart = errors.New("no tournament with a node limit to chart")

// WriteCompareSVG writes the chart of compare.html alone, as an SVG
// document: the first mover's score with its interval against the node
// limit, one line per rule set, the human figure as a reference line. It
// returns ErrNoChart when there is nothing to draw.
func WriteCompareSVG(w io.Writer, c *Comparison) error {
	ch := compareChart(c)
	if ch == nil {
		return ErrNoChart
	}
	ew := &errWriter{w: w}
	if err := compareTemplate.ExecuteTemplate(ew, "chart", ch); err != nil {
		return err
	}
	fmt.Fprintln(ew)
	return ew.err
}

// compareChart lays out the chart; it is nil when no row has a node limit.
func compareChart(c *Comparison) *cmpChart {
	all, off := chartSeries(c)
	if len(all) == 0 {
		return nil
	}
	sc := chartScale(c, all)
	ch := &cmpChart{
		Width: f1(cmpWidth), Height: f1(cmpHeight),
		PlotLeft: f1(cmpLeft), PlotRight: f1(cmpRight), PlotTop: f1(cmpTop), PlotBot: f1(cmpBottom),
		LegendX: f1(cmpLegendX), LegendTextX: f1(cmpLegendX + 22),
		XLabelX: f1((cmpLeft + cmpRight) / 2), XLabelY: f1(cmpBottom + 40),
		YLabelX: f1(16), YLabelY: f1((cmpTop + cmpBottom) / 2),
		Off: off,
	}
	for d := sc.xlo; d <= sc.xhi+1e-9; d++ {
		ch.XTicks = append(ch.XTicks, tick{X: f1(sc.px(d)), Label: nodesLabel(math.Pow(10, d))})
	}
	for y := sc.ylo; y <= sc.yhi+sc.step/2; y += sc.step {
		ch.YTicks = append(ch.YTicks, tick{X: f1(sc.py(y)), Label: strings.TrimSuffix(fmt.Sprintf("%.1f", 100*y), ".0") + "%"})
	}
	ch.Half = &cmpLine{Y: f1(sc.py(0.5)), LabelY: f1(sc.py(0.5) - 4), Label: "50%"}
	if ref := c.Reference; ref != nil {
		ch.Reference = &cmpLine{Y: f1(sc.py(ref.Score)), LabelY: f1(sc.py(ref.Score) - 4),
			Label: fmt.Sprintf("%s (%s): %s", ref.Label, ref.Preset, pct(ref.Score))}
	}
	// Lines at the same strength are set a few units apart, so that their
	// intervals do not hide each other.
	const dodge = 6.0
	for k, s := range all {
		shift := (float64(k) - float64(len(all)-1)/2) * dodge
		ch.Series = append(ch.Series, chartLine(c, sc, s, k, shift))
	}
	return ch
}

// cmpSeriesRows is a line of the chart: the rows of one rule set.
type cmpSeriesRows struct {
	label string
	rows  []int
}

// chartSeries groups the rows with a strength in nodes by rule set, and
// lists those without one.
func chartSeries(c *Comparison) (all []*cmpSeriesRows, off []string) {
	byKey := map[string]*cmpSeriesRows{}
	for i, r := range c.Rows {
		if r.Nodes <= 0 || r.Games == 0 {
			off = append(off, r.Name)
			continue
		}
		// A preset that names its game (cheversi-classic, echeversi)
		// needs no game before it.
		label := r.Game + ": " + r.Rules()
		if strings.Contains(r.Preset, r.Game) {
			label = r.Rules()
		}
		s := byKey[label]
		if s == nil {
			s = &cmpSeriesRows{label: label}
			byKey[label] = s
			all = append(all, s)
		}
		s.rows = append(s.rows, i)
	}
	return all, off
}

// cmpScale maps nodes (as decades) and scores to the chart.
type cmpScale struct {
	xlo, xhi, ylo, yhi, step float64
}

func (sc cmpScale) px(x float64) float64 {
	return cmpLeft + (x-sc.xlo)/(sc.xhi-sc.xlo)*(cmpRight-cmpLeft)
}

func (sc cmpScale) py(y float64) float64 {
	return cmpBottom - (y-sc.ylo)/(sc.yhi-sc.ylo)*(cmpBottom-cmpTop)
}

// chartScale returns the axes' ranges: decades of nodes, and scores
// around every interval, an even score and the reference.
func chartScale(c *Comparison, all []*cmpSeriesRows) cmpScale {
	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := 0.5, 0.5
	for _, s := range all {
		for _, i := range s.rows {
			r := c.Rows[i]
			x := math.Log10(float64(r.Nodes))
			xlo, xhi = min(xlo, x), max(xhi, x)
			ylo, yhi = min(ylo, r.Low), max(yhi, r.High)
		}
	}
	if c.Reference != nil {
		ylo, yhi = min(ylo, c.Reference.Score), max(yhi, c.Reference.Score)
	}
	xlo, xhi = math.Floor(xlo), math.Ceil(xhi)
	if xhi-xlo < 1 {
		xhi = xlo + 1
	}
	step := niceStep(max(yhi-ylo, 0.02))
	ylo, yhi = math.Floor(ylo/step)*step, math.Ceil(yhi/step)*step
	if yhi-ylo < step {
		yhi = ylo + step
	}
	return cmpScale{xlo: xlo, xhi: xhi, ylo: ylo, yhi: yhi, step: step}
}

// chartLine draws series k, shifted by shift units.
func chartLine(c *Comparison, sc cmpScale, s *cmpSeriesRows, k int, shift float64) cmpSeries {
	slices.SortStableFunc(s.rows, func(a, b int) int { return int(c.Rows[a].Nodes - c.Rows[b].Nodes) })
	cs := cmpSeries{Label: s.label, Colour: seriesColours[k%len(seriesColours)],
		LegendY: f1(cmpTop + float64(k)*20), LegendTextY: f1(cmpTop + float64(k)*20 + 10)}
	var pts []string
	for _, i := range s.rows {
		r := c.Rows[i]
		x := f1(sc.px(math.Log10(float64(r.Nodes))) + shift)
		pts = append(pts, x+","+f1(sc.py(r.Score)))
		cs.Dots = append(cs.Dots, cmpPoint{
			X: x, Y: f1(sc.py(r.Score)), Y1: f1(sc.py(r.Low)), Y2: f1(sc.py(r.High)),
			Title: fmt.Sprintf("%s, %s: first mover %s [%s, %s], %d games", r.Name, r.Strength, pct(r.Score), pct(r.Low), pct(r.High), r.Games),
		})
	}
	cs.Points = strings.Join(pts, " ")
	return cs
}

// nodesLabel formats a node count for an axis: 100, 1k, 10k, 1M...
func nodesLabel(n float64) string {
	switch {
	case n >= 1e6:
		return strconv.FormatFloat(n/1e6, 'f', -1, 64) + "M"
	case n >= 1e3:
		return strconv.FormatFloat(n/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}
