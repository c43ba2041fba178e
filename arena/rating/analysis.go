package rating

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/arena-games/arena/arena/game"
	"gonum.org/v1/gonum/stat/distuv"
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
	// Players[j]; nil on the diagonal and between groups. It is nil with
	// more than MaxLOSPlayers players (see PlayerStats.LOSNext).
	LOS [][]*float64 `json:"los"`
	// Best is the probability that the top-ranked player is the strongest
	// (nil when there is no such figure: a note says why).
	Best *Best `json:"best"`
	// Standings is the table by points, with the tiebreaks.
	Standings []Standing `json:"standings"`
	// Fit holds the fitted model parameters.
	Fit FitSummary `json:"fit"`
	// Pairs holds one entry per pair of players that met, A ranking above
	// B, in ranking order of A then B; at most Options.MaxPairs of them,
	// those nearest each other in the ranking, PairsOmitted counting the
	// others and OmittedGames their games.
	Pairs        []PairStats `json:"pairs"`
	PairsOmitted int         `json:"pairs_omitted,omitempty"`
	OmittedGames int         `json:"omitted_games,omitempty"`
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
	// error (both 0 for a bound).
	Elo      float64 `json:"elo"`
	Interval float64 `json:"interval"`
	StdErr   float64 `json:"std_err"`
	// Bound is "lower" when Elo is only a lower bound (in the Ordo model, a
	// player that won every game: at least this strong), "upper" when it
	// is an upper bound (lost every game), "" for a fitted rating.
	Bound     string  `json:"bound,omitempty"`
	Group     int     `json:"group"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	Points    float64 `json:"points"`
	Score     float64 `json:"score"`
	DrawRatio float64 `json:"draw_ratio"`
	// FirstMover and SecondMover split the player's games decided by play
	// (the side balance's games: forfeits left out) by whether it moved
	// first.
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
	// without advantage, with its interval DrawRateLow to DrawRateHigh.
	// All three are nil when the games do not support a figure: no game
	// was drawn, or (BayesElo) the prior's virtual draws outnumber the
	// drawn games, so that the figure would describe the prior; a note
	// then says so.
	DrawRate     *float64 `json:"draw_rate"`
	DrawRateLow  *float64 `json:"draw_rate_low"`
	DrawRateHigh *float64 `json:"draw_rate_high"`
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
	Elo    *float64 `json:"elo"`
	Margin *float64 `json:"margin"`
	// LOS is the likelihood of superiority Φ((s - 1/2)/SE), nil when every
	// game had the same result (no spread to base it on).
	LOS       *float64 `json:"los"`
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
	// LOS is nil when every pair scored the same.
	LOS *float64 `json:"los"`
	// PValue is the two-sided p-value of the pair-wise z-test of
	// score = 1/2, nil where that normal approximation means nothing
	// (fewer than MinNormalSample pairs, or fewer than MinEachSide pairs
	// won or lost).
	PValue *float64 `json:"p_value"`
	// SignTestP is the exact two-sided sign test of the pairs won
	// (WD + WW) against the pairs lost (LL + LD); even pairs are ignored.
	SignTestP float64 `json:"sign_test_p"`
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
	// Verdict sums the record up for a reader (see Verdict).
	Verdict Verdict `json:"verdict"`
	// Z and ZPValue are the trinomial z-test of score = 1/2, nil where that
	// normal approximation means nothing: fewer than MinNormalSample
	// games, or fewer than MinEachSide wins or losses. SignTestP is the exact
	// two-sided sign test on the decisive games, always valid.
	Z         *float64 `json:"z"`
	ZPValue   *float64 `json:"z_p_value"`
	SignTestP float64  `json:"sign_test_p"`
	// AdvantageElo and AdvantageInterval are the first mover's advantage of
	// the rating model fitted to these games (forfeits left out, so it can
	// differ from Fit's), on the display scale: it accounts for the
	// strength of the players. Nil when these games do not determine it.
	AdvantageElo      *float64 `json:"advantage_elo"`
	AdvantageInterval *float64 `json:"advantage_interval"`
	// Paired is the first mover's points per colour-reversed pair, in
	// which the players' strengths cancel; nil without pairs.
	Paired *PentanomialStats `json:"paired"`
	// Openings splits the games by opening, the strongest evidence of
	// imbalance first (see OpeningBalance).
	Openings []OpeningBalance `json:"openings"`
	// Reference is the figure from elsewhere set beside ours, if any.
	Reference *ReferenceBalance `json:"reference"`
	// Proved is what is proved of the game under its rules from the start
	// position with perfect play, if anything (Options.Proved).
	Proved *game.Solution `json:"proved,omitempty"`
	// Forfeits counts the games left out because a forfeit decided them
	// (Game.Forfeit); colour-reversed pairs with a forfeit are left out too.
	Forfeits int `json:"forfeits"`
}

// OpeningBalance is the first mover's record on one opening. With many
// openings some look unbalanced by chance alone, so each sign test p-value
// comes with AdjustedP, the Benjamini–Hochberg adjustment over all the
// openings: the openings with AdjustedP ≤ q are a set in which the expected
// share of balanced openings is at most q. Openings are ranked by AdjustedP,
// then by SignTestP, then by the distance of the score from 1/2, then by
// name in natural order ("random 2" before "random 10").
type OpeningBalance struct {
	Opening   string  `json:"opening"`
	Moves     string  `json:"moves,omitempty"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	Score     float64 `json:"score"`
	ScoreLow  float64 `json:"score_low"`
	ScoreHigh float64 `json:"score_high"`
	SignTestP float64 `json:"sign_test_p"`
	AdjustedP float64 `json:"adjusted_p"`
}

