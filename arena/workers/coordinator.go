package workers

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/tournament"
)

// Defaults of CoordinatorOptions.
const (
	DefaultBatchPairs = 2
	DefaultAckWait    = 30 * time.Second
)

// StoreDir is the directory, in a tournament's output directory, of the
// state of the NATS server a coordinator started itself (listen://).
const StoreDir = "nats"

// keyFile is the file, in a tournament's output directory, of the key
// that signs the batches its coordinator hands out.
const keyFile = "workers.key"

// CoordinatorOptions configures a Coordinator.
type CoordinatorOptions struct {
	// URL names the NATS server (see ParseURL): nats://HOST:PORT connects
	// to a running server with JetStream, listen://HOST:PORT starts one in
	// this process, whose state is kept in the output directory (StoreDir).
	URL string
	// Config is the configuration as the workers are to read it: its
	// text with the command line's settings applied; ConfigName is its
	// file's name, for their messages.
	Config     []byte
	ConfigName string
	// BatchPairs is how many colour-reversed pairs of games a batch holds
	// (DefaultBatchPairs when 0).
	BatchPairs int
	// AckWait is how long a worker may hold a batch without a sign of
	// life before it goes to another (DefaultAckWait when 0).
	AckWait time.Duration
	// ServerLog, when set, gets the log lines of a server started here.
	ServerLog func(line string)
}

// Coordinator hands the games of a tournament to workers over NATS
// JetStream and takes in the games they play: its Pool is the GamePool of
// tournament.Run (Options.Pool), which keeps the journal, the reports and
// the sequential test as for a local run. See the package documentation.
type Coordinator struct {
	opts    CoordinatorOptions
	servers string  // to connect to; "" with listen
	listen  *Listen // the server to start, if any

	srv  *Server
	nc   *nats.Conn
	js   jetstream.JetStream
	pool *coordPool
}

// NewCoordinator checks opts; it connects to nothing yet.
func NewCoordinator(opts CoordinatorOptions) (*Coordinator, error) {
	servers, l, err := ParseURL(opts.URL)
	if err != nil {
		return nil, err
	}
	if opts.BatchPairs <= 0 {
		opts.BatchPairs = DefaultBatchPairs
	}
	if opts.AckWait <= 0 {
		opts.AckWait = DefaultAckWait
	}
	return &Coordinator{opts: opts, servers: servers, listen: l}, nil
}

// ClientURL returns the URL workers of this machine reach the NATS server
// at, once connected.
func (c *Coordinator) ClientURL() string {
	if c.srv != nil {
		return c.srv.ClientURL()
	}
	return redact(c.servers)
}

// workerURL is the URL workers on other machines connect to.
func (c *Coordinator) workerURL() string {
	if c.srv == nil {
		return redact(c.servers)
	}
	host := c.listen.Host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host, _ = os.Hostname()
	}
	return "nats://" + net.JoinHostPort(host, c.srv.l.Port)
}

// connect starts the server (into dir) or connects to it, and makes
// sure the streams and the bucket exist.
func (c *Coordinator) connect(ctx context.Context, dir string) error {
	if c.nc != nil {
		return nil
	}
	servers := c.servers
	if c.listen != nil {
		srv, err := StartServer(ctx, ServerOptions{Listen: *c.listen, Store: filepath.Join(dir, StoreDir), Log: c.opts.ServerLog})
		if err != nil {
			return err
		}
		c.srv, servers = srv, srv.ClientURL()
	}
	nc, err := connect(ctx, servers, "arena coordinator", false, nil)
	if err != nil {
		c.closeConn()
		return err
	}
	c.nc = nc
	if c.js, err = jetstream.New(nc); err != nil {
		c.closeConn()
		return fmt.Errorf("JetStream: %w", err)
	}
	if err := ensureStreams(ctx, c.js); err != nil {
		c.closeConn()
		return err
	}
	return nil
}

