package league

import (
	"errors"
	"fmt"

	"github.com/arena-games/arena/arena/rating"
)

// Point is one bot's rating as it stood once a stage's games were played.
type Point struct {
	// Stage is the place of the stage, After the bot that joined in it.
	Stage int     `json:"stage"`
	After string  `json:"after"`
	Bot   string  `json:"bot"`
	Elo   float64 `json:"elo"`
	// Games counts the bot's games up to and with the stage.
	Games int `json:"games"`
}

// History fits the ratings again after each stage that has games, over the
// games of that stage and every earlier one (games[i] holds stage i's,
// named as the ratings name the bots), with the options of the league's
// own fit; anchors that have not joined yet are left out. It returns each
// rated bot's rating after each such stage, stage by stage, the bots of a
// stage by name.
func History(stages []Stage, games [][]rating.Game, opt rating.Options) ([]Point, error) {
	if len(games) != len(stages) {
		return nil, fmt.Errorf("history: %d stages, %d lists of games", len(stages), len(games))
	}
	var sofar []rating.Game
	var out []Point
	played := map[string]int{}
	for i, s := range stages {
		if len(games[i]) == 0 {
			continue
		}
		sofar = append(sofar, games[i]...)
		for _, g := range games[i] {
			played[g.White]++
			played[g.Black]++
		}
		o := opt
		o.Anchors = map[string]float64{}
		for name, elo := range opt.Anchors {
			if played[name] > 0 {
				o.Anchors[name] = elo
			}
		}
		if opt.Anchor != "" && played[opt.Anchor] == 0 {
			o.Anchor = ""
		}
		fit, err := rating.Fit(sofar, o)
		if errors.Is(err, rating.ErrNoGames) {
			continue // only forfeits so far, say
		}
		if err != nil {
			return nil, fmt.Errorf("history after %s: %w", s.Bot, err)
		}
		for j, name := range fit.Players {
			out = append(out, Point{Stage: s.Index, After: s.Bot, Bot: name, Elo: fit.Ratings[j], Games: played[name]})
		}
	}
	return out, nil
}
