package rating

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/arena-games/arena/arena/game"
)

// Analysis is everything the reports show, as a plain tree of values that
// encodes to JSON as is. Fractions (scores, ratios) are in [0, 1]. Values
// that can be undefined (an Elo difference for a perfect score, a score
// without games, an LOS across groups) are pointers, nil when undefined.
type Analysis struct {
	Model      Model   `json:"model"`
	Confidence float64 `json:"confidence"` // level of every interval
	Games      int     `json:"games"`
	// Players are in ranking order: by group (largest first), then
	// highest rating first.
	Players []PlayerStats `json:"players"`
	// LOS[i][j] is the likelihood that Players[i] is stronger than
	// Players[j]; nil on the diagonal and between groups.
	LOS [][]*float64 `json:"los"`
	// Fit holds the fitted model parameters.
	Fit FitSummary `json:"fit"`
	// Pairs holds one entry per pair of players that met, A ranking above
	// B, in ranking order of A then B.
	Pairs []PairStats `json:"pairs"`
	// SideBalance is about the colour that moved first.
	SideBalance SideBalance `json:"side_balance"`
	// Groups lists the connectivity groups, largest first. Ratings are
	// only comparable within a group.
	Groups []Group `json:"groups"`
	// Notes say plainly what the numbers cannot.
	Notes []string `json:"notes,omitempty"`
}

