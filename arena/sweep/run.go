package sweep

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/race"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/tournament"
)

// ArmsDir is the directory of a sweep's output directory that holds one
// tournament directory per variant and strength.
const ArmsDir = "arms"

// Options adjusts how Run plays a sweep.
type Options struct {
	// Shard, when set, plays only that slice of every variant's games,
	// in a directory of its own beside the other slices' (arms/.../slice-I),
	// and waits at every look for the other slices' games.
	Shard *schedule.Shard
	// Self is the arena executable that runs built-in bots (see
	// tournament.Options).
	Self string
	// Observer, when set, follows the sweep.
	Observer Observer
	// ReportOnly reads the games played so far and plays none: the
	// status is the race as far as they take it.
	ReportOnly bool
	// Poll is how often a slice looks for the other slices' games while
	// it waits for them (default 5 s).
	Poll time.Duration
}

// Observer follows a sweep for a progress display. Every method must
// return at once.
type Observer interface {
	// Looked is called after every look, and once before the first game
	// with the race as the journals left it.
	Looked(s *Status)
	// Playing is called before a variant plays its games up to the
	// opening until, at look.
	Playing(v Variant, look, until int)
	// Recorded is called for every game a variant records.
	Recorded(v Variant, rec *journal.Record)
	// Waiting is called while a slice waits for the other slices' games
	// of the variants listed.
	Waiting(look int, variants []string)
	// Notice is called with a line to show (a bot's forfeit, a restart).
	Notice(msg string)
}

// arm is one variant at one strength, its tournament and its games.
type arm struct {
	index    int
	variant  []game.Setting
	name     string
	strength string
	group    int
	cfg      *config.Config
	dir      string
	key      string
	manifest *journal.Manifest
	sched    *schedule.Schedule

	points   map[int]float64 // the first mover's points by game ID
	forfeit  map[int]bool
	pending  map[int]metrics.Game // recorded games not yet taken into the tally
	next     int                  // the next game ID the tally takes
	tally    metrics.Tally
	counts   rating.WDL
	forfeits int
	fed      int // games given to the race
	bad      error
	summary  *metrics.Summary // the metrics, when recorded rather than tallied (Replay)
	proved   *game.Solution   // what is proved of the variant's rules, if anything
}

// sweep is the state of one Run.
type sweep struct {
	c     *Config
	opts  Options
	out   string
	list  []openings.Opening
	arms  []*arm
	race  *race.Race
	looks int
}

// Run plays (or resumes) the sweep of c and returns its status. When ctx is
// canceled it stops, leaving every recorded game in its journal, and
// returns the status so far with ctx's error.
func Run(ctx context.Context, c *Config, opts Options) (*Status, error) {
	s, err := prepare(ctx, c, opts)
	if err != nil {
		return nil, err
	}
	err = s.run(ctx)
	return s.status(), err
}

// Output returns the sweep's output directory.
func (c *Config) Output() string { return c.Base.Output }

