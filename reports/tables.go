package reports

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/rating"
)

// searchTable is what each bot reported about its searches; it has no rows
// when m has no search statistics.
func searchTable(m Meta) table {
	t := table{Header: []string{"Player", "Moves", "With info", "Avg depth", "Nodes/s", "Time/move"}, Legend: []legendItem{
		{"Moves", "the moves the bot played, the opening's not counted"},
		{"With info", "the moves that came with search information: the last info line the bot wrote before the move"},
		{"Avg depth", "the mean depth those lines report"},
		{"Nodes/s", "the nodes those lines report, over the time the arena measured for those moves"},
		{"Time/move", "the mean time a move took, as the arena measured it (from sending the request to reading the move)"},
	}}
	for _, s := range m.Search {
		depth, nps := dash, dash
		if s.AvgDepth > 0 {
			depth = f1(s.AvgDepth)
		}
		if s.NodesPerSecond > 0 {
			nps = strconv.FormatFloat(s.NodesPerSecond, 'f', 0, 64)
		}
		t.Rows = append(t.Rows, []string{s.Bot, strconv.Itoa(s.Moves), strconv.Itoa(s.WithInfo), depth, nps,
			strconv.FormatFloat(s.AvgMoveMS, 'f', 1, 64) + " ms"})
	}
	return t
}

// latencyTable is the latency of each bot's moves that came with a
// reported time; it has no rows when none did.
func latencyTable(m Meta) table {
	t := table{Header: []string{"Player", "Timed moves", "p50", "p90", "p99", "Max", "Within margin"}, Legend: []legendItem{
		{"Timed moves", "the moves that came with a time the bot reported (info ... time)"},
		{"p50, p90, p99, Max", "the latency of those moves: the time the arena measured less the time the bot reported, what the pipes, the machine's scheduler and the arena added to the bot's own thinking (to within 12 %)"},
		{"Within margin", "how many of those moves had a latency within the bot's margin (a move later than its time plus the margin loses on time)"},
	}}
	for _, s := range m.Search {
		l := s.Latency
		if l == nil {
			continue
		}
		within := dash
		if l.MarginMS > 0 {
			within = fmt.Sprintf("%d (%.1f%%) of %v ms", l.WithinMargin, 100*float64(l.WithinMargin)/float64(l.Moves), l.MarginMS)
		}
		ms := func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + " ms" }
		t.Rows = append(t.Rows, []string{s.Bot, strconv.Itoa(l.Moves), ms(l.P50MS), ms(l.P90MS), ms(l.P99MS), ms(l.MaxMS), within})
	}
	return t
}

// table is a header and rows of formatted cells: the tables of the terminal,
// Markdown and HTML reports are built once here and only laid out by each
// writer.
type table struct {
	Header []string
	Rows   [][]string
	// Links, when set, holds for each row the game list's filter for the
	// row's games (report.html links the row to them).
	Links []string
	// Legend explains every column and abbreviation, for the report
	// files.
	Legend []legendItem
}

// legendItem explains one term of a table.
type legendItem struct{ Term, Text string }

