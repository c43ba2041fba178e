package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/tournament"
)

// WorkerOptions configures a worker (RunWorker).
type WorkerOptions struct {
	// URL names the NATS server (nats://HOST:PORT, see ParseURL).
	URL string
	// Name names the worker to its coordinators; it must differ from the
	// other workers' ("" means HOST-PID).
	Name string
	// Dir is the directory the configurations' relative paths (the
	// bots' commands and directories) are resolved against; "" means the
	// working directory.
	Dir string
	// Logs is the directory of the bots' logs, a subdirectory per
	// tournament; "" means one under the system's temporary directory.
	Logs string
	// Concurrency is how many games are played at a time; 0 means the
	// configuration's (by default, the CPUs the worker may use). For a
	// solve, how many units are solved at a time (0: the CPUs).
	Concurrency int
	// SolveMemory is the size in bytes of the transposition table the
	// units of a solve share (solve.DefaultTableBytes when 0).
	SolveMemory int64
	// Self is the arena executable, for the built-in bots.
	Self string
	// Once ends the worker when the first tournament it served is over,
	// or when it cannot play it (an error then).
	Once bool
	// Version is the arena's version, told to the coordinators.
	Version string
	// Log gets the worker's notices.
	Log func(msg string)
}

// ErrCannotPlay is wrapped by the error of a worker with Once that could
// not play its tournament (a bot missing or failing its check).
var ErrCannotPlay = errors.New("cannot play the tournament")

// RunWorker serves tournaments until ctx is done (or, with Once, until its
// tournament is over): it watches the tournaments declared on the NATS
// server, takes batches of the oldest it can play, plays them with the
// bots its configuration names and returns each game to the coordinator
// as the journal record it would have written itself. A worker that
// cannot start a bot says so to the coordinator and takes none of that
// tournament's batches. When ctx is done, the games in flight are
// abandoned and their batches handed back at once.
func RunWorker(ctx context.Context, opts WorkerOptions) error {
	servers, l, err := ParseURL(opts.URL)
	if err != nil {
		return err
	}
	if l != nil {
		return fmt.Errorf("%w: a worker connects to a server: nats://HOST:PORT, not listen://", ErrURL)
	}
	if opts.Name == "" {
		host, _ := os.Hostname()
		opts.Name = host + "-" + strconv.Itoa(os.Getpid())
	}
	if opts.Logs == "" {
		opts.Logs = filepath.Join(os.TempDir(), "arena-worker-"+config.SafeFileName(opts.Name))
	}
	if opts.Log == nil {
		opts.Log = func(string) {}
	}
	w := &worker{opts: opts, failed: map[string]bool{}, changed: make(chan struct{}, 1), tournaments: map[string]info{}}
	nc, err := connect(ctx, servers, "arena worker "+opts.Name, true, opts.Log)
	if err != nil {
		return err
	}
	defer nc.Close()
	w.nc = nc
	if w.js, err = jetstream.New(nc); err != nil {
		return fmt.Errorf("JetStream: %w", err)
	}
	kv, err := w.bucket(ctx)
	if err != nil {
		return err
	}
	watcher, err := kv.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("watch the tournaments: %w", err)
	}
	defer watcher.Stop()
	go w.watch(watcher) // ends when the watcher stops
	w.logf("worker %s connected to NATS at %s", opts.Name, nc.ConnectedUrlRedacted())
	return w.serve(ctx)
}

// worker is the state of RunWorker.
type worker struct {
	opts WorkerOptions
	nc   *nats.Conn
	js   jetstream.JetStream

	mu          sync.Mutex
	tournaments map[string]info // declared, by ID
	failed      map[string]bool // tournaments this worker cannot play
	changed     chan struct{}   // a tournament came, went or changed state
}

func (w *worker) logf(format string, args ...any) { w.opts.Log(fmt.Sprintf(format, args...)) }

