package live

import (
	"bufio"
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

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/tempfile"
	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
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

	// The finished games, where their journal lines are (for /api/game)
	// and their list, kept out of memory; nil until the first game.
	imu  sync.Mutex
	list *dirreport.GameList

	// The newest snapshot, and a channel closed when it is replaced.
	smu     sync.Mutex
	snap    *snapshot
	changed chan struct{}

	done     chan struct{} // closed when Run returns
	clients  atomic.Int32
	manifest atomic.Pointer[journal.Manifest]
}

// span is a line of the journal.
type span struct {
	off int64
	n   int
}

// listData is an encoded game list (the JSON of a viewer.List) in a
// temporary file, shared by the snapshot that holds it and the requests
// sending it: the last of them to let go closes it.
type listData struct {
	f    *os.File // nil for a list that is not there yet, "null"
	size int64
	refs atomic.Int32
}

// noList is the list before there is one.
var noList = &listData{}

// hold takes a reference to l.
func (l *listData) hold() *listData {
	l.refs.Add(1)
	return l
}

// release lets go of a reference to l.
func (l *listData) release() {
	if l.refs.Add(-1) == 0 && l.f != nil {
		l.f.Close()
	}
}

// writeTo sends the list.
func (l *listData) writeTo(w io.Writer) error {
	if l.f == nil {
		_, err := io.WriteString(w, "null")
		return err
	}
	_, err := io.Copy(w, io.NewSectionReader(l.f, 0, l.size))
	return err
}

// flight is a game in flight as the Observer methods record it.
type flight struct {
	rec   journal.Record // players and opening; Moves grows
	start time.Time
}

// snapshot is what the page is sent: its state and game list, encoded.
type snapshot struct {
	version uint64
	state   []byte    // JSON of State
	list    *listData // JSON of viewer.List; the snapshot holds a reference
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
		changed: make(chan struct{}),
		done:    make(chan struct{}),
	}
	s.snap = &snapshot{state: []byte(`{"waiting":true}`), list: noList.hold()}
	return s
}

// GameStarted records a game in flight (tournament.Observer).
func (s *Server) GameStarted(rec journal.Record) {
	rec.Moves = nil
	f := &flight{rec: rec, start: time.Now()}
	s.fmu.Lock()
	s.flights[rec.ID] = f
	s.fmu.Unlock()
	s.dirty.Store(true)
}

