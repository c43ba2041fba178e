package solve

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/arena-games/arena/arena/cheversi"
)

// Driver solves a position in work units: the positions of its game tree
// at the cut ply, each solved by a Solver and recorded in a Results file
// as soon as it is solved, so that a stopped solve loses at most the units
// in progress and resumes where it was. The values above the cut ply follow
// from the units' values (see walker).
type Driver struct {
	// Results holds the solved positions; units are added to it.
	Results *Results
	// Cut is the ply of the work units (positions with that many pieces
	// placed). Positions at or past it are solved whole.
	Cut int
	// Jobs is the number of units solved at once (at least 1), by the
	// driver's own threads; ignored with a Pool.
	Jobs int
	// Table is the transposition table the jobs share (a new one of
	// DefaultTableBytes when nil); ignored with a Pool.
	Table *Table
	// Pool, when not nil, solves the units instead of the driver's own
	// threads: on other machines, say (arena/workers).
	Pool Pool
	// Progress, when not nil, is called after each unit with the unit's
	// entry and the number of units on the frontier.
	Progress func(e Entry, frontier int)
}

// Pool solves a Driver's work units somewhere else than in the driver's
// own threads. The driver keeps up to Slots units handed out, hands out
// each unit once until its result comes, and takes results in any order,
// including results of units it did not hand out in this run (they are
// recorded like the others).
type Pool interface {
	// Slots returns how many units to keep handed out now (at least 1).
	Slots() int
	// Hand hands out p, a unit to solve. An error stops the driver.
	Hand(ctx context.Context, p cheversi.Position) error
	// Solved delivers the units solved. A Unit with an error stops the
	// driver.
	Solved() <-chan Unit
	// Changed is signalled when Slots may have grown.
	Changed() <-chan struct{}
}

// Unit is a work unit solved by a Pool, or the error that stopped it.
type Unit struct {
	Entry Entry
	Err   error
}

// ErrNoProgress is returned when the driver finds nothing to solve while
// the value is still unknown (which means a bug, or results that contradict
// each other).
var ErrNoProgress = errors.New("solve: nothing left to solve but the value is not known")

// Run solves root and returns its value for the side to move.
func (d *Driver) Run(ctx context.Context, root *cheversi.Position) (Value, error) {
	pool := d.Pool
	if pool == nil {
		lp := newLocalPool(ctx, max(d.Jobs, 1), d.Table)
		defer lp.close()
		pool = lp
	}
	running := map[uint64]bool{}
	moves := &moveCache{m: map[uint64][]keyedMove{}}
	up, hist := newUpward(d.Results, root.Ply()), newHistory()
	for {
		w := newWalker(d.Results, d.Cut)
		w.moves, w.up, w.hist = moves, up, hist
		if k := w.eval(root); k.ok {
			return k.v, nil
		}
		// Hand out frontier units while there are slots, in order.
		slots := max(pool.Slots(), 1)
		for _, p := range w.frontier {
			if len(running) >= slots {
				break
			}
			key := CanonicalKey(&p)
			if running[key] {
				continue
			}
			if err := pool.Hand(ctx, p); err != nil {
				return 0, err
			}
			running[key] = true
		}
		if len(running) == 0 {
			return 0, ErrNoProgress
		}
		var u Unit
		select {
		case u = <-pool.Solved():
		case <-pool.Changed():
			continue
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		if u.Err != nil {
			return 0, u.Err
		}
		delete(running, u.Entry.Key)
		if _, ok := d.Results.GetKey(u.Entry.Key); ok {
			continue // solved twice: a pool that handed it out again
		}
		if err := d.Results.Add(u.Entry); err != nil {
			return 0, fmt.Errorf("recording a solved position: %w", err)
		}
		up.raise(&u.Entry.Position)
		if d.Progress != nil {
			d.Progress(u.Entry, len(w.frontier)-1)
		}
	}
}

// localPool is the driver's own pool: jobs threads of this process
// sharing one table.
type localPool struct {
	jobs   int
	todo   chan cheversi.Position
	done   chan Unit
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newLocalPool(ctx context.Context, jobs int, table *Table) *localPool {
	if table == nil {
		table = NewTable(DefaultTableBytes)
	}
	wctx, cancel := context.WithCancel(ctx)
	lp := &localPool{jobs: jobs, todo: make(chan cheversi.Position), done: make(chan Unit), cancel: cancel}
	for range jobs {
		lp.wg.Add(1)
		go func() {
			defer lp.wg.Done()
			solveUnits(wctx, table, lp.todo, lp.done)
		}()
	}
	return lp
}

func (lp *localPool) Slots() int               { return lp.jobs }
func (lp *localPool) Solved() <-chan Unit      { return lp.done }
func (lp *localPool) Changed() <-chan struct{} { return nil }

// Hand gives p to an idle job: there is one, as the driver keeps no more
// units out than there are jobs.
func (lp *localPool) Hand(ctx context.Context, p cheversi.Position) error {
	select {
	case lp.todo <- p:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// close stops the jobs and waits for them.
func (lp *localPool) close() {
	lp.cancel()
	close(lp.todo)
	lp.wg.Wait()
}

// solveUnits solves the positions it receives on todo until todo is closed
// or ctx is done, and sends each result on done (unless ctx is done).
func solveUnits(ctx context.Context, table *Table, todo <-chan cheversi.Position, done chan<- Unit) {
	s := NewSolver(SolverOptions{Table: table})
	for p := range todo {
		e, err := s.SolveUnit(ctx, &p)
		select {
		case done <- Unit{e, err}:
		case <-ctx.Done():
			return
		}
	}
}

// SolveUnit solves p as a work unit: its entry of a results file, with
// the positions searched and the CPU time of the calling thread.
func (s *Solver) SolveUnit(ctx context.Context, p *cheversi.Position) (Entry, error) {
	// The unit's CPU time is read from the thread's own clock.
	defer lockThread()()
	s.ResetStats()
	start := threadCPU()
	r, err := s.Solve(ctx, p)
	if err != nil {
		return Entry{}, err
	}
	return Entry{
		Key: CanonicalKey(p), Position: *p, Value: r.Value, Move: r.Move,
		Positions: s.TotalPositions(), Seconds: (threadCPU() - start).Seconds(),
	}, nil
}
