package metrics

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestOutcomes: draw rate, decisive share, balance and how the games
// ended, on games whose values are counted by hand; forfeits count only
// in Games and Ended.
func TestOutcomes(t *testing.T) {
	w, b := game.White, game.Black
	gs := []Game{
		{FirstMover: w, Result: game.WhiteWins, Reason: game.ReasonScore, Plies: 16},
		{FirstMover: w, Result: game.WhiteWins, Reason: game.ReasonScore, Plies: 16},
		{FirstMover: b, Result: game.BlackWins, Reason: game.ReasonNoMoves, Plies: 14}, // the first mover wins
		{FirstMover: w, Result: game.Draw, Reason: game.ReasonScore, Plies: 16},
		{FirstMover: w, Result: game.BlackWins, Reason: game.ReasonScore, Plies: 16},
		{FirstMover: b, Result: game.WhiteWins, Reason: game.ReasonScore, Plies: 16}, // the second mover wins
		{FirstMover: w, Result: game.BlackWins, Reason: "forfeit", Forfeit: true, Plies: 3},
	}
	s := Summarize(gs)
	if s.Games != 7 || s.Played != 6 || s.FirstWins != 3 || s.Draws != 1 || s.SecondWins != 2 {
		t.Errorf("games %d played %d, first %d draws %d second %d; want 7 6, 3 1 2", s.Games, s.Played, s.FirstWins, s.Draws, s.SecondWins)
	}
	if !near(s.DrawRate, 1.0/6) || !near(s.Decisive, 5.0/6) || !near(s.Balance, 1-1.0/6) {
		t.Errorf("draw rate %v decisive %v balance %v; want 1/6, 5/6, 5/6", s.DrawRate, s.Decisive, s.Balance)
	}
	want := []ReasonCount{{game.ReasonScore, 5}, {"forfeit", 1}, {game.ReasonNoMoves, 1}}
	if !slices.Equal(s.Ended, want) {
		t.Errorf("ended %v, want %v", s.Ended, want)
	}
	// All won by one side: balance 0; all drawn: balance 1.
	one := Summarize([]Game{{FirstMover: w, Result: game.BlackWins, Plies: 16}, {FirstMover: w, Result: game.BlackWins, Plies: 16}})
	drawn := Summarize([]Game{{FirstMover: w, Result: game.Draw, Plies: 16}})
	if one.Balance != 0 || drawn.Balance != 1 || drawn.Decisive != 0 {
		t.Errorf("one-sided balance %v, drawn balance %v decisive %v; want 0, 1, 0", one.Balance, drawn.Balance, drawn.Decisive)
	}
}

// TestDistribution: length and margin on values whose mean, spread and
// quantiles are worked out by hand.
func TestDistribution(t *testing.T) {
	var gs []Game
	for i, p := range []int{16, 10, 16, 14} {
		gs = append(gs, Game{FirstMover: game.White, Result: game.WhiteWins, Plies: p, Scores: []int{20 + i, 17}})
	}
	// A game whose first mover is Black: its margin is Black's score
	// minus White's.
	gs = append(gs, Game{FirstMover: game.Black, Result: game.Draw, Plies: 16, Scores: []int{30, 25}})
	s := Summarize(gs)
	l := s.Length
	if l.N != 5 || !near(l.Mean, 14.4) || !near(l.SD, math.Sqrt((1.6*1.6*3+4.4*4.4+0.4*0.4)/4)) || l.Min != 10 || l.Max != 16 {
		t.Errorf("length %+v; want n 5, mean 14.4, sd %v, min 10, max 16", l, math.Sqrt((1.6*1.6*3+4.4*4.4+0.4*0.4)/4))
	}
	// Sorted 10 14 16 16 16: p10 at 0.4 between 10 and 14, median 16.
	if !near(l.P10, 11.6) || l.Median != 16 || l.P90 != 16 {
		t.Errorf("length quantiles %v %v %v, want 11.6 16 16", l.P10, l.Median, l.P90)
	}
	if want := []ValueCount{{10, 1}, {14, 1}, {16, 3}}; !slices.Equal(l.Counts, want) {
		t.Errorf("length counts %v, want %v", l.Counts, want)
	}
	// Margins 3 4 5 6 and -5.
	m := s.Margin
	if m.N != 5 || !near(m.Mean, 13.0/5) || m.Min != -5 || m.Max != 6 || m.Median != 4 {
		t.Errorf("margin %+v; want n 5, mean 2.6, min -5, max 6, median 4", m)
	}
	if none := Summarize([]Game{{Result: game.Draw, Plies: 50}}); none.Margin.N != 0 || none.Length.SD != 0 {
		t.Errorf("a game without scores: margin %+v, length sd %v; want none and 0", none.Margin, none.Length.SD)
	}
}

