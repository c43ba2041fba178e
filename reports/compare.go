package reports

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/arena/rating"
)

// CompareEntry is one tournament's side balance as a comparison takes it:
// what was played, and the first mover's raw counts. Everything else a
// comparison shows is computed from these counts, so an entry read back
// from compare.json reproduces the comparison exactly.
type CompareEntry struct {
	// Name is the tournament's name and Dir the directory it was read
	// from.
	Name string `json:"name"`
	Dir  string `json:"dir,omitempty"`
	// Game, Preset and Switches are the rules: the preset and the
	// switches set to other values than the preset's.
	Game     string         `json:"game"`
	Preset   string         `json:"preset"`
	Switches []game.Setting `json:"switches,omitempty"`
	// Bots are the players' names; Strength describes how hard they
	// searched ("20000 nodes", a time control, or each bot's when they
	// differ) and Nodes is their common node limit per move, 0 when
	// they have none in common.
	Bots     []string `json:"bots"`
	Strength string   `json:"strength"`
	Nodes    int64    `json:"nodes,omitempty"`
	// Fingerprint identifies the schedule (journal.Manifest), and
	// Results is a digest of every game's id and result, so that a
	// summary can be matched with the journal it came from.
	Fingerprint string `json:"fingerprint,omitempty"`
	Results     string `json:"results,omitempty"`
	// FirstMover is the colour that moved first: "white", "black" or
	// "mixed".
	FirstMover string `json:"first_mover"`
	// Counts are the first mover's wins, draws and losses, games decided
	// by a forfeit left out; Pairs, when the games came in
	// colour-reversed pairs, counts the pairs by the first mover's
	// points (rating.Pentanomial). Forfeits counts the games left out.
	Counts   rating.WDL          `json:"counts"`
	Pairs    *rating.Pentanomial `json:"pairs,omitempty"`
	Forfeits int                 `json:"forfeits,omitempty"`
	// Design holds the design metrics of the games (package metrics);
	// nil when they are not known.
	Design *metrics.Summary `json:"design,omitempty"`
}

// Rules describes the entry's rules: the preset, then the switches that
// differ from it, for example "cheversi, touch=any".
func (e CompareEntry) Rules() string {
	parts := []string{e.Preset}
	for _, s := range e.Switches {
		parts = append(parts, s.Key+"="+s.Value)
	}
	return strings.Join(parts, ", ")
}

// CompareRow is an entry with its statistics: the first mover's score
// with its interval, the draw and decisive ratios and the difference from
// the baseline.
type CompareRow struct {
	CompareEntry
	Games int `json:"games"`
	// Without games (every one a forfeit) the statistics are all zero.
	//
	// Score is the first mover's score; StdErr its standard error, from
	// the colour-reversed pairs when there are some (IntervalFrom
	// "pairs", which accounts for the two games of an opening being
	// alike) and else from the games ("games"). Low and High bound its
	// Wilson interval with the effective sample size Score(1-Score)/StdErr²
	// (as rating.WDL.ScoreInterval, with the pairs' standard error).
	Score        float64 `json:"score"`
	StdErr       float64 `json:"std_err"`
	Low          float64 `json:"low"`
	High         float64 `json:"high"`
	IntervalFrom string  `json:"interval_from"`
	DrawRatio    float64 `json:"draw_ratio"`
	Decisive     float64 `json:"decisive_ratio"`
	// Diff is Score minus the baseline's, DiffLow and DiffHigh its
	// interval (the two samples independent) and DiffP the two-sided
	// p-value of no difference; nil for the baseline itself and when
	// either has no games.
	Diff     *float64 `json:"diff"`
	DiffLow  *float64 `json:"diff_low"`
	DiffHigh *float64 `json:"diff_high"`
	DiffP    *float64 `json:"diff_p"`
	// Proved is what is proved of the entry's rules from the start
	// position with perfect play (games.Solved); nil when nothing is.
	Proved *game.Solution `json:"proved,omitempty"`
}

// Comparison is several tournaments' side balance side by side.
type Comparison struct {
	Confidence float64 `json:"confidence"`
	// Baseline is the index in Rows of the row the others are compared
	// with.
	Baseline int          `json:"baseline"`
	Rows     []CompareRow `json:"rows"`
	// Reference is the human figure for the cheversi preset, set beside
	// the rows when any of them is a Cheversi tournament.
	Reference *CompareReference `json:"reference,omitempty"`
}