// ReferenceBalance is a Reference with its ratios and score interval.
type ReferenceBalance struct {
	Label  string `json:"label"`
	Source string `json:"source"`
	Balance
}

// Verdict is the side balance in the terms a rule designer acts on,
// derived from the first mover's score interval and the exact sign test.
type Verdict struct {
	// Favours is "first" or "second" when the score interval excludes 1/2
	// and the sign test rejects balance at 1 - Confidence, "" otherwise.
	Favours string `json:"favours,omitempty"`
	// Edge is the imbalance the sample is measured against: a score of
	// 1/2 ± Edge (VerdictEdge).
	Edge float64 `json:"edge"`
	// MoreGames is, when nothing is favoured, about how many more games
	// would detect an edge of Edge (two-sided test at 1 - Confidence with
	// 80 % power, the spread per game as observed); 0 when the games
	// already suffice, or without games.
	MoreGames int `json:"more_games"`
	// Within is, when nothing is favoured and no more games are needed, the
	// largest distance of the score interval from 1/2: any imbalance is
	// smaller than that.
	Within float64 `json:"within"`
}

// Thresholds of the statistics.
const (
	// MinNormalSample is the fewest games (or game pairs) on which a
	// normal approximation (a z-test's p-value) is shown, and MinEachSide
	// the fewest of them that must score above 1/2 and below it (wins and
	// losses; pairs won and lost), as the rule of thumb n·p ≥ 5 for a
	// binomial asks. Otherwise only the exact tests are shown.
	MinNormalSample = 20
	MinEachSide     = 5
	// VerdictEdge is the first-mover edge the verdict asks about: a score
	// of 52 % or 48 %.
	VerdictEdge = 0.02
)

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
// It is a Tally of the games, analysed.
func Analyze(games []Game, opt Options) (*Analysis, error) {
	if _, err := opt.withDefaults(); err != nil {
		return nil, err
	}
	var t Tally
	for i, g := range games {
		if err := t.Add(g); err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
	}
	return t.Analyze(opt)
}

