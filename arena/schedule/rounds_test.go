package schedule_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"
)

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("bot%02d", i)
	}
	return out
}

func someOpenings(n int) []openings.Opening {
	out := make([]openings.Opening, n)
	for i := range out {
		out[i] = openings.Opening{Name: fmt.Sprintf("o%d", i+1), Moves: []string{fmt.Sprintf("m%d", i)}}
	}
	return out
}

// strength plays games between bots whose strength is their seed's
// reverse, with draws, from a generator.
func strength(rng *rand.Rand, seeds []string) func(g schedule.Scheduled) game.Result {
	rank := map[string]int{}
	for i, s := range seeds {
		rank[s] = i
	}
	return func(g schedule.Scheduled) game.Result {
		d := float64(rank[g.Black]-rank[g.White]) / float64(len(seeds))
		switch u := rng.Float64(); {
		case u < 0.35+0.3*d:
			return game.WhiteWins
		case u < 0.65+0.3*d:
			return game.Draw
		}
		return game.BlackWins
	}
}

// playOut records every game of r as it is laid out, in an order the
// generator shuffles, with results from result, and returns the results
// by ID.
func playOut(t *testing.T, r *schedule.Rounds, rng *rand.Rand, result func(schedule.Scheduled) game.Result) map[int]game.Result {
	t.Helper()
	results := map[int]game.Result{}
	pending := r.Games()
	for len(pending) > 0 {
		k := rng.IntN(len(pending))
		g := pending[k]
		pending = slices.Delete(pending, k, k+1)
		res := result(g)
		results[g.ID] = res
		more, err := r.Record(g.ID, res)
		if err != nil {
			t.Fatalf("Record(%d): %v", g.ID, err)
		}
		pending = append(pending, more...)
	}
	if !r.Finished() {
		t.Fatalf("no game left to play, but the tournament is not finished")
	}
	return results
}

// replay records the given results into a fresh schedule in an order the
// generator shuffles (each game once it is laid out) and returns it.
func replay(t *testing.T, p schedule.Plan, ops []openings.Opening, results map[int]game.Result, rng *rand.Rand) *schedule.Rounds {
	t.Helper()
	r, err := schedule.NewRounds(p, ops)
	if err != nil {
		t.Fatal(err)
	}
	pending := r.Games()
	for len(pending) > 0 {
		k := rng.IntN(len(pending))
		g := pending[k]
		pending = slices.Delete(pending, k, k+1)
		res, ok := results[g.ID]
		if !ok {
			t.Fatalf("replay lays out game %d, which the first run did not play", g.ID)
		}
		more, err := r.Record(g.ID, res)
		if err != nil {
			t.Fatal(err)
		}
		pending = append(pending, more...)
	}
	return r
}