// CompareReference is a side-balance figure from elsewhere with its score
// and interval.
type CompareReference struct {
	Label  string     `json:"label"`
	Preset string     `json:"preset"`
	Counts rating.WDL `json:"counts"`
	Score  float64    `json:"score"`
	Low    float64    `json:"low"`
	High   float64    `json:"high"`
	// Proved is what is proved of the preset's rules with perfect play
	// (games.Solved), nil when nothing is.
	Proved *game.Solution `json:"proved,omitempty"`
}

// ErrNoEntries means a comparison of nothing.
var ErrNoEntries = errors.New("no tournaments to compare")

// Compare computes the statistics of entries at the given confidence
// (0 means rating.DefaultConfidence) against entries[baseline].
func Compare(entries []CompareEntry, baseline int, confidence float64) (*Comparison, error) {
	if len(entries) == 0 {
		return nil, ErrNoEntries
	}
	if baseline < 0 || baseline >= len(entries) {
		return nil, fmt.Errorf("baseline %d out of range 1..%d", baseline+1, len(entries))
	}
	if confidence == 0 {
		confidence = rating.DefaultConfidence
	}
	if !(confidence > 0 && confidence < 1) {
		return nil, fmt.Errorf("confidence %v is not in (0, 1)", confidence)
	}
	z := rating.Quantile(confidence)
	c := &Comparison{Confidence: confidence, Baseline: baseline, Rows: make([]CompareRow, len(entries))}
	for i, e := range entries {
		r := CompareRow{CompareEntry: e, Games: e.Counts.Games()}
		if r.Games > 0 {
			r.IntervalFrom = "games"
			r.Score, r.StdErr = e.Counts.Score(), e.Counts.StdErr()
			r.Low, r.High = e.Counts.ScoreInterval(confidence)
			if e.Pairs != nil && e.Pairs.Pairs() > 0 {
				r.IntervalFrom = "pairs"
				r.StdErr = e.Pairs.StdErr()
				r.Low, r.High = pairedInterval(r.Score, r.StdErr, r.Games, confidence)
			}
			r.DrawRatio = e.Counts.DrawRatio()
			r.Decisive = 1 - r.DrawRatio
		}
		r.Proved = provedOf(e)
		c.Rows[i] = r
		if c.Reference == nil {
			c.Reference = compareReference(e.Game, confidence)
		}
	}
	base := c.Rows[baseline]
	for i := range c.Rows {
		r := &c.Rows[i]
		if i == baseline || r.Games == 0 || base.Games == 0 {
			continue
		}
		d := r.Score - base.Score
		se := math.Hypot(r.StdErr, base.StdErr)
		lo, hi := d-z*se, d+z*se
		p := 1.0
		switch {
		case se > 0:
			p = 2 * distuv.UnitNormal.CDF(-math.Abs(d)/se)
		case d != 0:
			p = 0
		}
		r.Diff, r.DiffLow, r.DiffHigh, r.DiffP = &d, &lo, &hi, &p
	}
	return c, nil
}

// provedOf returns what is proved of an entry's rules, nil when nothing
// is (or its rules cannot be built).
func provedOf(e CompareEntry) *game.Solution {
	r, err := games.New(e.Game, e.Preset, e.Switches)
	if err != nil {
		return nil
	}
	if s, ok := games.Solved(r); ok {
		return &s
	}
	return nil
}

// compareReference returns the side balance of games played elsewhere that
// the named game knows under one of its presets (game.Referenced: human
// games under the cheversi preset), nil when it knows none.
func compareReference(gameName string, confidence float64) *CompareReference {
	presets, _ := games.Presets(gameName)
	for _, p := range presets {
		r, err := games.New(gameName, p, nil)
		if err != nil {
			continue
		}
		ref, ok := r.(game.Referenced)
		if !ok {
			continue
		}
		if b, ok := ref.SideReference(); ok {
			w := rating.WDL{Wins: b.Wins, Draws: b.Draws, Losses: b.Losses}
			lo, hi := w.ScoreInterval(confidence)
			ref := &CompareReference{Label: b.Label, Preset: r.Preset(), Counts: w, Score: w.Score(), Low: lo, High: hi}
			if s, ok := games.Solved(r); ok {
				ref.Proved = &s
			}
			return ref
		}
	}
	return nil
}

// proved returns what is proved of the reference's rules, nil for none
// (or no reference).
func (ref *CompareReference) proved() *game.Solution {
	if ref == nil {
		return nil
	}
	return ref.Proved
}