// PlayerStats is one row of the standings.
type PlayerStats struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	// Elo is the rating on the display scale; Interval is the half-width
	// of its interval at the Analysis's confidence, StdErr its standard
	// error.
	Elo       float64 `json:"elo"`
	Interval  float64 `json:"interval"`
	StdErr    float64 `json:"std_err"`
	Group     int     `json:"group"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	Points    float64 `json:"points"`
	Score     float64 `json:"score"`
	DrawRatio float64 `json:"draw_ratio"`
	// FirstMover and SecondMover split the player's games by whether it
	// moved first.
	FirstMover  SideRecord `json:"first_mover"`
	SecondMover SideRecord `json:"second_mover"`
	// LOSNext is the likelihood that this player is stronger than the next
	// one in the ranking; nil for the last player or when the next one is
	// in another group.
	LOSNext *float64 `json:"los_next"`
}

// SideRecord is a player's results with one role (first or second mover),
// from the player's side.
type SideRecord struct {
	Games  int      `json:"games"`
	Wins   int      `json:"wins"`
	Draws  int      `json:"draws"`
	Losses int      `json:"losses"`
	Score  *float64 `json:"score"` // nil without games
}

// FitSummary holds the fitted parameters of the rating model.
type FitSummary struct {
	Model Model `json:"model"`
	// Advantage is the first mover's advantage in model units (BayesElo:
	// before display scaling), AdvantageElo on the display scale and
	// AdvantageInterval the half-width of its interval there. All three
	// are nil when the games do not determine the advantage.
	Advantage         *float64 `json:"advantage"`
	AdvantageElo      *float64 `json:"advantage_elo"`
	AdvantageInterval *float64 `json:"advantage_interval"`
	// DrawElo is BayesElo's draw parameter (nil for Ordo).
	DrawElo *float64 `json:"draw_elo"`
	// DrawRate is the fitted draw probability between equal players
	// without advantage.
	DrawRate float64 `json:"draw_rate"`
	// Scale converts model units into displayed Elo.
	Scale         float64 `json:"scale"`
	Prior         float64 `json:"prior"` // virtual draws per player added (0 when none)
	Anchor        string  `json:"anchor,omitempty"`
	Offset        float64 `json:"offset"`
	LogLikelihood float64 `json:"log_likelihood"`
	Iterations    int     `json:"iterations"`
}

// PairStats summarises the games between two players, from A's side.
type PairStats struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Score  float64 `json:"score"`
	// Elo is the Elo difference of the score and Margin the half-width of
	// its interval (nil when undefined, as for a perfect score).
	Elo       *float64 `json:"elo"`
	Margin    *float64 `json:"margin"`
	LOS       float64  `json:"los"`
	DrawRatio float64  `json:"draw_ratio"`
	// Pentanomial summarises the colour-reversed game pairs (nil when
	// there are none); Unpaired counts the games outside such pairs.
	Pentanomial *PentanomialStats `json:"pentanomial"`
	Unpaired    int               `json:"unpaired"`
}

// PentanomialStats summarises colour-reversed game pairs from one side.
type PentanomialStats struct {
	Counts Pentanomial `json:"counts"` // [LL, LD, WL+DD, WD, WW]
	Pairs  int         `json:"pairs"`
	Score  float64     `json:"score"`
	Elo    *float64    `json:"elo"`
	Margin *float64    `json:"margin"`
	LOS    float64     `json:"los"`
	// PValue is the two-sided p-value of the pair-wise z-test of
	// score = 1/2.
	PValue float64 `json:"p_value"`
}

// Balance is the first mover's record over a set of games: the counts, the
// ratios and the score with its Wilson interval (effective sample size, see
// WDL.ScoreInterval). Without games every field is zero.
type Balance struct {
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	WinRatio  float64 `json:"win_ratio"`
	DrawRatio float64 `json:"draw_ratio"`
	LossRatio float64 `json:"loss_ratio"`
	Score     float64 `json:"score"`
	ScoreLow  float64 `json:"score_low"`
	ScoreHigh float64 `json:"score_high"`
}

// balanceOf returns the Balance of the first mover's counts c.
func balanceOf(c WDL, confidence float64) Balance {
	b := Balance{Games: c.Games(), Wins: c.Wins, Draws: c.Draws, Losses: c.Losses}
	if b.Games == 0 {
		return b
	}
	n := float64(b.Games)
	b.WinRatio = float64(c.Wins) / n
	b.DrawRatio = float64(c.Draws) / n
	b.LossRatio = float64(c.Losses) / n
	b.Score = c.Score()
	b.ScoreLow, b.ScoreHigh = c.ScoreInterval(confidence)
	return b
}

// SideBalance describes how the colour that moved first fared. All counts
// are from the first mover's side.
type SideBalance struct {
	// FirstMover is "white", "black" or "mixed" (when the games disagree).
	FirstMover string `json:"first_mover"`
	// Balance is the first mover's record over the games that were not
	// decided by a forfeit.
	Balance
	// Z and ZPValue are the trinomial z-test of score = 1/2; SignTestP is
	// the exact two-sided sign test on the decisive games.
	Z         *float64 `json:"z"`
	ZPValue   float64  `json:"z_p_value"`
	SignTestP float64  `json:"sign_test_p"`
	// AdvantageElo and AdvantageInterval repeat the fitted advantage on the
	// display scale, which accounts for the strength of the players.
	AdvantageElo      *float64 `json:"advantage_elo"`
	AdvantageInterval *float64 `json:"advantage_interval"`
	// Paired is the first mover's points per colour-reversed pair, in
	// which the players' strengths cancel; nil without pairs.
	Paired *PentanomialStats `json:"paired"`
	// Openings splits the games by opening, most unbalanced first.
	Openings []OpeningBalance `json:"openings"`
	// Reference is the figure from elsewhere set beside ours, if any.
	Reference *ReferenceBalance `json:"reference"`
	// Forfeits counts the games left out because a forfeit decided them
	// (Game.Forfeit); colour-reversed pairs with a forfeit are left out too.
	Forfeits int `json:"forfeits"`
}

// OpeningBalance is the first mover's record on one opening.
type OpeningBalance struct {
	Opening   string  `json:"opening"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	Score     float64 `json:"score"`
	ScoreLow  float64 `json:"score_low"`
	ScoreHigh float64 `json:"score_high"`
	SignTestP float64 `json:"sign_test_p"`
}

// ReferenceBalance is a Reference with its ratios and score interval.
type ReferenceBalance struct {
	Label string `json:"label"`
	Balance
}