// TestSwissRounds plays Swiss tournaments on random results, recording the
// games of each round in a random order, and checks the schedule: every
// bot plays each round's pair of games once with each colour (but the one
// with the bye), the IDs are 1 to the expected number, each round plays
// one opening, and no two bots meet twice while the rounds allow it. The
// same results recorded in another order, as a resumed run or workers
// would, lay out exactly the same games.
func TestSwissRounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ bots, rounds, openings int }{
		{2, 1, 1}, {3, 3, 2}, {8, 3, 8}, {9, 4, 3}, {16, 7, 5}, {64, 8, 10},
	} {
		t.Run(fmt.Sprintf("%d bots %d rounds", tc.bots, tc.rounds), func(t *testing.T) {
			p := schedule.Plan{Kind: schedule.Swiss, Seeds: names(tc.bots), Rounds: tc.rounds, ByeHalfPoints: 2, FirstMover: "white"}
			ops := someOpenings(tc.openings)
			r, err := schedule.NewRounds(p, ops)
			if err != nil {
				t.Fatal(err)
			}
			results := playOut(t, r, rng, strength(rng, p.Seeds))
			games := r.Games()
			if len(games) != r.Expected() || r.Recorded() != r.Expected() {
				t.Fatalf("%d games laid out, %d recorded, %d expected", len(games), r.Recorded(), r.Expected())
			}
			byRound := map[int]map[string][2]int{}
			met := map[[2]string]int{}
			for i, g := range slices.SortedFunc(slices.Values(games), func(a, b schedule.Scheduled) int { return a.ID - b.ID }) {
				if g.ID != i+1 {
					t.Fatalf("game %d has ID %d", i+1, g.ID)
				}
				if g.Opening != (g.Round-1)%tc.openings {
					t.Errorf("game %d of round %d plays opening %d", g.ID, g.Round, g.Opening)
				}
				if byRound[g.Round] == nil {
					byRound[g.Round] = map[string][2]int{}
				}
				w, b := byRound[g.Round][g.White], byRound[g.Round][g.Black]
				w[0]++
				b[1]++
				byRound[g.Round][g.White], byRound[g.Round][g.Black] = w, b
				if g.ID%2 == 1 {
					met[[2]string{min(g.White, g.Black), max(g.White, g.Black)}]++
				}
			}
			byes := r.Byes()
			for round := 1; round <= tc.rounds; round++ {
				for _, bot := range p.Seeds {
					c := byRound[round][bot]
					hadBye := slices.Contains(byes[bot], round)
					if hadBye && c != [2]int{} || !hadBye && c != [2]int{1, 1} {
						t.Errorf("round %d: %s played %d White and %d Black (bye %v)", round, bot, c[0], c[1], hadBye)
					}
				}
			}
			if 2*tc.rounds <= tc.bots-tc.bots%2 {
				for pair, n := range met {
					if n > 1 {
						t.Errorf("%s met %s %d times", pair[0], pair[1], n)
					}
				}
				for bot, rounds := range byes {
					if len(rounds) > 1 {
						t.Errorf("%s had byes in rounds %v", bot, rounds)
					}
				}
			}
			again := replay(t, p, ops, results, rng)
			if !reflect.DeepEqual(again.Games(), games) && !sameGames(again.Games(), games) {
				t.Fatalf("the same results recorded in another order lay out other games")
			}
		})
	}
}

// sameGames reports whether a and b hold the same games, whatever their
// order.
func sameGames(a, b []schedule.Scheduled) bool {
	byID := func(x, y schedule.Scheduled) int { return x.ID - y.ID }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, byID)
	slices.SortFunc(b, byID)
	return reflect.DeepEqual(a, b)
}