// standingsTable is one row per player in ranking order, with a group
// column when the players form several groups.
func standingsTable(a *rating.Analysis) table {
	t := table{Header: []string{"#", "Player", "Elo", "± " + level(a), "Games", "W", "D", "L", "Score", "Draws", "Score 1st", "Score 2nd", "LOS next"}}
	groups := len(a.Groups) > 1
	if groups {
		t.Header = append(t.Header, "Group")
	}
	for _, p := range a.Players {
		row := []string{
			strconv.Itoa(p.Rank), p.Name, playerElo(p, signed(a)), playerInterval(p),
			strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses),
			pct(p.Score), pct(p.DrawRatio), sideScore(p.FirstMover), sideScore(p.SecondMover), losp(p.LOSNext),
		}
		if groups {
			row = append(row, strconv.Itoa(p.Group+1))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Legend = []legendItem{
		{"#", "rank: by group, then by rating"},
		{"Elo", eloLegend(a)},
		{"± " + level(a), "half-width of the rating's " + level(a) + " interval (" + intervalLegend(a) + ")"},
		{"Games, W, D, L", "games played, won, drawn and lost, forfeits included"},
		{"Score", "points per game, a draw counting half"},
		{"Draws", "share of the games drawn"},
		{"Score 1st, Score 2nd", "score when moving first and when moving second, over the games decided by play (forfeits left out)"},
		{"LOS next", "likelihood of superiority over the next player: the probability, under the rating model, that this player is the stronger of the two"},
	}
	if groups {
		t.Legend = append(t.Legend, legendItem{"Group", "players linked by games; ratings compare only within a group"})
	}
	return t
}

// eloLegend explains the Elo column.
func eloLegend(a *rating.Analysis) string {
	s := "rating on the display scale"
	switch {
	case a.Fit.Anchor != "":
		s += fmt.Sprintf(", with %s fixed at %g", a.Fit.Anchor, a.Fit.Offset)
	default:
		s += fmt.Sprintf(", the players' average at %g", a.Fit.Offset)
	}
	for _, p := range a.Players {
		if p.Bound != "" {
			return s + `; "> x" (at least x) and "< x" (at most x) mark a player who won or lost every game, whom the ordo model rates only by a bound`
		}
	}
	return s
}

// intervalLegend says how the rating intervals are computed.
func intervalLegend(a *rating.Analysis) string {
	if a.Model == rating.Ordo {
		return "sandwich estimate of the ordo fit, draws counting half a point"
	}
	return "from the curvature of the likelihood with the first-mover advantage and drawElo held at their fitted values, as bayeselo's covariance command gives it"
}

// sideTable is the side-balance summary: a label column, these games, and
// the reference when there is one (a dash where it has no figure).
func sideTable(a *rating.Analysis) table {
	sb := a.SideBalance
	cols := []rating.Balance{sb.Balance}
	t := table{Header: []string{"First mover (" + sb.FirstMover + ")", "These games"}}
	if ref := sb.Reference; ref != nil {
		cols = append(cols, ref.Balance)
		t.Header = append(t.Header, ref.Label)
	}
	// both adds a row with a figure for every column, ours a row with a
	// figure for these games only.
	both := func(label string, cell func(rating.Balance) string) {
		row := []string{label}
		for _, b := range cols {
			row = append(row, cell(b))
		}
		t.Rows = append(t.Rows, row)
	}
	ours := func(label, cell string) {
		row := []string{label, cell}
		for range cols[1:] {
			row = append(row, dash)
		}
		t.Rows = append(t.Rows, row)
	}
	count := func(n int, ratio float64) string { return fmt.Sprintf("%d (%s)", n, pct(ratio)) }
	both("Games", func(b rating.Balance) string { return strconv.Itoa(b.Games) })
	both("Wins", func(b rating.Balance) string { return count(b.Wins, b.WinRatio) })
	both("Draws", func(b rating.Balance) string { return count(b.Draws, b.DrawRatio) })
	both("Losses", func(b rating.Balance) string { return count(b.Losses, b.LossRatio) })
	both("Score ("+level(a)+" interval)", func(b rating.Balance) string {
		if b.Games == 0 {
			return dash
		}
		return fmt.Sprintf("%s [%s, %s]", pct(b.Score), pct(b.ScoreLow), pct(b.ScoreHigh))
	})
	switch {
	case sb.ZPValue != nil && sb.Z != nil:
		ours("z-test", fmt.Sprintf("z = %.2f, p = %s", *sb.Z, pvalue(*sb.ZPValue)))
	case sb.Games > 0:
		ours("z-test", notNormal(sb.Games, sb.Wins, sb.Draws, sb.Losses))
	}
	ours("Sign test on decisive games", "p = "+pvalue(sb.SignTestP))
	adv := "not determined"
	if sb.AdvantageElo != nil {
		adv = fmt.Sprintf("%s ± %s Elo", elop(sb.AdvantageElo), plusMinus(sb.AdvantageInterval))
	}
	ours("Fitted advantage", adv)
	if sb.Forfeits > 0 {
		ours("Left out (forfeits)", strconv.Itoa(sb.Forfeits))
	}
	if p := sb.Paired; p != nil {
		test := "sign test p = " + pvalue(p.SignTestP)
		if p.PValue != nil {
			test = "p = " + pvalue(*p.PValue) + ", " + test
		}
		ours("Colour-reversed pairs", fmt.Sprintf("%s %v, score %s, %s", noun(p.Pairs, "pair", "pairs"), p.Counts, pct(p.Score), test))
	}
	t.Legend = []legendItem{
		{"These games", "the first mover's record over the games decided by play (forfeits left out)"},
		{"Score", "the first mover's points per game, with its " + level(a) + " Wilson interval (effective sample size, so draws count)"},
		{"z-test", fmt.Sprintf("normal approximation of the test that the score is 50%%; shown from %d games on, with at least %d wins and %d losses", rating.MinNormalSample, rating.MinEachSide, rating.MinEachSide)},
		{"Sign test", "exact two-sided binomial test of the first mover's wins against its losses, draws ignored"},
		{"Fitted advantage", "the first mover's advantage in Elo from the rating model fitted to these games, which accounts for the players' strengths; ± the half-width of its " + level(a) + " interval"},
	}
	if sb.Paired != nil {
		t.Legend = append(t.Legend, legendItem{"Colour-reversed pairs [LL LD WL+DD WD WW]", "the two games of one opening with colours swapped, counted by the first mover's points in the pair: 0 (LL: lost both), ½ (LD: lost one, drew one), 1 (WL+DD: won one and lost one, or drew both), 1½ (WD) and 2 (WW); the players' strengths cancel within a pair. p is the pair-wise z-test, the sign test compares the pairs won with the pairs lost"})
	} else {
		t.Legend = append(t.Legend, legendItem{"No colour-reversed pairs", "no opening was played with the colours swapped (every opening once, say): every figure is over single games, whose interval the players' strengths widen, as no pair cancels them"})
	}
	if ref := sb.Reference; ref != nil {
		t.Legend = append(t.Legend, legendItem{ref.Label, ref.Source})
	}
	return t
}

// notNormal says why a z-test is not shown for n games with the given
// counts.
func notNormal(n, w, d, l int) string {
	switch {
	case w == n || d == n || l == n:
		return fmt.Sprintf("not shown: all %s had one result", noun(n, "game", "games"))
	case n < rating.MinNormalSample:
		return fmt.Sprintf("not shown for %s (needs %d)", noun(n, "game", "games"), rating.MinNormalSample)
	}
	return fmt.Sprintf("not shown: needs %d wins and %d losses", rating.MinEachSide, rating.MinEachSide)
}

// byPlayerTable is each player's record as first and as second mover.
func byPlayerTable(a *rating.Analysis) table {
	t := table{Header: []string{"Player", "As first mover W / D / L", "Score", "As second mover W / D / L", "Score"}}
	for _, p := range a.Players {
		t.Rows = append(t.Rows, []string{
			p.Name,
			wdl(p.FirstMover.Wins, p.FirstMover.Draws, p.FirstMover.Losses), sideScore(p.FirstMover),
			wdl(p.SecondMover.Wins, p.SecondMover.Draws, p.SecondMover.Losses), sideScore(p.SecondMover),
		})
	}
	t.Legend = []legendItem{
		{"As first mover, As second mover", "the player's wins, draws and losses and its score in the games it moved first and second, over the games decided by play (forfeits left out)"},
	}
	return t
}

// openingsTable is the first mover's record per opening, the strongest
// evidence of imbalance first; it has no rows when the games name no
// openings.
func openingsTable(a *rating.Analysis) table {
	t := table{Header: []string{"Opening", "Moves", "Games", "First mover W / D / L", "Score (" + level(a) + ")", "Sign test p", "Adjusted p"}}
	for _, o := range a.SideBalance.Openings {
		moves := o.Moves
		if moves == "" {
			moves = dash
		}
		t.Rows = append(t.Rows, []string{
			o.Opening, moves, strconv.Itoa(o.Games), wdl(o.Wins, o.Draws, o.Losses),
			fmt.Sprintf("%s [%s, %s]", pct(o.Score), pct(o.ScoreLow), pct(o.ScoreHigh)), pvalue(o.SignTestP), pvalue(o.AdjustedP),
		})
		t.Links = append(t.Links, gamesLink("opening", o.Opening))
	}
	t.Legend = []legendItem{
		{"Moves", "the opening's moves, played before the bots took over, after the position it starts from when it has one"},
		{"Score", "the first mover's points per game on the opening, with its " + level(a) + " Wilson interval"},
		{"Sign test p", "exact two-sided sign test of the first mover's wins against its losses on the opening"},
		{"Adjusted p", fmt.Sprintf("the sign test's p-value adjusted for testing %s at once (Benjamini–Hochberg): "+
			"among the openings with an adjusted p below 5%%, at most 5%% are expected to be balanced ones flagged by chance. "+
			"It is used rather than Holm's adjustment because the question is which openings deserve a closer look, not whether any one is unbalanced: "+
			"it keeps the share of false flags small without hiding every real one. "+
			"Openings are ranked by it, the strongest evidence of imbalance first", noun(len(a.SideBalance.Openings), "opening", "openings"))},
	}
	return t
}

// pairsTable is one row per pair of players that met.
func pairsTable(a *rating.Analysis) table {
	t := table{Header: []string{"A", "B", "Games", "A's W / D / L", "A's score", "Elo diff", "LOS", "Draws", "Pairs LL, LD, WL+DD, WD, WW: Elo"}}
	t.Legend = []legendItem{
		{"A, B", "the two players, A ranking higher; every figure is from A's side"},
		{"Elo diff", "the Elo difference that A's score means, ± the half-width of its " + level(a) + " interval (as cutechess and fastchess compute it)"},
		{"LOS", "likelihood of superiority from the score, Φ((score − 50%)/standard error); none when every game had the same result"},
		{"Draws", "share of the games drawn"},
		{"Pairs LL, LD, WL+DD, WD, WW: Elo", "colour-reversed pairs counted by A's points in the pair (0, ½, 1, 1½, 2) and the Elo difference of the pair scores ± its margin"},
	}
	paired := slices.ContainsFunc(a.Pairs, func(p rating.PairStats) bool { return p.Pentanomial != nil })
	for _, p := range a.Pairs {
		penta := dash
		if p.Pentanomial != nil {
			penta = fmt.Sprintf("%v: %s ± %s", p.Pentanomial.Counts, elop(p.Pentanomial.Elo), plusMinus(p.Pentanomial.Margin))
		}
		row := []string{
			p.A, p.B, strconv.Itoa(p.Games), wdl(p.Wins, p.Draws, p.Losses), pct(p.Score),
			fmt.Sprintf("%s ± %s", elop(p.Elo), plusMinus(p.Margin)), losp(p.LOS), pct(p.DrawRatio), penta,
		}
		if !paired {
			row = row[:len(row)-1]
		}
		t.Rows = append(t.Rows, row)
		t.Links = append(t.Links, gamesLink("bot", p.A, "vs", p.B))
	}
	if !paired {
		// Games without colour-reversed partners: the trinomial figures
		// alone.
		t.Header = t.Header[:len(t.Header)-1]
		t.Legend = t.Legend[:len(t.Legend)-1]
	}
	return t
}

// pointsTable is the standings by points with their tiebreaks, in the
// tournament's order; it has no rows without standings.
func pointsTable(a *rating.Analysis) table {
	var places, byes, buchholz bool
	for _, s := range a.Standings {
		places = places || s.Place > 0
		byes = byes || s.Byes > 0
		buchholz = buchholz || s.Buchholz != nil
	}
	t := table{Header: []string{"#", "Player"}}
	if places {
		t.Header = append(t.Header, "Place")
	}
	t.Header = append(t.Header, "Points", "Games", "W", "D", "L")
	if byes {
		t.Header = append(t.Header, "Byes")
	}
	t.Header = append(t.Header, "H2H")
	if buchholz {
		t.Header = append(t.Header, "Buchholz")
	}
	t.Header = append(t.Header, "SB")
	for _, s := range a.Standings {
		row := []string{strconv.Itoa(s.Rank), s.Name}
		if places {
			row = append(row, placeText(s.Place))
		}
		row = append(row, fmtPoints(s.Points), strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses))
		if byes {
			row = append(row, strconv.Itoa(s.Byes))
		}
		h2h := dash
		if s.HeadToHead != nil {
			h2h = fmtPoints(*s.HeadToHead)
		}
		row = append(row, h2h)
		if buchholz {
			row = append(row, fmtPoints(*s.Buchholz))
		}
		t.Rows = append(t.Rows, append(row, fmtPoints(s.SonnebornBerger)))
	}
	order := "places, then points, then"
	if !places {
		order = "points, then"
	}
	tiebreaks := "head to head, Sonneborn–Berger, wins"
	if buchholz {
		tiebreaks = "head to head, Buchholz, Sonneborn–Berger, wins"
	}
	t.Legend = []legendItem{{"#", "rank by " + order + " the tiebreaks in this order: " + tiebreaks + ", then the name"}}
	if places {
		t.Legend = append(t.Legend, legendItem{"Place", "how far the bot went in the knockout: 1 the winner, 2 the finalist, 3 a semi-finalist, 5 a quarter-finalist, and so on; a bot still playing holds the place it is sure of"})
	}
	t.Legend = append(t.Legend, legendItem{"Points", "a win 1, a draw ½, forfeits included"})
	if byes {
		t.Legend = append(t.Legend, legendItem{"Byes", "rounds without an opponent; their points are in Points, and no game was played"})
	}
	t.Legend = append(t.Legend, legendItem{"H2H", "head to head: the points scored against the bots level with it (same points" + map[bool]string{true: " and place", false: ""}[places] + "), when each of them met each other; otherwise no tiebreak"})
	if buchholz {
		t.Legend = append(t.Legend, legendItem{"Buchholz", "the sum of the points of the opponents met, each once per round met; a bye counts the bot's own points"})
	}
	t.Legend = append(t.Legend, legendItem{"SB", "Sonneborn–Berger: the sum, over the opponents, of the points scored against each times that opponent's points"})
	return t
}

