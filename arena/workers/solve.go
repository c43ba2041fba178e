package workers

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
)

// SolveOptions configures StartSolve.
type SolveOptions struct {
	// URL names the NATS server, as CoordinatorOptions.URL.
	URL string
	// Dir is the solve's directory: it keeps the key that signs the units
	// handed out (so that the solve is the same one when started again on
	// it) and the state of a NATS server started here (listen://).
	Dir string
	// Rules is the solve's rule set.
	Rules *cheversi.Rules
	// Name names the solve in the workers' logs.
	Name string
	// AckWait is how long a worker may hold a unit without a sign of
	// life before it goes to another (DefaultAckWait when 0).
	AckWait time.Duration
	// ServerLog, when set, gets the log lines of a server started here.
	ServerLog func(line string)
	// Log gets the pool's notices.
	Log func(msg string)
}

// SolvePool hands the work units of a solve to workers (arena worker)
// over NATS JetStream and takes in the units they solve: it is the Pool
// of a solve.Driver. A solve is declared in TournamentBucket as a
// tournament is (its kind says which), its units go through BatchStream
// and its results through ResultStream, with the same deadlines: a unit
// whose worker goes silent for AckWait goes to another. A worker's
// result counts when it decodes under the solve's rules and carries the
// token of a unit the solve handed out; the value itself is the worker's
// word, as a local job's is the solver's: the proof written from the
// units is where it is checked (arena solve check).
//
// A solve stopped before its value is known (Close with over false)
// leaves its units with the workers and in the stream, and their results
// wait in the stream: started again on the same directory, the pool
// takes them in and does not hand out again the units still out.
type SolvePool struct {
	c    *Coordinator
	opts SolveOptions
	id   string
	key  []byte
	info info

	kv     jetstream.KeyValue
	units  jetstream.Stream
	ucons  jetstream.Consumer // the workers' consumer of the units
	rcons  jetstream.Consumer // this coordinator's consumer of the results
	solved chan solve.Unit
	wake   chan struct{}
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	out     map[uint64]cheversi.Position // handed out, no result yet
	slots   map[string]int               // the concurrency of each worker that is ready
	shares  map[string]*share            // the units each worker solved in this run
	refused int
}

// share is what a worker solved in a run.
type share struct {
	units   int
	seconds float64
}

// StartSolve connects to NATS (or starts the server), declares the solve
// of opts.Dir to the workers and starts taking in their results.
func StartSolve(ctx context.Context, opts SolveOptions) (*SolvePool, error) {
	if opts.Rules == nil {
		return nil, errors.New("workers: a solve without rules")
	}
	if opts.Log == nil {
		opts.Log = func(string) {}
	}
	c, err := NewCoordinator(CoordinatorOptions{URL: opts.URL, AckWait: opts.AckWait, ServerLog: opts.ServerLog})
	if err != nil {
		return nil, err
	}
	if err := c.connect(ctx, opts.Dir); err != nil {
		return nil, err
	}
	p := &SolvePool{
		c: c, opts: opts, solved: make(chan solve.Unit), wake: make(chan struct{}, 1), done: make(chan struct{}),
		out: map[uint64]cheversi.Position{}, slots: map[string]int{}, shares: map[string]*share{},
	}
	if err := p.declare(ctx); err != nil {
		c.closeConn()
		return nil, err
	}
	if err := p.adopt(ctx); err != nil {
		opts.Log(fmt.Sprintf("workers: %v", err))
	}
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p.cancel = cancel
	go func() { // ends when Close cancels cctx
		defer close(p.done)
		p.collect(cctx)
	}()
	p.logf("workers: solve %s, each unit handed to another worker after %v without a sign of life; start workers with: arena worker %s",
		p.id, c.opts.AckWait, c.workerURL())
	return p, nil
}

func (p *SolvePool) logf(format string, args ...any) { p.opts.Log(fmt.Sprintf(format, args...)) }

