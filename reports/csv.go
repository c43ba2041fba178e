package reports

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/arena-games/arena/arena/rating"
)

// WriteCSV writes standings.csv: one row per player in ranking order, with
// a header row. Elo values have one decimal; percentages are numbers from
// 0 to 100 with one decimal; undefined values are empty.
func WriteCSV(w io.Writer, a *rating.Analysis) error {
	if a == nil {
		return ErrNoAnalysis
	}
	cw := csv.NewWriter(w)
	header := []string{"rank", "name", "group", "elo", "interval", "games", "wins", "draws", "losses", "points",
		"score_pct", "draw_pct", "first_games", "first_score_pct", "second_games", "second_score_pct", "los_next_pct"}
	if err := cw.Write(header); err != nil {
		return err
	}
	p1 := func(x *float64) string {
		if x == nil {
			return ""
		}
		return f1(100 * *x)
	}
	for _, p := range a.Players {
		score, draws := 100*p.Score, 100*p.DrawRatio
		row := []string{
			strconv.Itoa(p.Rank), p.Name, strconv.Itoa(p.Group + 1), f1(p.Elo), f1(p.Interval),
			strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses),
			strconv.FormatFloat(p.Points, 'f', -1, 64), f1(score), f1(draws),
			strconv.Itoa(p.FirstMover.Games), p1(p.FirstMover.Score),
			strconv.Itoa(p.SecondMover.Games), p1(p.SecondMover.Score), p1(p.LOSNext),
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
