package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/rating"
)

// dash stands for an undefined value.
const dash = "–"

// pct formats a fraction as a percentage with one decimal.
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return dash
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// f1 formats a number with one decimal.
func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// pctp formats an optional fraction.
func pctp(x *float64) string {
	if x == nil {
		return dash
	}
	return pct(*x)
}

// elo formats a rating: signed when the ratings are centred on 0.
func elo(x float64, signed bool) string {
	if signed {
		if r := math.Round(x); r != 0 {
			return fmt.Sprintf("%+.0f", r)
		}
		return "0"
	}
	return fmt.Sprintf("%.0f", x)
}

// elop formats an optional signed Elo difference.
func elop(x *float64) string {
	if x == nil {
		return dash
	}
	return elo(*x, true)
}

// plusMinus formats an interval half-width.
func plusMinus(x *float64) string {
	if x == nil {
		return dash
	}
	return fmt.Sprintf("%.0f", *x)
}

// pvalue formats a p-value.
func pvalue(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return fmt.Sprintf("%.3f", p)
}

// signed reports whether ratings are shown with a sign (centred on 0).
func signed(a *rating.Analysis) bool { return a.Fit.Offset == 0 }

// level formats the confidence level: "95 %".
func level(a *rating.Analysis) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*a.Confidence), ".0") + "%"
}

func wdl(w, d, l int) string { return fmt.Sprintf("%d / %d / %d", w, d, l) }

// sideScore formats a side record's score with its game count.
func sideScore(r rating.SideRecord) string {
	if r.Games == 0 {
		return dash
	}
	return pctp(r.Score)
}

func when(t time.Time) string { return t.Format("2006-01-02 15:04:05 MST") }

// modelLine describes the fitted model in one line.
func modelLine(a *rating.Analysis) string {
	f := a.Fit
	var b strings.Builder
	fmt.Fprintf(&b, "model %s", f.Model)
	if f.Anchor != "" {
		fmt.Fprintf(&b, ", anchored on %s at %g", f.Anchor, f.Offset)
	} else if f.Offset != 0 {
		fmt.Fprintf(&b, ", centred on %g", f.Offset)
	}
	if f.AdvantageElo != nil {
		fmt.Fprintf(&b, "; first-mover advantage %s ± %s Elo", elop(f.AdvantageElo), plusMinus(f.AdvantageInterval))
		if f.Model == rating.BayesElo && f.Advantage != nil {
			fmt.Fprintf(&b, " (%.1f before scaling)", *f.Advantage)
		}
	} else {
		b.WriteString("; first-mover advantage not determined")
	}
	if f.DrawElo != nil {
		fmt.Fprintf(&b, "; drawElo %.1f, display scale %.3f", *f.DrawElo, f.Scale)
	}
	fmt.Fprintf(&b, "; draw rate between equal players %s", pct(f.DrawRate))
	if f.Prior > 0 {
		fmt.Fprintf(&b, "; prior %g virtual draws", f.Prior)
	}
	return b.String()
}

// los formats a likelihood of superiority; values that would round to 0 %
// or 100 % are shown as bounds, since neither is ever certain.
func los(x float64) string {
	switch {
	case math.IsNaN(x):
		return dash
	case x >= 0.9995:
		return "> 99.9%"
	case x <= 0.0005:
		return "< 0.1%"
	}
	return pct(x)
}

// losp formats an optional likelihood of superiority.
func losp(x *float64) string {
	if x == nil {
		return dash
	}
	return los(*x)
}
