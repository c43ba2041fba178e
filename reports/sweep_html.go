package reports

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"

	"github.com/arena-games/arena/arena/race"
	"github.com/arena-games/arena/arena/sweep"
)

//go:embed sweep.html.tmpl
var sweepSource string

var sweepTemplate = template.Must(template.New("sweep").Parse(sweepSource))

// Geometry of the sweep chart (SVG user units): the score panel on the
// left, the openings panel on the right, one row per variant.
const (
	swLabel    = 250.0 // width of the variant names
	swScoreW   = 380.0 // the score panel
	swGap      = 40.0
	swOpenW    = 260.0 // the openings panel
	swRow      = 22.0
	swTop      = 34.0
	swBottomPd = 44.0
)

// statusColours are the colours of the variants by status.
var statusColours = map[race.Reason]string{
	race.Running:  "#2a6fb0",
	race.OnTarget: "#3a9a4a",
	race.Worse:    "#e08a2c",
	race.Outside:  "#c0392b",
	race.Budget:   "#7f7f7f",
}

type swRowView struct {
	Y, TextY, Label, Colour, Title string
	X1, X2, X                      string // the interval and the score
	Bar, StopY1, StopY2            string // the openings bar's end, and the stop marker's ends
	Stopped                        bool
}

type swLegend struct{ X, Y, TextX, TextY, Colour, Label string }

type sweepChart struct {
	Width, Height                           string
	ScoreLeft, ScoreRight, PlotTop, PlotBot string
	OpenLeft, OpenRight                     string
	BandX, BandW, BandH, TargetX            string
	ScoreTicks, OpenTicks                   []tick
	LookTicks                               []string
	ScoreLabelX, OpenLabelX, AxisLabelY     string
	TitleY                                  string
	Rows                                    []swRowView
	Groups                                  []swLegend // strength headings
	Legend                                  []swLegend
}

type sweepView struct {
	Title, Progress, Note string
	Race, Design, Plies   table
	RaceNum               []bool // the race table's numeric columns
	Reference             string
	Key                   string
	Chart                 *sweepChart
}

// WriteSweepHTML writes sweep.html: one self-contained page with the race
// table, a chart of every variant's first-mover score against the target
// with its interval and tolerance band beside the openings it played and
// where it stopped, the design metrics and the branching ply by ply.
// Names are escaped.
func WriteSweepHTML(w io.Writer, s *sweep.Status) error {
	rows := sweepDesignRows(s)
	v := sweepView{Title: sweepTitle(s), Progress: sweepProgress(s), Note: sweepNote(s), Race: sweepTable(s),
		Design: designTable(rows), Plies: pliesTable(rows), Reference: s.Reference, Key: s.Key, Chart: sweepChartOf(s)}
	for _, h := range v.Race.Header {
		v.RaceNum = append(v.RaceNum, h != "Variant" && h != "Strength" && h != "Status")
	}
	ew := &errWriter{w: w}
	if err := sweepTemplate.Execute(ew, v); err != nil {
		return err
	}
	return ew.err
}

// WriteSweepSVG writes the chart of sweep.html alone, as an SVG document:
// every variant's first-mover score against the target with its interval
// and the tolerance band, beside the openings it played and where it
// stopped.
func WriteSweepSVG(w io.Writer, s *sweep.Status) error {
	ew := &errWriter{w: w}
	if err := sweepTemplate.ExecuteTemplate(ew, "chart", sweepChartOf(s)); err != nil {
		return err
	}
	fmt.Fprintln(ew)
	return ew.err
}

