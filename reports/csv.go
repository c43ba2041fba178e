package reports

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/arena-games/arena/arena/rating"
)

// WriteCSV writes standings.csv: one row per player in ranking order, with
// a header row. Elo values have one decimal; percentages are numbers from
// 0 to 100 with one decimal; undefined values are empty. elo_bound is
// "lower" or "upper" when the rating is only a bound. The last three
// columns repeat, on every row, how far the run got: games played, games
// scheduled and whether it finished (empty when not known, as for rated
// files).
func WriteCSV(w io.Writer, m Meta, a *rating.Analysis) error {
	if a == nil {
		return ErrNoAnalysis
	}
	cw := csv.NewWriter(w)
	header := []string{"rank", "name", "group", "elo", "interval", "games", "wins", "draws", "losses", "points",
		"score_pct", "draw_pct", "first_games", "first_score_pct", "second_games", "second_score_pct", "los_next_pct",
		"elo_bound", "run_played", "run_scheduled", "run_finished"}
	if err := cw.Write(header); err != nil {
		return err
	}
	p1 := func(x *float64) string {
		if x == nil {
			return ""
		}
		return f1(100 * *x)
	}
	run := [3]string{strconv.Itoa(a.Games), "", ""}
	if r := m.Run; r != nil {
		run = [3]string{strconv.Itoa(r.Played), strconv.Itoa(r.Scheduled), strconv.FormatBool(r.Finished)}
	}
	for _, p := range a.Players {
		score, draws := 100*p.Score, 100*p.DrawRatio
		row := []string{
			strconv.Itoa(p.Rank), p.Name, strconv.Itoa(p.Group + 1), f1(p.Elo), f1(p.Interval),
			strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses),
			strconv.FormatFloat(p.Points, 'f', -1, 64), f1(score), f1(draws),
			strconv.Itoa(p.FirstMover.Games), p1(p.FirstMover.Score),
			strconv.Itoa(p.SecondMover.Games), p1(p.SecondMover.Score), p1(p.LOSNext),
			p.Bound, run[0], run[1], run[2],
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