// TestSwissRecordRefuses checks that a game not laid out, a game recorded
// twice and a non-result are refused.
func TestSwissRecordRefuses(t *testing.T) {
	r, err := schedule.NewRounds(schedule.Plan{Kind: schedule.Swiss, Seeds: names(4), Rounds: 2, FirstMover: "white"}, someOpenings(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Record(5, game.Draw); err == nil {
		t.Error("recording a game of round 2 before round 1 is over: no error")
	}
	if _, err := r.Record(1, game.Draw); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Record(1, game.Draw); err == nil {
		t.Error("recording game 1 twice: no error")
	}
	if _, err := r.Record(2, game.Ongoing); err == nil {
		t.Error("recording an unfinished game: no error")
	}
}

// TestKnockoutHigherSeedWins checks brackets of 2 to 17 bots in which the
// higher seed wins every match: byes for the top seeds, every match
// played as its colour-reversed pairs with the higher seed White first,
// game IDs in each match's block, the top seed the winner and the places
// of the others by the round they lost in.
func TestKnockoutHigherSeedWins(t *testing.T) {
	for n := 2; n <= 17; n++ {
		p := schedule.Plan{Kind: schedule.Knockout, Seeds: names(n), Games: 4, TiebreakPairs: 2, Decider: schedule.DeciderArmageddon, FirstMover: "white"}
		r, err := schedule.NewRounds(p, someOpenings(3))
		if err != nil {
			t.Fatal(err)
		}
		seed := map[string]int{}
		for i, s := range p.Seeds {
			seed[s] = i
		}
		playOut(t, r, rand.New(rand.NewPCG(uint64(n), 1)), func(g schedule.Scheduled) game.Result {
			if seed[g.White] < seed[g.Black] {
				return game.WhiteWins
			}
			return game.BlackWins
		})
		if len(r.Games()) != (n-1)*p.Games || r.Expected() != (n-1)*p.Games {
			t.Errorf("%d bots: %d games, expected %d, want %d", n, len(r.Games()), r.Expected(), (n-1)*p.Games)
		}
		for _, g := range r.Games() {
			block := (g.ID - 1) / (p.Games + 2*p.TiebreakPairs + 2)
			if off := (g.ID - 1) % (p.Games + 2*p.TiebreakPairs + 2); off >= p.Games {
				t.Errorf("%d bots: game %d is at %d of match %d's block, beyond its regular games", n, g.ID, off, block+1)
			}
			if (g.ID%2 == 1) != (seed[g.White] < seed[g.Black]) {
				t.Errorf("%d bots: game %d: %s (seed %d) White against %s (seed %d)", n, g.ID, g.White, seed[g.White], g.Black, seed[g.Black])
			}
		}
		if w := r.Winner(); w != p.Seeds[0] {
			t.Errorf("%d bots: winner %q, want the top seed", n, w)
		}
		places := r.Placings()
		size := 1
		for size < n {
			size *= 2
		}
		for _, pl := range places {
			s := seed[pl.Bot]
			want := 1
			for size := 2; size <= 1<<30; size *= 2 {
				if s < size {
					break
				}
				want = size + 1
			}
			if s == 1 {
				want = 2
			}
			if pl.Place != want {
				t.Errorf("%d bots: seed %d placed %d, want %d", n, s, pl.Place, want)
			}
		}
	}
}

// TestKnockoutTiebreaks checks a match that stays level: the tiebreak
// pairs come one at a time, the first one won decides, and a match level
// after them all goes to the decider: an armageddon game in which the
// higher seed moves first and a draw sends the other through, or the
// higher seed through without a game.
func TestKnockoutTiebreaks(t *testing.T) {
	// b wins the second tiebreak pair.
	draws := func(decide map[int]game.Result) func(schedule.Scheduled) game.Result {
		return func(g schedule.Scheduled) game.Result {
			if res, ok := decide[g.ID]; ok {
				return res
			}
			return game.Draw
		}
	}
	tests := []struct {
		name    string
		decider string
		first   game.Color
		results map[int]game.Result
		games   int
		winner  string
	}{
		// Block: games 1-2, tiebreaks 3-4 and 5-6, decider 7.
		{"second tiebreak pair", schedule.DeciderArmageddon, game.White, map[int]game.Result{6: game.WhiteWins}, 6, "b"},
		{"first tiebreak pair", schedule.DeciderArmageddon, game.White, map[int]game.Result{3: game.WhiteWins, 4: game.Draw}, 4, "a"},
		{"regular games", schedule.DeciderArmageddon, game.White, map[int]game.Result{1: game.BlackWins}, 2, "b"},
		{"armageddon drawn, white first", schedule.DeciderArmageddon, game.White, nil, 7, "b"},
		{"armageddon drawn, black first", schedule.DeciderArmageddon, game.Black, nil, 7, "b"},
		{"armageddon won", schedule.DeciderArmageddon, game.White, map[int]game.Result{7: game.WhiteWins}, 7, "a"},
		{"seed", schedule.DeciderSeed, game.White, nil, 6, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := schedule.Plan{Kind: schedule.Knockout, Seeds: []string{"a", "b"}, Games: 2, TiebreakPairs: 2, Decider: tt.decider, FirstMover: tt.first.String()}
			r, err := schedule.NewRounds(p, someOpenings(10))
			if err != nil {
				t.Fatal(err)
			}
			playOut(t, r, rand.New(rand.NewPCG(1, 1)), draws(tt.results))
			if got := len(r.Games()); got != tt.games {
				t.Errorf("%d games, want %d", got, tt.games)
			}
			if w := r.Winner(); w != tt.winner {
				t.Errorf("winner %q, want %q", w, tt.winner)
			}
			if g, ok := r.Game(7); ok {
				first := g.White
				if tt.first == game.Black {
					first = g.Black
				}
				if first != "a" || g.PairKey != "" {
					t.Errorf("decider %+v: the higher seed must move first, in a game of no pair", g)
				}
			}
			for _, g := range r.Games() {
				if g.Opening != (g.ID-1)/2 {
					t.Errorf("game %d plays opening %d, want the next opening for each pair", g.ID, g.Opening)
				}
				// The regular games are 1 and 2; the others are tiebreak games.
				if got, want := p.Tiebreak(g.ID), g.ID > 2; got != want {
					t.Errorf("game %d: Tiebreak %v, want %v", g.ID, got, want)
				}
			}
		})
	}
}

// Plan.Tiebreak tells a knockout's tiebreak games from its regular games
// in every match's block of IDs, and is false for the other formats.
func TestPlanTiebreak(t *testing.T) {
	p := schedule.Plan{Kind: schedule.Knockout, Games: 4, TiebreakPairs: 1}
	// Blocks of 4 + 2 + 2 IDs: games, tiebreak pair, decider (and one unused).
	want := map[int]bool{1: false, 4: false, 5: true, 7: true, 8: true, 9: false, 12: false, 13: true, 0: false}
	for id, w := range want {
		if got := p.Tiebreak(id); got != w {
			t.Errorf("knockout game %d: Tiebreak %v, want %v", id, got, w)
		}
	}
	swiss := schedule.Plan{Kind: schedule.Swiss, Rounds: 3}
	if swiss.Tiebreak(5) {
		t.Error("a Swiss game is a tiebreak game")
	}
}

// TestKnockoutOrderFree records the same results of knockouts in random
// orders and checks that the same games are laid out.
func TestKnockoutOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 2; n <= 16; n++ {
		p := schedule.Plan{Kind: schedule.Knockout, Seeds: names(n), Games: 2, TiebreakPairs: 1, Decider: schedule.DeciderArmageddon, FirstMover: "white"}
		ops := someOpenings(4)
		r, err := schedule.NewRounds(p, ops)
		if err != nil {
			t.Fatal(err)
		}
		results := playOut(t, r, rng, strength(rng, p.Seeds))
		again := replay(t, p, ops, results, rng)
		if !sameGames(r.Games(), again.Games()) || r.Winner() != again.Winner() || !reflect.DeepEqual(r.Placings(), again.Placings()) {
			t.Fatalf("%d bots: the same results in another order give another knockout", n)
		}
	}
}

