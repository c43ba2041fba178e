package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports"
)

// RatingGames converts records to the games the rating statistics take.
// Records whose result or first mover do not decode are skipped (the
// journal reader rejects them already).
func RatingGames(recs []Record) []rating.Game {
	out := make([]rating.Game, 0, len(recs))
	for i := range recs {
		r := &recs[i]
		res, err := r.GameResult()
		if err != nil {
			continue
		}
		first, err := r.FirstMoverColor()
		if err != nil {
			continue
		}
		out = append(out, rating.Game{
			White: r.White, Black: r.Black, FirstMover: first, Result: res,
			Opening: OpeningLabel(r), OpeningMoves: strings.Join(r.Opening.Moves, " "),
			PairKey: r.PairKey, Forfeit: r.Forfeit != nil,
		})
	}
	return out
}

// WriteReports writes the rating reports of an output directory from its
// records (package reports: report.md, standings.csv, report.json,
// report.html) and returns the analysis, nil when there are no games to
// rate. The PGN/PDN file is kept by Run; RewriteGameText rebuilds it.
func WriteReports(dir string, m *Manifest, recs []Record) (*rating.Analysis, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	a, err := rating.Analyze(RatingGames(recs), RatingOptions(m))
	if err != nil {
		return nil, fmt.Errorf("rating analysis: %w", err)
	}
	meta := ReportMeta(m, recs)
	meta.Games = ViewGames(m, dir, recs)
	if err := reports.WriteFiles(dir, meta, a); err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	return a, nil
}

// RatingOptions returns the rating options for a tournament: the defaults,
// plus the side balance of human play as a reference when the games are
// Cheversi under the unmodified cheversi preset.
func RatingOptions(m *Manifest) rating.Options {
	return rating.Options{Reference: Reference(m.Game, m.Preset, rulesText(m.Rules))}
}

// Reference returns the side-balance figure from elsewhere that the
// reports set beside a tournament's games of game under the preset with
// the given rules (as the Rules tag of the arena's PGN writes them): the
// outcome of human play when the games are Cheversi under the unmodified
// cheversi preset; nil otherwise.
func Reference(game, preset, rules string) *rating.Reference {
	if game != "cheversi" || preset != "cheversi" {
		return nil
	}
	r, err := games.New(game, preset, nil)
	if err != nil || rulesText(r.Settings()) != rules {
		return nil
	}
	return rating.CheversiHumanReference()
}

// ReportMeta describes a tournament for the reports: what it is, how many
// of its games are recorded, and whether it finished (every game played,
// or its sequential test decided; the test is replayed over the records).
func ReportMeta(m *Manifest, recs []Record) reports.Meta {
	meta := reports.Meta{
		Name:    m.Name,
		Game:    m.Game,
		Rules:   fmt.Sprintf("preset %s: %s", m.Preset, rulesText(m.Rules)),
		Started: m.Created,
		Run:     &reports.RunStatus{Played: len(recs), Scheduled: m.Games, Finished: len(recs) == m.Games},
		Search:  SearchStats(recs, m.Bots),
	}
	if m.SPRT != nil && len(m.Bots) == 2 && m.SPRT.Validate() == nil {
		s := newSPRTState(*m.SPRT, m.Bots[0], m.Bots[1])
		if err := s.add(recs...); err == nil {
			meta.Run.SPRT = s.String()
			if s.decided() && !meta.Run.Finished {
				meta.Run.Finished = true
				meta.Run.Stopped = fmt.Sprintf("the SPRT accepted %v after %d %s", s.result.Decision, s.result.N, sprtUnit(s.result))
			}
		}
	}
	if meta.Run.Finished {
		for i := range recs {
			end := recs[i].Start.Add(time.Duration(recs[i].DurationMS * float64(time.Millisecond)))
			if end.After(meta.Finished) {
				meta.Finished = end
			}
		}
	}
	return meta
}

// LoadDir reads the manifest and the journal of an output directory.
func LoadDir(dir string) (*Manifest, []Record, error) {
	m, err := ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s is not a tournament output directory (it has no %s): %w", dir, ManifestFile, err)
	}
	if err != nil {
		return nil, nil, err
	}
	recs, err := ReadJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		return nil, nil, err
	}
	return m, recs, nil
}
