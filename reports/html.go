package reports

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports/viewer"
)

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

// Chart geometry (SVG user units).
const (
	chartWidth  = 760.0
	labelWidth  = 190.0
	valueWidth  = 110.0
	rowHeight   = 24.0
	axisHeight  = 28.0
	barHeight   = 16.0
	maxLabelLen = 48
)

type ratingRow struct {
	Y, TextY, X1, X2, CX, Cap1, Cap2 string
	Name, Label                      string
}

type tick struct {
	X, Label string
}

type ratingChart struct {
	Width, Height, AxisY, LabelX, ValueX, PlotLeft, PlotRight string
	Rows                                                      []ratingRow
	Ticks                                                     []tick
	ZeroX                                                     string
}

type crossCell struct {
	Text, Title string
	Class       string
}

type crossRow struct {
	Name  string
	Cells []crossCell
	Total string
}

type sideBar struct {
	Y, TextY                  string
	Label, Title              string
	WinW, DrawX, DrawW, LossX string
	LossW, Score, WinT, LossT string
	Games                     string
	Separator                 bool
}

type sideChart struct {
	Width, Height, LabelX, BarX, ValueX string
	Bars                                []sideBar
	HalfX, AxisTop, AxisBottom          string
}

type htmlView struct {
	Title, Game, Started, Finished, Rules string
	Sources                               []string
	Summary                               string
	Run, SPRT                             string
	Verdict                               string
	Proved                                string
	Level                                 string
	Standings                             table
	Best, BestLegend                      string
	Points                                table
	CrossOmitted                          string
	Ratings                               ratingChart
	CrossNames                            []string
	Cross                                 []crossRow
	Side                                  table
	SideChart                             sideChart
	Openings                              table
	ByPlayer                              table
	Pairs                                 table
	Search                                table
	Latency                               table
	Design, Plies                         table
	Ended                                 string
	Groups                                [][]string
	Notes                                 []string
	// Games is the game viewer's data ("" without games); ViewerScript and
	// ViewerStyle draw it.
	Games        template.JS
	ViewerScript template.JS
	ViewerStyle  template.CSS
}

// WriteHTML writes report.html: one self-contained page with inline CSS
// and SVG charts (ratings with their intervals, the cross table, the side
// balance overall and per opening). With m.Games it also holds a game list
// and viewer (see Games and MaxGameBytes), to which the rows of the
// opening and pair tables link. All names are escaped.
func WriteHTML(w io.Writer, m Meta, a *rating.Analysis) error {
	if a == nil {
		return ErrNoAnalysis
	}
	v := newHTMLView(m, a)
	g := m.Games
	if g == nil || g.List == nil || g.rows().Len() == 0 {
		ew := &errWriter{w: w}
		if err := htmlTemplate.Execute(ew, v); err != nil {
			return err
		}
		return ew.err
	}
	// The page is rendered with a placeholder for the game data, which is
	// then written in its place straight from the rows, so that a long
	// list never sits in memory.
	v.Games, v.ViewerScript, v.ViewerStyle = template.JS(viewerPlaceholder), template.JS(viewer.Script), template.CSS(viewer.Style)
	var page bytes.Buffer
	if err := htmlTemplate.Execute(&page, v); err != nil {
		return err
	}
	head, tail, ok := bytes.Cut(page.Bytes(), []byte(viewerPlaceholder))
	if !ok {
		return errors.New("report.html: no place for the game data")
	}
	ew := &errWriter{w: w}
	ew.Write(head)
	if ew.err == nil {
		if err := writeViewerData(ew, g, MaxGameBytes); err != nil {
			return err
		}
	}
	ew.Write(tail)
	return ew.err
}

