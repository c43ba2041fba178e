package pairing

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// byePoints is what a bye scores in the simulations: a won pair, in half
// points.
const byePoints = 4

// play applies a round to the players with random results: each board's
// pair of games scores 0 to 4 half points for its first White, and a bye
// byePoints. It returns the players after the round.
func play(players []Player, r Round, rng *rand.Rand) []Player {
	next := make([]Player, len(players))
	for i, p := range players {
		next[i] = p
		next[i].Met = append([]int(nil), p.Met...)
		next[i].Float = 0
	}
	for _, b := range r.Boards {
		w, k := b.White, b.Black
		pw := 0
		for range 2 {
			pw += rng.IntN(3) // 0, 1 or 2 half points a game
		}
		next[w].Points += pw
		next[k].Points += 4 - pw
		next[w].Met = append(next[w].Met, k)
		next[k].Met = append(next[k].Met, w)
		next[w].ColourDiff++
		next[k].ColourDiff--
		next[w].LastColour, next[k].LastColour = 1, -1
		switch d := players[w].Points - players[k].Points; {
		case d > 0:
			next[w].Float, next[k].Float = 1, -1
		case d < 0:
			next[w].Float, next[k].Float = -1, 1
		}
	}
	if r.Bye >= 0 {
		next[r.Bye].Points += byePoints
		next[r.Bye].Byes++
	}
	return next
}

// checkRound checks that r pairs every player once (one bye when their
// number is odd) and returns its rematches (a pairing counting once for
// every earlier meeting of its players) and the byes to players who had
// one.
func checkRound(t *testing.T, players []Player, r Round) (rematches, rebyes int) {
	t.Helper()
	seen := make([]int, len(players))
	for _, b := range r.Boards {
		seen[b.White]++
		seen[b.Black]++
		for _, o := range players[b.White].Met {
			if o == b.Black {
				rematches++ // once for every earlier meeting
			}
		}
	}
	if r.Bye >= 0 {
		seen[r.Bye]++
		if players[r.Bye].Byes > 0 {
			rebyes++
		}
	}
	if (r.Bye >= 0) != (len(players)%2 == 1) {
		t.Fatalf("bye %d with %d players", r.Bye, len(players))
	}
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("player %d paired %d times in %+v", i, c, r)
		}
	}
	return rematches, rebyes
}

// bestRound finds, by trying every pairing, the fewest rematches and
// repeated byes and then the smallest sum of squared score differences
// (the bye's difference from the lowest score counting as one) a round can
// have.
func bestRound(players []Player) (repeats, squares int) {
	n := len(players)
	lowest := players[0].Points
	for _, p := range players {
		lowest = min(lowest, p.Points)
	}
	met := func(i, j int) int {
		c := 0
		for _, o := range players[i].Met {
			if o == j {
				c++
			}
		}
		return c
	}
	used := make([]bool, n)
	bestRep, bestSq := -1, 0
	var rec func(rep, sq int, bye bool)
	rec = func(rep, sq int, bye bool) {
		i := 0
		for i < n && used[i] {
			i++
		}
		if i == n {
			if bestRep < 0 || rep < bestRep || rep == bestRep && sq < bestSq {
				bestRep, bestSq = rep, sq
			}
			return
		}
		used[i] = true
		if n%2 == 1 && !bye {
			d := players[i].Points - lowest
			rec(rep+players[i].Byes, sq+d*d, true)
		}
		for j := i + 1; j < n; j++ {
			if !used[j] {
				used[j] = true
				d := players[i].Points - players[j].Points
				rec(rep+met(i, j), sq+d*d, bye)
				used[j] = false
			}
		}
		used[i] = false
	}
	rec(0, 0, false)
	return bestRep, bestSq
}

