package dirreport

import (
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/reports"
)

// searchStats sums up, for each of bots in that order, the moves it played
// in recs and the search info they came with: the mean reported depth,
// the nodes reported per second of the time the arena measured, and the
// mean time per move. Bots that played no move are left out.
func searchStats(recs []journal.Record, bots []string) []reports.BotSearch {
	s := newSearchSums(bots, nil)
	for i := range recs {
		s.add(&recs[i])
	}
	return s.stats()
}

// searchSums sums up the moves of a tournament's bots game by game, for
// searchStats.
type searchSums struct {
	bots []string
	by   map[string]*botSums
}

type botSums struct {
	moves, withInfo, depthMoves int
	depth, nodes                int64
	ms, nodesMS                 float64
	marginMS                    float64 // the bot's margin; 0: unknown
	latency                     latencyHist
}

// newSearchSums returns the sums of bots, whose margins (in milliseconds,
// from the manifest's setups) may be nil.
func newSearchSums(bots []string, setups []journal.BotSetup) *searchSums {
	s := &searchSums{bots: bots, by: make(map[string]*botSums, len(bots))}
	for _, b := range bots {
		s.by[b] = &botSums{}
	}
	for _, st := range setups {
		if b := s.by[st.Name]; b != nil {
			b.marginMS = st.MarginMS
		}
	}
	return s
}

// add counts the moves of one game.
func (s *searchSums) add(r *journal.Record) {
	// The side that made the game's first ply: the first mover, or the
	// side to move in the opening's position.
	first, err := r.StartTurn()
	if err != nil {
		return
	}
	names := [2]string{r.White, r.Black}
	for j := range r.Moves {
		b := s.by[names[(int(first)+len(r.Opening.Moves)+j)%2]]
		if b == nil {
			continue
		}
		m := &r.Moves[j]
		if m.Random {
			continue // the arena's ply, not the bot's
		}
		b.moves++
		b.ms += m.MS
		in := m.Info
		if in == nil {
			continue
		}
		b.withInfo++
		if in.TimeMS > 0 {
			lat := max(m.MS-float64(in.TimeMS), 0)
			b.latency.add(lat, b.marginMS > 0 && lat <= b.marginMS)
		}
		if in.Depth > 0 {
			b.depthMoves++
			b.depth += int64(in.Depth)
		}
		if in.Nodes > 0 {
			b.nodes += in.Nodes
			b.nodesMS += m.MS
		}
	}
}

// stats returns the sums as searchStats does.
func (s *searchSums) stats() []reports.BotSearch {
	var out []reports.BotSearch
	for _, name := range s.bots {
		b := s.by[name]
		if b.moves == 0 {
			continue
		}
		bs := reports.BotSearch{Bot: name, Moves: b.moves, WithInfo: b.withInfo, AvgMoveMS: b.ms / float64(b.moves),
			Latency: b.latency.stats(b.marginMS)}
		if b.depthMoves > 0 {
			bs.AvgDepth = float64(b.depth) / float64(b.depthMoves)
		}
		if b.nodesMS > 0 {
			bs.NodesPerSecond = float64(b.nodes) / (b.nodesMS / 1000)
		}
		out = append(out, bs)
	}
	return out
}