// ClientURL returns the URL workers of this machine reach the NATS server
// at.
func (p *SolvePool) ClientURL() string { return p.c.ClientURL() }

// solveID returns the ID of the solve signed with key under rules.
func solveID(key []byte, rules *cheversi.Rules) string {
	h := sha256.New()
	h.Write(key)
	for _, s := range rules.Settings() {
		fmt.Fprintf(h, "\x00%s=%s", s.Key, s.Value)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// declare creates the solve's consumers and entry.
func (p *SolvePool) declare(ctx context.Context) error {
	key, err := readKey(p.opts.Dir)
	if err != nil {
		return err
	}
	p.key, p.id = key, solveID(key, p.opts.Rules)
	created := time.Now()
	if fi, err := os.Stat(filepath.Join(p.opts.Dir, keyFile)); err == nil {
		created = fi.ModTime()
	}
	js, wait := p.c.js, p.c.opts.AckWait
	if p.units, err = js.Stream(ctx, BatchStream); err != nil {
		return fmt.Errorf("workers: %w", err)
	}
	p.ucons, err = p.units.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable: batchConsumer(p.id), FilterSubject: batchSubject(p.id),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: wait, MaxDeliver: -1,
		MaxAckPending: -1, MaxWaiting: 4096,
		Description: "arena workers of " + p.opts.Name,
	})
	if err != nil {
		return fmt.Errorf("workers: unit consumer: %w", err)
	}
	p.rcons, err = js.CreateOrUpdateConsumer(ctx, ResultStream, jetstream.ConsumerConfig{
		Durable: resultConsumer(p.id), FilterSubject: resultSubject(p.id),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second, MaxDeliver: -1,
		Description: "arena coordinator of " + p.opts.Name,
	})
	if err != nil {
		return fmt.Errorf("workers: result consumer: %w", err)
	}
	if p.kv, err = js.KeyValue(ctx, TournamentBucket); err != nil {
		return fmt.Errorf("workers: %w", err)
	}
	p.info = info{
		Version: Version, ID: p.id, Name: p.opts.Name, Kind: kindSolve, Rules: p.opts.Rules.Settings(),
		State: stateRunning, AckWait: wait, Created: created,
	}
	data, err := json.Marshal(p.info)
	if err != nil {
		return err
	}
	if _, err := p.kv.Put(ctx, p.id, data); err != nil {
		return fmt.Errorf("workers: declare the solve: %w", err)
	}
	return nil
}

// adopt takes as handed out the units an earlier run left in the stream.
func (p *SolvePool) adopt(ctx context.Context) error {
	units, err := p.scan(ctx)
	p.mu.Lock()
	for k, pos := range units {
		p.out[k] = pos
	}
	p.mu.Unlock()
	if len(units) > 0 {
		p.logf("workers: units of an earlier run queued or being solved: %d; they are not handed out again", len(units))
	}
	return err
}

// scan returns the units in the stream: queued, or held by a worker.
func (p *SolvePool) scan(ctx context.Context) (map[uint64]cheversi.Position, error) {
	units := map[uint64]cheversi.Position{}
	err := eachMessage(ctx, p.units, batchSubject(p.id), func(data []byte) {
		var u unitMsg
		if json.Unmarshal(data, &u) == nil {
			if pos, err := p.opts.Rules.ParsePosition(u.Position); err == nil {
				units[solve.CanonicalKey(&pos)] = pos
			}
		}
	})
	if err != nil {
		return units, fmt.Errorf("read the units in the stream: %w", err)
	}
	return units, nil
}

// Slots is solve.Pool.Slots: twice the units the workers that said they
// are ready can solve at once, and two more, so that a worker that
// finishes a unit finds the next waiting.
func (p *SolvePool) Slots() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, s := range p.slots {
		n += s
	}
	return 2*n + 2
}

// Changed is solve.Pool.Changed: signalled when a worker comes.
func (p *SolvePool) Changed() <-chan struct{} { return p.wake }