// Analyze fits the ratings and computes every statistic of the reports
// from the games added so far.
func (t *Tally) Analyze(opt Options) (*Analysis, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if t.games == 0 {
		return nil, ErrNoGames
	}
	names := t.order()
	cells := t.counts
	fit, err := fitAll(names, cells, opt)
	if err != nil {
		return nil, err
	}
	// The side balance's cells, made once the fit's matrices are gone:
	// without a forfeit they are every game's.
	sideCells := cells
	if t.forfeits > 0 {
		sideCells = t.sideCells()
	}
	z := Quantile(opt.Confidence)
	a := &Analysis{
		Model:      opt.Model,
		Confidence: opt.Confidence,
		Games:      t.games,
		Notes:      slices.Clone(fit.Notes),
	}
	order, rank := ranking(fit)
	if len(order) <= MaxLOSPlayers {
		a.LOS = losMatrix(fit, order)
	} else {
		a.Notes = append(a.Notes, fmt.Sprintf("with %d players the likelihood of superiority is given for each player over the next, not for every two of them (up to %d players)", len(order), MaxLOSPlayers))
	}
	a.Players = playerStats(fit, order, playerRecords(len(order), cells, sideCells), z)
	var note string
	if a.Best, note = bestOf(fit, order); note != "" {
		a.Notes = append(a.Notes, note)
	}
	a.Standings = standings(names, cells, opt.Standings)
	a.Groups = groupsOf(fit, order)
	a.Fit = fitSummary(fit, opt, z)
	if note := a.Fit.setDrawRate(fit, t.games, t.draws); note != "" {
		a.Notes = append(a.Notes, note)
	}

	if bad := t.bad + len(t.open); bad > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf(
			"%d %s a pair key that does not make a colour-reversed pair of two games; %s only in the per-game figures",
			bad, plural(bad, "game carries", "games carry"), plural(bad, "it counts", "they count")))
	}
	a.Pairs, a.PairsOmitted, a.OmittedGames = t.pairStats(cells, fit, rank, opt)
	if a.PairsOmitted > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("%d of the %d pairs of players that met (%d games) are not detailed: the pairs table keeps the %d pairs nearest each other in the ranking",
			a.PairsOmitted, a.PairsOmitted+len(a.Pairs), a.OmittedGames, len(a.Pairs)))
	}
	a.SideBalance = t.sideBalance(sideCells, opt)
	if t.forfeits > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf(
			"%d of %d games %s decided by a forfeit; %s for the ratings but %s left out of every side-balance figure",
			t.forfeits, t.games, plural(t.forfeits, "was", "were"), plural(t.forfeits, "it counts", "they count"), plural(t.forfeits, "is", "are")))
	}
	// The fitted advantage of the side balance comes from its own games.
	sideFit := fit
	if t.forfeits > 0 {
		sideFit = nil
		if len(sideCells) > 0 {
			sideNames, cells := compact(names, sideCells)
			sideFit, _ = fitAll(sideNames, cells, opt) // an undetermined advantage is shown as such
		}
	}
	if sideFit != nil && !sideFit.AdvantageFixed {
		a.SideBalance.AdvantageElo = finite(sideFit.AdvantageElo())
		a.SideBalance.AdvantageInterval = finite(z * sideFit.AdvantageSE * sideFit.Scale)
	}
	return a, nil
}

// ranking orders the players of a fit: by group (ratings of different
// groups do not compare), then by rating, then by name. order lists the
// fit's indexes by rank, and rank is the rank of each fit index.
func ranking(fit *FitResult) (order, rank []int) {
	n := len(fit.Players)
	order = make([]int, n)
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
	rank = make([]int, n) // fit index -> ranking position
	for r, i := range order {
		rank[i] = r
	}
	return order, rank
}

// playerRecord is a player's games: all of them for the standings, and
// those of the side balance split by role.
type playerRecord struct{ all, first, second WDL }

// playerRecords sums up the games of n players (in the fit's order, that
// of cells) per player.
func playerRecords(n int, cells, sideCells []cell) []playerRecord {
	recs := make([]playerRecord, n)
	for _, c := range cells {
		recs[c.f].all.addCounts(c, false)
		recs[c.s].all.addCounts(c, true)
	}
	for _, c := range sideCells {
		recs[c.f].first.addCounts(c, false)
		recs[c.s].second.addCounts(c, true)
	}
	return recs
}

// losMatrix is the likelihood of superiority of every player over every
// other, by rank.
func losMatrix(fit *FitResult, order []int) [][]*float64 {
	n := len(order)
	los := make([][]*float64, n)
	for r, i := range order {
		los[r] = make([]*float64, n)
		for s, j := range order {
			los[r][s] = finite(fit.LOS(i, j))
		}
	}
	return los
}