// ensureStreams creates the streams and the bucket, or checks them.
func ensureStreams(ctx context.Context, js jetstream.JetStream) error {
	for _, sc := range []jetstream.StreamConfig{
		{
			Name: BatchStream, Subjects: []string{batchSubjects + "*"},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
			Description: "arena: batches of games for the workers",
		},
		{
			Name: ResultStream, Subjects: []string{resultSubjects + "*"},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
			// A result no coordinator takes in (its tournament's directory
			// was removed) goes after a while; a coordinator stopped for
			// longer than that has the game played again.
			MaxAge:      14 * 24 * time.Hour,
			Duplicates:  10 * time.Minute,
			Description: "arena: games played by the workers, for their coordinators",
		},
	} {
		if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
			return fmt.Errorf("JetStream stream %s: %w (does the NATS server run with JetStream enabled?)", sc.Name, err)
		}
	}
	_, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: TournamentBucket, Storage: jetstream.FileStorage, History: 1,
		Description: "arena: the tournaments being played by workers",
	})
	if err != nil {
		return fmt.Errorf("JetStream bucket %s: %w", TournamentBucket, err)
	}
	return nil
}

// Pool is tournament.Options.Pool: it connects (starting the server with
// listen://), declares the tournament to the workers and returns the pool
// that plays its games through them.
func (c *Coordinator) Pool(ctx context.Context, t *tournament.Tournament) (tournament.GamePool, error) {
	if len(t.Config.Bots) == 0 {
		return nil, errors.New("workers: a tournament without bots")
	}
	if err := c.connect(ctx, t.Dir); err != nil {
		return nil, err
	}
	key, err := readKey(t.Dir)
	if err != nil {
		return nil, err
	}
	p := &coordPool{
		c: c, t: t, id: tournamentID(t.Manifest), key: key,
		outstanding: map[int]bool{}, slots: map[string]int{}, failed: map[string]bool{},
		wake:  make(chan struct{}, 1),
		stats: newConsistency(t.Config.BotNames()),
	}
	if err := p.declare(ctx); err != nil {
		return nil, err
	}
	c.pool = p
	t.Logf("workers: tournament %s, in batches of %d games, each handed to another worker after %v without a sign of life; start workers with: arena worker %s",
		p.id, 2*c.opts.BatchPairs, c.opts.AckWait, c.workerURL())
	return p, nil
}

// Close ends the coordinator. When the tournament of sum is over (every
// game recorded, or its sequential test decided) it first removes what
// the workers had of it from NATS: its entry, its batches (the workers
// still playing one stop after their current game), its results and its
// consumers. A tournament that is not over keeps all of it, for the next
// run to take up. Then it closes the connection, and the server it
// started.
func (c *Coordinator) Close(ctx context.Context, sum *tournament.Summary) error {
	defer c.closeConn()
	if sum == nil || sum.Manifest == nil {
		return nil
	}
	over := sum.Complete || (sum.SPRT != nil && sum.SPRT.Decision != 0)
	if !over {
		return nil
	}
	if c.nc == nil {
		if c.listen != nil {
			if _, err := os.Stat(filepath.Join(sum.Dir, StoreDir)); err != nil {
				return nil // never started: nothing to remove
			}
		}
		if err := c.connect(ctx, sum.Dir); err != nil {
			return err
		}
	}
	return removeTournament(ctx, c.js, tournamentID(sum.Manifest))
}

// removeTournament removes a tournament's entry, messages and consumers.
func removeTournament(ctx context.Context, js jetstream.JetStream, id string) error {
	var errs []error
	if kv, err := js.KeyValue(ctx, TournamentBucket); err == nil {
		if err := kv.Purge(ctx, id); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
			errs = append(errs, err)
		}
	}
	for _, s := range []struct{ stream, consumer, subject string }{
		{BatchStream, batchConsumer(id), batchSubject(id)},
		{ResultStream, resultConsumer(id), resultSubject(id)},
	} {
		st, err := js.Stream(ctx, s.stream)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := st.DeleteConsumer(ctx, s.consumer); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			errs = append(errs, err)
		}
		if err := st.Purge(ctx, jetstream.WithPurgeSubject(s.subject)); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("workers: remove tournament %s from NATS: %w", id, err)
	}
	return nil
}