// newHTMLView returns the page of the report of m and a, without the game
// data.
func newHTMLView(m Meta, a *rating.Analysis) htmlView {
	v := htmlView{
		Title: m.Name, Game: m.Game, Rules: strings.TrimRight(m.Rules, "\n"), Sources: m.Sources,
		Level:   level(a),
		Summary: fmt.Sprintf("%d players; %s.", len(a.Players), modelLine(a, true)),
		Run:     runLine(m, a),
		Verdict: verdict(a),
		Proved:  provedText(a),
		Notes:   a.Notes,
	}
	if m.Run != nil {
		v.SPRT = m.Run.SPRT
	}
	if v.Title == "" {
		v.Title = "Ratings"
	}
	if !m.Started.IsZero() {
		v.Started = when(m.Started)
	}
	if !m.Finished.IsZero() {
		v.Finished = when(m.Finished)
	}
	v.Standings = standingsTable(a)
	if v.Best = bestText(a); v.Best != "" {
		v.BestLegend = bestLegend
	}
	v.Points = pointsTable(a)
	v.Ratings = ratingsChart(a)
	if n := len(a.Players); n <= maxCrossPlayers {
		v.CrossNames, v.Cross = crossTable(a)
	} else {
		v.CrossOmitted = fmt.Sprintf("The cross table is drawn for up to %d players; with %d, the pairs table below details the pairs nearest each other in the ranking.", maxCrossPlayers, n)
	}
	v.Side = sideTable(a)
	v.SideChart = sideBalanceChart(a)
	v.ByPlayer = byPlayerTable(a)
	v.Openings = openingsTable(a)
	v.Pairs = pairsTable(a)
	v.Search = searchTable(m)
	v.Latency = latencyTable(m)
	if d := m.Design; d != nil {
		rows := []designRow{{"these games", *d}}
		v.Design, v.Plies, v.Ended = designTable(rows), pliesTable(rows), "How the games ended: "+endedText(*d)+"."
	}
	if len(a.Groups) > 1 {
		for _, g := range a.Groups {
			v.Groups = append(v.Groups, g.Players)
		}
	}
	return v
}

// maxCrossPlayers is the largest field whose cross table report.html
// draws: the table has a cell for every two players.
const maxCrossPlayers = 40

// viewerPlaceholder stands for the game data in the rendered page: no
// value the template writes can contain it (it holds a NUL byte, which
// the template escapes wherever it comes from data).
const viewerPlaceholder = "\x00arena game data\x00"