func TestRoundsRefusesPlans(t *testing.T) {
	for _, p := range []schedule.Plan{
		{Kind: schedule.Swiss, Seeds: names(1), Rounds: 1, FirstMover: "white"},
		{Kind: schedule.Swiss, Seeds: []string{"a", "a"}, Rounds: 1, FirstMover: "white"},
		{Kind: schedule.Swiss, Seeds: names(4), FirstMover: "white"},
		{Kind: schedule.Swiss, Seeds: names(4), Rounds: 1, ByeHalfPoints: 5, FirstMover: "white"},
		{Kind: schedule.Knockout, Seeds: names(4), Games: 3, Decider: schedule.DeciderSeed, FirstMover: "white"},
		{Kind: schedule.Knockout, Seeds: names(4), Games: 2, Decider: "coin", FirstMover: "white"},
		{Kind: schedule.Knockout, Seeds: names(4), Games: 2, TiebreakPairs: -1, Decider: schedule.DeciderSeed, FirstMover: "white"},
		{Kind: schedule.RoundRobin, Seeds: names(4), FirstMover: "white"},
		{Kind: schedule.Swiss, Seeds: names(4), Rounds: 1},
	} {
		if _, err := schedule.NewRounds(p, someOpenings(1)); err == nil {
			t.Errorf("NewRounds(%+v): no error", p)
		}
	}
}