func (c *Coordinator) closeConn() {
	if c.pool != nil {
		c.pool.close()
		c.pool = nil
	}
	if c.nc != nil {
		c.nc.Drain()
		c.nc.Close()
		c.nc = nil
	}
	if c.srv != nil {
		c.srv.Close()
		c.srv = nil
	}
}

// readKey returns the key of dir's coordinator, made on first use.
func readKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, keyFile)
	key, err := os.ReadFile(path)
	if err == nil && len(key) >= 32 {
		return key, nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("workers: %w", err)
	}
	key = make([]byte, 32)
	rand.Read(key)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, key, 0o600); err != nil {
		return nil, fmt.Errorf("workers: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("workers: %w", err)
	}
	return key, nil
}

// coordPool is the GamePool of a Coordinator, for one run.
type coordPool struct {
	c   *Coordinator
	t   *tournament.Tournament
	id  string
	key []byte

	kv      jetstream.KeyValue
	batches jetstream.Stream
	bcons   jetstream.Consumer // the workers' consumer of the batches
	rcons   jetstream.Consumer // this coordinator's consumer of the results
	live    *nats.Subscription
	info    info

	mu          sync.Mutex
	outstanding map[int]bool   // games handed out without a result yet
	requeue     []int          // games to hand out again
	exhausted   bool           // next has handed out its last game
	slots       map[string]int // the concurrency of each worker that is ready
	failed      map[string]bool
	lastInfo    time.Time // of the last failure to read the consumer's state, to report it once a minute
	handedOut   int
	refused     int

	wake  chan struct{} // the feeder has work: games to hand out again, or a worker came
	stats *consistency
}

// declare creates the tournament's consumers and entry.
func (p *coordPool) declare(ctx context.Context) error {
	js, wait := p.c.js, p.c.opts.AckWait
	var err error
	if p.batches, err = js.Stream(ctx, BatchStream); err != nil {
		return fmt.Errorf("workers: %w", err)
	}
	p.bcons, err = p.batches.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable: batchConsumer(p.id), FilterSubject: batchSubject(p.id),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: wait, MaxDeliver: -1,
		MaxAckPending: -1, MaxWaiting: 4096,
		Description: "arena workers of " + p.t.Config.Name,
	})
	if err != nil {
		return fmt.Errorf("workers: batch consumer: %w", err)
	}
	p.rcons, err = js.CreateOrUpdateConsumer(ctx, ResultStream, jetstream.ConsumerConfig{
		Durable: resultConsumer(p.id), FilterSubject: resultSubject(p.id),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second, MaxDeliver: -1,
		Description: "arena coordinator of " + p.t.Config.Name,
	})
	if err != nil {
		return fmt.Errorf("workers: result consumer: %w", err)
	}
	if p.kv, err = js.KeyValue(ctx, TournamentBucket); err != nil {
		return fmt.Errorf("workers: %w", err)
	}
	m := p.t.Manifest
	p.info = info{
		Version: Version, ID: p.id, Name: p.t.Config.Name, Fingerprint: m.Fingerprint,
		Config: string(p.c.opts.Config), ConfigName: filepath.Base(p.c.opts.ConfigName),
		State: stateRunning, Live: p.t.Observer != nil, AckWait: wait, Created: m.Created,
	}
	if p.t.Observer != nil {
		p.live, err = p.c.nc.Subscribe(liveSubject(p.id), p.onLive)
		if err != nil {
			return fmt.Errorf("workers: live games: %w", err)
		}
	}
	return p.putInfo(ctx)
}

func (p *coordPool) putInfo(ctx context.Context) error {
	data, err := json.Marshal(p.info)
	if err != nil {
		return err
	}
	if _, err := p.kv.Put(ctx, p.id, data); err != nil {
		return fmt.Errorf("workers: declare the tournament: %w", err)
	}
	return nil
}

func (p *coordPool) close() {
	if p.live != nil {
		p.live.Unsubscribe()
	}
}