// bucket waits until the tournaments' bucket exists: until a coordinator
// has connected once.
func (w *worker) bucket(ctx context.Context) (jetstream.KeyValue, error) {
	for said := false; ; said = true {
		kv, err := w.js.KeyValue(ctx, TournamentBucket)
		if err == nil {
			return kv, nil
		}
		if !said {
			w.logf("waiting for a coordinator (%v)", err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// watch keeps w.tournaments up to date.
func (w *worker) watch(watcher jetstream.KeyWatcher) {
	for e := range watcher.Updates() {
		if e == nil {
			continue // the end of the initial values
		}
		w.mu.Lock()
		var t info
		if e.Operation() != jetstream.KeyValuePut || json.Unmarshal(e.Value(), &t) != nil {
			delete(w.tournaments, e.Key())
		} else {
			w.tournaments[e.Key()] = t
		}
		w.mu.Unlock()
		select {
		case w.changed <- struct{}{}:
		default:
		}
	}
}

// state returns a tournament's state: "" once it is gone.
func (w *worker) state(id string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tournaments[id].State
}

// pick returns the oldest running tournament the worker may play.
func (w *worker) pick() (info, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var list []info
	for _, t := range w.tournaments {
		if t.State == stateRunning && !w.failed[t.ID] {
			list = append(list, t)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Created.Before(list[j].Created) })
	if len(list) == 0 {
		return info{}, false
	}
	return list[0], true
}

// serve plays tournaments one after the other.
func (w *worker) serve(ctx context.Context) error {
	waiting := false
	for {
		t, ok := w.pick()
		if !ok {
			if !waiting {
				w.logf("waiting for a tournament")
				waiting = true
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-w.changed:
			}
			continue
		}
		waiting = false
		err := w.play(ctx, t)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			w.mu.Lock()
			w.failed[t.ID] = true
			w.mu.Unlock()
			w.logf("cannot play %s (%s): %v", t.Name, t.ID, err)
			w.tell(ctx, t.ID, workerState{Event: eventFailed, Detail: err.Error()})
			if w.opts.Once {
				return fmt.Errorf("%w %s: %w", ErrCannotPlay, t.Name, err)
			}
			continue
		}
		if w.opts.Once {
			return nil
		}
	}
}

// tell sends the worker's state to a tournament's coordinator.
func (w *worker) tell(ctx context.Context, id string, ws workerState) {
	ws.Tournament, ws.Worker, ws.Version = id, w.opts.Name, w.opts.Version
	data, err := json.Marshal(ws)
	if err != nil {
		return
	}
	m := nats.NewMsg(resultSubject(id))
	m.Header.Set(kindHeader, kindWorker)
	m.Data = data
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if _, err := w.js.PublishMsg(pctx, m); err != nil {
		w.logf("could not tell the coordinator of %s that this worker is %s: %v", id, ws.Event, err)
	}
}

// play serves one tournament until it is over (or stopped) or ctx is
// done. An error means the worker cannot play it.
func (w *worker) play(ctx context.Context, t info) error {
	if t.Version != Version {
		return fmt.Errorf("the coordinator speaks version %d, this worker %d: run the same arena on both", t.Version, Version)
	}
	if t.Kind == kindSolve {
		return w.solve(ctx, t)
	}
	dir := w.opts.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return err
		}
	}
	cfg, err := config.Parse([]byte(t.Config), t.ConfigName, dir)
	if err != nil {
		return err
	}
	s := &session{w: w, t: t, ctx: ctx, held: map[*held]bool{}}
	var obs tournament.Observer
	if t.Live {
		obs = liveObserver{nc: w.nc, subject: liveSubject(t.ID)}
	}
	player, err := tournament.NewPlayer(ctx, cfg, tournament.PlayerOptions{
		Concurrency: w.opts.Concurrency, Logs: filepath.Join(w.opts.Logs, t.ID), Self: w.opts.Self,
		Notice: func(msg string) { w.logf("%s: %s", t.Name, msg) }, Observer: obs,
	})
	if err != nil {
		return err
	}
	defer player.Close()
	if s.cons, err = w.js.Consumer(ctx, BatchStream, batchConsumer(t.ID)); err != nil {
		return nil // gone already: over
	}
	w.logf("playing %s (%s), %d games at a time; bot logs in %s", t.Name, t.ID, player.Concurrency(), filepath.Join(w.opts.Logs, t.ID))
	w.tell(ctx, t.ID, workerState{Event: eventReady, Concurrency: player.Concurrency()})
	hctx, stopBeats := context.WithCancel(ctx)
	beats := make(chan struct{})
	go func() { // ends when hctx is canceled
		defer close(beats)
		s.heartbeat(hctx)
	}()
	player.Play(ctx, s.next, s.record)
	stopBeats()
	<-beats
	s.finish(ctx)
	if ctx.Err() != nil {
		w.tell(ctx, t.ID, workerState{Event: eventLeft})
	} else {
		w.logf("%s (%s) is over: %d games played here", t.Name, t.ID, s.played)
	}
	return nil
}

// session is the play of one tournament by a worker.
type session struct {
	w    *worker
	t    info
	cons jetstream.Consumer
	ctx  context.Context // the worker's: done when it stops

	graceAt atomic.Int64 // see graceEnd

	fetch sync.Mutex // one fetch at a time

	mu     sync.Mutex
	queue  []queued       // games of batches held, not started
	held   map[*held]bool // batches held, not finished
	played int
}

// held is a batch a worker holds.
type held struct {
	msg   jetstream.Msg
	b     batch
	left  int  // games neither returned nor dropped
	drop  bool // games were dropped: the tournament stopped
	games map[int]bool
}

// playID names the play of a game of the batch by a worker, for the
// stream to keep one copy of its result however often it is sent: the
// same game played again (the batch delivered again, or the game handed
// out again) is another play.
func (h *held) playID(worker string, game int) string {
	seq, n := uint64(0), uint64(0)
	if md, err := h.msg.Metadata(); err == nil {
		seq, n = md.Sequence.Stream, md.NumDelivered
	}
	return fmt.Sprintf("%s.%d.%d.%d.%s", h.b.Tournament, game, seq, n, worker)
}

type queued struct {
	h *held
	g batchGame
}

// next returns the next game to play: the next of a batch held, or of a
// batch fetched. It returns false once the tournament is stopped or gone,
// or ctx is done.
func (s *session) next(ctx context.Context) (tournament.Game, bool) {
	for ctx.Err() == nil {
		if s.w.state(s.t.ID) != stateRunning {
			s.dropQueued()
			return tournament.Game{}, false
		}
		s.mu.Lock()
		if len(s.queue) > 0 {
			q := s.queue[0]
			s.queue = s.queue[1:]
			s.mu.Unlock()
			return q.g.game(), true
		}
		s.mu.Unlock()
		s.fetchBatch(ctx)
	}
	return tournament.Game{}, false
}

// fetchBatch takes one batch from the stream, waiting a little for one.
func (s *session) fetchBatch(ctx context.Context) {
	s.fetch.Lock()
	defer s.fetch.Unlock()
	s.mu.Lock()
	queued := len(s.queue)
	s.mu.Unlock()
	if queued > 0 {
		return // another slot fetched one
	}
	fctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	msgs, err := s.cons.Fetch(1, jetstream.FetchContext(fctx))
	if err != nil {
		if errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrConsumerDeleted) {
			s.w.mu.Lock()
			delete(s.w.tournaments, s.t.ID) // removed: the tournament is over
			s.w.mu.Unlock()
			return
		}
		select { // not connected, say: do not spin
		case <-fctx.Done():
		case <-ctx.Done():
		}
		return
	}
	for m := range msgs.Messages() {
		s.take(m)
	}
}