// Group is a set of players linked by games.
type Group struct {
	Index   int      `json:"index"`
	Players []string `json:"players"` // in ranking order
}

// finite returns &x, or nil when x is NaN or infinite.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// Analyze fits the ratings and computes every statistic of the reports.
func Analyze(games []Game, opt Options) (*Analysis, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	fit, err := Fit(games, opt)
	if err != nil {
		return nil, err
	}
	z := Quantile(opt.Confidence)
	a := &Analysis{
		Model:      opt.Model,
		Confidence: opt.Confidence,
		Games:      len(games),
		Notes:      slices.Clone(fit.Notes),
	}

	// Ranking: by group (ratings of different groups do not compare),
	// then by rating, then by name.
	n := len(fit.Players)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		if c := cmp.Compare(fit.Group[x], fit.Group[y]); c != 0 {
			return c
		}
		if c := cmp.Compare(fit.Ratings[y], fit.Ratings[x]); c != 0 {
			return c
		}
		return cmp.Compare(fit.Players[x], fit.Players[y])
	})
	rank := make([]int, n) // fit index -> ranking position
	for r, i := range order {
		rank[i] = r
	}

	// Per-player records.
	type record struct{ all, first, second WDL }
	recs := make([]record, n)
	for _, g := range games {
		first, _, _ := g.first()
		for _, name := range []string{g.White, g.Black} {
			pts := g.pointsFor(name)
			r := &recs[fit.Index(name)]
			r.all.add(pts)
			if name == first {
				r.first.add(pts)
			} else {
				r.second.add(pts)
			}
		}
	}
	a.LOS = make([][]*float64, n)
	for r, i := range order {
		a.LOS[r] = make([]*float64, n)
		for s, j := range order {
			a.LOS[r][s] = finite(fit.LOS(i, j))
		}
	}
	a.Players = make([]PlayerStats, n)
	for r, i := range order {
		rec := recs[i]
		se := fit.StdErr(i)
		p := PlayerStats{
			Rank:        r + 1,
			Name:        fit.Players[i],
			Elo:         fit.Ratings[i],
			Interval:    z * se,
			StdErr:      se,
			Group:       fit.Group[i],
			Games:       rec.all.Games(),
			Wins:        rec.all.Wins,
			Draws:       rec.all.Draws,
			Losses:      rec.all.Losses,
			Points:      float64(rec.all.Wins) + float64(rec.all.Draws)/2,
			Score:       rec.all.Score(),
			DrawRatio:   rec.all.DrawRatio(),
			FirstMover:  sideRecord(rec.first),
			SecondMover: sideRecord(rec.second),
		}
		if r+1 < n {
			p.LOSNext = a.LOS[r][r+1]
		}
		a.Players[r] = p
	}

	// Groups.
	a.Groups = make([]Group, fit.Groups)
	for g := range a.Groups {
		a.Groups[g].Index = g
	}
	for _, i := range order {
		g := fit.Group[i]
		a.Groups[g].Players = append(a.Groups[g].Players, fit.Players[i])
	}

	// Model parameters.
	a.Fit = FitSummary{
		Model:         opt.Model,
		DrawRate:      fit.DrawRate,
		Scale:         fit.Scale,
		Prior:         fit.Prior,
		Anchor:        opt.Anchor,
		Offset:        opt.Offset,
		LogLikelihood: fit.LogLikelihood,
		Iterations:    fit.Iterations,
	}
	if !fit.AdvantageFixed {
		a.Fit.Advantage = finite(fit.Advantage)
		a.Fit.AdvantageElo = finite(fit.AdvantageElo())
		a.Fit.AdvantageInterval = finite(z * fit.AdvantageSE * fit.Scale)
	}
	if opt.Model == BayesElo {
		a.Fit.DrawElo = finite(fit.DrawElo)
	}

	pairs, badKeys := pairUp(games)
	if badKeys > 0 {
		games, carry, they := "games", "carry", "they count"
		if badKeys == 1 {
			games, carry, they = "game", "carries", "it counts"
		}
		a.Notes = append(a.Notes, fmt.Sprintf(
			"%d %s %s a pair key that does not make a colour-reversed pair of two games; %s only in the per-game figures", badKeys, games, carry, they))
	}
	a.Pairs = pairStats(games, pairs, fit, rank, opt.Confidence)
	a.SideBalance = sideBalance(games, pairs, opt)
	if f := a.SideBalance.Forfeits; f > 0 {
		were, they, are := "were", "they count", "are"
		if f == 1 {
			were, they, are = "was", "it counts", "is"
		}
		a.Notes = append(a.Notes, fmt.Sprintf(
			"%d of %d games %s decided by a forfeit; %s for the ratings but %s left out of the side balance", f, len(games), were, they, are))
	}
	a.SideBalance.AdvantageElo = a.Fit.AdvantageElo
	a.SideBalance.AdvantageInterval = a.Fit.AdvantageInterval
	return a, nil
}

