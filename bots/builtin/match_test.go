package builtin

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
)

// matchGame plays one game between two in-process players from a random
// opening of the given number of plies and returns the result from White's
// point of view.
func matchGame(rules game.Rules, white, black Player, lim [2]Limits, opening []game.Move) (game.Result, error) {
	st := rules.Start()
	for _, m := range opening {
		if err := st.Play(m); err != nil {
			return 0, fmt.Errorf("opening move %v: %w", m, err)
		}
	}
	players := [2]Player{game.White: white, game.Black: black}
	for !st.Outcome().Over() {
		side := st.Turn()
		res, err := players[side].Choose(context.Background(), st, lim[side])
		if err != nil {
			return 0, fmt.Errorf("%s at ply %d (%s): %w", players[side].Name(), st.Ply(), st.Text(), err)
		}
		if err := st.Play(res.Move); err != nil {
			return 0, fmt.Errorf("%s played %v at ply %d (%s): %w", players[side].Name(), res.Move, st.Ply(), st.Text(), err)
		}
	}
	return st.Outcome().Result, nil
}

// randomOpening returns plies random legal moves from the start position.
func randomOpening(t testing.TB, rules game.Rules, plies int, rng *rand.Rand) []game.Move {
	t.Helper()
	for {
		st := rules.Start()
		var line []game.Move
		for range plies {
			moves := st.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			line = append(line, m)
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if len(line) == plies && !st.Outcome().Over() {
			return line
		}
	}
}

// matchResult is the outcome of a match from the first player's side.
type matchResult struct {
	wins, draws, losses int
}

func (r matchResult) games() int { return r.wins + r.draws + r.losses }

// points returns the first player's score, draws counting half.
func (r matchResult) points() float64 { return float64(r.wins) + float64(r.draws)/2 }

func (r matchResult) String() string {
	return fmt.Sprintf("+%d =%d -%d (%.1f/%d, %.0f%%)", r.wins, r.draws, r.losses, r.points(), r.games(),
		100*r.points()/float64(r.games()))
}

// playMatch plays pairs of games between players made by a and b: each
// pair is one random opening played with both colour assignments. Every
// game gets fresh players, made with the game's number as seed, so the
// result does not depend on how the games are spread over the two
// goroutines that play them.
func playMatch(t testing.TB, gameName, preset string, a, b func(seed uint64) Player, la, lb Limits,
	pairs, openingPlies int, seed uint64) matchResult {
	t.Helper()
	rules, err := games.New(gameName, preset, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	openings := make([][]game.Move, pairs)
	for i := range openings {
		openings[i] = randomOpening(t, rules, openingPlies, rng)
	}
	var (
		mu  sync.Mutex
		res matchResult
		wg  sync.WaitGroup
	)
	const workers = 2
	jobs := make(chan int)
	for range workers {
		wg.Add(1)
		go func() { // exits when jobs is closed
			defer wg.Done()
			for j := range jobs {
				pa, pb := a(uint64(j)), b(uint64(j)+1<<32)
				op := openings[j/2]
				var (
					r   game.Result
					err error
				)
				aColor := game.White
				if j%2 == 0 {
					r, err = matchGame(rules, pa, pb, [2]Limits{la, lb}, op)
				} else {
					aColor = game.Black
					r, err = matchGame(rules, pb, pa, [2]Limits{lb, la}, op)
				}
				if err != nil {
					t.Errorf("game %d: %v", j, err)
					continue
				}
				mu.Lock()
				switch w, ok := r.Winner(); {
				case !ok:
					res.draws++
				case w == aColor:
					res.wins++
				default:
					res.losses++
				}
				mu.Unlock()
			}
		}()
	}
	for j := range 2 * pairs {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	return res
}