// TestSwissRandomResults plays Swiss tournaments of random sizes on random
// results and checks every round: each player paired once, a bye when the
// number is odd, no rematch and no second bye while the rounds are at most
// half the players (a rematch-free round then always exists, by Dirac's
// theorem on the graph of the pairings not yet played), and, for
// fields small enough to try every pairing, no more rematches and byes
// than necessary and then the smallest possible score differences.
func TestSwissRandomResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	trials := 150
	if testing.Short() {
		trials = 80
	}
	for trial := range trials {
		n := 2 + rng.IntN(15)
		if trial%5 == 0 {
			n = 2 + rng.IntN(60)
		}
		rounds := 1 + rng.IntN(n+1)
		players := make([]Player, n)
		for round := 1; round <= rounds; round++ {
			r, err := Swiss(players)
			if err != nil {
				t.Fatalf("trial %d, round %d of %d players: %v", trial, round, n, err)
			}
			rematches, rebyes := checkRound(t, players, r)
			if 2*round <= n-n%2 && rematches+rebyes > 0 {
				t.Fatalf("trial %d, round %d of %d players: %d rematches and %d second byes", trial, round, n, rematches, rebyes)
			}
			if n <= 11 {
				var sq int
				for _, b := range r.Boards {
					d := players[b.White].Points - players[b.Black].Points
					sq += d * d
				}
				if r.Bye >= 0 {
					lowest := players[0].Points
					for _, p := range players {
						lowest = min(lowest, p.Points)
					}
					d := players[r.Bye].Points - lowest
					sq += d * d
				}
				wantRep, wantSq := bestRound(players)
				if rematches+rebyes != wantRep || sq != wantSq {
					t.Fatalf("trial %d, round %d of %d players: %d rematches and byes, squared differences %d; best is %d and %d",
						trial, round, n, rematches+rebyes, sq, wantRep, wantSq)
				}
			}
			again, err := Swiss(players)
			if err != nil || !reflect.DeepEqual(again, r) {
				t.Fatalf("trial %d, round %d: pairing the same players again gave %+v, not %+v", trial, round, again, r)
			}
			players = play(players, r, rng)
		}
	}
}

// TestSwissFirstRound checks the Dutch order of a first round: with every
// score equal, seed k of the top half meets seed k of the bottom half, the
// top board first, the bye to the lowest seed, and the first game's White
// alternating down the boards from the top seed.
func TestSwissFirstRound(t *testing.T) {
	for _, n := range []int{2, 3, 8, 9, 64} {
		r, err := Swiss(make([]Player, n))
		if err != nil {
			t.Fatal(err)
		}
		half := n / 2
		if len(r.Boards) != half {
			t.Fatalf("%d players: %d boards", n, len(r.Boards))
		}
		for k, b := range r.Boards {
			hi, lo := b.White, b.Black
			if k%2 == 1 {
				hi, lo = lo, hi
			}
			if hi != k || lo != k+half {
				t.Errorf("%d players, board %d: %d (White first) against %d, want %d against %d with the higher seed White on every second board", n, k+1, b.White, b.Black, k, k+half)
			}
		}
		if wantBye := map[bool]int{true: n - 1, false: -1}[n%2 == 1]; r.Bye != wantBye {
			t.Errorf("%d players: bye to %d, want %d", n, r.Bye, wantBye)
		}
	}
}

// TestSwissScoreGroups checks a second round: winners meet winners and
// losers losers, the top half of each group against its bottom half.
func TestSwissScoreGroups(t *testing.T) {
	players := make([]Player, 8)
	// Round 1 was 0-4, 1-5, 2-6, 3-7; the top seeds won.
	for i := range 4 {
		players[i] = Player{Points: 4, Met: []int{i + 4}}
		players[i+4] = Player{Points: 0, Met: []int{i}}
	}
	r, err := Swiss(players)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{0, 2}, {1, 3}, {4, 6}, {5, 7}}
	for k, b := range r.Boards {
		got := [2]int{min(b.White, b.Black), max(b.White, b.Black)}
		if got != want[k] {
			t.Errorf("board %d: %v, want %v (all boards %+v)", k+1, got, want[k], r.Boards)
		}
	}
}

// TestSwissFloats checks that the player who floated down last round is
// not the one floated down again when another can be.
func TestSwissFloats(t *testing.T) {
	// Three players on 4 points, three on 0: one of the top group must
	// float down. Player 2, the lowest of the group, floated down last
	// round, so player 1 floats instead.
	players := []Player{
		{Points: 4, Met: []int{3}}, {Points: 4, Met: []int{4}}, {Points: 4, Met: []int{5}, Float: 1},
		{Points: 0, Met: []int{0}}, {Points: 0, Met: []int{1}}, {Points: 0, Met: []int{2}, Float: -1},
	}
	r, err := Swiss(players)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range r.Boards {
		hi, lo := min(b.White, b.Black), max(b.White, b.Black)
		if hi < 3 && lo >= 3 && hi != 1 {
			t.Errorf("player %d floated down (boards %+v), want player 1", hi, r.Boards)
		}
	}
}

func TestSwissRefuses(t *testing.T) {
	for _, players := range [][]Player{
		nil,
		{{}},
		{{Points: -1}, {}},
		{{Met: []int{0}}, {}},
		{{Met: []int{2}}, {}},
	} {
		if _, err := Swiss(players); err == nil {
			t.Errorf("Swiss(%+v): no error", players)
		}
	}
}