// onLive passes a worker's word about a game in flight to the observer.
func (p *coordPool) onLive(m *nats.Msg) {
	var ev liveEvent
	if json.Unmarshal(m.Data, &ev) != nil {
		return
	}
	o := p.t.Observer
	switch {
	case ev.Kind == "start" && ev.Record != nil:
		o.GameStarted(*ev.Record)
	case ev.Kind == "move" && ev.Move != nil:
		o.Moved(ev.ID, *ev.Move)
	case ev.Kind == "end":
		o.GameEnded(ev.ID)
	}
}

// Play hands out the games next gives, in batches, and records the games
// the workers return until every game handed out is recorded, the run
// stops (record returns false) or ctx is done. When the run stops, the
// batches no worker has taken are withdrawn and the workers finish the
// game each is playing, which is recorded, and drop the rest of their
// batches; Play returns once they have. When ctx is done Play returns at
// once: the batches stay with the workers and in the stream, and their
// results wait in the stream for the next run.
func (p *coordPool) Play(ctx context.Context, next func(context.Context) (schedule.Scheduled, bool), record func(*journal.Record) bool) {
	more := p.resume(ctx, record)
	if more && ctx.Err() == nil {
		fctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { // exits when fctx is canceled
			defer close(done)
			p.feed(fctx, next)
		}()
		more = p.collect(ctx, record)
		stop()
		<-done
	}
	if !more && ctx.Err() == nil {
		p.withdraw(ctx, record)
	}
	p.report()
}

// resume takes in the results that came while no coordinator ran, then
// the batches still in the stream, whose games are not handed out again.
// It returns false when the run stopped on those results.
func (p *coordPool) resume(ctx context.Context, record func(*journal.Record) bool) bool {
	more := true
	taken := 0
	for ctx.Err() == nil {
		n, m := p.fetchResults(ctx, 100*time.Millisecond, record)
		taken += n
		more = more && m
		if n > 0 {
			continue
		}
		if ci, err := p.rcons.Info(ctx); err == nil && ci.NumPending == 0 && ci.NumAckPending == 0 {
			break
		}
	}
	if taken > 0 {
		p.t.Logf("workers: took in %d messages of workers that came while no coordinator ran", taken)
	}
	held, err := p.scan(ctx)
	if err != nil {
		p.t.Logf("workers: %v", err)
	}
	adopted := 0
	p.mu.Lock()
	for id := range held {
		if !p.t.Recorded(id) {
			p.outstanding[id] = true
			adopted++
		}
	}
	p.mu.Unlock()
	if adopted > 0 {
		p.t.Logf("workers: %d games of an earlier run are queued or being played; they are not handed out again", adopted)
	}
	return more
}

// scan returns the games of the batches in the stream: queued, or held
// by a worker.
func (p *coordPool) scan(ctx context.Context) (map[int]bool, error) {
	ids := map[int]bool{}
	err := eachMessage(ctx, p.batches, batchSubject(p.id), func(data []byte) {
		var b batch
		if json.Unmarshal(data, &b) == nil {
			for _, g := range b.Games {
				ids[g.ID] = true
			}
		}
	})
	if err != nil {
		return ids, fmt.Errorf("read the batches in the stream: %w", err)
	}
	return ids, nil
}

// eachMessage calls f with the data of each message of st on subject, in
// order: those queued and those held by a worker.
func eachMessage(ctx context.Context, st jetstream.Stream, subject string, f func(data []byte)) error {
	for seq := uint64(1); ; {
		m, err := st.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subject))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		f(m.Data)
		seq = m.Sequence + 1
	}
}