// placeText writes a knockout place: "1", "2", "3–4", "5–8"...
func placeText(p int) string {
	if p <= 2 {
		return strconv.Itoa(p)
	}
	return fmt.Sprintf("%d–%d", p, 2*(p-1))
}

// bestText says how sure the ranking is of its first player; "" without
// the figure.
func bestText(a *rating.Analysis) string {
	b := a.Best
	if b == nil {
		return ""
	}
	s := fmt.Sprintf("Probability that %s, ranked first, is the strongest: %s", b.Player, pct(b.Probability))
	var others []string
	for _, c := range b.Contenders {
		if c.Name != b.Player {
			others = append(others, fmt.Sprintf("%s %s", c.Name, pct(c.Probability)))
		}
	}
	if len(others) > 5 {
		others = append(others[:5], fmt.Sprintf("%d more", len(others)-5))
	}
	if len(others) > 0 {
		s += " (" + strings.Join(others, ", ") + ")"
	}
	return s + fmt.Sprintf(", from %s draws of the ratings (±%s).", count(b.Samples), pct(b.StdErr))
}

// bestLegend explains bestText.
const bestLegend = "The probability comes from drawing the ratings many times from their fitted distribution (the one behind the intervals), combined with the spread of the field, so that a player ranked first partly by luck is not taken to be as strong as it looks; in brackets, the other players with at least a 0.1% chance."

// knockoutOrSwiss reports whether the standings come from a format whose
// table the reader follows by points (a knockout's places, a Swiss's
// Buchholz).
func knockoutOrSwiss(a *rating.Analysis) bool {
	for _, s := range a.Standings {
		if s.Place > 0 || s.Buchholz != nil {
			return true
		}
	}
	return false
}