// compareTable is the comparison as a table: one row per tournament, then
// the reference.
func compareTable(c *Comparison) table {
	lvl := strings.TrimSuffix(fmt.Sprintf("%.1f", 100*c.Confidence), ".0") + "%"
	t := table{Header: []string{"#", "Tournament", "Rules", "Bots", "Strength", "Games", "1st", "W / D / L",
		"1st score [" + lvl + "]", "Draws", "Decisive", "Δ vs #" + strconv.Itoa(c.Baseline+1) + " [" + lvl + "]", "p"}}
	for i, r := range c.Rows {
		diff, p := "baseline", dash
		if i != c.Baseline {
			diff = dash
		}
		if r.Diff != nil {
			diff = fmt.Sprintf("%s [%s, %s]", pctSigned(*r.Diff), pctSigned(*r.DiffLow), pctSigned(*r.DiffHigh))
			p = pvalue(*r.DiffP)
		}
		t.Rows = append(t.Rows, []string{
			strconv.Itoa(i + 1), r.Name, r.Rules(), strings.Join(r.Bots, ", "), r.Strength,
			strconv.Itoa(r.Games), r.FirstMover, wdl(r.Counts.Wins, r.Counts.Draws, r.Counts.Losses),
			scoreInterval(r.Games, r.Score, r.Low, r.High), ratio(r.Games, r.DrawRatio), ratio(r.Games, r.Decisive), diff, p,
		})
	}
	if ref := c.Reference; ref != nil {
		t.Rows = append(t.Rows, []string{
			dash, ref.Label, ref.Preset, "people", dash, strconv.Itoa(ref.Counts.Games()), "white",
			wdl(ref.Counts.Wins, ref.Counts.Draws, ref.Counts.Losses), scoreInterval(ref.Counts.Games(), ref.Score, ref.Low, ref.High),
			pct(ref.Counts.DrawRatio()), pct(1 - ref.Counts.DrawRatio()), dash, dash,
		})
	}
	addCompareProved(&t, c)
	return t
}

// addCompareProved adds the column of what is proved of each row's rules
// with perfect play, when something is of any.
func addCompareProved(t *table, c *Comparison) {
	var source string
	for _, r := range c.Rows {
		if r.Proved != nil {
			source = r.Proved.Source
		}
	}
	if source == "" {
		return
	}
	t.Header = append(t.Header, provedHeader)
	for i := range t.Rows {
		p := c.Reference.proved() // the reference's row, last
		if i < len(c.Rows) {
			p = c.Rows[i].Proved
		}
		cell := provedResult(p)
		if cell == "" {
			cell = dash
		}
		t.Rows[i] = append(t.Rows[i], cell)
	}
	t.Legend = append(t.Legend, legendItem{provedHeader,
		"the rules' value from the start position when both sides play perfectly, as far as it is proved (" + dash + ": not proved); " + source})
}

// scoreInterval formats a score over n games with its interval.
func scoreInterval(n int, s, lo, hi float64) string {
	if n == 0 {
		return dash
	}
	return fmt.Sprintf("%s [%s, %s]", pct(s), pct(lo), pct(hi))
}

// ratio formats a ratio over n games.
func ratio(n int, x float64) string {
	if n == 0 {
		return dash
	}
	return pct(x)
}

// pctSigned formats a difference of fractions in percentage points, with
// its sign.
func pctSigned(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return dash
	}
	if math.Abs(x) < 0.0005 {
		return "0.0"
	}
	return fmt.Sprintf("%+.1f", 100*x)
}

// pairedInterval returns the Wilson interval of score s, whose standard
// error from the colour-reversed pairs is se, as rating.WDL.ScoreInterval
// computes it from the games: with the effective sample size s(1-s)/se²
// when it is defined, else the number of games.
func pairedInterval(s, se float64, games int, confidence float64) (lo, hi float64) {
	n := float64(games)
	if se > 0 && s > 0 && s < 1 {
		n = s * (1 - s) / (se * se)
	}
	return rating.Wilson(s, n, confidence)
}

// compareDesignRows are the design metrics of the rows that have them,
// each named by its number and tournament.
func compareDesignRows(c *Comparison) []designRow {
	var rows []designRow
	for i, r := range c.Rows {
		if r.Design != nil {
			rows = append(rows, designRow{strconv.Itoa(i+1) + " " + r.Name, *r.Design})
		}
	}
	return rows
}
