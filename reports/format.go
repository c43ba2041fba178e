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

// playerElo formats a player's rating, with "> " or "< " when it is only a
// bound.
func playerElo(p rating.PlayerStats, signed bool) string {
	switch p.Bound {
	case "lower":
		return "> " + elo(p.Elo, signed)
	case "upper":
		return "< " + elo(p.Elo, signed)
	}
	return elo(p.Elo, signed)
}

// playerInterval formats the half-width of a player's interval; a bound
// has none.
func playerInterval(p rating.PlayerStats) string {
	if p.Bound != "" {
		return dash
	}
	return fmt.Sprintf("%.0f", p.Interval)
}

// count formats a number of things with a thousands separator: 1,842.
func count(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + count(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// plural returns one when n is 1 and many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// noun returns n and the singular or plural noun: "1 game", "2 games".
func noun(n int, one, many string) string {
	if n == 1 {
		return count(n) + " " + one
	}
	return count(n) + " " + many
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

// modelLine describes the fitted model in one line; details adds the
// fit's internals (the advantage before scaling, drawElo and the display
// scale, the prior), which the report files give and the terminal leaves
// out.
func modelLine(a *rating.Analysis, details bool) string {
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
		if details && f.Model == rating.BayesElo && f.Advantage != nil {
			fmt.Fprintf(&b, " (%.1f before scaling)", *f.Advantage)
		}
	} else {
		b.WriteString("; first-mover advantage not determined")
	}
	if details && f.DrawElo != nil {
		fmt.Fprintf(&b, "; drawElo %.1f, display scale %.3f", *f.DrawElo, f.Scale)
	}
	if f.DrawRate != nil {
		fmt.Fprintf(&b, "; draw rate between equal players %s", pct(*f.DrawRate))
		if f.DrawRateLow != nil && f.DrawRateHigh != nil {
			fmt.Fprintf(&b, " (%s interval %s to %s)", level(a), pct(*f.DrawRateLow), pct(*f.DrawRateHigh))
		}
	}
	if details && f.Prior > 0 {
		// As the notes count them: per player, each draw shared by two.
		fmt.Fprintf(&b, "; prior %g virtual draws per player (%g in all)", f.Prior, f.Prior*float64(len(a.Players))/2)
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

// runLine states how many games the report covers and whether the run
// that played them finished: "22 of 936 scheduled games played; the run has
// not finished ...". Without a run it says that the games came from files,
// or just how many there are.
func runLine(m Meta, a *rating.Analysis) string {
	r := m.Run
	switch {
	case r == nil && len(m.Sources) > 0:
		return fmt.Sprintf("%s rated from files; how many games their run scheduled is not known.", capital(noun(a.Games, "game", "games")))
	case r == nil:
		return capital(noun(a.Games, "game", "games")) + "."
	}
	s := fmt.Sprintf("%s of %s scheduled %s played", count(r.Played), count(r.Scheduled), plural(r.Scheduled, "game", "games"))
	switch {
	case r.Stopped != "":
		return s + "; the run finished early: " + r.Stopped + "."
	case r.Finished:
		return s + "; the run is complete."
	}
	return s + "; the run has not finished (interrupted or still going): every figure covers only the games played so far."
}

// capital returns s with its first letter in upper case (ASCII).
func capital(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// verdict is the plain sentence that opens the side balance.
func verdict(a *rating.Analysis) string {
	sb := a.SideBalance
	if sb.Games == 0 {
		return "No game was decided by play, so there is nothing to say about the side balance."
	}
	who := "first mover"
	if sb.FirstMover == "white" || sb.FirstMover == "black" {
		who = "first mover (" + sb.FirstMover + ")"
	}
	games := noun(sb.Games, "game", "games")
	if sb.Forfeits > 0 {
		games += " decided by play"
	}
	head := fmt.Sprintf("The %s scores %s (%s CI %s–%s) over %s", who, pct(sb.Score), level(a), pctNum(sb.ScoreLow), pct(sb.ScoreHigh), games)
	v := sb.Verdict
	switch {
	case v.Favours == "first":
		return head + ": the rule set favours the first mover."
	case v.Favours == "second":
		return head + ": the rule set favours the second mover."
	case v.MoreGames > 0:
		more := roundCount(v.MoreGames)
		return fmt.Sprintf("%s: no evidence of imbalance at this sample size; about %s more %s would detect a %s edge.",
			head, count(more), plural(more, "game", "games"), pctWhole(v.Edge))
	}
	return fmt.Sprintf("%s: no evidence of imbalance; any edge is smaller than %s.", head, pct(v.Within))
}

// provedText says what is proved of the game under the tournament's rules
// with perfect play, to set beside the verdict; "" when nothing is.
func provedText(a *rating.Analysis) string {
	p := a.SideBalance.Proved
	if p == nil {
		return ""
	}
	return "Proved: " + p.Statement + ". " + capital(p.Source) + "."
}

// pctNum formats a fraction as a percentage number with one decimal.
func pctNum(x float64) string { return fmt.Sprintf("%.1f", 100*x) }

// pctWhole formats a fraction as a whole percentage: "2%".
func pctWhole(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// roundCount rounds a count of games to two significant digits, so that an
// estimate does not look more precise than it is.
func roundCount(n int) int {
	if n < 100 {
		return n
	}
	mag := int(math.Pow(10, math.Floor(math.Log10(float64(n)))-1))
	return (n + mag/2) / mag * mag
}
