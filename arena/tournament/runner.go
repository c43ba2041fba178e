package tournament

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/pgn"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/sandbox"
	"github.com/arena-games/arena/protocol"
)

// Options adjusts how Run plays a tournament.
type Options struct {
	// Out overrides the configuration's output directory (by default
	// OUTPUT/slice-I for slice I of a Shard).
	Out string
	// Self is the arena executable that runs built-in bots as
	// `Self bot NAME ARGS...`; "" means os.Executable().
	Self string
	// Progress, when set, follows the run as a whole: its start, the
	// games it records and its notices (forfeits, bot restarts); see
	// Progress.
	Progress Progress
	// Shard, when set, plays only that slice of the schedule (see Shard).
	// The output directory then holds that slice alone; game IDs stay
	// those of the whole schedule.
	Shard *schedule.Shard
	// Until, when positive, plays only the games whose ID is at most
	// Until: the tournament is played in stages, each run going further
	// (as a sweep does, a batch of openings at a time). The directory
	// still holds the whole schedule, and a run without Until finishes it.
	Until int
	// Observer, when set, follows the games as they are played (a live
	// view); see Observer.
	Observer Observer
	// Drain, when closed, stops the run after the games in flight: no
	// game starts any more, those in flight are played to their end and
	// recorded. Closed before the games start, it stops the run as a
	// canceled context does.
	Drain <-chan struct{}
	// Pool, when set, makes the pool the games are played through instead
	// of the bot processes of this machine: Run calls it once the output
	// directory is ready and the journal read, with the tournament to play
	// (package workers returns a pool of workers on other machines). The
	// bots are then neither started nor checked here.
	Pool func(ctx context.Context, t *Tournament) (GamePool, error)
}

// Tournament is what a GamePool other than the local one needs to know of
// the run it plays for (see Options.Pool).
type Tournament struct {
	Config *config.Config
	// Manifest is the output directory's: its schedule fingerprint and
	// creation time tell this tournament from any other.
	Manifest *journal.Manifest
	// Openings are the openings of the schedule; Scheduled.Opening
	// indexes them.
	Openings []openings.Opening
	// Game returns the game of the schedule with the given ID, of those
	// laid out so far (a Swiss or knockout lays its rounds out as the
	// results come).
	Game func(id int) (schedule.Scheduled, bool)
	Dir  string // the output directory
	// Logf writes a notice to the arena log and the progress output.
	Logf func(format string, args ...any)
	// Observer follows the games in flight (Options.Observer); nil
	// without one.
	Observer Observer
	// Recorded reports whether the journal holds game id, recorded
	// before the run or by it.
	Recorded func(id int) bool
}

// Observer follows the games of a Run while they are played. Run calls it
// from the goroutines that play the games, so every method must return at
// once: copy what is needed and never wait on a reader (drop or coalesce
// updates instead). The finished games themselves are in the journal.
type Observer interface {
	// GameStarted is called as a game starts, with its record so far:
	// the players and the opening, no moves yet.
	GameStarted(rec journal.Record)
	// Moved is called after each move a bot plays, once it is refereed.
	Moved(id int, m journal.MoveRecord)
	// GameEnded is called when game id is over, whether it finished (its
	// record then goes to the journal) or was abandoned.
	GameEnded(id int)
}

// Progress follows a Run as a whole, for a progress display. Run calls it
// from the goroutines that play and record the games, so every method must
// return at once; Recorded is called for one game at a time, in the
// journal's order.
type Progress interface {
	// Started is called once, when the games are about to start.
	Started(s ProgressStart)
	// Recorded is called after each game the run records, with the
	// state of the sequential test, if any, in a few words ("" without
	// one; see SPRT.Short).
	Recorded(rec *journal.Record, test string)
	// Notice is called with a line to show: the run's plan, a forfeit
	// (the first of each kind per bot), a bot that had to be restarted,
	// the sequential test's decision.
	Notice(msg string)
	// Finished is called once, when the run has stopped playing and its
	// journal is closed.
	Finished()
}

// ProgressStart is where a run starts from.
type ProgressStart struct {
	Name     string         // the tournament's name
	Games    int            // scheduled games (of the slice, with Options.Shard; up to Options.Until)
	Recorded int            // games already in the journal
	Tally    *journal.Tally // their standings (a copy, for the progress to keep)
	Test     string         // the sequential test's state, as in Recorded
}

// Summary is what Run did.
type Summary struct {
	Dir       string            // output directory
	Manifest  *journal.Manifest // the tournament the directory holds
	Total     int               // scheduled games (of the slice, with Options.Shard)
	Recorded  int               // games in the journal
	Played    int               // games played by this run
	Plies     int               // plies played by the bots in this run
	Elapsed   time.Duration
	Complete  bool           // every scheduled game is recorded
	Starts    map[string]int // bot processes started per bot by this run
	Standings []journal.Standing
	// SPRT is the state of the configured sequential test, if any; when it
	// has decided, the remaining games are not played.
	SPRT *rating.SPRTResult
	// SPRTText describes the test's state in one line ("" without a test).
	SPRTText string
}

// ErrBot is wrapped by the error Run returns when a bot fails its check
// before the tournament starts (start-up, handshake, or the game).
var ErrBot = errors.New("bot rejected")