// take queues the games of a batch fetched.
func (s *session) take(m jetstream.Msg) {
	var b batch
	if err := json.Unmarshal(m.Data(), &b); err != nil || b.Tournament != s.t.ID || b.Fingerprint != s.t.Fingerprint {
		s.w.logf("%s: a batch that is not this tournament's (%v); dropped", s.t.Name, err)
		m.TermWithReason("not a batch of this tournament")
		return
	}
	if s.w.state(s.t.ID) != stateRunning {
		m.TermWithReason("tournament stopped")
		return
	}
	h := &held{msg: m, b: b, left: len(b.Games), games: map[int]bool{}}
	s.mu.Lock()
	s.held[h] = true
	for _, g := range b.Games {
		s.queue = append(s.queue, queued{h: h, g: g})
		h.games[g.ID] = true
	}
	s.mu.Unlock()
	if md, err := m.Metadata(); err == nil && md.NumDelivered > 1 {
		s.w.logf("%s: %s again (delivery %d: the worker that had it went silent)", s.t.Name, label(b.ids()), md.NumDelivered)
	}
}

// dropQueued drops the games not started, once the tournament is stopped.
func (s *session) dropQueued() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, q := range s.queue {
		q.h.drop = true
		q.h.left--
	}
	s.queue = nil
	s.finishDone()
}

// record returns a game played to the coordinator; the batch goes once
// its last game has.
func (s *session) record(rec *journal.Record) {
	s.mu.Lock()
	var h *held
	for x := range s.held {
		if x.games[rec.ID] {
			h = x
			break
		}
	}
	s.mu.Unlock()
	if h == nil {
		return // not reached: every game comes from a batch held
	}
	if s.send(h, rec) {
		s.mu.Lock()
		s.played++
		h.left--
		s.finishDone()
		s.mu.Unlock()
	}
}