// prepare draws the openings, builds every arm's tournament and reads the
// games already played.
func prepare(ctx context.Context, c *Config, opts Options) (*sweep, error) {
	if opts.Poll <= 0 {
		opts.Poll = 5 * time.Second
	}
	s, err := plan(ctx, c, opts, !opts.ReportOnly)
	if err != nil {
		return nil, err
	}
	for _, a := range s.arms {
		if err := s.checkSlices(a); err != nil {
			return nil, err
		}
		if err := s.load(a); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// plan draws the openings and builds every arm's tournament and the race;
// with write it stores the drawn openings in the output directory, which
// the arms' configurations name.
func plan(ctx context.Context, c *Config, opts Options, write bool) (*sweep, error) {
	s := &sweep{c: c, opts: opts, out: c.Output()}
	list, err := c.sharedOpenings(ctx)
	if err != nil {
		return nil, err
	}
	if c.MinOpenings > len(list) {
		return nil, c.Base.KeyError([]string{"sweep", "min_openings"}, fmt.Errorf("%d is more than the %d openings a variant plays", c.MinOpenings, len(list)))
	}
	s.list = list
	var file string
	if c.Base.Openings.Plies > 0 && c.Base.Openings.After == 0 {
		file = filepath.Join(s.out, OpeningsFile)
		if write {
			if file, err = writeOpenings(s.out, list); err != nil {
				return nil, err
			}
		}
		if file, err = filepath.Abs(file); err != nil {
			return nil, err
		}
	}
	var groups []int
	for g, nodes := range c.Strengths() {
		for _, v := range c.Variants {
			a, err := c.newArm(len(s.arms), v, g, nodes, file, s.out, list)
			if err != nil {
				return nil, err
			}
			s.arms = append(s.arms, a)
			groups = append(groups, g)
		}
	}
	if s.race, err = race.New(race.Config{Arms: len(s.arms), Target: c.Target, Precision: c.Precision, Alpha: c.Alpha,
		MaxOpenings: len(list), MinOpenings: c.MinOpenings, Groups: groups, Stops: c.Stops}); err != nil {
		return nil, err
	}
	return s, nil
}

// newArm builds the tournament of variant v at strength group g (nodes per
// move, 0 for the base's limits) on the shared openings list, stored in
// openingsFile when they are drawn.
func (c *Config) newArm(index int, v []game.Setting, g int, nodes int64, openingsFile, out string, list []openings.Opening) (*arm, error) {
	name := VariantName(v)
	strength := c.strengthLabel(nodes)
	dir := filepath.Join(out, ArmsDir, config.SafeFileName(strength), config.SafeFileName(name))
	set := func(k, v string) config.Override {
		return config.Override{Key: k, Value: v, Source: "sweep " + name + ", " + strength}
	}
	ov := slices.Clone(c.Overrides)
	ov = append(ov, set("name", strconv.Quote(c.Base.Name+": "+name+", "+strength)), set("output", strconv.Quote(dir)),
		set("openings.once", "true"))
	for _, sw := range v {
		ov = append(ov, set("game.rules."+sw.Key, strconv.Quote(sw.Value)))
	}
	if nodes > 0 {
		ov = append(ov, set("time.nodes", strconv.FormatInt(nodes, 10)))
	}
	if openingsFile != "" {
		ov = append(ov, set("openings.file", strconv.Quote(openingsFile)), set("openings.plies", "0"), set("openings.count", "0"))
	}
	cfg, err := config.Load(c.Base.Path, ov...)
	if err != nil {
		return nil, fmt.Errorf("variant %s, %s: %w", name, strength, err)
	}
	a := &arm{index: index, variant: v, name: name, strength: strength, group: g, cfg: cfg, dir: dir,
		points: map[int]float64{}, forfeit: map[int]bool{}, pending: map[int]metrics.Game{}, next: 1}
	if r, err := c.VariantRules(v); err == nil {
		if p, ok := games.Solved(r); ok {
			a.proved = &p
		}
	}
	// The arm's tournament plays the shared list (read from the file the
	// list was written to, or drawn again from the same seed).
	sched, err := tournament.Schedule(cfg, list)
	if err != nil {
		return nil, fmt.Errorf("variant %s, %s: %w", name, strength, err)
	}
	a.manifest = tournament.NewManifest(cfg, sched)
	a.key = a.manifest.DataKey()
	a.sched = sched
	return a, nil
}

// Layout is a sweep laid out without playing: the openings every variant
// plays and the tournament of every variant at every strength, in the
// order of Status.Variants.
type Layout struct {
	Openings []openings.Opening
	Arms     []ArmLayout
}

// ArmLayout is the tournament of one variant at one strength.
type ArmLayout struct {
	Name, Strength string
	Config         *config.Config
	Schedule       *schedule.Schedule
	// Key is the tournament's data key (journal.Manifest.DataKey).
	Key string
}

// Lay lays the sweep out: its openings (drawn again) and every variant's
// tournament, without writing or playing anything.
func Lay(ctx context.Context, c *Config) (*Layout, error) {
	s, err := plan(ctx, c, Options{ReportOnly: true}, false)
	if err != nil {
		return nil, err
	}
	l := &Layout{Openings: s.list}
	for _, a := range s.arms {
		l.Arms = append(l.Arms, ArmLayout{Name: a.name, Strength: a.strength, Config: a.cfg, Schedule: a.sched, Key: a.key})
	}
	return l, nil
}

// Recorded is one variant's games as a record of a sweep keeps them: the
// first mover's points on each opening, in order, the openings a forfeit
// decided (from 1), and the design metrics of the games.
type Recorded struct {
	Points   []float64
	Forfeits []int
	Metrics  metrics.Summary
}

// Replay runs the race of c again on recorded games, one Recorded per
// variant and strength in the order of Status.Variants, without playing
// or reading any game: the status the sweep reached with those games.
// Variants that recorded more openings than the race gives them are
// refused, and so are variants that stop short of where the race stops
// them while other variants go on.
func Replay(ctx context.Context, c *Config, recorded []Recorded) (*Status, error) {
	s, err := plan(ctx, c, Options{ReportOnly: true}, false)
	if err != nil {
		return nil, err
	}
	if len(recorded) != len(s.arms) {
		return nil, fmt.Errorf("%d recorded variants for the %d of the sweep", len(recorded), len(s.arms))
	}
	for i, a := range s.arms {
		for k, p := range recorded[i].Points {
			a.points[k+1] = p
		}
		for _, id := range recorded[i].Forfeits {
			a.forfeit[id] = true
		}
		m := recorded[i].Metrics
		a.summary = &m
	}
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	for i, a := range s.arms {
		if n := len(recorded[i].Points); n != a.fed {
			return nil, fmt.Errorf("variant %s, %s: %d openings recorded, the race took %d", a.name, a.strength, n, a.fed)
		}
	}
	return s.status(), nil
}

// strengthLabel names a strength: "10000 nodes", or the base's limits.
func (c *Config) strengthLabel(nodes int64) string {
	if nodes > 0 {
		return strconv.FormatInt(nodes, 10) + " nodes"
	}
	if c.Base.Time.Nodes > 0 {
		return strconv.FormatInt(c.Base.Time.Nodes, 10) + " nodes"
	}
	return c.Base.Time.String()
}

// dirs returns the tournament directories an arm's games may be in: its
// own, and its slices'.
func (a *arm) dirs() []string {
	out := []string{a.dir}
	if matches, err := filepath.Glob(filepath.Join(a.dir, "slice-*")); err == nil {
		slices.Sort(matches)
		out = append(out, matches...)
	}
	return out
}

// ownDir returns the directory this run plays the arm's games in.
func (s *sweep) ownDir(a *arm) string {
	if sh := s.opts.Shard; sh != nil {
		return filepath.Join(a.dir, "slice-"+strconv.Itoa(sh.Index))
	}
	return a.dir
}

// load reads the games of every directory of the arm that it does not know
// yet.
func (s *sweep) load(a *arm) error {
	for _, dir := range a.dirs() {
		m, err := journal.ReadManifest(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if a.manifest != nil && m.Fingerprint != a.manifest.Fingerprint {
			return fmt.Errorf("%s holds another tournament than variant %s, %s (its schedule changed): use another output directory, or restore the configuration", dir, a.name, a.strength)
		}
		err = journal.Scan(filepath.Join(dir, journal.File), func(rec *journal.Record) error {
			if _, known := a.points[rec.ID]; known {
				return nil
			}
			return a.record(rec)
		})
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s: %w", dir, err)
		}
	}
	return nil
}

// checkSlices refuses to go on in slices with an arm played without them,
// and the other way round: games of both kinds would be played twice.
func (s *sweep) checkSlices(a *arm) error {
	if s.opts.ReportOnly {
		return nil
	}
	if s.opts.Shard == nil {
		for _, dir := range a.dirs()[1:] {
			if countGames(dir) > 0 {
				return fmt.Errorf("%s was played in slices: go on with --shard I/N", a.dir)
			}
		}
	} else if countGames(a.dir) > 0 {
		return fmt.Errorf("%s was played without slices: go on without --shard", a.dir)
	}
	return nil
}

// countGames returns the number of games in the journal of dir.
func countGames(dir string) int {
	n := 0
	journal.Scan(filepath.Join(dir, journal.File), func(*journal.Record) error { n++; return nil })
	return n
}

// record takes one game of the arm.
func (a *arm) record(rec *journal.Record) error {
	res, err := rec.GameResult()
	if err != nil {
		return err
	}
	first, err := rec.FirstMoverColor()
	if err != nil {
		return err
	}
	pts := 0.5
	if w, ok := res.Winner(); ok {
		pts = 0
		if w == first {
			pts = 1
		}
	}
	a.points[rec.ID] = pts
	a.forfeit[rec.ID] = rec.Forfeit != nil
	g, err := journal.MetricsGame(a.cfg.Rules, rec)
	if err != nil {
		return fmt.Errorf("game %d: %w", rec.ID, err)
	}
	a.pending[rec.ID] = g
	return nil
}

// feed gives the race the arm's games up to the opening until, which it
// must have, and the tally the same games.
func (s *sweep) feed(a *arm, until int) error {
	for id := a.fed + 1; id <= until; id++ {
		pts, ok := a.points[id]
		if !ok {
			return fmt.Errorf("variant %s, %s: game %d is missing", a.name, a.strength, id)
		}
		if err := s.race.Add(a.index, pts); err != nil {
			return err
		}
		switch pts {
		case 1:
			a.counts.Wins++
		case 0:
			a.counts.Losses++
		default:
			a.counts.Draws++
		}
		if a.forfeit[id] {
			a.forfeits++
		}
		if g, ok := a.pending[id]; ok {
			a.tally.Add(g)
			delete(a.pending, id)
		}
		a.fed = id
	}
	return nil
}

// has reports whether the arm has every game up to until.
func (a *arm) has(until int) bool {
	for id := a.fed + 1; id <= until; id++ {
		if _, ok := a.points[id]; !ok {
			return false
		}
	}
	return true
}

// run plays look after look until the race is done.
func (s *sweep) run(ctx context.Context) error {
	batch, n := s.c.Batch, len(s.list)
	// The looks the journals already hold are taken again quietly.
	replaying := true
	for !s.race.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		until := min((s.looks+1)*batch, n)
		var missing []*arm
		for _, a := range s.arms {
			if s.race.Active(a.index) && !a.has(until) {
				missing = append(missing, a)
			}
		}
		if len(missing) > 0 {
			if replaying {
				replaying = false
				s.looked()
			}
			if s.opts.ReportOnly {
				return nil
			}
			for _, a := range missing {
				if err := s.play(ctx, a, until); err != nil {
					return err
				}
			}
			if err := s.await(ctx, until); err != nil {
				return err
			}
		}
		for _, a := range s.arms {
			if s.race.Active(a.index) {
				if err := s.feed(a, until); err != nil {
					return err
				}
			}
		}
		s.race.Look()
		s.looks++
		if !replaying {
			s.looked()
		}
	}
	if replaying {
		s.looked()
	}
	return nil
}

// looked tells the observer where the race is.
func (s *sweep) looked() {
	if o := s.opts.Observer; o != nil {
		o.Looked(s.status())
	}
}

// play plays the arm's games (of this run's slice) up to the opening until.
func (s *sweep) play(ctx context.Context, a *arm, until int) error {
	if o := s.opts.Observer; o != nil {
		o.Playing(s.variant(a), s.looks+1, until)
	}
	_, err := tournament.Run(ctx, a.cfg, tournament.Options{Out: s.ownDir(a), Shard: s.opts.Shard, Until: until,
		Self: s.opts.Self, Progress: &armProgress{s: s, a: a}})
	if err != nil {
		return fmt.Errorf("variant %s, %s: %w", a.name, a.strength, err)
	}
	return a.bad
}

// await waits until every running arm has its games up to until, reading
// the other slices' journals; without slices they are all this run's.
func (s *sweep) await(ctx context.Context, until int) error {
	for {
		var waiting []string
		for _, a := range s.arms {
			if !s.race.Active(a.index) || a.has(until) {
				continue
			}
			if err := s.load(a); err != nil {
				return err
			}
			if !a.has(until) {
				waiting = append(waiting, a.name+", "+a.strength)
			}
		}
		if len(waiting) == 0 {
			return nil
		}
		if s.opts.Shard == nil {
			return fmt.Errorf("variants %s lack games up to opening %d after their run", strings.Join(waiting, "; "), until)
		}
		if o := s.opts.Observer; o != nil {
			o.Waiting(s.looks+1, waiting)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.opts.Poll):
		}
	}
}