// TestBranching: the per-game means averaged over games, and the per-ply
// figures over positions, on counts given by hand.
func TestBranching(t *testing.T) {
	gs := []Game{
		{FirstMover: game.White, Result: game.WhiteWins, Plies: 3, Legal: []int{64, 12, 1}},
		{FirstMover: game.White, Result: game.BlackWins, Plies: 2, Legal: []int{64, 32}},
		{FirstMover: game.White, Result: game.BlackWins, Plies: 2, Legal: []int{64}}, // Legal unknown: left out
		{FirstMover: game.White, Result: game.BlackWins, Plies: 2, Legal: []int{1, 1}, Forfeit: true},
	}
	s := Summarize(gs)
	if s.Branched != 2 || !near(s.Branching, (77.0/3+48)/2) || !near(s.Forced, 1.0/6) {
		t.Errorf("branched %d, branching %v, forced %v; want 2, %v, 1/6", s.Branched, s.Branching, s.Forced, (77.0/3+48)/2)
	}
	want := []PlyStat{{1, 2, 64, 0}, {2, 2, 22, 0}, {3, 1, 1, 1}}
	if !slices.Equal(s.ByPly, want) {
		t.Errorf("by ply %v, want %v", s.ByPly, want)
	}
}

// TestLegalCheversi: the legal moves the referee sees, against counts
// known from the rules: 64 first moves, and Black's answers to a King are
// four kinds of piece on its neighbours, 420·4 over the 64 squares
// (perft(2) = 1680).
func TestLegalCheversi(t *testing.T) {
	rules, err := games.New("cheversi", "cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	var tally Tally
	for sq := range cheversi.Square(cheversi.NumSquares) {
		king := cheversi.NewMove(cheversi.King, sq).String()
		st := rules.Start()
		if _, err := game.PlayText(st, king); err != nil {
			t.Fatal(err)
		}
		reply := st.LegalMoves(nil)[0].String()
		legal, err := Legal(rules, []string{king, reply})
		if err != nil {
			t.Fatal(err)
		}
		tally.Add(Game{FirstMover: game.White, Result: game.Draw, Plies: 2, Legal: legal})
	}
	s := tally.Summary()
	if len(s.ByPly) != 2 || s.ByPly[0].Legal != 64 || s.ByPly[1].Legal != 1680.0/64 || s.ByPly[1].Positions != 64 {
		t.Errorf("by ply %v, want 64 legal moves at ply 1 and 26.25 at ply 2 over 64 positions", s.ByPly)
	}
	if legal, err := Legal(rules, []string{"K@e4", "K@e5"}); err == nil || !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Legal of an illegal game = %v, %v; want ErrIllegalMove", legal, err)
	}
}