func sideRecord(c WDL) SideRecord {
	return SideRecord{Games: c.Games(), Wins: c.Wins, Draws: c.Draws, Losses: c.Losses, Score: finite(c.Score())}
}

// pairUp returns the colour-reversed pairs among the games, as index pairs
// in input order, and the number of games whose PairKey makes no such pair.
func pairUp(games []Game) (pairs [][2]int, bad int) {
	byKey := make(map[string][]int)
	var keys []string
	for i, g := range games {
		if g.PairKey == "" {
			continue
		}
		if _, ok := byKey[g.PairKey]; !ok {
			keys = append(keys, g.PairKey)
		}
		byKey[g.PairKey] = append(byKey[g.PairKey], i)
	}
	for _, k := range keys {
		idx := byKey[k]
		if len(idx) == 2 {
			g, h := games[idx[0]], games[idx[1]]
			if g.White == h.Black && g.Black == h.White {
				pairs = append(pairs, [2]int{idx[0], idx[1]})
				continue
			}
		}
		bad += len(idx)
	}
	return pairs, bad
}

// MatchCounts returns player's results against opponent: the per-game
// counts and the pentanomial counts of their colour-reversed pairs (see
// Game.PairKey), both from player's side. A tournament can feed them to
// SPRT.
func MatchCounts(games []Game, player, opponent string) (WDL, Pentanomial) {
	var c WDL
	var sub []Game
	for _, g := range games {
		if (g.White == player && g.Black == opponent) || (g.White == opponent && g.Black == player) {
			c.add(g.pointsFor(player))
			sub = append(sub, g)
		}
	}
	var p Pentanomial
	pairs, _ := pairUp(sub)
	for _, pr := range pairs {
		p.addPair(sub[pr[0]].pointsFor(player) + sub[pr[1]].pointsFor(player))
	}
	return c, p
}

func pentanomialStats(p Pentanomial, confidence float64) *PentanomialStats {
	if p.Pairs() == 0 {
		return nil
	}
	elo, margin := p.EloMargin(confidence)
	_, pv := p.ZTest()
	return &PentanomialStats{
		Counts: p,
		Pairs:  p.Pairs(),
		Score:  p.Score(),
		Elo:    finite(elo),
		Margin: finite(margin),
		LOS:    p.LOS(),
		PValue: pv,
	}
}

