package reports

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/arena/rating"
)

// Meta describes what a report is about.
type Meta struct {
	// Name is the tournament's name (the report's title).
	Name string `json:"name"`
	// Game is "cheversi" or "checkers"; empty for rated PGN/PDN files.
	Game string `json:"game,omitempty"`
	// Rules describes the rule set in words (preset and switches); it may
	// span several lines.
	Rules string `json:"rules,omitempty"`
	// Started and Finished bound the tournament; zero when unknown.
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
	// Sources lists the input files, if the games came from files.
	Sources []string `json:"sources,omitempty"`
	// Games, when set, gives report.html a game list and viewer.
	Games *Games `json:"-"`
	// Run says how far the run that played the games got; nil when that is
	// not known (games rated from files).
	Run *RunStatus `json:"run,omitempty"`
	// Search sums up each bot's searches, for a tournament's reports
	// (report.md, report.html, report.json); nil leaves the table out.
	Search []BotSearch `json:"search,omitempty"`
	// Design holds the design metrics of the games (package metrics),
	// for a tournament's reports; nil leaves them out.
	Design *metrics.Summary `json:"design,omitempty"`
}

// RunStatus is how far a tournament run got.
type RunStatus struct {
	Played    int `json:"played"`    // games recorded
	Scheduled int `json:"scheduled"` // games in the schedule
	// Finished reports that the run ended: every scheduled game was played,
	// or a sequential test stopped it (Stopped says so).
	Finished bool `json:"finished"`
	// Stopped says why the run ended before its schedule ("the SPRT
	// accepted H1 ..."); "" when it did not.
	Stopped string `json:"stopped,omitempty"`
	// SPRT describes the state of the run's sequential test, if it had one.
	SPRT string `json:"sprt,omitempty"`
}

// BotSearch sums up what one bot reported about its searches (the last
// info line of each move) and the time the arena measured for its moves.
type BotSearch struct {
	Bot string `json:"bot"`
	// Moves is how many moves the bot played (opening moves excluded);
	// WithInfo how many of them came with search info.
	Moves    int `json:"moves"`
	WithInfo int `json:"with_info"`
	// AvgDepth is the mean depth over the moves that report one (0 when
	// none does).
	AvgDepth float64 `json:"avg_depth"`
	// NodesPerSecond is the nodes reported over the time the arena
	// measured for the moves that report nodes (0 when none does).
	NodesPerSecond float64 `json:"nodes_per_second"`
	// AvgMoveMS is the mean time per move, as the arena measured it.
	AvgMoveMS float64 `json:"avg_move_ms"`
	// Latency sums up the latency of the moves that came with a reported
	// time; nil when none did.
	Latency *Latency `json:"latency,omitempty"`
}

// Latency is the distribution of a bot's latency: per move, the time the
// arena measured less the time the bot reported (fastchess's
// -show-latency), what the pipes, the machine's scheduler and the arena
// added to the bot's own thinking. The quantiles are accurate to 12 %.
type Latency struct {
	Moves int     `json:"moves"` // moves with a reported time
	P50MS float64 `json:"p50_ms"`
	P90MS float64 `json:"p90_ms"`
	P99MS float64 `json:"p99_ms"`
	MaxMS float64 `json:"max_ms"`
	// MarginMS is the bot's margin (0 when unknown) and WithinMargin how
	// many of the moves had a latency within it.
	MarginMS     float64 `json:"margin_ms,omitempty"`
	WithinMargin int     `json:"within_margin"`
}

// File names written by WriteFiles.
const (
	MarkdownFile = "report.md"
	CSVFile      = "standings.csv"
	JSONFile     = "report.json"
	HTMLFile     = "report.html"
)

// ErrNoAnalysis means a writer was given a nil Analysis.
var ErrNoAnalysis = errors.New("no analysis to report")

// WriteFiles writes report.md, standings.csv, report.json and report.html
// into dir, creating it if needed. Each file is written to a temporary
// name first and renamed, so a reader never sees half a file.
func WriteFiles(dir string, m Meta, a *rating.Analysis) error {
	if a == nil {
		return ErrNoAnalysis
	}
	return writeFiles(dir, []fileWriter{
		{MarkdownFile, func(w io.Writer) error { return WriteMarkdown(w, m, a) }},
		{CSVFile, func(w io.Writer) error { return WriteCSV(w, m, a) }},
		{JSONFile, func(w io.Writer) error { return WriteJSON(w, m, a) }},
		{HTMLFile, func(w io.Writer) error { return WriteHTML(w, m, a) }},
	})
}

// fileWriter writes one file of a report directory.
type fileWriter struct {
	name  string
	write func(io.Writer) error
}

// writeFiles creates dir if needed and writes each file into it, to a
// temporary name first and renamed, so a reader never sees half a file.
func writeFiles(dir string, files []fileWriter) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report directory: %w", err)
	}
	for _, f := range files {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}

// writeFileAtomic writes the file at path with write, through a temporary
// file renamed into place once complete.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	w := bufio.NewWriterSize(tmp, 256<<10)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