// Moved records a move of a game in flight (tournament.Observer).
func (s *Server) Moved(id int, m journal.MoveRecord) {
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

// dropList lets go of the game list, when Run ends.
func (s *Server) dropList() {
	s.smu.Lock()
	defer s.smu.Unlock()
	s.snap.list.release()
	s.snap.list = noList.hold()
}

// currentList returns the newest snapshot's game list, held: release it
// once sent.
func (s *Server) currentList() *listData {
	s.smu.Lock()
	defer s.smu.Unlock()
	return s.snap.list.hold()
}

// current returns the newest snapshot and a channel closed when there is
// a newer one.
func (s *Server) current() (*snapshot, <-chan struct{}) {
	s.smu.Lock()
	defer s.smu.Unlock()
	return s.snap, s.changed
}

// publish publishes a new snapshot; a nil list keeps the last one, which
// the new snapshot then holds instead of the old.
func (s *Server) publish(state []byte, list *listData) {
	s.smu.Lock()
	defer s.smu.Unlock()
	if list == nil {
		list = s.snap.list
	} else {
		s.snap.list.release()
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
// holds. Its memory does not grow with the games: they are counted, their
// list is kept in a temporary file (Server.list), and the rating analysis
// runs on a tally.
type follower struct {
	s        *Server
	journal  string
	offset   int64 // journal bytes consumed (complete lines)
	partial  int64 // bytes read of an incomplete last line, after offset
	manifest *journal.Manifest
	finished int // games in the journal
	forfeits map[string]int

	// The games to rate go to tally, except while an analysis of tally
	// runs: then they wait in pending.
	tally    *rating.Tally
	tallyErr error // the first game the tally refused
	rated    int   // games given to the tally or pending
	pending  []rating.Game

	started time.Time
	// The rate counts the games that came while the page followed the
	// journal: backlog is the journal's size when first read (-1 before),
	// and the games whose lines lie before it were played earlier (a
	// resumed run's, or those of a run another process is playing), at
	// a speed nobody saw. newGames counts the others, from firstNew to
	// lastNew.
	backlog     int64
	newGames    int
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
		s: s, journal: filepath.Join(s.dir, journal.File),
		forfeits: map[string]int{}, tally: new(rating.Tally), started: time.Now(), backlog: -1,
		results: make(chan analysisResult, 1), flights: map[int]*flightState{},
	}
	tick := time.NewTicker(s.opts.Interval)
	defer tick.Stop()
	defer s.closeList()
	defer s.dropList()
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
			f.takePending()
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
		m, err := journal.ReadManifest(f.s.dir)
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
		if f.backlog < 0 {
			f.backlog = 0 // every game to come is new
		}
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
	end := f.offset + f.partial
	if fi.Size() < f.offset {
		// The journal was cut shorter than what was read (a new
		// tournament in the directory): start over.
		*f = follower{s: f.s, journal: f.journal, manifest: nil, forfeits: map[string]int{}, tally: new(rating.Tally),
			started: time.Now(), results: f.results, analyzing: f.analyzing, flights: f.flights, backlog: -1}
		f.s.closeList()
		return 1, nil
	}
	if f.backlog < 0 {
		f.backlog = fi.Size()
	}
	if fi.Size() == end {
		return 0, nil
	}
	// The line begun after the last complete one is read again: a resume
	// may have cut it off (a torn last line) and written another there.
	buf := make([]byte, min(fi.Size()-f.offset, f.partial+maxRead))
	n, err := file.ReadAt(buf, f.offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	data := buf[:n]
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
		recs, _, err := journal.Decode(line)
		if err != nil || len(recs) != 1 {
			continue // damaged: the journal reader says so elsewhere
		}
		if added, err := f.add(&recs[0], span{off: off, n: len(line)}); err != nil {
			// The game is not taken in (its list could not be written):
			// read its line again next time.
			f.offset, f.partial = off, 0
			return games, err
		} else if added {
			games++
		}
	}
	f.partial = int64(len(data))
	return games, nil
}

// add takes in a finished game, unless it came already (a repeated game:
// the journal reader says so elsewhere).
func (f *follower) add(r *journal.Record, sp span) (bool, error) {
	if added, err := f.s.addGame(r, sp); !added || err != nil {
		return false, err
	}
	f.finished++
	if g, ok := dirreport.RatingGame(r); ok {
		f.rated++
		if f.analyzing {
			f.pending = append(f.pending, g)
		} else {
			f.rate(g)
		}
	}
	if r.Forfeit != nil {
		f.forfeits[r.Forfeit.Bot]++
	}
	f.listDirty = true
	if sp.off < f.backlog {
		return true, nil
	}
	now := time.Now()
	if f.newGames == 0 {
		f.firstNew = now
	}
	f.newGames++
	f.lastNew = now
	return true, nil
}

// rate adds a game to the tally.
func (f *follower) rate(g rating.Game) {
	if err := f.tally.Add(g); err != nil && f.tallyErr == nil {
		f.tallyErr = fmt.Errorf("game %d: %w", f.tally.Games()+1, err)
	}
}

// takePending adds the games that came during an analysis to the tally.
func (f *follower) takePending() {
	for _, g := range f.pending {
		f.rate(g)
	}
	f.pending = nil
}

// addGame adds a finished game to the list, unless it is there already.
func (s *Server) addGame(r *journal.Record, sp span) (bool, error) {
	s.imu.Lock()
	defer s.imu.Unlock()
	if s.list == nil {
		l, err := dirreport.NewGameList(s.dir)
		if err != nil {
			return false, err
		}
		s.list = l
	}
	if s.list.Has(r.ID) {
		return false, nil
	}
	return true, s.list.Add(r, sp.off, sp.n)
}

// closeList frees the list of finished games.
func (s *Server) closeList() {
	s.imu.Lock()
	defer s.imu.Unlock()
	if s.list != nil {
		s.list.Close()
		s.list = nil
	}
}

// maybeAnalyze starts a rating analysis of the games so far when there
// are new ones and the last one is old enough (half a second, or five
// times as long as the last one took, so that a large tournament's
// analysis never takes more than a fifth of a core).
func (f *follower) maybeAnalyze() {
	if f.analyzing || f.rated == f.analyzed || f.rated == 0 || f.manifest == nil {
		return
	}
	if time.Since(f.lastAnalyze) < max(500*time.Millisecond, 5*f.analysisDur) && f.analyzed > 0 {
		return
	}
	t, n, tallyErr := f.tally, f.rated, f.tallyErr
	opt := dirreport.RatingOptions(f.manifest)
	// The tally is the analysis's until its result comes.
	f.analyzing = true
	go func() { // sends exactly one result; Run receives it
		start := time.Now()
		var a *rating.Analysis
		err := tallyErr
		if err == nil {
			a, err = t.Analyze(opt)
		}
		f.results <- analysisResult{a: a, n: n, dur: time.Since(start), err: err}
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
	st.Finished = f.finished
	if n := f.newGames; n >= 2 && f.lastNew.After(f.firstNew) {
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
	var list *listData
	if f.listDue() {
		list = f.buildList()
	}
	f.s.publish(state, list)
}

// buildList writes the list of finished games, in the order of their
// IDs, to a temporary file; nil when that fails (the page keeps the last
// list).
func (f *follower) buildList() *listData {
	start := time.Now()
	defer func() { f.listDur = time.Since(start) }()
	f.listDirty, f.listBuilt = false, start
	l, err := f.s.writeList(f.manifest.Game)
	if err != nil {
		f.err = err.Error()
		return nil
	}
	return l
}

// writeList encodes the list of finished games.
func (s *Server) writeList(gameName string) (*listData, error) {
	s.imu.Lock()
	defer s.imu.Unlock()
	if s.list == nil {
		return noList.hold(), nil
	}
	file, err := tempfile.New(s.dir, ".live-games-*")
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(file, 256<<10)
	err = s.list.WriteJSON(w, gameName)
	if err == nil {
		err = w.Flush()
	}
	var size int64
	if err == nil {
		size, err = file.Seek(0, io.SeekCurrent)
	}
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("game list: %w", err)
	}
	l := &listData{f: file, size: size}
	return l.hold(), nil
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
		rec   journal.Record
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
			rules, err := journal.RulesOf(r)
			if err == nil {
				fs.st, err = r.StartState(rules)
			}
			if err != nil {
				fs.bad = true
			} else {
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
			ID: r.ID, White: r.White, Black: r.Black, Opening: journal.OpeningLabel(r),
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
		var rec journal.Record
		if fl != nil {
			rec = fl.rec
		}
		s.fmu.Unlock()
		if fl != nil {
			rec.Result = game.Ongoing.String()
			g, err := dirreport.ViewGame(&rec)
			if err != nil {
				return nil, err
			}
			g.Clocks = dirreport.ViewClocks(s.manifest.Load(), &rec)
			return json.Marshal(g)
		}
	}
	s.imu.Lock()
	var (
		sp  span
		ok  bool
		err error
	)
	if s.list != nil {
		sp.off, sp.n, ok, err = s.list.Line(id)
	}
	s.imu.Unlock()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNoGame
	}
	file, err := os.Open(filepath.Join(s.dir, journal.File))
	if err != nil {
		return nil, err
	}
	defer file.Close()
	line := make([]byte, sp.n)
	if _, err := file.ReadAt(line, sp.off); err != nil {
		return nil, fmt.Errorf("read game %d: %w", id, err)
	}
	recs, _, err := journal.Decode(line)
	if err != nil || len(recs) != 1 || recs[0].ID != id {
		return nil, fmt.Errorf("game %d: the journal changed under the server", id)
	}
	g, err := dirreport.ViewGame(&recs[0])
	if err != nil {
		return nil, err
	}
	g.Clocks = dirreport.ViewClocks(s.manifest.Load(), &recs[0])
	return json.Marshal(g)
}

var errNoGame = errors.New("no such game")