// playerStats is each player's line, by rank; z is the quantile of the
// intervals.
func playerStats(fit *FitResult, order []int, recs []playerRecord, z float64) []PlayerStats {
	n := len(order)
	out := make([]PlayerStats, n)
	for r, i := range order {
		rec := recs[i]
		p := PlayerStats{
			Rank:        r + 1,
			Name:        fit.Players[i],
			Elo:         fit.Ratings[i],
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
		switch fit.Bound[i] {
		case 0:
			p.StdErr = fit.StdErr(i)
			p.Interval = z * p.StdErr
		case 1:
			p.Bound = "lower"
		case -1:
			p.Bound = "upper"
		}
		if r+1 < n {
			p.LOSNext = finite(fit.LOS(i, order[r+1]))
		}
		out[r] = p
	}
	return out
}

// groupsOf lists the players of each group of the fit, by rank.
func groupsOf(fit *FitResult, order []int) []Group {
	out := make([]Group, fit.Groups)
	for g := range out {
		out[g].Index = g
	}
	for _, i := range order {
		g := fit.Group[i]
		out[g].Players = append(out[g].Players, fit.Players[i])
	}
	return out
}

// fitSummary gives the model's parameters; z is the quantile of the
// intervals.
func fitSummary(fit *FitResult, opt Options, z float64) FitSummary {
	f := FitSummary{
		Model:         opt.Model,
		Scale:         fit.Scale,
		Prior:         fit.Prior,
		Anchor:        opt.Anchor,
		Offset:        opt.Offset,
		LogLikelihood: fit.LogLikelihood,
		Iterations:    fit.Iterations,
	}
	if !fit.AdvantageFixed {
		f.Advantage = finite(fit.Advantage)
		f.AdvantageElo = finite(fit.AdvantageElo())
		f.AdvantageInterval = finite(z * fit.AdvantageSE * fit.Scale)
	}
	if opt.Model == BayesElo {
		f.DrawElo = finite(fit.DrawElo)
	}
	return f
}

// addCounts adds the games of a cell, from the first mover's side, or from
// the second mover's when second is true.
func (c *WDL) addCounts(k cell, second bool) {
	w, l := int(k.w), int(k.l)
	if second {
		w, l = l, w
	}
	c.Wins += w
	c.Draws += int(k.d)
	c.Losses += l
}

// setDrawRate sets the draw rate and its interval when the games (draws of
// them drawn) support them, and otherwise returns a note saying why there
// is none.
func (f *FitSummary) setDrawRate(fit *FitResult, games, draws int) string {
	virtual := fit.Prior * float64(len(fit.Players)) / 2 // prior draws per player, each shared by two
	switch {
	case draws == 0 && fit.Model == BayesElo:
		return fmt.Sprintf("no draw rate: none of the %d games was drawn, and bayeselo's draw parameter then only reflects the prior's %g virtual draws (%g per player)",
			games, virtual, fit.Prior)
	case draws == 0:
		return fmt.Sprintf("no draw rate: none of the %d games was drawn", games)
	case fit.DrawFixed:
		return "no draw rate: the games do not determine the draw parameter"
	case virtual > float64(draws):
		return fmt.Sprintf("no draw rate: the prior's %g virtual draws (%g per player) outnumber the %d drawn %s, so the fitted draw parameter mostly reflects the prior",
			virtual, fit.Prior, draws, plural(draws, "game", "games"))
	}
	f.DrawRate = finite(fit.DrawRate)
	if f.DrawRate != nil {
		f.DrawRateLow, f.DrawRateHigh = finite(fit.DrawRateLow), finite(fit.DrawRateHigh)
	}
	return ""
}

// plural returns one when n is 1 and many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func sideRecord(c WDL) SideRecord {
	return SideRecord{Games: c.Games(), Wins: c.Wins, Draws: c.Draws, Losses: c.Losses, Score: finite(c.Score())}
}

