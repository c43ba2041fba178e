package rating

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/arena-games/arena/arena/game"
)

// simulate plays a round robin among players with the given true ratings
// (model units): every pair meets games times, colours alternating, White
// moving first. For BayesElo, adv is the advantage and draw is drawElo; for
// Ordo, draw is the draw rate between equal players. Consecutive games of
// a pair share an opening and a pair key.
func simulate(rng *rand.Rand, m Model, ratings []float64, games int, adv, draw float64) []Game {
	var out []Game
	for i := range ratings {
		for j := i + 1; j < len(ratings); j++ {
			for k := range games {
				w, b := i, j
				if k%2 == 1 {
					w, b = j, i
				}
				d := ratings[w] - ratings[b]
				var pw, pl float64
				if m == BayesElo {
					pw = 1 / (1 + math.Pow(10, (-d-adv+draw)/400))
					pl = 1 / (1 + math.Pow(10, (d+adv+draw)/400))
				} else {
					e := sigmoid(ordoBeta * (d + adv))
					pd := ordoDrawProb(e, draw)
					pw, pl = e-pd/2, 1-e-pd/2
				}
				r := game.Draw
				switch u := rng.Float64(); {
				case u < pw:
					r = game.WhiteWins
				case u < pw+pl:
					r = game.BlackWins
				}
				out = append(out, Game{
					White: playerName(w), Black: playerName(b),
					FirstMover: game.White, Result: r,
					Opening: fmt.Sprintf("o%d", k/2%7),
					PairKey: fmt.Sprintf("%d-%d-%d", i, j, k/2),
				})
			}
		}
	}
	return out
}

func playerName(i int) string { return fmt.Sprintf("p%03d", i) }
