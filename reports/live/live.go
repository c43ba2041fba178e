package live

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/reports/viewer"
)

// Options adjust a Server.
type Options struct {
	// InRun says that the server runs in the process playing the games and
	// is passed to tournament.Run as its Observer: the page then shows the
	// games in flight.
	InRun bool
	// Interval is how often the journal is read and the page's state
	// rebuilt (default 250ms).
	Interval time.Duration
	// WriteTimeout bounds sending one update to a browser; a browser that
	// takes longer is disconnected (default 10s).
	WriteTimeout time.Duration
	// MaxClients bounds the browsers following the page at once (default
	// 64); more are refused with 503.
	MaxClients int
}

// maxFlightsShown bounds the boards of games in flight the page shows.
const maxFlightsShown = 32

// Server follows a tournament's output directory and serves the live page.
// Create it with New, start Run, and serve Handler (or call Serve).
type Server struct {
	dir  string
	opts Options

	// Games in flight, written by the Observer methods.
	fmu     sync.Mutex
	flights map[int]*flight
	dirty   atomic.Bool

	// The finished games' index, for /api/game.
	imu   sync.Mutex
	index map[int]span // game ID -> its line in the journal

	// The newest snapshot, and a channel closed when it is replaced.
	smu     sync.Mutex
	snap    *snapshot
	changed chan struct{}

	done     chan struct{} // closed when Run returns
	clients  atomic.Int32
	manifest atomic.Pointer[tournament.Manifest]
}

// span is a line of the journal.
type span struct {
	off int64
	n   int
}

// flight is a game in flight as the Observer methods record it.
type flight struct {
	rec   tournament.Record // players and opening; Moves grows
	start time.Time
}

// snapshot is what the page is sent: its state and game list, encoded.
type snapshot struct {
	version uint64
	state   []byte // JSON of State
	list    []byte // JSON of viewer.List
}

// New returns a server for the tournament in dir. The directory need not
// hold a tournament yet: Run waits for its manifest.
func New(dir string, opts Options) *Server {
	if opts.Interval <= 0 {
		opts.Interval = 250 * time.Millisecond
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 10 * time.Second
	}
	if opts.MaxClients <= 0 {
		opts.MaxClients = 64
	}
	s := &Server{
		dir: dir, opts: opts,
		flights: map[int]*flight{},
		index:   map[int]span{},
		changed: make(chan struct{}),
		done:    make(chan struct{}),
	}
	s.snap = &snapshot{state: []byte(`{"waiting":true}`), list: []byte(`null`)}
	return s
}

// GameStarted records a game in flight (tournament.Observer).
func (s *Server) GameStarted(rec tournament.Record) {
	rec.Moves = nil
	f := &flight{rec: rec, start: time.Now()}
	s.fmu.Lock()
	s.flights[rec.ID] = f
	s.fmu.Unlock()
	s.dirty.Store(true)
}

// Moved records a move of a game in flight (tournament.Observer).
func (s *Server) Moved(id int, m tournament.MoveRecord) {
	s.fmu.Lock()
	if f := s.flights[id]; f != nil {
		f.rec.Moves = append(f.rec.Moves, m)
	}
	s.fmu.Unlock()
	s.dirty.Store(true)
}

// GameEnded forgets a game in flight (tournament.Observer).
func (s *Server) GameEnded(id int) {
	s.fmu.Lock()
	delete(s.flights, id)
	s.fmu.Unlock()
	s.dirty.Store(true)
}

// current returns the newest snapshot and a channel closed when there is
// a newer one.
func (s *Server) current() (*snapshot, <-chan struct{}) {
	s.smu.Lock()
	defer s.smu.Unlock()
	return s.snap, s.changed
}

func (s *Server) publish(state, list []byte) {
	s.smu.Lock()
	defer s.smu.Unlock()
	if list == nil {
		list = s.snap.list
	}
	s.snap = &snapshot{version: s.snap.version + 1, state: state, list: list}
	close(s.changed)
	s.changed = make(chan struct{})
}