// armProgress takes the games a tournament run records into its arm.
type armProgress struct {
	s *sweep
	a *arm
}

func (p *armProgress) Started(tournament.ProgressStart) {}
func (p *armProgress) Finished()                        {}

func (p *armProgress) Recorded(rec *journal.Record, _ string) {
	if err := p.a.record(rec); err != nil && p.a.bad == nil {
		p.a.bad = err
	}
	if o := p.s.opts.Observer; o != nil {
		o.Recorded(p.s.variant(p.a), rec)
	}
}

func (p *armProgress) Notice(msg string) {
	// The run's plan ("N of M games to play") is what Playing says.
	if o := p.s.opts.Observer; o != nil && !strings.Contains(msg, " games to play, ") {
		o.Notice(msg)
	}
}

// variant returns the status of one arm.
func (s *sweep) variant(a *arm) Variant {
	v := Variant{Name: a.name, Switches: a.variant, Strength: a.strength, Group: a.group, Dir: a.dir, Key: a.key,
		Arm: s.race.Arm(a.index), Counts: a.counts, Forfeits: a.forfeits, Metrics: a.tally.Summary(), Proved: a.proved}
	if a.summary != nil {
		v.Metrics = *a.summary
	}
	for _, b := range s.arms {
		if b.group == a.group {
			if b != a {
				if d, ok := s.race.Difference(a.index, b.index); ok {
					v.Versus = &d
				}
			}
			break
		}
	}
	if a.group > 0 {
		first := s.arms[a.index%len(s.c.Variants)] // the same variant at the first strength
		if d, ok := s.race.Difference(a.index, first.index); ok {
			v.VersusStrength = &d
		}
	}
	return v
}

// status returns the sweep's status.
func (s *sweep) status() *Status {
	rc := s.race.Config()
	st := &Status{Name: s.c.Base.Name, Game: s.c.Base.Game.Name, Preset: s.c.Base.Rules.Preset(), Base: s.c.Base.Overrides(),
		Bots: s.c.Base.BotNames(), Race: rc, ArmAlpha: rc.ArmAlpha(), ContrastAlpha: rc.ContrastAlpha(),
		Batch: s.c.Batch, Looks: s.looks, Openings: len(s.list), Done: s.race.Done(), Reference: s.c.Reference}
	h := sha256.New()
	for _, a := range s.arms {
		v := s.variant(a)
		st.Variants = append(st.Variants, v)
		h.Write([]byte(v.Key + "\n"))
	}
	st.Key = hex.EncodeToString(h.Sum(nil))
	return st
}