// feed hands out batches while the stream holds fewer batches no worker
// has taken than the workers could start at once, until ctx is done.
func (p *coordPool) feed(ctx context.Context, next func(context.Context) (schedule.Scheduled, bool)) {
	for ctx.Err() == nil {
		for n := p.shortfall(ctx); n > 0 && ctx.Err() == nil; n-- {
			games := p.take(ctx, next)
			if len(games) == 0 {
				break
			}
			p.publish(ctx, games)
		}
		select {
		case <-ctx.Done():
		case <-p.wake:
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// shortfall returns how many batches to hand out now.
func (p *coordPool) shortfall(ctx context.Context) int {
	p.mu.Lock()
	slots := 0
	for _, n := range p.slots {
		slots += n
	}
	idle := p.exhausted && len(p.requeue) == 0
	p.mu.Unlock()
	if idle {
		return 0
	}
	per := 2 * p.c.opts.BatchPairs
	// Twice the batches the workers can start at once, and two more: a
	// worker that finishes its batch finds the next waiting, however fast
	// it plays, until the next top-up.
	target := 2*((slots+per-1)/per) + 2
	ci, err := p.bcons.Info(ctx)
	if err != nil {
		if ctx.Err() == nil && time.Since(p.lastInfo) > time.Minute {
			p.lastInfo = time.Now()
			p.t.Logf("workers: cannot read the state of the batches (%v); retrying", err)
		}
		return 0
	}
	return target - int(ci.NumPending)
}

// take returns the games of the next batch: games to hand out again
// first, else the next pairs from next.
func (p *coordPool) take(ctx context.Context, next func(context.Context) (schedule.Scheduled, bool)) []schedule.Scheduled {
	per := 2 * p.c.opts.BatchPairs
	var games []schedule.Scheduled
	p.mu.Lock()
	for len(p.requeue) > 0 && len(games) < per {
		id := p.requeue[0]
		p.requeue = p.requeue[1:]
		if g, ok := p.t.Game(id); ok && p.outstanding[id] && !p.t.Recorded(id) {
			games = append(games, g)
		}
	}
	exhausted := p.exhausted
	p.mu.Unlock()
	if len(games) > 0 || exhausted {
		return games
	}
	for len(games) < per {
		g, ok := next(ctx)
		if !ok {
			p.mu.Lock()
			p.exhausted = ctx.Err() == nil
			p.mu.Unlock()
			break
		}
		p.mu.Lock()
		// In a batch of an earlier run, or recorded since the run started.
		skip := p.outstanding[g.ID] || p.t.Recorded(g.ID)
		if !skip {
			p.outstanding[g.ID] = true
		}
		p.mu.Unlock()
		if !skip {
			games = append(games, g)
		}
	}
	return games
}

// publish hands out a batch, trying again until the stream has it or
// ctx is done.
func (p *coordPool) publish(ctx context.Context, games []schedule.Scheduled) {
	b := batch{Tournament: p.id, Fingerprint: p.t.Manifest.Fingerprint}
	for _, g := range games {
		b.Games = append(b.Games, batchGame{
			ID: g.ID, Round: g.Round, Pair: g.PairKey, White: g.White, Black: g.Black,
			Index: g.Opening, Opening: p.t.Openings[g.Opening],
		})
	}
	b.Token = tokenOf(p.key, p.id, b.ids())
	data, err := json.Marshal(&b)
	if err != nil {
		p.t.Logf("workers: %s: %v", label(b.ids()), err)
		return
	}
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		_, err := p.c.js.Publish(ctx, batchSubject(p.id), data)
		if err == nil {
			p.mu.Lock()
			p.handedOut += len(games)
			p.mu.Unlock()
			return
		}
		if ctx.Err() != nil {
			return
		}
		p.t.Logf("workers: hand out %s: %v; trying again", label(b.ids()), err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// done reports whether every game is handed out and recorded.
func (p *coordPool) done() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exhausted && len(p.outstanding) == 0
}

// collect takes in the workers' messages until every game is recorded
// (true), the run stops (false) or ctx is done.
func (p *coordPool) collect(ctx context.Context, record func(*journal.Record) bool) bool {
	last := time.Now()
	for ctx.Err() == nil {
		if p.done() {
			return true
		}
		n, more := p.fetchResults(ctx, 500*time.Millisecond, record)
		if !more {
			return false
		}
		if n > 0 {
			last = time.Now()
			continue
		}
		if time.Since(last) > p.c.opts.AckWait {
			p.reconcile(ctx)
			last = time.Now()
		}
	}
	return true
}

// fetchResults takes in the messages the workers sent, waiting up to wait
// for the first. It returns how many it took and whether the run goes on.
func (p *coordPool) fetchResults(ctx context.Context, wait time.Duration, record func(*journal.Record) bool) (n int, more bool) {
	fctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	msgs, err := p.rcons.Fetch(256, jetstream.FetchContext(fctx))
	if err != nil {
		if ctx.Err() == nil {
			select { // not connected, say: do not spin
			case <-ctx.Done():
			case <-fctx.Done():
			}
		}
		return 0, true
	}
	more = true
	for m := range msgs.Messages() {
		n++
		if !p.handle(ctx, m, record) {
			more = false
		}
	}
	return n, more
}

// handle takes in one message of a worker; it returns whether the run
// goes on.
func (p *coordPool) handle(ctx context.Context, m jetstream.Msg, record func(*journal.Record) bool) bool {
	more := true
	switch kind := m.Headers().Get(kindHeader); kind {
	case kindGame:
		more = p.takeGame(m.Data(), record)
	case kindWorker:
		p.takeWorker(m.Data())
	default:
		p.refuse("", fmt.Sprintf("a message of unknown kind %q", kind))
	}
	// The game is in the journal (or refused): the message may go.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	m.DoubleAck(actx) // not acknowledged: taken in again, and recorded once
	return more
}

// takeGame records a game a worker played, once it checks.
func (p *coordPool) takeGame(data []byte, record func(*journal.Record) bool) bool {
	var res result
	if err := json.Unmarshal(data, &res); err != nil || res.Record == nil {
		p.refuse("", fmt.Sprintf("a game that does not decode (%v)", err))
		return true
	}
	rec := res.Record
	if err := p.check(&res); err != nil {
		p.refuse(res.Worker, fmt.Sprintf("game %d: %v", rec.ID, err))
		p.mu.Lock()
		if p.outstanding[rec.ID] {
			p.requeue = append(p.requeue, rec.ID) // to be played again, by whoever takes it
			select {
			case p.wake <- struct{}{}:
			default:
			}
		}
		p.mu.Unlock()
		return true
	}
	more := record(rec)
	p.mu.Lock()
	delete(p.outstanding, rec.ID)
	flagged := p.stats.add(res.Worker, rec)
	p.mu.Unlock()
	for _, f := range flagged {
		p.t.Logf("workers: %s", f)
	}
	return more
}

// refuse logs a message refused.
func (p *coordPool) refuse(worker, what string) {
	p.mu.Lock()
	p.refused++
	p.mu.Unlock()
	if worker == "" {
		worker = "a worker"
	} else {
		worker = "worker " + worker
	}
	p.t.Logf("workers: refused %s from %s", what, worker)
}

// takeWorker takes in a worker's word about itself.
func (p *coordPool) takeWorker(data []byte) {
	var ws workerState
	if err := json.Unmarshal(data, &ws); err != nil || ws.Worker == "" {
		p.refuse("", fmt.Sprintf("a worker's state that does not decode (%v)", err))
		return
	}
	if ws.Tournament != p.id {
		p.refuse(ws.Worker, "the state of a worker of tournament "+ws.Tournament)
		return
	}
	p.mu.Lock()
	switch ws.Event {
	case eventReady:
		p.slots[ws.Worker] = max(1, ws.Concurrency)
		delete(p.failed, ws.Worker)
	case eventFailed:
		p.failed[ws.Worker] = true
		delete(p.slots, ws.Worker)
	case eventLeft:
		delete(p.slots, ws.Worker)
	}
	workers := len(p.slots)
	p.mu.Unlock()
	switch ws.Event {
	case eventReady:
		p.t.Logf("workers: %s ready, %d games at a time (%d workers)", ws.Worker, ws.Concurrency, workers)
		select {
		case p.wake <- struct{}{}:
		default:
		}
	case eventFailed:
		p.t.Logf("workers: %s cannot play this tournament and takes none of its games: %s", ws.Worker, ws.Detail)
	case eventLeft:
		p.t.Logf("workers: %s left (%d workers)", ws.Worker, workers)
	}
}

// reconcile hands out again the games whose batch is gone from the stream
// without their results: the stream lost it (a NATS server that crashed
// before writing it to disk, say). The batches are read first, then the
// results consumer must have nothing pending: a worker sends a batch's
// results before it acknowledges the batch, so a batch that was gone
// before the results were all taken in has none left to come.
func (p *coordPool) reconcile(ctx context.Context) {
	p.mu.Lock()
	if len(p.outstanding) == 0 {
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	held, err := p.scan(ctx)
	if err != nil {
		return
	}
	ci, err := p.rcons.Info(ctx)
	if err != nil || ci.NumPending > 0 || ci.NumAckPending > 0 {
		return
	}
	var lost []int
	p.mu.Lock()
	for id := range p.outstanding {
		switch {
		case p.t.Recorded(id):
			delete(p.outstanding, id) // recorded from another copy
		case !held[id] && !containsInt(p.requeue, id):
			lost = append(lost, id)
		}
	}
	p.requeue = append(p.requeue, lost...)
	p.mu.Unlock()
	if len(lost) > 0 {
		p.t.Logf("workers: %d games handed out are in no batch and have no result (lost by the NATS server?); handing them out again", len(lost))
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// withdraw ends the handing out once the run has stopped: the tournament
// is marked stopped, so that the workers start no game of it, the batches
// no worker has taken are withdrawn (acknowledged as terminated), and the
// results of the games the workers were playing are recorded, until no
// batch is left in the stream: those held by workers that do not come
// back return after AckWait and are withdrawn in turn.
func (p *coordPool) withdraw(ctx context.Context, record func(*journal.Record) bool) {
	p.info.State = stateStopped
	if err := p.putInfo(ctx); err != nil {
		p.t.Logf("%v", err)
	}
	finished := 0
	counted := func(rec *journal.Record) bool {
		finished++
		return record(rec)
	}
	var withdrawn []int
	said := time.Now()
	for ctx.Err() == nil {
		if msgs, err := p.bcons.FetchNoWait(64); err == nil {
			for m := range msgs.Messages() {
				var b batch
				if json.Unmarshal(m.Data(), &b) == nil {
					withdrawn = append(withdrawn, b.ids()...)
				}
				m.TermWithReason("tournament stopped")
			}
		}
		if n, _ := p.fetchResults(ctx, 200*time.Millisecond, counted); n > 0 {
			continue
		}
		bi, err1 := p.bcons.Info(ctx)
		ri, err2 := p.rcons.Info(ctx)
		if err1 == nil && err2 == nil && bi.NumPending == 0 && bi.NumAckPending == 0 && ri.NumPending == 0 && ri.NumAckPending == 0 {
			break
		}
		if err1 == nil && time.Since(said) > 10*time.Second {
			said = time.Now()
			p.t.Logf("workers: waiting for the games in flight of %d batches held by workers", bi.NumAckPending)
		}
	}
	p.reportStop(finished, withdrawn)
}

// reportStop says what became of the games handed out when the run
// stopped: those being played were finished and recorded, those of the
// batches no worker had taken were withdrawn, and the workers dropped the
// rest of the batches they held.
func (p *coordPool) reportStop(finished int, withdrawn []int) {
	if finished > 0 {
		p.t.Logf("workers: %d games being played when the run stopped were finished and recorded (they count for the ratings, not for the sequential test)", finished)
	}
	gone := map[int]bool{}
	for _, id := range withdrawn {
		gone[id] = true
	}
	var dropped []int
	p.mu.Lock()
	for id := range p.outstanding {
		if !gone[id] && !p.t.Recorded(id) {
			dropped = append(dropped, id)
		}
	}
	p.mu.Unlock()
	slices.Sort(withdrawn)
	slices.Sort(dropped)
	if len(withdrawn) > 0 {
		p.t.Logf("workers: %s withdrawn, in batches no worker had started: the run had stopped", label(withdrawn))
	}
	if len(dropped) > 0 {
		p.t.Logf("workers: %s dropped by the workers that held them, not started when the run stopped", label(dropped))
	}
}

// report logs the per-worker check at the end of the run.
func (p *coordPool) report() {
	p.mu.Lock()
	rows := p.stats.rows()
	refused := p.refused
	p.mu.Unlock()
	for _, r := range rows {
		p.t.Logf("workers: %s", r)
	}
	if refused > 0 {
		p.t.Logf("workers: %d messages refused (see above)", refused)
	}
}
