package dirreport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/pgn"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/tournament"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports"
	"github.com/arena-games/arena/reports/viewer"
)

// RatingGames converts records to the games the rating statistics take.
// Records whose result or first mover do not decode are skipped (the
// journal reader rejects them already).
func RatingGames(recs []journal.Record) []rating.Game {
	out := make([]rating.Game, 0, len(recs))
	for i := range recs {
		if g, ok := RatingGame(&recs[i]); ok {
			out = append(out, g)
		}
	}
	return out
}

// RatingGame converts a record to the game the rating statistics take;
// ok is false when its result or first mover do not decode.
func RatingGame(r *journal.Record) (g rating.Game, ok bool) {
	res, err := r.GameResult()
	if err != nil {
		return g, false
	}
	first, err := r.FirstMoverColor()
	if err != nil {
		return g, false
	}
	return rating.Game{
		White: r.White, Black: r.Black, FirstMover: first, Result: res,
		Opening: journal.OpeningLabel(r), OpeningMoves: openingText(r),
		PairKey: r.PairKey, Forfeit: r.Forfeit != nil,
	}, true
}

// openingText is an opening as the per-opening table shows it: its moves,
// after its position when it starts from one.
func openingText(r *journal.Record) string {
	moves := strings.Join(r.Opening.Moves, " ")
	switch {
	case r.Opening.Position != "" && moves != "":
		return r.Opening.Position + " moves " + moves
	case r.Opening.Position != "":
		return r.Opening.Position
	}
	return moves
}

// WriteRecords writes the rating reports of an output directory from its
// records (package reports: report.md, standings.csv, report.json,
// report.html) and returns the analysis, nil when there are no games to
// rate. The PGN/PDN file is kept by Run; RewriteGameText rebuilds it. It
// holds every game in memory: Write reads them from the journal
// one at a time.
func WriteRecords(dir string, m *journal.Manifest, recs []journal.Record) (*rating.Analysis, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	opt := RatingOptions(m)
	if r, err := m.LayRounds(); err == nil {
		for i := range recs {
			if res, err := recs[i].GameResult(); err == nil {
				r.Record(recs[i].ID, res) // a game the schedule refuses leaves the rest as far as they go
			}
		}
		opt.Standings = FormatStandings(r)
	}
	a, err := rating.Analyze(RatingGames(recs), opt)
	if err != nil {
		return nil, fmt.Errorf("rating analysis: %w", err)
	}
	meta := reportMeta(m, recs)
	meta.Games = viewGames(m, dir, recs)
	if err := reports.WriteFiles(dir, meta, a); err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	return a, nil
}

// Report is what the reports of a tournament directory were written from.
type Report struct {
	Manifest *journal.Manifest
	Games    int              // games in the journal
	Analysis *rating.Analysis // nil when there are no games
	// Meta is the reports' description of the tournament (its Games
	// left out).
	Meta      reports.Meta
	Standings []journal.Standing // every bot of the manifest, and any other in the journal
}

// Options adjusts Write.
type Options struct {
	// GameText rebuilds the PGN/PDN file from the journal too (see
	// RewriteGameText); leave it to a run that appends to the file.
	GameText bool
}