// MatchCounts returns player's results against opponent: the per-game
// counts and the pentanomial counts of their colour-reversed pairs (see
// Game.PairKey and Tally), both from player's side.
func MatchCounts(games []Game, player, opponent string) (WDL, Pentanomial) {
	var c WDL
	var p Pentanomial
	open := make(map[string]Game)
	for _, g := range games {
		if !((g.White == player && g.Black == opponent) || (g.White == opponent && g.Black == player)) {
			continue
		}
		c.add(g.pointsFor(player))
		if g.PairKey == "" {
			continue
		}
		prev, ok := open[g.PairKey]
		if !ok {
			open[g.PairKey] = g
			continue
		}
		delete(open, g.PairKey)
		if prev.White == g.Black {
			p.addPair(prev.pointsFor(player) + g.pointsFor(player))
		}
	}
	return c, p
}

// normalApprox reports whether a z-test on n games (or pairs), of which
// below scored under 1/2 and above over it, means anything: enough units
// (MinNormalSample), and at least MinEachSide on each side of 1/2.
func normalApprox(n, below, above int) bool {
	return n >= MinNormalSample && below >= MinEachSide && above >= MinEachSide
}

func pentanomialStats(p Pentanomial, confidence float64) *PentanomialStats {
	if p.Pairs() == 0 {
		return nil
	}
	elo, margin := p.EloMargin(confidence)
	ps := &PentanomialStats{
		Counts:    p,
		Pairs:     p.Pairs(),
		Score:     p.Score(),
		Elo:       finite(elo),
		Margin:    finite(margin),
		SignTestP: SignTest(p[3]+p[4], p[0]+p[1]),
	}
	if p.Variance() > 0 {
		ps.LOS = finite(p.LOS())
	}
	if normalApprox(p.Pairs(), p[0]+p[1], p[3]+p[4]) {
		_, pv := p.ZTest()
		ps.PValue = &pv
	}
	return ps
}

// reversed returns the counts from the other side.
func (p Pentanomial) reversed() Pentanomial { return Pentanomial{p[4], p[3], p[2], p[1], p[0]} }

// pairStats returns one entry per pair of players that met, from the side
// of the one ranking higher: every pair up to opt.MaxPairs of them, else
// the nearest (see nearestPairs). It goes over the pairs twice rather
// than gather them, so that it holds only the pairs it keeps.
func (t *Tally) pairStats(cells []cell, fit *FitResult, rank []int, opt Options) (out []PairStats, omitted, omittedGames int) {
	var total, totalGames int
	dist := make([]int, len(rank)) // pairs by their distance in the ranking
	eachPair(cells, rank, func(k rankedPair, c WDL) {
		total++
		totalGames += c.Games()
		dist[rank[k.b]-rank[k.a]]++
	})
	keep := nearestPairs(dist, opt.MaxPairs)
	counts := make(map[rankedPair]WDL)
	type met struct {
		k rankedPair
		c WDL
	}
	var edge []met // the pairs at distance keep.edge, of which keep.fill are kept
	keptGames := 0
	eachPair(cells, rank, func(k rankedPair, c WDL) {
		switch d := rank[k.b] - rank[k.a]; {
		case d < keep.edge:
			counts[k] = c
			keptGames += c.Games()
		case d == keep.edge:
			edge = append(edge, met{k, c})
		}
	})
	slices.SortFunc(edge, func(x, y met) int { return cmp.Compare(rank[x.k.a], rank[y.k.a]) })
	for _, m := range edge[:keep.fill] {
		counts[m.k] = m.c
		keptGames += m.c.Games()
	}
	keys := slices.Collect(maps.Keys(counts))
	omitted, omittedGames = total-len(keys), totalGames-keptGames
	ptnml := t.pairPentanomials(keys, rank)
	slices.SortFunc(keys, func(x, y rankedPair) int {
		if c := cmp.Compare(rank[x.a], rank[y.a]); c != 0 {
			return c
		}
		return cmp.Compare(rank[x.b], rank[y.b])
	})
	out = make([]PairStats, 0, len(keys))
	for _, k := range keys {
		out = append(out, pairStat(fit, k, counts[k], ptnml, opt.Confidence))
	}
	return out, omitted, omittedGames
}

// rankedPair is a pair of players by their fit indices, a ranking above b.
type rankedPair struct{ a, b int }