func pairStats(games []Game, pairs [][2]int, fit *FitResult, rank []int, confidence float64) []PairStats {
	type key struct{ a, b int } // fit indices, a ranking above b
	keyOf := func(g Game) key {
		i, j := fit.Index(g.White), fit.Index(g.Black)
		if rank[j] < rank[i] {
			i, j = j, i
		}
		return key{i, j}
	}
	counts := make(map[key]*WDL)
	ptnml := make(map[key]*Pentanomial)
	for _, g := range games {
		k := keyOf(g)
		c := counts[k]
		if c == nil {
			c = new(WDL)
			counts[k] = c
		}
		c.add(g.pointsFor(fit.Players[k.a]))
	}
	for _, pr := range pairs {
		g, h := games[pr[0]], games[pr[1]]
		k := keyOf(g)
		p := ptnml[k]
		if p == nil {
			p = new(Pentanomial)
			ptnml[k] = p
		}
		name := fit.Players[k.a]
		p.addPair(g.pointsFor(name) + h.pointsFor(name))
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y key) int {
		if c := cmp.Compare(rank[x.a], rank[y.a]); c != 0 {
			return c
		}
		return cmp.Compare(rank[x.b], rank[y.b])
	})
	out := make([]PairStats, 0, len(keys))
	for _, k := range keys {
		c := *counts[k]
		elo, margin := c.EloMargin(confidence)
		ps := PairStats{
			A: fit.Players[k.a], B: fit.Players[k.b],
			Games: c.Games(), Wins: c.Wins, Draws: c.Draws, Losses: c.Losses,
			Score:     c.Score(),
			Elo:       finite(elo),
			Margin:    finite(margin),
			LOS:       c.LOS(),
			DrawRatio: c.DrawRatio(),
			Unpaired:  c.Games(),
		}
		if p := ptnml[k]; p != nil {
			ps.Pentanomial = pentanomialStats(*p, confidence)
			ps.Unpaired -= 2 * p.Pairs()
		}
		out = append(out, ps)
	}
	return out
}

func sideBalance(games []Game, pairs [][2]int, opt Options) SideBalance {
	var all WDL
	whites, blacks := 0, 0
	byOpening := make(map[string]*WDL)
	forfeits := 0
	for _, g := range games {
		if g.Forfeit {
			forfeits++
			continue
		}
		_, _, pts := g.first()
		all.add(pts)
		if g.FirstMover == game.White {
			whites++
		} else {
			blacks++
		}
		if g.Opening != "" {
			c := byOpening[g.Opening]
			if c == nil {
				c = new(WDL)
				byOpening[g.Opening] = c
			}
			c.add(pts)
		}
	}
	sb := SideBalance{FirstMover: "mixed"}
	switch {
	case blacks == 0:
		sb.FirstMover = game.White.String()
	case whites == 0:
		sb.FirstMover = game.Black.String()
	}
	sb.Forfeits = forfeits
	sb.Balance = balanceOf(all, opt.Confidence)
	sb.ZPValue = 1
	if all.Games() > 0 {
		z, p := all.ZTest()
		sb.Z, sb.ZPValue = finite(z), p
	}
	sb.SignTestP = SignTest(all.Wins, all.Losses)

	var pt Pentanomial
	for _, pr := range pairs {
		if games[pr[0]].Forfeit || games[pr[1]].Forfeit {
			continue
		}
		_, _, p1 := games[pr[0]].first()
		_, _, p2 := games[pr[1]].first()
		pt.addPair(p1 + p2)
	}
	sb.Paired = pentanomialStats(pt, opt.Confidence)

	sb.Openings = make([]OpeningBalance, 0, len(byOpening))
	for name, c := range byOpening {
		lo, hi := c.ScoreInterval(opt.Confidence)
		sb.Openings = append(sb.Openings, OpeningBalance{
			Opening: name,
			Games:   c.Games(), Wins: c.Wins, Draws: c.Draws, Losses: c.Losses,
			Score: c.Score(), ScoreLow: lo, ScoreHigh: hi,
			SignTestP: SignTest(c.Wins, c.Losses),
		})
	}
	slices.SortFunc(sb.Openings, func(x, y OpeningBalance) int {
		if c := cmp.Compare(math.Abs(y.Score-0.5), math.Abs(x.Score-0.5)); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Games, x.Games); c != 0 {
			return c
		}
		return cmp.Compare(x.Opening, y.Opening)
	})

	if r := opt.Reference; r != nil {
		sb.Reference = &ReferenceBalance{
			Label:   r.Label,
			Balance: balanceOf(WDL{Wins: r.Wins, Draws: r.Draws, Losses: r.Losses}, opt.Confidence),
		}
	}
	return sb
}