// sweepChartOf lays out the chart.
func sweepChartOf(s *sweep.Status) *sweepChart {
	tau, delta := s.Race.Target, s.Race.Precision
	// The score axis: points from the target, around every interval and
	// the tolerance band.
	lo, hi := -delta, delta
	for _, v := range s.Variants {
		if v.Arm.Openings > 0 {
			lo, hi = min(lo, v.Arm.Lo-tau), max(hi, v.Arm.Hi-tau)
		}
	}
	step := niceStep(hi - lo)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	left := swLabel
	right := left + swScoreW
	oleft := right + swGap
	oright := oleft + swOpenW
	sx := func(x float64) float64 { return left + (x-lo)/(hi-lo)*(right-left) }
	maxOpen := float64(max(s.Race.MaxOpenings, 1))
	ox := func(n float64) float64 { return oleft + n/maxOpen*(oright-oleft) }

	groups := s.Groups()
	n := len(s.Variants)
	height := swTop + float64(n)*swRow + float64(groups-1)*swRow + swBottomPd + 24
	bot := swTop + float64(n)*swRow + float64(groups-1)*swRow
	ch := &sweepChart{
		Width: f1(oright + 20), Height: f1(height),
		ScoreLeft: f1(left), ScoreRight: f1(right), PlotTop: f1(swTop - 6), PlotBot: f1(bot),
		OpenLeft: f1(oleft), OpenRight: f1(oright),
		BandX: f1(sx(-delta)), BandW: f1(sx(delta) - sx(-delta)), BandH: f1(bot - (swTop - 6)), TargetX: f1(sx(0)),
		ScoreLabelX: f1((left + right) / 2), OpenLabelX: f1((oleft + oright) / 2), AxisLabelY: f1(bot + 36),
		TitleY: f1(swTop - 16),
	}
	for x := lo; x <= hi+step/2; x += step {
		ch.ScoreTicks = append(ch.ScoreTicks, tick{X: f1(sx(x)), Label: signedPoints(x)})
	}
	ostep := niceStep(maxOpen)
	for x := 0.0; x <= maxOpen+ostep/2; x += ostep {
		ch.OpenTicks = append(ch.OpenTicks, tick{X: f1(ox(x)), Label: count(int(x))})
	}
	if s.Batch > 0 && float64(s.Batch)/maxOpen*(oright-oleft) >= 4 {
		for x := s.Batch; x <= s.Race.MaxOpenings; x += s.Batch {
			ch.LookTicks = append(ch.LookTicks, f1(ox(float64(x))))
		}
	}
	y := swTop
	for g := range groups {
		if groups > 1 {
			ch.Groups = append(ch.Groups, swLegend{X: f1(8), Y: f1(y + 14), Label: sweepRanking(s, g)[0].Strength})
			y += swRow
		}
		for _, v := range sweepRanking(s, g) {
			a := v.Arm
			r := swRowView{Y: f1(y + swRow/2), TextY: f1(y + swRow/2 + 4), Label: v.Name, Colour: statusColours[a.Reason],
				Bar: f1(ox(float64(a.Openings))), StopY1: f1(y + 3), StopY2: f1(y + swRow - 3), Stopped: a.Reason != race.Running}
			if a.Openings > 0 {
				r.X1, r.X2, r.X = f1(sx(a.Lo-tau)), f1(sx(a.Hi-tau)), f1(sx(a.Score-tau))
			}
			r.Title = fmt.Sprintf("%s, %s: first mover %s [%s, %s] after %s openings; %s",
				v.Name, v.Strength, pct(a.Score), pct(a.Lo), pct(a.Hi), count(a.Openings), armStatus(a))
			ch.Rows = append(ch.Rows, r)
			y += swRow
		}
	}
	lx := left
	for _, st := range []race.Reason{race.Running, race.OnTarget, race.Worse, race.Outside, race.Budget} {
		label := string(st)
		if st == race.Running {
			label = "running"
		}
		ch.Legend = append(ch.Legend, swLegend{X: f1(lx), Y: f1(height - 18), TextX: f1(lx + 16), TextY: f1(height - 8),
			Colour: statusColours[st], Label: label})
		lx += 100
	}
	return ch
}

// signedPoints formats a difference of fractions in points with its sign:
// "+2", "-1.5", "0".
func signedPoints(x float64) string {
	if math.Abs(x) < 1e-9 {
		return "0"
	}
	s := trimFloat(100 * x)
	if x > 0 {
		s = "+" + s
	}
	return s
}