// send publishes a game's result, trying again until the stream has it:
// a game finished is worth waiting for, for a while, and for stopGrace
// more once the worker is stopping (the coordinator plays it again).
func (s *session) send(h *held, rec *journal.Record) bool {
	data, err := json.Marshal(result{
		Tournament: s.t.ID, Fingerprint: s.t.Fingerprint, Worker: s.w.opts.Name,
		Batch: h.b.ids(), Token: h.b.Token, Record: rec,
	})
	if err != nil {
		s.w.logf("%s: game %d: %v", s.t.Name, rec.ID, err)
		return false
	}
	m := nats.NewMsg(resultSubject(s.t.ID))
	m.Header.Set(kindHeader, kindGame)
	// The stream keeps one copy of a message sent twice (a retry after a
	// lost acknowledgement).
	m.Header.Set(jetstream.MsgIDHeader, h.playID(s.w.opts.Name, rec.ID))
	m.Data = data
	deadline := time.Now().Add(10 * time.Minute)
	for wait := 200 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		if s.ctx.Err() != nil {
			// The worker stops: a short grace, not the whole wait.
			if end := s.graceEnd(); end.Before(deadline) {
				deadline = end
			}
		}
		try := time.Now().Add(10 * time.Second)
		if deadline.Before(try) {
			try = deadline
		}
		pctx, cancel := context.WithDeadline(context.Background(), try)
		_, err := s.w.js.PublishMsg(pctx, m)
		cancel()
		if err == nil {
			return true
		}
		if !time.Now().Add(wait).Before(deadline) {
			s.w.logf("%s: game %d could not be sent (%v); the coordinator has it played again", s.t.Name, rec.ID, err)
			return false
		}
		s.w.logf("%s: send game %d: %v; trying again", s.t.Name, rec.ID, err)
		time.Sleep(wait)
	}
}

// stopGrace is how long a stopping worker goes on trying to send the
// games it finished.
const stopGrace = 5 * time.Second

// graceEnd returns when a stopping worker gives up sending the games it
// finished: stopGrace after the first send that saw it stopping.
func (s *session) graceEnd() time.Time {
	s.graceAt.CompareAndSwap(0, time.Now().Add(stopGrace).UnixNano())
	return time.Unix(0, s.graceAt.Load())
}

// finishDone acknowledges the batches whose games are all returned or
// dropped. s.mu is held.
func (s *session) finishDone() {
	for h := range s.held {
		if h.left > 0 {
			continue
		}
		delete(s.held, h)
		if h.drop {
			h.msg.TermWithReason("tournament stopped")
			continue
		}
		actx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := h.msg.DoubleAck(actx); err != nil {
			s.w.logf("%s: acknowledge %s: %v (it will be played again, and recorded once)", s.t.Name, label(h.b.ids()), err)
		}
		cancel()
	}
}

// finish hands back the batches of games abandoned (the worker stops):
// another worker takes them at once.
func (s *session) finish(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = nil
	for h := range s.held {
		delete(s.held, h)
		if s.w.state(s.t.ID) != stateRunning {
			h.msg.TermWithReason("tournament stopped")
			continue
		}
		h.msg.Nak()
	}
}

// heartbeat tells the stream, every third of the deadline, that the
// batches held are being played.
func (s *session) heartbeat(ctx context.Context) {
	every := s.t.AckWait / 3
	if every <= 0 {
		every = DefaultAckWait / 3
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		for h := range s.held {
			h.msg.InProgress()
		}
		s.mu.Unlock()
	}
}

// liveObserver sends the games in flight to a coordinator that shows
// them live; a message lost is a board less up to date.
type liveObserver struct {
	nc      *nats.Conn
	subject string
}

func (o liveObserver) send(ev liveEvent) {
	if data, err := json.Marshal(ev); err == nil {
		o.nc.Publish(o.subject, data)
	}
}

func (o liveObserver) GameStarted(rec journal.Record) {
	o.send(liveEvent{Kind: "start", ID: rec.ID, Record: &rec})
}

func (o liveObserver) Moved(id int, m journal.MoveRecord) {
	o.send(liveEvent{Kind: "move", ID: id, Move: &m})
}

func (o liveObserver) GameEnded(id int) { o.send(liveEvent{Kind: "end", ID: id}) }