// Run plays (or resumes) the tournament of cfg: it lays out the schedule,
// prepares the output directory (manifest, journal, PGN/PDN, bot logs),
// checks every bot's handshake, then plays every game not yet in the
// journal on cfg.Concurrency workers and records each finished game.
// With opts.Shard it plays only the games of that slice.
//
// When ctx is canceled Run stops starting games, abandons the games in
// flight (a later run plays them), closes every bot and returns the
// summary of what is recorded together with an error wrapping ctx.Err().
// When opts.Drain is closed it stops starting games, finishes those in
// flight, and returns likewise, with an error wrapping context.Canceled
// unless every game is recorded.
// Other errors (configuration, output directory, a bot failing its check)
// are returned before any game starts, with a nil summary; so is ctx's
// error when it is canceled while the openings are prepared.
func Run(ctx context.Context, cfg *config.Config, opts Options) (*Summary, error) {
	// Until the games start, draining is stopping: nothing is in flight.
	prep, stopPrep := untilClosed(ctx, opts.Drain)
	defer stopPrep()
	r, err := prepare(prep, cfg, opts)
	if err != nil {
		return nil, err
	}
	defer r.release()
	r.prep = prep
	return r.run(ctx)
}

// untilClosed returns a context of ctx that is also canceled when ch is
// closed (never, for a nil ch).
func untilClosed(ctx context.Context, ch <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if ch != nil {
		go func() { // ends with ctx
			select {
			case <-ch:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

// runner holds the state of one Run.
type runner struct {
	cfg      *config.Config
	opts     Options
	rules    game.Rules
	sched    *schedule.Schedule
	rounds   *schedule.Rounds // a Swiss or knockout, laid out round by round (sched is then nil)
	manifest *journal.Manifest
	dir      string
	unlock   func() error // releases the directory's lock
	journal  *journal.Journal
	recorded int
	tally    *journal.Tally
	done     journal.IDs // the games in the journal
	pending  int         // games of the slice not in the journal (up to Options.Until)
	goal     int         // games of the slice this run is to have recorded (up to Options.Until)
	pgn      *os.File
	logFile  *os.File
	botLogs  []*engine.Log // one per bot, shared by its processes
	started  bool          // Progress.Started was called
	playing  bool          // the games have started: notes are no longer kept for the start
	settings []game.Setting
	sprt     *SPRT // nil without a configured test
	// fingerprintV1 is the schedule's version 1 fingerprint, once an
	// output directory of version 1 needed it.
	fingerprintV1 string
	// notes are found before the start and logged once it starts.
	notes []string
	// cpus are the CPUs the bots are pinned to (affinity), each to one
	// of its own with pinEach; nil: none.
	cpus    []int
	pinEach bool
	// logDir holds the bots' logs; "" means DIR/logs.
	logDir string
	// openingOf returns the opening of a game when the games do not come
	// from the schedule (a Player's); nil: the schedule's.
	openingOf func(g schedule.Scheduled) openings.Opening

	// prep is the context of what comes before the games (starting the
	// bots): Run's, canceled by Options.Drain too.
	prep context.Context
	// restartAlways holds the bots whose process is replaced after every
	// game (restart = "always").
	restartAlways map[string]bool

	noticeMu sync.Mutex
	noticed  map[string]bool // bot and forfeit kind already shown on the terminal
}

// prepare does everything up to, not including, starting bots.
func prepare(ctx context.Context, cfg *config.Config, opts Options) (r *runner, err error) {
	r = &runner{cfg: cfg, opts: opts, rules: cfg.Rules, dir: outputDir(cfg, opts), noticed: map[string]bool{}, restartAlways: map[string]bool{}}
	for _, b := range cfg.Bots {
		r.restartAlways[b.Name] = b.Restart == config.RestartAlways
	}
	if cfg.Rules != nil && schedule.Progressive(cfg.Format.Kind) {
		if r.rounds, err = layRounds(ctx, cfg, opts); err != nil {
			return nil, err
		}
		r.manifest = NewRoundsManifest(cfg, r.rounds)
	} else {
		if r.sched, err = layout(ctx, cfg, opts.Shard); err != nil {
			return nil, err
		}
		r.manifest = NewManifest(cfg, r.sched)
		r.manifest.Shard, r.manifest.Games = opts.Shard, r.sched.SliceLen(opts.Shard)
	}
	r.settings = cfg.Rules.Settings()
	r.manifest.EndPositions = cfg.EndPositions
	self := r
	defer func() {
		if err != nil {
			self.release()
		}
	}()
	if err := r.claimDir(ctx); err != nil {
		return nil, err
	}
	if err := r.readJournal(); err != nil {
		return nil, err
	}
	if r.pgn, err = os.OpenFile(filepath.Join(r.dir, pgn.FileName(r.rules.Game())), os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return nil, fmt.Errorf("open game file: %w", err)
	}
	if r.logFile, err = os.OpenFile(filepath.Join(r.dir, "arena.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
		return nil, fmt.Errorf("open arena log: %w", err)
	}
	return r, nil
}

// layout checks what a run of cfg (of slice sh, when not nil) needs
// before anything is written, and lays out its schedule.
func layout(ctx context.Context, cfg *config.Config, sh *schedule.Shard) (*schedule.Schedule, error) {
	if cfg.Rules == nil {
		return nil, errors.New("tournament: configuration without rules (use Load or Parse)")
	}
	if sh != nil {
		if err := sh.Validate(); err != nil {
			return nil, err
		}
		if cfg.SPRT != nil {
			return nil, fmt.Errorf("%w %s: the sequential test of [sprt] needs every game in one place; play the match without a shard", schedule.ErrShard, sh)
		}
	}
	openings, err := config.LoadOpenings(ctx, cfg)
	if err != nil {
		return nil, err
	}
	sched, err := Schedule(cfg, openings)
	if errors.Is(err, schedule.ErrTooManyGames) {
		return nil, cfg.KeyError([]string{"format", "rounds"}, err)
	}
	return sched, err
}

// outputDir returns the directory a run writes to.
func outputDir(cfg *config.Config, opts Options) string {
	switch {
	case opts.Out != "":
		return opts.Out
	case opts.Shard != nil:
		// Slices of one tournament default to directories side by side.
		return filepath.Join(cfg.Output, "slice-"+strconv.Itoa(opts.Shard.Index))
	}
	return cfg.Output
}

// claimDir makes r.dir the directory of r.manifest's tournament, under
// its lock: the one it holds already, whose manifest it reads (and
// updates when the sequential test changed), or a new one.
func (r *runner) claimDir(ctx context.Context) error {
	// Check the directory before writing to it, and again under the lock.
	if _, err := r.checkOutputDir(ctx); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(r.dir, "logs"), 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	var err error
	if r.unlock, err = journal.LockDir(r.dir); err != nil {
		return err
	}
	stored, err := r.checkOutputDir(ctx)
	switch {
	case err != nil:
		return err
	case stored == nil:
		return r.manifest.Write(r.dir)
	}
	if a, b := stored.SPRT, r.manifest.SPRT; (a == nil) != (b == nil) || (a != nil && *a != *b) || stored.EndPositions != r.manifest.EndPositions {
		// The reports read the test and whether to write the end
		// positions from the manifest.
		stored.SPRT, stored.EndPositions = r.manifest.SPRT, r.manifest.EndPositions
		if err := stored.Write(r.dir); err != nil {
			return err
		}
	}
	r.manifest = stored
	return nil
}

// readJournal takes in the games of the journal and opens it for the
// games to come. The games are taken in one at a time: the tally, the
// sequential test and the PGN/PDN file need them in the journal's order,
// and the pending games a bit per game. The PGN/PDN file is derived from
// the journal: it is rebuilt (a crash may have left it behind or ahead of
// the journal), to be appended to.
func (r *runner) readJournal() error {
	r.tally, r.sprt = journal.NewTally(r.cfg.BotNames()), newSPRT(r.cfg)
	text, err := pgn.NewFileRewrite(r.dir, r.rules.Game(), r.cfg.Name)
	if err != nil {
		return err
	}
	defer text.Abort()
	r.journal, err = journal.OpenFunc(filepath.Join(r.dir, journal.File), func(rec *journal.Record) error {
		if r.rounds != nil {
			if err := r.recordLaid(rec); err != nil {
				return fmt.Errorf("%s: %w", r.dir, err)
			}
		} else if err := journal.CheckScheduled(r.sched, rec, r.manifest.Shard); err != nil {
			return fmt.Errorf("%s: %w", r.dir, err)
		}
		r.done.Add(rec.ID)
		r.tally.Add(rec)
		if r.sprt != nil {
			if err := r.sprt.Add(rec); err != nil {
				return err
			}
		}
		return text.Add(rec)
	})
	if err != nil {
		return err
	}
	r.recorded = r.done.Len()
	r.countPending()
	return text.Commit()
}

// countPending counts the games the run is to record (r.goal, all of the
// slice, or those up to Options.Until) and those of them the journal
// lacks (r.pending).
func (r *runner) countPending() {
	if r.rounds != nil {
		r.countLaid()
		return
	}
	r.goal, r.pending = r.manifest.Games, r.manifest.Games-r.recorded
	if r.opts.Until <= 0 {
		return
	}
	r.goal, r.pending = 0, 0
	for g := range r.sched.Slice(r.manifest.Shard) {
		if g.ID > r.opts.Until {
			break
		}
		r.goal++
		if !r.done.Has(g.ID) {
			r.pending++
		}
	}
}

// checkOutputDir decides whether a run of the tournament r.manifest (and
// of its slice) may use r.dir, without writing anything. It returns the
// stored manifest of the same tournament and slice to resume, or nil to
// start afresh: dir does not exist, is empty, holds only what an
// interrupted start leaves, or holds a tournament of which no game was
// recorded (every bot rejected at start, say). A directory with anything
// else, or with games of another tournament or slice, is refused.
func (r *runner) checkOutputDir(ctx context.Context) (*journal.Manifest, error) {
	dir := r.dir
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	stored, err := journal.ReadManifest(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		for _, e := range entries {
			if e.Name() == journal.File {
				return nil, fmt.Errorf("%s holds a %s but no %s; use another output directory", dir, journal.File, journal.ManifestFile)
			}
			if !journal.StartFile(e.Name()) {
				return nil, fmt.Errorf("%s is not a tournament's output directory (it holds %s but no %s); use a new or empty directory", dir, e.Name(), journal.ManifestFile)
			}
		}
		return nil, nil
	case err != nil:
		return nil, err
	}
	want := *r.manifest
	if stored.Version < journal.ManifestVersion && r.sched != nil {
		// Compare in the fingerprint the directory was written with.
		if r.fingerprintV1 == "" {
			if r.fingerprintV1, err = r.sched.FingerprintV1(ctx, want.Game, want.Preset, want.Rules); err != nil {
				return nil, err
			}
		}
		want.Version, want.Fingerprint = stored.Version, r.fingerprintV1
	}
	if err := stored.Compatible(&want); err != nil {
		if empty, jerr := journalEmpty(filepath.Join(dir, journal.File)); empty && (jerr == nil || errors.Is(jerr, os.ErrNotExist)) {
			return nil, nil // no game played: start afresh
		}
		hint := "use another output directory, or restore the configuration it was started with"
		if errors.Is(err, journal.ErrOtherShard) {
			hint = "give every slice an output directory of its own"
		}
		return nil, fmt.Errorf("%s: %w\n(%s)", dir, err, hint)
	}
	return stored, nil
}

// pendingGames iterates, in schedule order, over the games of the
// directory's slice that the journal lacks.
func (r *runner) pendingGames() iter.Seq[schedule.Scheduled] {
	return func(yield func(schedule.Scheduled) bool) {
		for g := range r.sched.Slice(r.manifest.Shard) {
			if r.opts.Until > 0 && g.ID > r.opts.Until {
				return
			}
			if !r.done.Has(g.ID) && !yield(g) {
				return
			}
		}
	}
}

// journalEmpty reports whether the journal at path holds no game; a
// damaged journal is an error.
func journalEmpty(path string) (bool, error) {
	errGame := errors.New("a game")
	err := journal.Scan(path, func(*journal.Record) error { return errGame })
	if errors.Is(err, errGame) {
		return false, nil
	}
	return true, err
}

// release closes what prepare opened.
func (r *runner) release() {
	if r.journal != nil {
		r.journal.Close()
	}
	if r.pgn != nil {
		r.pgn.Close()
	}
	if r.logFile != nil {
		r.logFile.Close()
	}
	for _, l := range r.botLogs {
		l.Close()
	}
	if r.unlock != nil {
		r.unlock() // releases the flock
	}
}

// specs builds the engine specs of the bots and opens their logs (capped
// per bot for the whole run; release closes them).
func (r *runner) specs() (map[string]engine.Spec, error) {
	self := r.opts.Self
	out := make(map[string]engine.Spec, len(r.cfg.Bots))
	for _, b := range r.cfg.Bots {
		logDir := r.logDir
		if logDir == "" {
			logDir = filepath.Join(r.dir, "logs")
		}
		logPath := filepath.Join(logDir, config.SafeFileName(b.Name)+".log")
		log, err := engine.OpenLog(logPath, engine.DefaultLogLimit)
		if err != nil {
			return nil, fmt.Errorf("bot %q: open its log: %w", b.Name, err)
		}
		r.botLogs = append(r.botLogs, log)
		spec := engine.Spec{
			Name:             b.Name,
			Command:          b.Command,
			Args:             b.Args,
			Dir:              b.Dir,
			Env:              b.Environ(),
			Options:          b.OptionValues(),
			Log:              log,
			StderrPath:       logPath,
			Transcript:       b.Transcript,
			HandshakeTimeout: b.HandshakeTimeout,
		}
		if spec.Dir == "" {
			spec.Dir = r.cfg.Dir
		}
		if err := r.policy(&spec, b); err != nil {
			return nil, err
		}
		if b.Builtin != "" {
			if self == "" {
				exe, err := os.Executable()
				if err != nil {
					return nil, fmt.Errorf("built-in bot %q: cannot find the arena executable: %w", b.Name, err)
				}
				self = exe
			}
			spec.Command = self
			spec.Args = append([]string{"bot", b.Builtin}, b.Args...)
		}
		out[b.Name] = spec
	}
	return out, nil
}

// policy sets the bot's limits and sandbox in spec, and notes what it
// runs under. A sandboxed bot without a directory of its own gets a fresh
// one (not the configuration's, which it could then write to), with its
// command and the arguments that name files made absolute. It fails when
// the machine cannot give the bot what the configuration requires.
func (r *runner) policy(spec *engine.Spec, b config.BotConfig) error {
	spec.Policy = r.cfg.BotPolicy(b.Name)
	if err := sandbox.Check(&spec.Policy); err != nil {
		return fmt.Errorf("bot %q: %w (set limits.required = false to play without it)", b.Name, err)
	}
	pol := &spec.Policy
	if pol.Isolate && b.Dir == "" {
		spec.Dir = ""
		if !filepath.IsAbs(spec.Command) && strings.ContainsRune(spec.Command, '/') {
			spec.Command = filepath.Join(r.cfg.Dir, spec.Command)
		}
		spec.Args = slices.Clone(spec.Args)
		for i, a := range spec.Args {
			if p := filepath.Join(r.cfg.Dir, a); !filepath.IsAbs(a) && a != "" && fileExists(p) {
				spec.Args[i] = p
			}
		}
	}
	if pol.Limits.IsZero() && !pol.Isolate {
		return nil
	}
	what := "limits " + pol.Limits.String()
	if pol.Isolate {
		what += ", in the sandbox"
	}
	r.notes = append(r.notes, fmt.Sprintf("bot %q: %s", b.Name, what))
	if fatal, weaker := sandbox.Probe().Missing(pol); len(fatal)+len(weaker) > 0 {
		r.notes = append(r.notes, fmt.Sprintf("bot %q: this machine does not give it %s", b.Name, strings.Join(append(fatal, weaker...), "; ")))
	}
	return nil
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// noteAffinity sets the CPUs the bots are pinned to, if the configuration
// asks, and notes how. With two CPUs per worker each bot of a game gets
// one of its own; with fewer, "auto" pins nothing (bots pinned to CPUs
// they share wait for a busy CPU while another is idle: at concurrency 64
// on two CPUs, 51 of 128 games of alphabeta at 20 ms a move were lost on
// time pinned, 1 unpinned) and a CPU list keeps the bots on its CPUs,
// letting the scheduler share them out.
func (r *runner) noteAffinity(workers int) {
	cpus := r.cfg.AffinityCPUs()
	if len(cpus) == 0 {
		return
	}
	list := sandbox.FormatCPUs(cpus)
	switch bots := 2 * workers; {
	case bots <= len(cpus):
		r.cpus, r.pinEach = cpus, true
		r.logf("affinity: each bot of a game on a CPU of its own (CPUs %s)", list)
	case r.cfg.Affinity == config.AffinityAuto:
		r.logf("affinity: not pinned: %d bots at a time and %d CPUs (%s), too few for one each", bots, len(cpus), list)
	default:
		r.cpus = cpus
		r.logf("affinity: %d bots at a time share CPUs %s", bots, list)
	}
}

func (r *runner) summary(start time.Time) *Summary {
	var sprt *rating.SPRTResult
	var sprtText string
	if r.sprt != nil {
		res := r.sprt.result
		sprt, sprtText = &res, r.sprt.String()
	}
	return &Summary{
		SPRT:      sprt,
		SPRTText:  sprtText,
		Dir:       r.dir,
		Manifest:  r.manifest,
		Total:     r.manifest.Games,
		Recorded:  r.recorded,
		Elapsed:   time.Since(start),
		Complete:  r.recorded == r.manifest.Games && (r.rounds == nil || r.rounds.Finished()),
		Standings: r.tally.Standings(),
	}
}

func (r *runner) run(ctx context.Context) (*Summary, error) {
	start := time.Now()
	if r.pending == 0 || r.sprt.Decided() {
		err := r.finishRounds()
		return r.summary(start), err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	src, stopSrc := r.source()
	defer stopSrc()
	// Draining stops handing out games; the games in flight go on.
	takeCtx, stopTake := untilClosed(runCtx, r.opts.Drain)
	defer stopTake()
	rc := &recorder{r: r, cancel: cancel, src: src, takeCtx: takeCtx}
	gp, local, err := r.pool(ctx, rc)
	if err != nil {
		return nil, err
	}
	if local != nil {
		defer local.engines.close()
	}
	r.announce(local)
	gp.Play(runCtx, rc.take, rc.record)
	played, plies, fatal := rc.played, rc.plies, rc.fatal
	var starts map[string]int
	if local != nil {
		local.engines.close()
		starts = local.engines.starts()
	}
	// Every recorded game is on stable storage before Run returns.
	if err := r.journal.Close(); err != nil && fatal == nil {
		fatal = err
	}
	if err := r.finishRounds(); err != nil && fatal == nil {
		fatal = err
	}
	if r.started {
		r.opts.Progress.Finished()
	}
	sum := r.summary(start)
	sum.Played, sum.Plies, sum.Starts = played, plies, starts
	if fatal != nil {
		return sum, fatal
	}
	return sum, r.stopped(ctx, takeCtx, sum)
}

// source returns where the run takes its games from: the rounds of a
// Swiss or knockout, or the games of the schedule not yet played, and the
// function that releases it.
func (r *runner) source() (Source, func()) {
	if r.rounds != nil {
		return newRoundsSource(r.rounds), func() {}
	}
	ss := newScheduleSource(r.pendingGames())
	return ss, ss.stop
}

// pool returns the pool that plays the games: Options.Pool's, or one of
// this machine's bots (also returned as local).
func (r *runner) pool(ctx context.Context, rc *recorder) (gp GamePool, local *localPool, err error) {
	if r.opts.Pool != nil {
		gp, err = r.opts.Pool(ctx, r.tournament(rc))
		return gp, nil, err
	}
	if local, err = r.startLocal(ctx); err != nil {
		return nil, nil, err
	}
	return local, local, nil
}

// announce tells the progress output and the arena log that the games
// start, played by local's workers or (local nil) by remote ones.
func (r *runner) announce(local *localPool) {
	if p := r.opts.Progress; p != nil {
		p.Started(ProgressStart{Name: r.cfg.Name, Games: r.goal, Recorded: r.goal - r.pending, Tally: r.tally.Clone(), Test: r.sprt.Short()})
		r.started = true
	}
	name := r.cfg.Name
	if sh := r.manifest.Shard; sh != nil {
		name = fmt.Sprintf("%s, slice %s", name, sh)
	}
	if local != nil {
		r.logf("%s: %d of %d games to play, %d at a time; output in %s", name, r.pending, r.goal, local.workers, r.dir)
	} else {
		r.logf("%s: %d of %d games to play, by workers; output in %s", name, r.pending, r.goal, r.dir)
	}
	for _, n := range r.notes {
		r.logf("%s", n)
	}
	r.playing = true
	if local != nil {
		r.noteAffinity(local.workers)
	}
}

// stopped returns why a run that recorded sum stopped before its end, by
// a cancelled ctx or a drain (takeCtx done), or nil.
func (r *runner) stopped(ctx, takeCtx context.Context, sum *Summary) error {
	switch {
	case ctx.Err() != nil && !sum.Complete:
		return fmt.Errorf("tournament stopped with %d of %d games recorded: %w", r.recorded, sum.Total, ctx.Err())
	case takeCtx.Err() != nil && !sum.Complete && !r.sprt.Decided():
		return fmt.Errorf("tournament stopped after the games in flight, with %d of %d games recorded: %w", r.recorded, sum.Total, context.Canceled)
	}
	return nil
}

// startLocal starts the pool of bot processes of this machine, on
// Config.Concurrency workers, and checks every bot before any game.
func (r *runner) startLocal(ctx context.Context) (*localPool, error) {
	specs, err := r.specs()
	if err != nil {
		return nil, err
	}
	workers := min(r.cfg.Concurrency, r.pending)
	p := newPool(ctx, specs, len(specs)+2*workers)
	if err := r.preflight(r.prepContext(ctx), p); err != nil {
		p.close()
		return nil, err
	}
	return &localPool{r: r, engines: p, workers: workers}, nil
}

// prepContext returns the context of what a run does before its games
// start (starting and checking the bots): Run's, which Options.Drain also
// cancels, as nothing is in flight yet to finish; ctx when there is none.
func (r *runner) prepContext(ctx context.Context) context.Context {
	if r.prep != nil {
		return r.prep
	}
	return ctx
}

// tournament describes the run to the pool of Options.Pool.
func (r *runner) tournament(rc *recorder) *Tournament {
	return &Tournament{
		Config: r.cfg, Manifest: r.manifest, Openings: r.openingList(), Game: rc.game, Dir: r.dir,
		Logf: r.poolLogf, Observer: r.opts.Observer, Recorded: rc.has,
	}
}

// opening returns the opening game g starts from.
func (r *runner) opening(g schedule.Scheduled) openings.Opening {
	if r.openingOf != nil {
		return r.openingOf(g)
	}
	return r.openingList()[g.Opening]
}

// GamePool plays the games of a run on the bots. Run plays through its local
// pool, which keeps the bots' processes alive from game to game on
// Config.Concurrency workers; a pool of workers on other machines
// (Options.Pool, package workers) is another implementation of the same
// interface.
type GamePool interface {
	// Play plays the games next hands out until it hands out no more or
	// ctx is done, several at a time, and calls record with every game
	// played to its end; games abandoned when ctx is done are not
	// recorded (a later run plays them). Both may be called from several
	// goroutines at once. Play returns when no game is in flight.
	//
	// record returns false once the run has stopped (the sequential test
	// decided, or the journal failed): next then hands out no more games,
	// and a pool that holds games it has not started drops them. A game
	// recorded already is not recorded again: a pool may pass a game
	// twice.
	Play(ctx context.Context, next func(context.Context) (schedule.Scheduled, bool), record func(*journal.Record) bool)
}

// Source hands a run the games to play, in the order to start them: for
// Run, the games of the schedule (of its slice) that the journal lacks. A
// format whose pairings depend on results hands out a round once the games
// of the one before are recorded: Next may wait for that, until ctx is
// done. Both methods may be called from several goroutines at once.
type Source interface {
	// Next returns the next game to play; ok is false when there is none
	// left, or ctx is done.
	Next(ctx context.Context) (g schedule.Scheduled, ok bool)
	// Recorded tells the source that a game it handed out is recorded.
	Recorded(rec *journal.Record)
}

// scheduleSource hands out the games of a sequence, as the schedule lays
// them out.
type scheduleSource struct {
	mu   sync.Mutex
	next func() (schedule.Scheduled, bool)
	stop func()
}

func newScheduleSource(games iter.Seq[schedule.Scheduled]) *scheduleSource {
	next, stop := iter.Pull(games)
	return &scheduleSource{next: next, stop: stop}
}

func (s *scheduleSource) Next(ctx context.Context) (schedule.Scheduled, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx.Err() != nil {
		return schedule.Scheduled{}, false
	}
	return s.next()
}

func (s *scheduleSource) Recorded(*journal.Record) {}

var (
	_ GamePool = (*localPool)(nil)
	_ Source   = (*scheduleSource)(nil)
)

// localPool plays games against bot processes of this machine: each of
// its workers takes its next game and records the games it finished
// itself, so that a game costs no hand-off between goroutines, which would
// wake other threads, and keeps its engines from game to game.
type localPool struct {
	r       *runner
	engines *pool
	workers int
}

func (lp *localPool) Play(ctx context.Context, next func(context.Context) (schedule.Scheduled, bool), record func(*journal.Record) bool) {
	var wg sync.WaitGroup
	for slot := range lp.workers {
		wg.Add(1)
		go func() { // exits when no game is left, or ctx is canceled
			defer wg.Done()
			lp.work(ctx, slot, next, record)
		}()
	}
	wg.Wait()
}

// work plays games, one at a time, until none is left or ctx is canceled,
// as the worker of the slot given (see runner.play).
func (lp *localPool) work(ctx context.Context, slot int, next func(context.Context) (schedule.Scheduled, bool), record func(*journal.Record) bool) {
	r, p := lp.r, lp.engines
	// The engines of the last game, kept for the next (see heldEngine).
	var held []heldEngine
	defer func() { r.releaseHeld(ctx, p, held) }()
	for {
		g, ok := next(ctx)
		if !ok {
			return
		}
		carry, rest := splitHeld(held, g)
		r.releaseHeld(ctx, p, rest)
		var rec *journal.Record
		rec, held = r.play(ctx, p, g, carry, slot)
		if rec == nil {
			return // abandoned: ctx is canceled
		}
		record(rec)
	}
}

// recorder hands the pool of a run the games to play and records the games
// it finishes, one at a time: the journal, the PGN/PDN file, the progress
// and the sequential test take the games in one order.
type recorder struct {
	r      *runner
	cancel context.CancelFunc // stops the run after a fatal error
	src    Source
	// takeCtx is done when no more games are to be handed out: the run's
	// context, or Options.Drain closed.
	takeCtx context.Context

	mu      sync.Mutex
	stopped bool // the sequential test decided, or a fatal error: no more games
	played  int
	plies   int
	fatal   error
	pgnBuf  []byte
	// recorded are the games recorded by this run (r.done, which the
	// source reads, holds those of the journal before it).
	recorded journal.IDs
}

// has reports whether the journal holds game id.
func (rc *recorder) has(id int) bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.r.done.Has(id) || rc.recorded.Has(id)
}

// game returns the game of the schedule with the given ID, of those laid
// out so far.
func (rc *recorder) game(id int) (schedule.Scheduled, bool) {
	rc.mu.Lock() // a Swiss lays out its rounds as the games are recorded
	defer rc.mu.Unlock()
	if r := rc.r; r.rounds != nil {
		return r.rounds.Game(id)
	}
	return rc.r.sched.Game(id)
}

// take returns the next game to play, if any. A game the source hands out
// once the run has stopped is not played.
func (rc *recorder) take(ctx context.Context) (schedule.Scheduled, bool) {
	if rc.takeCtx != nil {
		ctx = rc.takeCtx
	}
	if rc.isStopped() || ctx.Err() != nil || rc.drained() {
		return schedule.Scheduled{}, false
	}
	g, ok := rc.src.Next(ctx)
	if !ok || rc.isStopped() || rc.drained() {
		return schedule.Scheduled{}, false
	}
	return g, true
}

// drained reports whether Options.Drain is closed.
func (rc *recorder) drained() bool {
	select {
	case <-rc.r.opts.Drain:
		return true
	default:
		return false
	}
}

// isStopped reports whether the run takes no more games.
func (rc *recorder) isStopped() bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.stopped
}

// record adds a finished game to the journal, the PGN/PDN file, the
// progress and the sequential test, unless the journal holds it already
// (a pool of remote workers may receive a game twice). It returns whether
// the run goes on.
func (rc *recorder) record(rec *journal.Record) bool {
	r := rc.r
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.fatal != nil {
		return false // stopping after a failure
	}
	if r.done.Has(rec.ID) || rc.recorded.Has(rec.ID) {
		r.writeLog(fmt.Sprintf("game %d: received again, recorded once", rec.ID))
		return !rc.stopped
	}
	if err := r.journal.Append(rec); err != nil {
		rc.fatal, rc.stopped = err, true
		rc.cancel()
		return false
	}
	rc.recorded.Add(rec.ID)
	rc.src.Recorded(rec)
	if e, ok := rc.src.(interface{ Err() error }); ok && e.Err() != nil {
		rc.fatal, rc.stopped = e.Err(), true
		rc.cancel()
	}
	r.recorded++
	rc.played++
	rc.plies += len(rec.Moves)
	rc.pgnBuf = pgn.AppendRecord(rc.pgnBuf[:0], rec, r.cfg.Name)
	if _, err := r.pgn.Write(rc.pgnBuf); err != nil {
		r.logf("warning: %v (rebuild it with arena report)", err)
	}
	r.tally.Add(rec)
	defer func() {
		if r.started {
			r.opts.Progress.Recorded(rec, r.sprt.Short())
		}
	}()
	if r.sprt != nil && !r.sprt.Decided() {
		if err := r.sprt.Add(rec); err != nil {
			rc.fatal, rc.stopped = err, true
			rc.cancel()
			return false
		}
		if r.sprt.Decided() {
			rc.stopped = true
			r.logf("%s; stopping the match", r.sprt)
		}
	}
	return !rc.stopped
}

// preflight starts one process of every bot and checks its handshake and
// the game it plays, before any game starts.
func (r *runner) preflight(ctx context.Context, p *pool) error {
	type result struct {
		bot string
		e   *engine.Engine
		err error
	}
	// A few bots start at a time, so that slow starters on a loaded
	// machine do not miss their handshake timeout because of each other,
	// and a bot that times out or dies while starting gets a second try.
	names := make(chan string, len(r.cfg.Bots))
	for _, b := range r.cfg.Bots {
		names <- b.Name
	}
	close(names)
	ch := make(chan result, len(r.cfg.Bots))
	for range min(len(r.cfg.Bots), preflightParallelism()) {
		go func() { // starts bots until names is drained; one result per bot
			for name := range names {
				e, err := p.get(name)
				if err != nil && ctx.Err() == nil && startMayPass(err) {
					r.writeLog(fmt.Sprintf("bot %s failed to start (%v); trying once more", name, err))
					e, err = p.get(name)
				}
				ch <- result{name, e, err}
			}
		}()
	}
	var errs []error
	for range r.cfg.Bots {
		res := <-ch
		switch {
		case res.err != nil:
			errs = append(errs, fmt.Errorf("%w: %w (its stderr is in %s)", ErrBot, res.err, p.specs[res.bot].StderrPath))
		case !res.e.ID().Plays(r.rules.Game()):
			plays := "it declares no game"
			if g := res.e.ID().Games; len(g) > 0 {
				plays = "it plays " + strings.Join(g, ", ")
			}
			errs = append(errs, fmt.Errorf("%w: bot %q does not play %s (%s)", ErrBot, res.bot, r.rules.Game(), plays))
			p.put(res.bot, res.e, true)
		default:
			if err := r.checkLimits(res.bot, res.e.ID()); err != nil {
				errs = append(errs, err)
			}
			p.put(res.bot, res.e, false)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// preflightParallelism is how many bots the pre-tournament check starts
// at a time: as many as the CPUs this process may use (a container's
// limit or a batch job's allocation, as for the default concurrency), and
// at least two.
func preflightParallelism() int { return max(2, runtime.GOMAXPROCS(0)) }

// startMayPass reports whether a bot that failed to start may start on a
// second try: it ran out of time or died, as a slow start on a loaded
// machine can, rather than being missing or answering wrongly.
func startMayPass(err error) bool {
	var ee *engine.Error
	return errors.As(err, &ee) && (ee.Kind == engine.KindTimeout || ee.Kind == engine.KindCrash)
}

// checkLimits checks that a bot obeys the search limits configured for it
// by name. A tournament-wide limit it does not obey does not apply to it:
// that is noted in r.notes, shown once the tournament starts.
func (r *runner) checkLimits(bot string, id protocol.ID) error {
	var ownNodes, ownDepth bool
	for _, b := range r.cfg.Bots {
		if b.Name == bot {
			ownNodes, ownDepth = b.Nodes > 0, b.Depth > 0
		}
	}
	var errs []error
	for _, l := range []struct {
		key, feature string
		own, shared  bool
		obeys        bool
	}{
		{"nodes", protocol.FeatureNodes, ownNodes, r.cfg.Time.Nodes > 0, id.Nodes},
		{"depth", protocol.FeatureDepth, ownDepth, r.cfg.Time.Depth > 0, id.Depth},
	} {
		switch {
		case l.obeys:
		case l.own:
			errs = append(errs, fmt.Errorf("%w: bot %q: the configuration sets its %s, but the bot does not obey a %s limit (its handshake has no \"request %s\")",
				ErrBot, bot, l.key, l.key, l.feature))
		case l.shared:
			r.notes = append(r.notes, fmt.Sprintf("bot %q does not obey a %s limit (its handshake has no \"request %s\"); [time] %s does not apply to it",
				bot, l.key, l.feature, l.key))
		}
	}
	return errors.Join(errs...)
}

// forfeitNotice logs a forfeit to the arena log, and to the progress
// output the first time this bot forfeits for this reason.
func (r *runner) forfeitNotice(id int, bot string, c game.Color, kind, detail string) {
	msg := fmt.Sprintf("game %d: %s (%s) forfeits: %s: %s", id, bot, c, kind, detail)
	r.writeLog(msg)
	key := bot + "\x00" + kind
	r.noticeMu.Lock()
	first := !r.noticed[key]
	r.noticed[key] = true
	r.noticeMu.Unlock()
	if first && r.started {
		r.opts.Progress.Notice(msg + " (further " + kind + " forfeits of " + bot + " go to arena.log only)")
	}
}

// writeLog appends a line to the arena log.
func (r *runner) writeLog(msg string) {
	if r.logFile != nil {
		fmt.Fprintf(r.logFile, "%s %s\n", time.Now().UTC().Format(time.RFC3339), msg)
	}
}

// poolLogf is Tournament.Logf: a notice of the pool before the run starts
// is shown with the run's plan.
func (r *runner) poolLogf(format string, args ...any) {
	if !r.playing {
		r.notes = append(r.notes, fmt.Sprintf(format, args...))
		return
	}
	r.logf(format, args...)
}

// logf writes a notice to the arena log and the progress output.
func (r *runner) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.writeLog(msg)
	if r.started {
		r.opts.Progress.Notice(msg)
	}
}