// State is the live page's state, sent as JSON.
type State struct {
	Name     string `json:"name"`
	Game     string `json:"game"`
	Rules    string `json:"rules"`
	Total    int    `json:"total"`    // scheduled games
	Finished int    `json:"finished"` // games in the journal
	// Rate is the games finished per second since the server started
	// (0 before two have), ETA the seconds left at that rate.
	Rate float64 `json:"rate"`
	ETA  float64 `json:"eta"`
	// InRun says whether the games in flight are known (the server is
	// inside the run); Flights lists them.
	InRun   bool     `json:"in_run"`
	Flights []Flight `json:"flights"`
	// MoreFlights counts the games in flight not listed.
	MoreFlights int `json:"more_flights"`
	// Standings and Side come from a rating analysis of the first
	// Analyzed games (it lags a little behind Finished in a large
	// tournament).
	Analyzed  int        `json:"analyzed"`
	Level     string     `json:"level"`
	Standings []Standing `json:"standings"`
	Side      *Side      `json:"side"`
	Error     string     `json:"error,omitempty"`
	Updated   time.Time  `json:"updated"`
}

// Standing is a bot's line of the standings.
type Standing struct {
	Rank     int     `json:"rank"`
	Name     string  `json:"name"`
	Elo      float64 `json:"elo"`
	Interval float64 `json:"interval"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Points   float64 `json:"points"`
	Score    float64 `json:"score"`
	Forfeits int     `json:"forfeits"`
}

// Side is the first mover's record so far (games decided by a forfeit
// left out), with the interval of its score.
type Side struct {
	FirstMover string  `json:"first_mover"`
	Games      int     `json:"games"`
	Wins       int     `json:"wins"`
	Draws      int     `json:"draws"`
	Losses     int     `json:"losses"`
	Score      float64 `json:"score"`
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Forfeits   int     `json:"forfeits"`
}

// Flight is a game in flight: its players and current position.
type Flight struct {
	ID      int        `json:"id"`
	White   string     `json:"white"`
	Black   string     `json:"black"`
	Opening string     `json:"opening"`
	Plies   int        `json:"plies"`
	Seconds float64    `json:"seconds"` // since it started
	Ply     viewer.Ply `json:"ply"`     // the current position
	Turn    string     `json:"turn"`
}

// follower is the state Run keeps: the journal read so far and what it
// holds.
type follower struct {
	s        *Server
	journal  string
	offset   int64  // journal bytes consumed (complete lines)
	partial  []byte // an incomplete last line
	manifest *tournament.Manifest
	list     []viewer.Summary
	games    []rating.Game
	forfeits map[string]int
	seen     map[int]bool

	started     time.Time
	startCount  int
	firstNew    time.Time
	lastNew     time.Time
	listDirty   bool
	listBuilt   time.Time
	listDur     time.Duration
	analysis    *rating.Analysis
	analyzed    int
	analyzing   bool
	analysisDur time.Duration
	lastAnalyze time.Time
	results     chan analysisResult
	err         string

	flights map[int]*flightState // positions of the games in flight
}

type flightState struct {
	st    game.State
	plies int
	ply   viewer.Ply
	bad   bool
}

type analysisResult struct {
	a   *rating.Analysis
	n   int
	dur time.Duration
	err error
}

// Run follows the directory until ctx is done, then stops the page's
// streams and returns ctx's error. It waits for the directory's manifest
// if there is none yet.
func (s *Server) Run(ctx context.Context) error {
	defer close(s.done)
	f := &follower{
		s: s, journal: filepath.Join(s.dir, tournament.JournalFile),
		forfeits: map[string]int{}, seen: map[int]bool{}, started: time.Now(),
		results: make(chan analysisResult, 1), flights: map[int]*flightState{},
	}
	tick := time.NewTicker(s.opts.Interval)
	defer tick.Stop()
	first := true
	for {
		changed := f.step()
		if changed || first || s.dirty.Swap(false) {
			f.publish()
			first = false
		}
		select {
		case <-ctx.Done():
			if f.analyzing {
				<-f.results // the analysis goroutine sends exactly one result
			}
			return ctx.Err()
		case r := <-f.results:
			f.analyzing = false
			f.analysisDur, f.lastAnalyze = r.dur, time.Now()
			if r.err != nil {
				f.err = r.err.Error()
			} else {
				f.analysis, f.analyzed, f.err = r.a, r.n, ""
			}
			f.publish()
		case <-tick.C:
		}
	}
}

// step reads the manifest (until there is one) and the journal's new
// lines, and starts an analysis when one is due. It reports whether
// anything changed.
func (f *follower) step() bool {
	changed := false
	if f.manifest == nil {
		m, err := tournament.ReadManifest(f.s.dir)
		switch {
		case err == nil:
			f.manifest, changed = m, true
			f.s.manifest.Store(m)
		case errors.Is(err, os.ErrNotExist):
			return false
		default:
			if f.err != err.Error() {
				f.err, changed = err.Error(), true
			}
			return changed
		}
	}
	if n, err := f.readJournal(); err != nil {
		if f.err != err.Error() {
			f.err, changed = err.Error(), true
		}
	} else if n > 0 {
		changed = true
	}
	f.maybeAnalyze()
	if f.listDue() {
		changed = true // publish rebuilds the list
	}
	return changed
}

// listDue reports whether the game list is to be rebuilt: it has new
// games and was built long enough ago (half a second, or ten times as
// long as building it took: with many games it is the largest thing the
// page fetches).
func (f *follower) listDue() bool {
	return f.manifest != nil && (f.listBuilt.IsZero() || f.listDirty && time.Since(f.listBuilt) >= max(500*time.Millisecond, 10*f.listDur))
}

// maxRead bounds the journal bytes read in one step.
const maxRead = 8 << 20

// readJournal reads the complete lines added to the journal since the
// last call and returns how many games they held.
func (f *follower) readJournal() (int, error) {
	file, err := os.Open(f.journal)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return 0, err
	}
	end := f.offset + int64(len(f.partial))
	if fi.Size() < f.offset {
		// The journal was cut shorter than what was read (a new
		// tournament in the directory): start over.
		*f = follower{s: f.s, journal: f.journal, manifest: nil, forfeits: map[string]int{}, seen: map[int]bool{},
			started: time.Now(), results: f.results, analyzing: f.analyzing, flights: f.flights}
		f.s.imu.Lock()
		f.s.index = map[int]span{}
		f.s.imu.Unlock()
		return 1, nil
	}
	if fi.Size() <= end {
		return 0, nil
	}
	buf := make([]byte, min(fi.Size()-end, maxRead))
	n, err := file.ReadAt(buf, end)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	data := append(f.partial, buf[:n]...)
	games := 0
	for {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			break
		}
		line := data[:nl+1]
		off := f.offset
		f.offset += int64(len(line))
		data = data[nl+1:]
		recs, _, err := tournament.DecodeJournal(line)
		if err != nil || len(recs) != 1 || f.seen[recs[0].ID] {
			continue // damaged or repeated: the journal reader says so elsewhere
		}
		f.add(&recs[0], span{off: off, n: len(line)})
		games++
	}
	f.partial = append([]byte(nil), data...)
	return games, nil
}

// add takes in a finished game.
func (f *follower) add(r *tournament.Record, sp span) {
	f.seen[r.ID] = true
	f.s.imu.Lock()
	f.s.index[r.ID] = sp
	f.s.imu.Unlock()
	f.list = append(f.list, tournament.ViewSummary(r))
	f.games = append(f.games, tournament.RatingGames([]tournament.Record{*r})...)
	if r.Forfeit != nil {
		f.forfeits[r.Forfeit.Bot]++
	}
	f.listDirty = true
	now := time.Now()
	if f.firstNew.IsZero() {
		f.firstNew, f.startCount = now, len(f.list)-1
	}
	f.lastNew = now
}

// maybeAnalyze starts a rating analysis of the games so far when there
// are new ones and the last one is old enough (half a second, or five
// times as long as the last one took, so that a large tournament's
// analysis never takes more than a fifth of a core).
func (f *follower) maybeAnalyze() {
	if f.analyzing || len(f.games) == f.analyzed || len(f.games) == 0 || f.manifest == nil {
		return
	}
	if time.Since(f.lastAnalyze) < max(500*time.Millisecond, 5*f.analysisDur) && f.analyzed > 0 {
		return
	}
	games := f.games[:len(f.games):len(f.games)]
	opt := tournament.RatingOptions(f.manifest)
	f.analyzing = true
	go func() { // sends exactly one result; Run receives it
		start := time.Now()
		a, err := rating.Analyze(games, opt)
		f.results <- analysisResult{a: a, n: len(games), dur: time.Since(start), err: err}
	}()
}

// publish builds and publishes a snapshot.
func (f *follower) publish() {
	st := State{Updated: time.Now().UTC(), InRun: f.s.opts.InRun, Error: f.err, Flights: []Flight{}, Standings: []Standing{}}
	if m := f.manifest; m != nil {
		st.Name, st.Game, st.Total = m.Name, m.Game, m.Games
		st.Rules = "preset " + m.Preset
		for _, kv := range m.Rules {
			st.Rules += ", " + kv.Key + " " + kv.Value
		}
	}
	st.Finished = len(f.list)
	if n := len(f.list) - f.startCount; n >= 2 && f.lastNew.After(f.firstNew) {
		st.Rate = float64(n-1) / f.lastNew.Sub(f.firstNew).Seconds()
		if left := st.Total - st.Finished; left > 0 {
			st.ETA = float64(left) / st.Rate
		}
	}
	f.standings(&st)
	f.flightsState(&st)
	state, err := json.Marshal(st)
	if err != nil {
		state = []byte(`{"error":"cannot encode the state"}`)
	}
	var list []byte
	if f.listDue() {
		list = f.buildList()
	}
	f.s.publish(state, list)
}

func (f *follower) buildList() []byte {
	start := time.Now()
	defer func() { f.listDur = time.Since(start) }()
	f.listDirty, f.listBuilt = false, start
	slices.SortFunc(f.list, func(a, b viewer.Summary) int { return cmp.Compare(a.ID, b.ID) })
	l := viewer.NewList(f.manifest.Game)
	for _, s := range f.list {
		l.Add(s)
	}
	data, err := json.Marshal(l)
	if err != nil {
		return nil
	}
	return data
}

func (f *follower) standings(st *State) {
	a := f.analysis
	if a == nil {
		if f.manifest != nil {
			for i, b := range f.manifest.Bots {
				st.Standings = append(st.Standings, Standing{Rank: i + 1, Name: b})
			}
		}
		return
	}
	st.Analyzed = a.Games
	st.Level = fmt.Sprintf("%g%%", 100*a.Confidence)
	listed := map[string]bool{}
	for _, p := range a.Players {
		listed[p.Name] = true
		st.Standings = append(st.Standings, Standing{
			Rank: p.Rank, Name: p.Name, Elo: p.Elo, Interval: p.Interval, Games: p.Games,
			Wins: p.Wins, Draws: p.Draws, Losses: p.Losses, Points: p.Points, Score: p.Score,
			Forfeits: f.forfeits[p.Name],
		})
	}
	// Bots without a finished game yet come last, unrated.
	if f.manifest != nil {
		for _, b := range f.manifest.Bots {
			if !listed[b] {
				st.Standings = append(st.Standings, Standing{Rank: len(st.Standings) + 1, Name: b})
			}
		}
	}
	sb := a.SideBalance
	st.Side = &Side{
		FirstMover: sb.FirstMover, Games: sb.Games, Wins: sb.Wins, Draws: sb.Draws, Losses: sb.Losses,
		Score: sb.Score, Low: sb.ScoreLow, High: sb.ScoreHigh, Forfeits: sb.Forfeits,
	}
}

// flightsState brings the positions of the games in flight up to date
// (replaying new moves with the rules) and lists them.
func (f *follower) flightsState(st *State) {
	if !f.s.opts.InRun {
		return
	}
	type copied struct {
		rec   tournament.Record
		start time.Time
	}
	f.s.fmu.Lock()
	cur := make([]copied, 0, len(f.s.flights))
	for _, fl := range f.s.flights {
		// The moves slice is only ever appended to: its first len
		// elements stay as they are.
		cur = append(cur, copied{fl.rec, fl.start})
	}
	f.s.fmu.Unlock()
	slices.SortFunc(cur, func(a, b copied) int { return cmp.Compare(a.rec.ID, b.rec.ID) })
	live := make(map[int]bool, len(cur))
	for i := range cur {
		r := &cur[i].rec
		live[r.ID] = true
		fs := f.flights[r.ID]
		if fs == nil {
			fs = &flightState{}
			rules, err := tournament.RulesOf(r)
			if err != nil {
				fs.bad = true
			} else {
				fs.st = rules.Start()
				fs.ply = viewer.Start(fs.st)
				for _, m := range r.Opening.Moves {
					p, err := viewer.Step(fs.st, m)
					if err != nil {
						fs.bad = true
						break
					}
					fs.ply = p
				}
			}
			f.flights[r.ID] = fs
		}
		for ; !fs.bad && fs.plies < len(r.Moves); fs.plies++ {
			p, err := viewer.Step(fs.st, r.Moves[fs.plies].Move)
			if err != nil {
				fs.bad = true
				break
			}
			fs.ply = p
		}
		if i >= maxFlightsShown || fs.bad {
			st.MoreFlights++
			continue
		}
		st.Flights = append(st.Flights, Flight{
			ID: r.ID, White: r.White, Black: r.Black, Opening: tournament.OpeningLabel(r),
			Plies: len(r.Opening.Moves) + fs.plies, Seconds: time.Since(cur[i].start).Seconds(),
			Ply: fs.ply, Turn: fs.st.Turn().String(),
		})
	}
	for id := range f.flights {
		if !live[id] {
			delete(f.flights, id)
		}
	}
}

// gameJSON returns the viewer's JSON of game id: a game in flight as far
// as it went, or a finished game from the journal.
func (s *Server) gameJSON(id int) ([]byte, error) {
	if s.opts.InRun {
		s.fmu.Lock()
		fl := s.flights[id]
		var rec tournament.Record
		if fl != nil {
			rec = fl.rec
		}
		s.fmu.Unlock()
		if fl != nil {
			rec.Result = game.Ongoing.String()
			g, err := tournament.ViewGame(&rec)
			if err != nil {
				return nil, err
			}
			g.Clocks = tournament.ViewClocks(s.manifest.Load(), &rec)
			return json.Marshal(g)
		}
	}
	s.imu.Lock()
	sp, ok := s.index[id]
	s.imu.Unlock()
	if !ok {
		return nil, errNoGame
	}
	file, err := os.Open(filepath.Join(s.dir, tournament.JournalFile))
	if err != nil {
		return nil, err
	}
	defer file.Close()
	line := make([]byte, sp.n)
	if _, err := file.ReadAt(line, sp.off); err != nil {
		return nil, fmt.Errorf("read game %d: %w", id, err)
	}
	recs, _, err := tournament.DecodeJournal(line)
	if err != nil || len(recs) != 1 || recs[0].ID != id {
		return nil, fmt.Errorf("game %d: the journal changed under the server", id)
	}
	g, err := tournament.ViewGame(&recs[0])
	if err != nil {
		return nil, err
	}
	g.Clocks = tournament.ViewClocks(s.manifest.Load(), &recs[0])
	return json.Marshal(g)
}

var errNoGame = errors.New("no such game")
