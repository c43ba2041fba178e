package rating

import (
	"github.com/arena-games/arena/arena/game"
)

// fixtureGames returns the 30 games of ratings-fixture-30.pgn (testdata):
// players A, B and C, 10 games per pair, 5 with each colour.
func fixtureGames() []Game {
	tally := []struct {
		white, black string
		result       game.Result
		n            int
	}{
		{"A", "B", game.BlackWins, 1}, {"A", "B", game.WhiteWins, 3}, {"A", "B", game.Draw, 1},
		{"A", "C", game.WhiteWins, 4}, {"A", "C", game.Draw, 1},
		{"B", "A", game.BlackWins, 1}, {"B", "A", game.WhiteWins, 2}, {"B", "A", game.Draw, 2},
		{"B", "C", game.BlackWins, 1}, {"B", "C", game.WhiteWins, 3}, {"B", "C", game.Draw, 1},
		{"C", "A", game.BlackWins, 2}, {"C", "A", game.WhiteWins, 1}, {"C", "A", game.Draw, 2},
		{"C", "B", game.BlackWins, 2}, {"C", "B", game.WhiteWins, 2}, {"C", "B", game.Draw, 1},
	}
	var games []Game
	for _, t := range tally {
		for range t.n {
			games = append(games, Game{White: t.white, Black: t.black, FirstMover: game.White, Result: t.result})
		}
	}
	return games
}

// boundsFixtureGames returns the fixture's games plus D, who loses two
// games with each colour to each of A, B and C, and E, who beats A and B
// once with each colour.
func boundsFixtureGames() []Game {
	games := fixtureGames()
	for _, o := range []string{"A", "B", "C"} {
		for range 2 {
			games = append(games, Game{White: "D", Black: o, FirstMover: game.White, Result: game.BlackWins},
				Game{White: o, Black: "D", FirstMover: game.White, Result: game.WhiteWins})
		}
	}
	for _, o := range []string{"A", "B"} {
		games = append(games, Game{White: "E", Black: o, FirstMover: game.White, Result: game.WhiteWins},
			Game{White: o, Black: "E", FirstMover: game.White, Result: game.BlackWins})
	}
	return games
}
