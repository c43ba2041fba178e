package tournament

import "github.com/arena-games/arena/reports"

// SearchStats sums up, for each of bots in that order, the moves it played
// in recs and the search info they came with: the mean reported depth,
// the nodes reported per second of the time the arena measured, and the
// mean time per move. Bots that played no move are left out.
func SearchStats(recs []Record, bots []string) []reports.BotSearch {
	type sums struct {
		moves, withInfo, depthMoves int
		depth, nodes                int64
		ms, nodesMS                 float64
	}
	by := make(map[string]*sums, len(bots))
	for _, b := range bots {
		by[b] = &sums{}
	}
	for i := range recs {
		r := &recs[i]
		first, err := r.FirstMoverColor()
		if err != nil {
			continue
		}
		names := [2]string{r.White, r.Black}
		for j := range r.Moves {
			s := by[names[(int(first)+len(r.Opening.Moves)+j)%2]]
			if s == nil {
				continue
			}
			m := &r.Moves[j]
			s.moves++
			s.ms += m.MS
			in := m.Info
			if in == nil {
				continue
			}
			s.withInfo++
			if in.Depth > 0 {
				s.depthMoves++
				s.depth += int64(in.Depth)
			}
			if in.Nodes > 0 {
				s.nodes += in.Nodes
				s.nodesMS += m.MS
			}
		}
	}
	var out []reports.BotSearch
	for _, b := range bots {
		s := by[b]
		if s.moves == 0 {
			continue
		}
		bs := reports.BotSearch{Bot: b, Moves: s.moves, WithInfo: s.withInfo, AvgMoveMS: s.ms / float64(s.moves)}
		if s.depthMoves > 0 {
			bs.AvgDepth = float64(s.depth) / float64(s.depthMoves)
		}
		if s.nodesMS > 0 {
			bs.NodesPerSecond = float64(s.nodes) / (s.nodesMS / 1000)
		}
		out = append(out, bs)
	}
	return out
}