// Solved is solve.Pool.Solved.
func (p *SolvePool) Solved() <-chan solve.Unit { return p.solved }

// Hand is solve.Pool.Hand: it publishes the unit, trying again until the
// stream has it or ctx is done. A unit still out from an earlier run is
// not handed out again.
func (p *SolvePool) Hand(ctx context.Context, pos cheversi.Position) error {
	k := solve.CanonicalKey(&pos)
	p.mu.Lock()
	_, out := p.out[k]
	p.out[k] = pos
	p.mu.Unlock()
	if out {
		return nil
	}
	return p.publish(ctx, k, pos)
}

func (p *SolvePool) publish(ctx context.Context, k uint64, pos cheversi.Position) error {
	data, err := json.Marshal(unitMsg{Solve: p.id, Position: pos.Text(), Token: unitToken(p.key, p.id, k)})
	if err != nil {
		return err
	}
	m := nats.NewMsg(batchSubject(p.id))
	m.Data = data
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		_, err := p.c.js.PublishMsg(ctx, m)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.logf("workers: hand out unit %s: %v; trying again", pos.Text(), err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// collect takes in the workers' messages until ctx is done, and every
// AckWait without one hands out again the units lost (see reconcile).
func (p *SolvePool) collect(ctx context.Context) {
	last := time.Now()
	for ctx.Err() == nil {
		fctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		msgs, err := p.rcons.Fetch(64, jetstream.FetchContext(fctx))
		n := 0
		if err == nil {
			for m := range msgs.Messages() {
				n++
				p.handle(ctx, m)
			}
		} else {
			<-fctx.Done() // not connected, say: do not spin
		}
		cancel()
		if n > 0 {
			last = time.Now()
		} else if time.Since(last) > p.c.opts.AckWait {
			p.reconcile(ctx)
			last = time.Now()
		}
	}
}

// handle takes in one message of a worker.
func (p *SolvePool) handle(ctx context.Context, m jetstream.Msg) {
	switch kind := m.Headers().Get(kindHeader); kind {
	case kindUnit:
		if !p.takeUnit(ctx, m.Data()) {
			return // ctx done before the driver took it: taken in again next run
		}
	case kindWorker:
		p.takeWorker(m.Data())
	default:
		p.refuse("", fmt.Sprintf("a message of unknown kind %q", kind))
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	m.DoubleAck(actx) // not acknowledged: taken in again, and recorded once
}

// takeUnit passes a solved unit to the driver once it checks. It returns
// false when ctx was done first.
func (p *SolvePool) takeUnit(ctx context.Context, data []byte) bool {
	var res unitResult
	if err := json.Unmarshal(data, &res); err != nil {
		p.refuse("", fmt.Sprintf("a unit that does not decode (%v)", err))
		return true
	}
	e, err := p.check(&res)
	if err != nil {
		p.refuse(res.Worker, err.Error())
		p.mu.Lock()
		pos, out := p.out[e.Key]
		p.mu.Unlock()
		if out && e.Key != 0 {
			p.publish(ctx, e.Key, pos) // to be solved again, by whoever takes it
		}
		return true
	}
	select {
	case p.solved <- solve.Unit{Entry: e}:
	case <-ctx.Done():
		return false
	}
	p.mu.Lock()
	delete(p.out, e.Key)
	sh := p.shares[res.Worker]
	if sh == nil {
		sh = &share{}
		p.shares[res.Worker] = sh
	}
	sh.units++
	sh.seconds += e.Seconds
	p.mu.Unlock()
	return true
}

// check returns the entry of a unit a worker solved, if it is one the
// solve handed out (its key, when the token is not, so that the unit is
// handed out again).
func (p *SolvePool) check(res *unitResult) (solve.Entry, error) {
	if res.Solve != p.id {
		return solve.Entry{}, fmt.Errorf("a unit of solve %s", res.Solve)
	}
	e, err := solve.ParseEntry(p.opts.Rules, res.Line)
	if err != nil {
		return solve.Entry{}, fmt.Errorf("a unit that does not decode: %v", err)
	}
	if !checkUnitToken(p.key, p.id, e.Key, res.Token) {
		return solve.Entry{Key: e.Key}, fmt.Errorf("unit %s: not handed out by this solve (bad token)", e.Position.Text())
	}
	return e, nil
}

func checkUnitToken(key []byte, solve string, unit uint64, token string) bool {
	return hmac.Equal([]byte(unitToken(key, solve, unit)), []byte(token))
}

// refuse logs a message refused.
func (p *SolvePool) refuse(worker, what string) {
	p.mu.Lock()
	p.refused++
	p.mu.Unlock()
	if worker == "" {
		worker = "a worker"
	} else {
		worker = "worker " + worker
	}
	p.logf("workers: refused %s from %s", what, worker)
}

// takeWorker takes in a worker's word about itself.
func (p *SolvePool) takeWorker(data []byte) {
	var ws workerState
	if err := json.Unmarshal(data, &ws); err != nil || ws.Worker == "" || ws.Tournament != p.id {
		p.refuse("", "a worker's state that is not this solve's")
		return
	}
	p.mu.Lock()
	switch ws.Event {
	case eventReady:
		p.slots[ws.Worker] = max(1, ws.Concurrency)
	case eventFailed, eventLeft:
		delete(p.slots, ws.Worker)
	}
	workers := len(p.slots)
	p.mu.Unlock()
	switch ws.Event {
	case eventReady:
		p.logf("workers: %s ready, %d units at a time (%d workers)", ws.Worker, ws.Concurrency, workers)
		select {
		case p.wake <- struct{}{}:
		default:
		}
	case eventFailed:
		p.logf("workers: %s cannot solve this and takes none of its units: %s", ws.Worker, ws.Detail)
	case eventLeft:
		p.logf("workers: %s left (%d workers)", ws.Worker, workers)
	}
}

// reconcile hands out again the units that are in the stream no more
// without their results: the stream lost them (a NATS server that
// crashed before writing them to disk, say). As for games, the results
// consumer must have nothing pending once the units are read: a worker
// sends a unit's result before it acknowledges the unit.
func (p *SolvePool) reconcile(ctx context.Context) {
	p.mu.Lock()
	n := len(p.out)
	p.mu.Unlock()
	if n == 0 {
		return
	}
	held, err := p.scan(ctx)
	if err != nil {
		return
	}
	ci, err := p.rcons.Info(ctx)
	if err != nil || ci.NumPending > 0 || ci.NumAckPending > 0 {
		return
	}
	lost := map[uint64]cheversi.Position{}
	p.mu.Lock()
	for k, pos := range p.out {
		if _, ok := held[k]; !ok {
			lost[k] = pos
		}
	}
	p.mu.Unlock()
	if len(lost) == 0 {
		return
	}
	p.logf("workers: %d units handed out are in the stream no more and have no result (lost by the NATS server?); handing them out again", len(lost))
	for k, pos := range lost {
		if p.publish(ctx, k, pos) != nil {
			return
		}
	}
}

// Close stops taking in results. When over (the solve's value is known),
// it first removes the solve from NATS: its entry, its units (the workers
// solving one stop) and its results. Otherwise all of it stays for the
// next run. Then it closes the connection, and the server it started.
func (p *SolvePool) Close(ctx context.Context, over bool) error {
	p.cancel()
	<-p.done
	defer p.c.closeConn()
	p.mu.Lock()
	refused := p.refused
	names := slices.Sorted(maps.Keys(p.shares))
	for _, w := range names {
		sh := p.shares[w]
		p.logf("workers: %s solved %d units in this run, %.2f h CPU", w, sh.units, sh.seconds/3600)
	}
	p.mu.Unlock()
	if refused > 0 {
		p.logf("workers: %d messages refused (see above)", refused)
	}
	if !over {
		return nil
	}
	return removeTournament(ctx, p.c.js, p.id)
}