// niceStep returns a round tick spacing for a range.
func niceStep(span float64) float64 {
	raw := span / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

func ratingsChart(a *rating.Analysis) ratingChart {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range a.Players {
		lo = math.Min(lo, p.Elo-p.Interval)
		hi = math.Max(hi, p.Elo+p.Interval)
	}
	if !(hi > lo) {
		lo, hi = lo-50, hi+50
	}
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad
	left, right := labelWidth, chartWidth-valueWidth
	x := func(e float64) float64 { return left + (e-lo)/(hi-lo)*(right-left) }
	c := ratingChart{
		Width:     f1(chartWidth),
		Height:    f1(axisHeight + rowHeight*float64(len(a.Players)) + 8),
		AxisY:     f1(axisHeight - 6),
		LabelX:    f1(left - 8),
		ValueX:    f1(right + 8),
		PlotLeft:  f1(left),
		PlotRight: f1(right),
	}
	if lo < 0 && hi > 0 && signed(a) {
		c.ZeroX = f1(x(0))
	}
	// Ticks at multiples of step. At ratings so large that a step is below
	// their precision the ticks stop advancing, and so does the loop.
	step := niceStep(hi - lo)
	for k, prev := math.Ceil(lo/step), math.Inf(-1); ; k++ {
		t := k * step
		if !(t <= hi && t > prev) {
			break
		}
		c.Ticks = append(c.Ticks, tick{X: f1(x(t)), Label: elo(t, signed(a))})
		prev = t
	}
	for i, p := range a.Players {
		y := axisHeight + rowHeight*float64(i) + rowHeight/2
		c.Rows = append(c.Rows, ratingRow{
			Y: f1(y), TextY: f1(y + 4),
			X1: f1(x(p.Elo - p.Interval)), X2: f1(x(p.Elo + p.Interval)), CX: f1(x(p.Elo)),
			Cap1: f1(y - 5), Cap2: f1(y + 5),
			Name:  p.Name,
			Label: fmt.Sprintf("%s ± %s", playerElo(p, signed(a)), playerInterval(p)),
		})
	}
	return c
}

func crossTable(a *rating.Analysis) ([]string, []crossRow) {
	n := len(a.Players)
	pos := make(map[string]int, n)
	names := make([]string, n)
	for i, p := range a.Players {
		pos[p.Name] = i
		names[i] = p.Name
	}
	type cell struct {
		points float64
		games  int
	}
	grid := make([][]cell, n)
	for i := range grid {
		grid[i] = make([]cell, n)
	}
	for _, p := range a.Pairs {
		i, j := pos[p.A], pos[p.B]
		pts := float64(p.Wins) + float64(p.Draws)/2
		grid[i][j] = cell{pts, p.Games}
		grid[j][i] = cell{float64(p.Games) - pts, p.Games}
	}
	rows := make([]crossRow, n)
	for i, p := range a.Players {
		rows[i] = crossRow{Name: p.Name, Total: fmt.Sprintf("%s / %d", fmtPoints(p.Points), p.Games)}
		for j := range n {
			c := grid[i][j]
			switch {
			case i == j:
				rows[i].Cells = append(rows[i].Cells, crossCell{Text: "", Class: "self"})
			case c.games == 0:
				rows[i].Cells = append(rows[i].Cells, crossCell{Text: dash, Class: "none"})
			default:
				s := c.points / float64(c.games)
				rows[i].Cells = append(rows[i].Cells, crossCell{
					Text:  fmt.Sprintf("%s/%d", fmtPoints(c.points), c.games),
					Title: fmt.Sprintf("%s against %s: %s", p.Name, names[j], pct(s)),
					Class: "s" + strconv.Itoa(int(math.Round(s*10))),
				})
			}
		}
	}
	return names, rows
}

func fmtPoints(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func sideBalanceChart(a *rating.Analysis) sideChart {
	sb := a.SideBalance
	left, right := labelWidth+30, chartWidth-valueWidth
	width := right - left
	type item struct {
		label, title string
		w, d, l      int
		sep          bool
	}
	items := []item{{label: "All games", title: "All games", w: sb.Wins, d: sb.Draws, l: sb.Losses}}
	if r := sb.Reference; r != nil {
		items = append(items, item{label: r.Label, title: r.Label, w: r.Wins, d: r.Draws, l: r.Losses})
	}
	for i, o := range sb.Openings {
		label := o.Opening
		if len([]rune(label)) > maxLabelLen {
			label = string([]rune(label)[:maxLabelLen-1]) + "…"
		}
		items = append(items, item{label: label, title: o.Opening, w: o.Wins, d: o.Draws, l: o.Losses, sep: i == 0})
	}
	c := sideChart{
		Width:  f1(chartWidth),
		LabelX: f1(left - 8), BarX: f1(left), ValueX: f1(right + 8),
		HalfX:   f1(left + width/2),
		AxisTop: f1(4),
	}
	y := 8.0
	for _, it := range items {
		n := float64(it.w + it.d + it.l)
		if n == 0 {
			continue // every game was a forfeit: nothing to draw
		}
		if it.sep {
			y += 10
		}
		ww, dw := width*float64(it.w)/n, width*float64(it.d)/n
		score := (float64(it.w) + float64(it.d)/2) / n
		c.Bars = append(c.Bars, sideBar{
			Y: f1(y), TextY: f1(y + barHeight - 4),
			Label: it.label, Title: fmt.Sprintf("%s: first mover %d wins, %d draws, %d losses", it.title, it.w, it.d, it.l),
			WinW: f1(ww), DrawX: f1(left + ww), DrawW: f1(dw), LossX: f1(left + ww + dw), LossW: f1(width - ww - dw),
			Score: pct(score), Games: strconv.Itoa(int(n)), Separator: it.sep,
		})
		y += barHeight + 6
	}
	c.AxisBottom = f1(y)
	c.Height = f1(y + 4)
	return c
}
