package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
)

// solveJob is a worker's share of a solve: its rules, and the table its
// jobs share.
type solveJob struct {
	w     *worker
	t     info
	rules *cheversi.Rules
	cons  jetstream.Consumer
	table *solve.Table

	mu     sync.Mutex
	solved int
}

// solve serves a solve until it is over or stopped, or ctx is done: each
// of its jobs takes a unit, solves it and returns its entry. An error
// means the worker cannot serve it.
func (w *worker) solve(ctx context.Context, t info) error {
	rules, err := cheversi.New("", t.Rules)
	if err != nil {
		return fmt.Errorf("the solve's rules: %w", err)
	}
	jobs := w.opts.Concurrency
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	mem := w.opts.SolveMemory
	if mem <= 0 {
		mem = solve.DefaultTableBytes
	}
	j := &solveJob{w: w, t: t, rules: rules}
	if j.cons, err = w.js.Consumer(ctx, BatchStream, batchConsumer(t.ID)); err != nil {
		return nil // gone already: over
	}
	j.table = solve.NewTable(mem)
	w.logf("solving %s (%s), %d units at a time, a table of %d MiB", t.Name, t.ID, jobs, j.table.Bytes()>>20)
	w.tell(ctx, t.ID, workerState{Event: eventReady, Concurrency: jobs})
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() { // ends when the solve stops or ctx is done
			defer wg.Done()
			j.run(ctx)
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		w.tell(ctx, t.ID, workerState{Event: eventLeft})
	} else {
		w.logf("%s (%s) is over: %d units solved here", t.Name, t.ID, j.solved)
	}
	return nil
}

// run solves units one after the other until the solve stops or ctx is
// done.
func (j *solveJob) run(ctx context.Context) {
	s := solve.NewSolver(solve.SolverOptions{Table: j.table})
	for ctx.Err() == nil && j.w.state(j.t.ID) == stateRunning {
		fctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		msgs, err := j.cons.Fetch(1, jetstream.FetchContext(fctx))
		if err != nil {
			if errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrConsumerDeleted) {
				j.w.mu.Lock()
				delete(j.w.tournaments, j.t.ID) // removed: the solve is over
				j.w.mu.Unlock()
			} else {
				<-fctx.Done() // not connected, say: do not spin
			}
			cancel()
			continue
		}
		for m := range msgs.Messages() {
			j.unit(ctx, s, m)
		}
		cancel()
	}
}

// unit solves the unit of m and returns it, telling the stream every
// third of the deadline that it is being solved. A unit whose solve
// stops is dropped; one the worker abandons (ctx done) is handed back.
func (j *solveJob) unit(ctx context.Context, s *solve.Solver, m jetstream.Msg) {
	var u unitMsg
	if err := json.Unmarshal(m.Data(), &u); err != nil || u.Solve != j.t.ID {
		j.w.logf("%s: a unit that is not this solve's (%v); dropped", j.t.Name, err)
		m.TermWithReason("not a unit of this solve")
		return
	}
	pos, err := j.rules.ParsePosition(u.Position)
	if err != nil {
		j.w.logf("%s: unit %q: %v; dropped", j.t.Name, u.Position, err)
		m.TermWithReason("not a position")
		return
	}
	uctx, stop := context.WithCancel(ctx)
	beats := make(chan struct{})
	go func() { // ends when uctx is canceled
		defer close(beats)
		j.heartbeat(uctx, stop, m)
	}()
	e, err := s.SolveUnit(uctx, &pos)
	stop()
	<-beats
	if err != nil {
		if ctx.Err() != nil {
			m.Nak() // the worker stops: another takes it at once
		} else {
			m.TermWithReason("solve stopped")
		}
		return
	}
	if !j.send(ctx, m, u, e) {
		m.Nak()
		return
	}
	actx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := m.DoubleAck(actx); err != nil {
		j.w.logf("%s: acknowledge unit %s: %v (it will be solved again, and recorded once)", j.t.Name, u.Position, err)
	}
	j.mu.Lock()
	j.solved++
	j.mu.Unlock()
}

// heartbeat extends the unit's deadline every third of it, and stops the
// search (stop) once the solve is stopped or gone.
func (j *solveJob) heartbeat(ctx context.Context, stop context.CancelFunc, m jetstream.Msg) {
	every := j.t.AckWait / 3
	if every <= 0 {
		every = DefaultAckWait / 3
	}
	beat := time.NewTicker(every)
	defer beat.Stop()
	look := time.NewTicker(time.Second)
	defer look.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
			m.InProgress()
		case <-look.C:
			if j.w.state(j.t.ID) != stateRunning {
				stop()
				return
			}
		}
	}
}

// send publishes a unit's result, trying again until the stream has it,
// for a while (stopGrace once the worker stops).
func (j *solveJob) send(ctx context.Context, m jetstream.Msg, u unitMsg, e solve.Entry) bool {
	data, err := json.Marshal(unitResult{Solve: j.t.ID, Worker: j.w.opts.Name, Token: u.Token, Line: e.Line()})
	if err != nil {
		return false
	}
	msg := nats.NewMsg(resultSubject(j.t.ID))
	msg.Header.Set(kindHeader, kindUnit)
	seq, n := uint64(0), uint64(0)
	if md, err := m.Metadata(); err == nil {
		seq, n = md.Sequence.Stream, md.NumDelivered
	}
	// The stream keeps one copy of a result sent twice.
	msg.Header.Set(jetstream.MsgIDHeader, fmt.Sprintf("%s.u%d.%d.%s", j.t.ID, seq, n, j.w.opts.Name))
	msg.Data = data
	deadline := time.Now().Add(10 * time.Minute)
	for wait := 200 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		if ctx.Err() != nil && time.Now().Add(stopGrace).Before(deadline) {
			deadline = time.Now().Add(stopGrace)
		}
		try := time.Now().Add(10 * time.Second)
		if deadline.Before(try) {
			try = deadline
		}
		pctx, cancel := context.WithDeadline(context.Background(), try)
		_, err := j.w.js.PublishMsg(pctx, msg)
		cancel()
		if err == nil {
			return true
		}
		if !time.Now().Add(wait).Before(deadline) {
			j.w.logf("%s: unit %s could not be sent (%v); it will be solved again", j.t.Name, u.Position, err)
			return false
		}
		j.w.logf("%s: send unit %s: %v; trying again", j.t.Name, u.Position, err)
		time.Sleep(wait)
	}
}