// orderPair returns the pair of the players x and y ranked by rank, and
// whether that puts y first.
func orderPair(rank []int, x, y int) (k rankedPair, flipped bool) {
	if rank[y] < rank[x] {
		return rankedPair{y, x}, true
	}
	return rankedPair{x, y}, false
}

// eachPair calls fn once for each pair of players that met in cells
// (sorted by first mover, then second mover), with their games from the
// side of the higher-ranked.
func eachPair(cells []cell, rank []int, fn func(k rankedPair, c WDL)) {
	for _, c := range cells {
		j, met := findCell(cells, c.s, c.f)
		if met && c.f > c.s {
			continue // counted with the other order
		}
		k, flipped := orderPair(rank, int(c.f), int(c.s))
		var w WDL
		w.addCounts(c, flipped)
		if met {
			w.addCounts(cells[j], !flipped)
		}
		fn(k, w)
	}
}

// pairCut says which pairs nearestPairs keeps: those nearer each other in
// the ranking than edge, and the fill higher-ranked of those at edge.
type pairCut struct{ edge, fill int }

// nearestPairs chooses limit of the pairs, dist[d] of which are d apart in
// the ranking: those nearest each other, whose order the reader
// questions, then the higher-ranked first. With limit or fewer pairs it
// keeps them all.
func nearestPairs(dist []int, limit int) pairCut {
	kept := 0
	for d, n := range dist {
		if kept+n > limit {
			return pairCut{edge: d, fill: limit - kept}
		}
		kept += n
	}
	return pairCut{edge: len(dist), fill: 0}
}

// pairPentanomials returns the pentanomial counts of the pairs keys, from
// the side of the higher-ranked player; pos maps the tally's ids to fit
// indices.
func (t *Tally) pairPentanomials(keys []rankedPair, rank []int) map[rankedPair]Pentanomial {
	kept := make(map[rankedPair]bool, len(keys))
	for _, k := range keys {
		kept[k] = true
	}
	ptnml := make(map[rankedPair]Pentanomial)
	for ids, i := range t.pairs {
		p := t.pents[i]
		k, flipped := orderPair(rank, int(ids>>32), int(uint32(ids))) // counted from the first id's side
		if !kept[k] {
			continue
		}
		if flipped {
			ptnml[k] = p.reversed()
		} else {
			ptnml[k] = p
		}
	}
	return ptnml
}

// pairStat returns the statistics of the pair k, whose games are counted
// in c and in ptnml when paired.
func pairStat(fit *FitResult, k rankedPair, c WDL, ptnml map[rankedPair]Pentanomial, confidence float64) PairStats {
	elo, margin := c.EloMargin(confidence)
	ps := PairStats{
		A: fit.Players[k.a], B: fit.Players[k.b],
		Games: c.Games(), Wins: c.Wins, Draws: c.Draws, Losses: c.Losses,
		Score:     c.Score(),
		Elo:       finite(elo),
		Margin:    finite(margin),
		DrawRatio: c.DrawRatio(),
		Unpaired:  c.Games(),
	}
	if c.variance() > 0 {
		ps.LOS = finite(c.LOS())
	}
	if p, ok := ptnml[k]; ok {
		ps.Pentanomial = pentanomialStats(p, confidence)
		ps.Unpaired -= 2 * p.Pairs()
	}
	return ps
}

