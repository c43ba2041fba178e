package dirreport

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/reports"
	"github.com/arena-games/arena/reports/viewer"
)

// ViewSummary is a record's line in the viewer's game list.
func ViewSummary(r *journal.Record) viewer.Summary {
	reason := r.Reason
	if r.Forfeit != nil {
		reason = journal.ReasonForfeit + ": " + r.Forfeit.Kind
	}
	return viewer.Summary{
		ID: r.ID, Round: r.Round, White: r.White, Black: r.Black, Opening: journal.OpeningLabel(r),
		Result: r.Result, Reason: reason, Plies: len(r.Opening.Moves) + len(r.Moves),
	}
}

// ViewGame replays a record under the rules it names for the viewer: every
// position, computed by the rules package.
func ViewGame(r *journal.Record) (*viewer.Game, error) {
	rules, err := journal.RulesOf(r)
	if err != nil {
		return nil, err
	}
	return ViewGameWith(rules, r)
}

// ViewGameWith is ViewGame with the rules given.
func ViewGameWith(rules game.Rules, r *journal.Record) (*viewer.Game, error) {
	moves := make([]viewer.Move, 0, len(r.Opening.Moves)+len(r.Moves))
	for _, m := range r.Opening.Moves {
		moves = append(moves, viewer.Move{Text: m})
	}
	for _, m := range r.Moves {
		moves = append(moves, viewer.Move{Text: m.Move, MS: m.MS, Info: (*viewer.Info)(m.Info)})
	}
	st, err := r.StartState(rules)
	if err != nil {
		return nil, err
	}
	plies, err := viewer.ReplayFrom(st, moves)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", r.ID, err)
	}
	g := &viewer.Game{
		ID: r.ID, Round: r.Round, Game: r.Game, White: r.White, Black: r.Black,
		Opening: journal.OpeningLabel(r), OpeningPlies: len(r.Opening.Moves),
		Result: r.Result, Reason: r.Reason, Plies: plies,
	}
	if a := r.Adjudication; a != nil {
		g.Adjudication = a.Rule
		if a.Detail != "" {
			g.Adjudication += ": " + a.Detail
		}
	}
	if f := r.Forfeit; f != nil {
		color := game.White.String()
		if f.Bot == r.Black && f.Bot != r.White {
			color = game.Black.String()
		}
		g.Forfeit = &viewer.Forfeit{Kind: f.Kind, Bot: f.Bot, Color: color, Detail: f.Detail}
	}
	return g, nil
}

// ViewClocks returns the time controls of a record's White and Black as
// the manifest's bot setups describe them, nil when it has none.
func ViewClocks(m *journal.Manifest, r *journal.Record) []string {
	if m == nil || len(m.Setups) == 0 {
		return nil
	}
	out := make([]string, 2)
	for _, s := range m.Setups {
		if s.Name == r.White {
			out[0] = s.Time
		}
		if s.Name == r.Black {
			out[1] = s.Time
		}
	}
	return out
}

// viewGames gives report.html the games of recs of the tournament m, listed
// by ID; dir is the output directory the page names for viewing every game.
func viewGames(m *journal.Manifest, dir string, recs []journal.Record) *reports.Games {
	order := make([]int, len(recs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(recs[a].ID, recs[b].ID) })
	list := viewer.NewList(m.Game)
	for _, i := range order {
		list.Add(ViewSummary(&recs[i]))
	}
	v := viewLoader{m: m}
	load := func(i int) (*viewer.Game, error) { return v.view(&recs[order[i]]) }
	return &reports.Games{List: list, Dir: dir, Load: load}
}

// viewLoader replays records for the viewer, building the rules only when
// a record's differ from the last one's.
type viewLoader struct {
	m     *journal.Manifest
	last  *journal.Record // the record rules were built for
	rules game.Rules
}

// view replays r for the viewer, with the players' time controls.
func (v *viewLoader) view(r *journal.Record) (*viewer.Game, error) {
	if v.last == nil || r.Game != v.last.Game || r.Preset != v.last.Preset || !slices.Equal(r.Rules, v.last.Rules) {
		rules, err := journal.RulesOf(r)
		if err != nil {
			return nil, err
		}
		v.last, v.rules = r, rules
	}
	g, err := ViewGameWith(v.rules, r)
	if err == nil {
		g.Clocks = ViewClocks(v.m, r)
	}
	return g, err
}