// TestLegalForced: checkers positions with one capture to make are forced
// moves.
func TestLegalForced(t *testing.T) {
	rules, err := games.New("checkers", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	// After 11-15 22-18, Black's 15x22 is its only move: captures are
	// compulsory.
	legal, err := Legal(rules, []string{"11-15", "22-18", "15x22"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(legal, []int{7, 7, 1}) {
		t.Errorf("legal moves %v, want 7 7 1", legal)
	}
}

// TestLeadChanges counts sign changes from either side, skipping even
// evaluations.
func TestLeadChanges(t *testing.T) {
	w, b := game.White, game.Black
	// White's view: +5, +3, -1, (0), -2, +4, +4: two changes.
	evals := []Eval{{5, w, 5}, {6, b, -3}, {7, w, -1}, {8, b, 0}, {9, w, -2}, {10, b, -4}, {11, w, 4}}
	if n := LeadChanges(w, evals); n != 2 {
		t.Errorf("lead changes from White %d, want 2", n)
	}
	if n := LeadChanges(b, evals); n != 2 {
		t.Errorf("lead changes from Black %d, want 2", n)
	}
	if n := LeadChanges(w, []Eval{{1, w, 0}, {2, b, 0}}); n != 0 {
		t.Errorf("even throughout: %d changes, want 0", n)
	}
	// Alternating every move.
	if n := LeadChanges(w, []Eval{{1, w, 1}, {2, b, 1}, {3, w, 1}, {4, b, 1}}); n != 3 {
		t.Errorf("alternating: %d changes, want 3", n)
	}
}

// TestDecidedAtAndDrama: when the winner stopped falling below even, and
// how often it was behind.
func TestDecidedAtAndDrama(t *testing.T) {
	w, b := game.White, game.Black
	for _, tc := range []struct {
		name   string
		winner game.Color
		evals  []Eval
		at     int
		drama  float64
	}{
		// White's view +1, -2, +3, +1: decided at ply 7, behind once in 4.
		{"recovered", w, []Eval{{5, w, 1}, {6, b, 2}, {7, w, 3}, {8, b, -1}}, 7, 0.25},
		// Never behind: decided at the first evaluated ply.
		{"never behind", b, []Eval{{5, w, -1}, {6, b, 0}, {7, w, -3}}, 5, 0},
		// Behind at the last evaluation: decided at the last ply (16).
		{"turned at the end", w, []Eval{{13, w, 2}, {14, b, -1}, {15, w, -5}}, 16, 1.0 / 3},
		// Even counts as not behind.
		{"even", w, []Eval{{5, w, -1}, {6, b, 0}, {7, w, 0}}, 6, 1.0 / 3},
	} {
		if at := DecidedAt(tc.winner, 16, tc.evals); at != tc.at {
			t.Errorf("%s: decided at %d, want %d", tc.name, at, tc.at)
		}
		if d := Drama(tc.winner, tc.evals); !near(d, tc.drama) {
			t.Errorf("%s: drama %v, want %v", tc.name, d, tc.drama)
		}
	}
	if Drama(w, nil) != 0 {
		t.Error("drama of no evaluations is not 0")
	}
}

// TestEvalSummary: the evaluation metrics over games, drawn games and
// games with too few evaluations left out where they must be.
func TestEvalSummary(t *testing.T) {
	w, b := game.White, game.Black
	gs := []Game{
		{FirstMover: w, Result: game.WhiteWins, Plies: 16, Evals: []Eval{{5, w, 1}, {6, b, 2}, {7, w, 3}, {8, b, -1}}}, // 2 changes, at 7, drama 1/4
		{FirstMover: w, Result: game.BlackWins, Plies: 16, Evals: []Eval{{5, w, -1}, {6, b, 1}}},                       // 0 changes, at 5, drama 0
		{FirstMover: w, Result: game.Draw, Plies: 16, Evals: []Eval{{5, w, 1}, {6, b, 1}}},                             // 1 change, drawn
		{FirstMover: w, Result: game.WhiteWins, Plies: 16, Evals: []Eval{{15, w, -1}}},                                 // no change counted, at 16, drama 1
		{FirstMover: w, Result: game.WhiteWins, Plies: 16},                                                             // no evaluations
	}
	s := Summarize(gs)
	if lc := s.LeadChanges; lc.N != 3 || !near(lc.Mean, 1) || lc.Max != 2 {
		t.Errorf("lead changes %+v, want 3 games, mean 1, max 2", lc)
	}
	if d := s.DecidedAt; d.N != 3 || !near(d.Mean, 28.0/3) || d.Median != 7 {
		t.Errorf("decided at %+v, want 3 games, mean 28/3, median 7", d)
	}
	if !near(s.Drama, (0.25+0+1)/3) {
		t.Errorf("drama %v, want %v", s.Drama, (0.25+0+1)/3)
	}
}

// TestEmpty: no games give zeros, not NaNs.
func TestEmpty(t *testing.T) {
	var tally Tally
	s := tally.Summary()
	for _, x := range []float64{s.DrawRate, s.Decisive, s.Balance, s.Branching, s.Forced, s.Drama, s.Length.Mean, s.Margin.SD} {
		if x != 0 {
			t.Errorf("empty summary %+v has a non-zero figure", s)
		}
	}
}
