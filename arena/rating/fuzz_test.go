package rating

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

// FuzzAnalyze decodes bytes into small tournaments (each byte: white,
// black, result, first mover) and checks that every one is either rated
// with finite, JSON-encodable numbers or refused with a documented error.
func FuzzAnalyze(f *testing.F) {
	f.Add([]byte{0x01}, false)
	f.Add([]byte{0x01, 0x10, 0x21, 0x12, 0x45, 0x54}, true)
	f.Add([]byte{0x01, 0x01, 0x01, 0x01}, false)
	f.Add([]byte{0x01, 0x23, 0x45, 0x67, 0x89}, true)
	f.Fuzz(func(t *testing.T, data []byte, ordo bool) {
		if len(data) > 200 {
			return
		}
		var games []Game
		for i, b := range data {
			w, bl := int(b&7), int(b>>3&7)
			g := Game{
				White: fmt.Sprint("p", w), Black: fmt.Sprint("p", bl),
				Result:  []game.Result{game.WhiteWins, game.BlackWins, game.Draw}[int(b>>6)%3],
				Opening: fmt.Sprint("o", i%3),
				PairKey: fmt.Sprint("k", i/2),
			}
			if b>>6 == 3 {
				g.FirstMover = game.Black
			}
			games = append(games, g)
		}
		opt := Options{}
		if ordo {
			opt.Model = Ordo
		}
		a, err := Analyze(games, opt)
		if err != nil {
			if !errors.Is(err, ErrBadGame) && !errors.Is(err, ErrNoGames) && !errors.Is(err, ErrNoConvergence) {
				t.Fatalf("undocumented error %v", err)
			}
			return
		}
		for _, p := range a.Players {
			if math.IsNaN(p.Elo) || math.IsInf(p.Elo, 0) || math.IsNaN(p.Interval) || math.IsInf(p.Interval, 0) {
				t.Fatalf("player %s: %v ± %v", p.Name, p.Elo, p.Interval)
			}
		}
		if _, err := json.Marshal(a); err != nil {
			t.Fatalf("encoding: %v", err)
		}
	})
}
