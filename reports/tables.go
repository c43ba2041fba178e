package reports

import (
	"fmt"
	"strconv"

	"github.com/arena-games/arena/arena/rating"
)

// table is a header and rows of formatted cells: the tables of the terminal,
// Markdown and HTML reports are built once here and only laid out by each
// writer.
type table struct {
	Header []string
	Rows   [][]string
	// Links, when set, holds for each row the game list's filter for the
	// row's games (report.html links the row to them).
	Links []string
}

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
			strconv.Itoa(p.Rank), p.Name, elo(p.Elo, signed(a)), fmt.Sprintf("%.0f", p.Interval),
			strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses),
			pct(p.Score), pct(p.DrawRatio), sideScore(p.FirstMover), sideScore(p.SecondMover), losp(p.LOSNext),
		}
		if groups {
			row = append(row, strconv.Itoa(p.Group+1))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
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
	z := dash
	if sb.Z != nil {
		z = fmt.Sprintf("%.2f", *sb.Z)
	}
	ours("z-test", fmt.Sprintf("z = %s, p = %s", z, pvalue(sb.ZPValue)))
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
		noun := "pairs"
		if p.Pairs == 1 {
			noun = "pair"
		}
		ours("Colour-reversed pairs", fmt.Sprintf("%d %s %v, score %s, p = %s", p.Pairs, noun, p.Counts, pct(p.Score), pvalue(p.PValue)))
	}
	return t
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
	return t
}

// openingsTable is the first mover's record per opening; it has no rows
// when the games name no openings.
func openingsTable(a *rating.Analysis) table {
	t := table{Header: []string{"Opening", "Games", "First mover W / D / L", "Score (" + level(a) + ")", "Sign test p"}}
	for _, o := range a.SideBalance.Openings {
		t.Rows = append(t.Rows, []string{
			o.Opening, strconv.Itoa(o.Games), wdl(o.Wins, o.Draws, o.Losses),
			fmt.Sprintf("%s [%s, %s]", pct(o.Score), pct(o.ScoreLow), pct(o.ScoreHigh)), pvalue(o.SignTestP),
		})
		t.Links = append(t.Links, gamesLink("opening", o.Opening))
	}
	return t
}

// pairsTable is one row per pair of players that met.
func pairsTable(a *rating.Analysis) table {
	t := table{Header: []string{"A", "B", "Games", "A's W / D / L", "A's score", "Elo diff", "LOS", "Draws", "Pairs LL, LD, WL+DD, WD, WW: Elo"}}
	for _, p := range a.Pairs {
		penta := dash
		if p.Pentanomial != nil {
			penta = fmt.Sprintf("%v: %s ± %s", p.Pentanomial.Counts, elop(p.Pentanomial.Elo), plusMinus(p.Pentanomial.Margin))
		}
		t.Rows = append(t.Rows, []string{
			p.A, p.B, strconv.Itoa(p.Games), wdl(p.Wins, p.Draws, p.Losses), pct(p.Score),
			fmt.Sprintf("%s ± %s", elop(p.Elo), plusMinus(p.Margin)), los(p.LOS), pct(p.DrawRatio), penta,
		})
		t.Links = append(t.Links, gamesLink("bot", p.A, "vs", p.B))
	}
	return t
}