// sideBalance computes the first mover's figures over the games decided by
// play (sideCells are theirs); the fitted advantage is Analyze's.
func (t *Tally) sideBalance(sideCells []cell, opt Options) SideBalance {
	var all WDL
	for _, c := range sideCells {
		all.addCounts(c, false)
	}
	sb := SideBalance{FirstMover: "mixed", Forfeits: t.forfeits}
	switch {
	case t.blacks == 0:
		sb.FirstMover = game.White.String()
	case t.whites == 0:
		sb.FirstMover = game.Black.String()
	}
	sb.Balance = balanceOf(all, opt.Confidence)
	if normalApprox(all.Games(), all.Losses, all.Wins) {
		z, p := all.ZTest()
		sb.Z, sb.ZPValue = finite(z), &p
	}
	sb.SignTestP = SignTest(all.Wins, all.Losses)
	sb.Verdict = verdict(all, sb.Balance, sb.SignTestP, opt.Confidence)
	sb.Paired = pentanomialStats(t.sidePair, opt.Confidence)

	sb.Openings = make([]OpeningBalance, 0, len(t.openings))
	for name, o := range t.openings {
		c := o.c
		lo, hi := c.ScoreInterval(opt.Confidence)
		sb.Openings = append(sb.Openings, OpeningBalance{
			Opening: name, Moves: o.moves,
			Games: c.Games(), Wins: c.Wins, Draws: c.Draws, Losses: c.Losses,
			Score: c.Score(), ScoreLow: lo, ScoreHigh: hi,
			SignTestP: SignTest(c.Wins, c.Losses),
		})
	}
	adjustBH(sb.Openings)
	slices.SortFunc(sb.Openings, func(x, y OpeningBalance) int {
		if c := cmp.Compare(x.AdjustedP, y.AdjustedP); c != 0 {
			return c
		}
		if c := cmp.Compare(x.SignTestP, y.SignTestP); c != 0 {
			return c
		}
		if c := cmp.Compare(math.Abs(y.Score-0.5), math.Abs(x.Score-0.5)); c != 0 {
			return c
		}
		if c := NaturalCompare(x.Opening, y.Opening); c != 0 {
			return c
		}
		return cmp.Compare(x.Opening, y.Opening)
	})

	if r := opt.Reference; r != nil {
		sb.Reference = &ReferenceBalance{
			Label:   r.Label,
			Source:  r.Source,
			Balance: balanceOf(WDL{Wins: r.Wins, Draws: r.Draws, Losses: r.Losses}, opt.Confidence),
		}
	}
	sb.Proved = opt.Proved
	return sb
}

// adjustBH sets AdjustedP to the Benjamini–Hochberg adjustment of the
// openings' sign-test p-values: with the m p-values in increasing order,
// the k-th becomes min over j ≥ k of m·p_(j)/j, capped at 1.
func adjustBH(os []OpeningBalance) {
	m := len(os)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(os[a].SignTestP, os[b].SignTestP) })
	next := 1.0
	for k := m - 1; k >= 0; k-- {
		o := &os[idx[k]]
		next = math.Min(next, o.SignTestP*float64(m)/float64(k+1))
		o.AdjustedP = next
	}
}

// verdict sums up the first mover's record c (with its Balance b and sign
// test p-value).
func verdict(c WDL, b Balance, signP, confidence float64) Verdict {
	v := Verdict{Edge: VerdictEdge}
	if b.Games == 0 {
		return v
	}
	alpha := 1 - confidence
	switch {
	case b.ScoreLow > 0.5 && signP < alpha:
		v.Favours = "first"
		return v
	case b.ScoreHigh < 0.5 && signP < alpha:
		v.Favours = "second"
		return v
	}
	// Games for a two-sided test at alpha with 80 % power to detect a
	// score of 1/2 ± Edge: n = ((z_a + z_b)·σ/Edge)², σ the spread of one
	// game's score as observed (1/2, its largest, when the games show no
	// spread).
	sigma := math.Sqrt(c.variance())
	if !(sigma > 0) {
		sigma = 0.5
	}
	za, zb := Quantile(confidence), distuv.UnitNormal.Quantile(0.8)
	need := math.Ceil(math.Pow((za+zb)*sigma/VerdictEdge, 2))
	if more := int(need) - b.Games; more > 0 {
		v.MoreGames = more
	} else {
		v.Within = math.Max(math.Abs(b.ScoreLow-0.5), math.Abs(b.ScoreHigh-0.5))
	}
	return v
}

// NaturalCompare orders strings as people do: runs of digits compare by
// their value, so "random 2" comes before "random 10"; other text compares
// byte by byte. Equal values with different digits ("07", "7") fall back
// to the plain comparison.
func NaturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			da := strings.TrimLeft(a[si:i], "0")
			db := strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Compare(len(da), len(db)); c != 0 {
				return c
			}
			if c := strings.Compare(da, db); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			return cmp.Compare(ca, cb)
		}
		i++
		j++
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