// Write writes the rating reports of the output directory dir
// from its manifest and journal, as WriteRecords does from records, and
// returns what they were written from. It reads the journal one game at a
// time: its memory does not grow with the number of games beyond a bit
// per game, and the game list of report.html is kept in temporary files
// next to the journal. The journal is read as it is when opened; a run
// may append to it meanwhile. When ctx is done it stops, removes what it
// had written to temporary files and returns ctx's error: the reports and
// the game text file already in dir are left as they were.
func Write(ctx context.Context, dir string, opts Options) (*Report, error) {
	m, err := journal.ReadDirManifest(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, journal.File)
	jf, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	defer jf.Close()
	b, err := newReportBuilder(m, dir)
	if err != nil {
		return nil, err
	}
	defer b.close()
	var text *pgn.FileRewrite
	if opts.GameText {
		if text, err = pgn.NewFileRewrite(dir, m.Game, m.Name); err != nil {
			return nil, err
		}
		defer text.Abort()
	}
	var ends *endPositions
	if m.EndPositions {
		if ends, err = newEndPositions(dir, m); err != nil {
			return nil, err
		}
		defer ends.abort()
	}
	_, err = journal.ScanLines(jf, path, func(rec *journal.Record, off int64, n int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := b.add(rec, off, n); err != nil {
			return err
		}
		if ends != nil {
			if err := ends.add(rec); err != nil {
				return err
			}
		}
		if text == nil {
			return nil
		}
		return text.Add(rec)
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if ends != nil {
		if err := ends.commit(); err != nil {
			return nil, err
		}
	}
	if text != nil {
		if err := text.Commit(); err != nil {
			return nil, err
		}
	}
	return b.write(dir, jf)
}

// reportBuilder sums up a tournament's games one at a time for its
// reports: what a Report holds, and report.html's game list.
type reportBuilder struct {
	m         *journal.Manifest
	games     int
	rated     int // games given to the rating tally
	tally     rating.Tally
	tallyErr  error // the first game the tally refused
	standings *journal.Tally
	search    *searchSums
	sprt      *tournament.SPRT // the manifest's test replayed; nil without one
	sprtErr   error
	finished  time.Time  // when the last game ended
	list      *GameList  // nil: no game list
	rules     game.Rules // the manifest's, for the design metrics; nil when they do not build
	design    metrics.Tally
	designed  int // games in design
	// rounds replays a Swiss's or knockout's results, for the byes and
	// places of its standings; nil for the other formats.
	rounds *schedule.Rounds
}

// addDesign takes a game into the design metrics; a game that does not
// replay under the manifest's rules is left out of them (the journal's
// reader verifies the games already).
func (b *reportBuilder) addDesign(r *journal.Record) {
	if b.rules == nil {
		return
	}
	if g, err := journal.MetricsGame(b.rules, r); err == nil {
		b.design.Add(g)
		b.designed++
	}
}

// newReportBuilder returns a builder for the tournament m; with dir it
// keeps report.html's game list in temporary files in dir.
func newReportBuilder(m *journal.Manifest, dir string) (*reportBuilder, error) {
	b := &reportBuilder{m: m, standings: journal.NewTally(m.Bots), search: newSearchSums(m.Bots, m.Setups)}
	if rules, err := games.New(m.Game, m.Preset, m.Rules); err == nil {
		b.rules = rules
	}
	if r, err := m.LayRounds(); err == nil {
		b.rounds = r
	}
	if m.SPRT != nil && len(m.Bots) == 2 && m.SPRT.Validate() == nil {
		b.sprt = tournament.NewSPRT(*m.SPRT, m.Bots[0], m.Bots[1])
	}
	if dir != "" {
		var err error
		if b.list, err = NewGameList(dir); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// close frees the game list.
func (b *reportBuilder) close() {
	if b.list != nil {
		b.list.Close()
	}
}

// add takes in a game, whose journal line is n bytes at off. The games
// come in the journal's order (the sequential test is replayed in it).
func (b *reportBuilder) add(r *journal.Record, off int64, n int) error {
	b.games++
	if g, ok := RatingGame(r); ok {
		b.rated++
		if err := b.tally.Add(g); err != nil && b.tallyErr == nil {
			b.tallyErr = fmt.Errorf("game %d: %w", b.rated, err)
		}
	}
	b.standings.Add(r)
	if b.rounds != nil {
		if res, err := r.GameResult(); err == nil {
			b.rounds.Record(r.ID, res) // a game the schedule refuses leaves the rest as far as they go
		}
	}
	b.search.add(r)
	b.addDesign(r)
	if b.sprt != nil && b.sprtErr == nil {
		b.sprtErr = b.sprt.Add(r)
	}
	if end := r.Start.Add(time.Duration(r.DurationMS * float64(time.Millisecond))); end.After(b.finished) {
		b.finished = end
	}
	if b.list != nil {
		return b.list.Add(r, off, n)
	}
	return nil
}

// meta describes the tournament as reportMeta does.
func (b *reportBuilder) meta() reports.Meta {
	m := b.m
	meta := reports.Meta{
		Name:    m.Name,
		Game:    m.Game,
		Rules:   fmt.Sprintf("preset %s: %s", m.Preset, journal.RulesText(m.Rules)),
		Started: m.Created,
		Run:     &reports.RunStatus{Played: b.games, Scheduled: m.Games, Finished: b.games == m.Games},
		Search:  b.search.stats(),
	}
	if b.designed > 0 {
		d := b.design.Summary()
		meta.Design = &d
	}
	if s := b.sprt; s != nil && b.sprtErr == nil {
		meta.Run.SPRT = s.String()
		if s.Decided() && !meta.Run.Finished {
			meta.Run.Finished = true
			meta.Run.Stopped = fmt.Sprintf("the SPRT accepted %v after %d %s", s.Result().Decision, s.Result().N, tournament.SPRTUnit(s.Result()))
		}
	}
	if meta.Run.Finished {
		meta.Finished = b.finished
	}
	return meta
}

// write writes the reports into dir; jf holds the journal lines the
// games were added with, for the game viewer.
func (b *reportBuilder) write(dir string, jf io.ReaderAt) (*Report, error) {
	rep := &Report{Manifest: b.m, Games: b.games, Meta: b.meta(), Standings: b.standings.Standings()}
	if b.games == 0 {
		return rep, nil
	}
	if b.tallyErr != nil {
		return nil, fmt.Errorf("rating analysis: %w", b.tallyErr)
	}
	opt := RatingOptions(b.m)
	if b.rounds != nil {
		opt.Standings = FormatStandings(b.rounds)
	}
	a, err := b.tally.Analyze(opt)
	if err != nil {
		return nil, fmt.Errorf("rating analysis: %w", err)
	}
	meta := rep.Meta
	if b.list != nil {
		header, rows, err := b.list.rows(b.m.Game)
		if err != nil {
			return nil, err
		}
		defer rows.close()
		v := viewLoader{m: b.m}
		load := func(i int) (*viewer.Game, error) {
			off, n, err := rows.line(i)
			if err != nil {
				return nil, err
			}
			line := make([]byte, n)
			if _, err := jf.ReadAt(line, off); err != nil {
				return nil, fmt.Errorf("read journal: %w", err)
			}
			r := new(journal.Record)
			if err := journal.DecodeRecord(bytes.TrimSuffix(line, []byte("\n")), r); err != nil {
				return nil, fmt.Errorf("%w: the line at offset %d changed: %w", journal.ErrDamaged, off, err)
			}
			return v.view(r)
		}
		meta.Games = &reports.Games{List: header, Rows: rows, Load: load, Dir: dir}
	}
	if err := reports.WriteFiles(dir, meta, a); err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	rep.Analysis = a
	return rep, nil
}

// RatingOptions returns the rating options for a tournament: the defaults,
// plus the side balance of games played elsewhere under its rules as a
// reference, when its game knows one (game.Referenced: human games under
// the unmodified cheversi preset).
func RatingOptions(m *journal.Manifest) rating.Options {
	rules := journal.RulesText(m.Rules)
	return rating.Options{Reference: Reference(m.Game, m.Preset, rules), Proved: Proved(m.Game, m.Preset, rules)}
}

// FormatStandings returns what a Swiss or knockout adds to the standings
// by points, from its schedule replayed as far as the games go: a Swiss's
// byes and Buchholz, a knockout's places.
func FormatStandings(r *schedule.Rounds) rating.StandingOptions {
	p := r.Plan()
	if p.Kind == schedule.Knockout {
		places := map[string]int{}
		for _, pl := range r.Placings() {
			places[pl.Bot] = pl.Place
		}
		return rating.StandingOptions{Places: places}
	}
	byes := map[string]int{}
	for bot, rounds := range r.Byes() {
		// Only the byes of rounds that are over: a bye is scored with its
		// round.
		for _, k := range rounds {
			if k <= r.RoundsScored() {
				byes[bot]++
			}
		}
	}
	return rating.StandingOptions{Buchholz: true, Byes: byes, ByePoints: float64(p.ByeHalfPoints) / 2}
}

// Reference returns the side-balance figure from elsewhere that the
// reports set beside a tournament's games of the named game under the
// preset with the given rules (as the Rules tag of the arena's PGN writes
// them): what the game's rules of that preset, unmodified, know of games
// played elsewhere (game.Referenced); nil when the rules are not the
// preset's as it is, or know none.
func Reference(gameName, preset, rules string) *rating.Reference {
	r, err := games.New(gameName, preset, nil)
	if err != nil || journal.RulesText(r.Settings()) != rules {
		return nil
	}
	return reference(r)
}

// Proved returns what is proved of the named game from its start position
// under the preset with the given rules (as the Rules tag of the arena's
// PGN writes them) with perfect play (games.Solved); nil when nothing is,
// or the rules are not the game's.
func Proved(gameName, preset, rules string) *game.Solution {
	var settings []game.Setting
	for _, f := range strings.Fields(rules) {
		s, err := games.ParseSetting(f)
		if err != nil {
			return nil
		}
		settings = append(settings, s)
	}
	r, err := games.New(gameName, preset, settings)
	if err != nil || journal.RulesText(r.Settings()) != rules {
		return nil
	}
	if s, ok := games.Solved(r); ok {
		return &s
	}
	return nil
}

// reference returns what rules know of games played elsewhere, nil when
// they know nothing.
func reference(r game.Rules) *rating.Reference {
	ref, ok := r.(game.Referenced)
	if !ok {
		return nil
	}
	b, ok := ref.SideReference()
	if !ok {
		return nil
	}
	return &rating.Reference{Label: b.Label, Source: b.Source, Wins: b.Wins, Draws: b.Draws, Losses: b.Losses}
}

// reportMeta describes a tournament for the reports: what it is, how many
// of its games are recorded, and whether it finished (every game played,
// or its sequential test decided; the test is replayed over the records).
func reportMeta(m *journal.Manifest, recs []journal.Record) reports.Meta {
	b, _ := newReportBuilder(m, "") // cannot fail without a game list
	for i := range recs {
		b.add(&recs[i], 0, 0)
	}
	return b.meta()
}
