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
	// Jobs is the number of units solved at once (at least 1).
	Jobs int
	// Table is the transposition table the jobs share (a new one of
	// DefaultTableBytes when nil).
	Table *Table
	// Progress, when not nil, is called after each unit with the unit's
	// entry and the number of units on the frontier.
	Progress func(e Entry, frontier int)
}

// ErrNoProgress is returned when the driver finds nothing to solve while
// the value is still unknown (which means a bug, or results that contradict
// each other).
var ErrNoProgress = errors.New("solve: nothing left to solve but the value is not known")

// Run solves root and returns its value for the side to move.
func (d *Driver) Run(ctx context.Context, root *cheversi.Position) (Value, error) {
	jobs := max(d.Jobs, 1)
	table := d.Table
	if table == nil {
		table = NewTable(DefaultTableBytes)
	}
	todo := make(chan cheversi.Position)
	done := make(chan unitResult)
	var wg sync.WaitGroup
	wctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		close(todo)
		wg.Wait()
	}()
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			solveUnits(wctx, table, todo, done)
		}()
	}
	running := map[uint64]bool{}
	moves := &moveCache{m: map[uint64][]keyedMove{}}
	for {
		w := newWalker(d.Results, d.Cut)
		w.moves = moves
		if k := w.eval(root); k.ok {
			return k.v, nil
		}
		// Hand out frontier units to idle jobs, in order.
		for _, p := range w.frontier {
			if len(running) == jobs {
				break
			}
			key := CanonicalKey(&p)
			if running[key] {
				continue
			}
			select {
			case todo <- p:
				running[key] = true
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		}
		if len(running) == 0 {
			return 0, ErrNoProgress
		}
		var r unitResult
		select {
		case r = <-done:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		delete(running, r.e.Key)
		if r.err != nil {
			return 0, r.err
		}
		if err := d.Results.Add(r.e); err != nil {
			return 0, fmt.Errorf("recording a solved position: %w", err)
		}
		if d.Progress != nil {
			d.Progress(r.e, len(w.frontier)-1)
		}
	}
}

type unitResult struct {
	e   Entry
	err error
}

// solveUnits solves the positions it receives on todo until todo is closed
// or ctx is done, and sends each result on done (unless ctx is done).
func solveUnits(ctx context.Context, table *Table, todo <-chan cheversi.Position, done chan<- unitResult) {
	// The unit's CPU time is read from the thread's own clock.
	defer lockThread()()
	s := NewSolver(SolverOptions{Table: table})
	for p := range todo {
		s.ResetStats()
		start := threadCPU()
		r, err := s.Solve(ctx, &p)
		e := Entry{
			Key: CanonicalKey(&p), Position: p, Value: r.Value, Move: r.Move,
			Positions: s.TotalPositions(), Seconds: (threadCPU() - start).Seconds(),
		}
		select {
		case done <- unitResult{e, err}:
		case <-ctx.Done():
			return
		}
	}
}
