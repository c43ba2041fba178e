package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
			Opening: OpeningLabel(r), PairKey: r.PairKey, Forfeit: r.Forfeit != nil,
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
	meta.Games = ViewGames(m.Game, dir, recs)
	if err := reports.WriteFiles(dir, meta, a); err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	return a, nil
}

// RatingOptions returns the rating options for a tournament: the defaults,
// plus the side balance of human play as a reference when the games are
// Cheversi under the unmodified cheversi preset.
func RatingOptions(m *Manifest) rating.Options {
	var opt rating.Options
	if m.Game == "cheversi" && m.Preset == "cheversi" {
		if r, err := games.New(m.Game, m.Preset, nil); err == nil && slices.Equal(r.Settings(), m.Rules) {
			opt.Reference = rating.CheversiHumanReference()
		}
	}
	return opt
}

// ReportMeta describes a tournament for the reports.
func ReportMeta(m *Manifest, recs []Record) reports.Meta {
	meta := reports.Meta{
		Name:    m.Name,
		Game:    m.Game,
		Rules:   fmt.Sprintf("preset %s: %s", m.Preset, rulesText(m.Rules)),
		Started: m.Created,
	}
	if len(recs) == m.Games {
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
