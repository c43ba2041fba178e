package builtin

import (
	"context"
	"time"
)

// pollInterval is how many nodes pass between two looks at the clock, the
// node budget and the context.
const pollInterval = 256

// control stops a search: at a hard deadline, after a node budget, or when
// the context is done. It also decides whether another iteration of
// iterative deepening is worth starting.
type control struct {
	ctx      context.Context
	start    time.Time
	limit    time.Duration // 0: none
	maxNodes int64         // 0: none
	nodes    int64
	stopped  bool
	// predict: decline an iteration that is not expected to finish within
	// limit. A search with a node or depth limit does not predict, so
	// that only its limit (or the hard deadline) ends it, whatever the
	// machine's speed.
	predict bool
	// early is the share of limit within which another iteration starts
	// whatever it is expected to take.
	early float64

	// The times of the last two completed iterations and when the last
	// one ended, since start.
	lastIter, prevIter, lastEnd time.Duration
}

func newControl(ctx context.Context, lim Limits) *control {
	return &control{ctx: ctx, start: time.Now(), limit: lim.Time, maxNodes: lim.Nodes,
		predict: lim.Nodes == 0 && lim.Depth == 0, early: 1.0 / 3}
}

// poll counts a node and reports whether the search must stop. Once it has
// said so it keeps saying so. The node budget is exact: a search never
// visits more than maxNodes nodes.
func (c *control) poll() bool {
	c.nodes++
	if c.stopped {
		return true
	}
	if c.maxNodes > 0 && c.nodes >= c.maxNodes {
		c.stopped = true
		return true
	}
	if c.nodes%pollInterval != 0 {
		return false
	}
	switch {
	case c.limit > 0 && time.Since(c.start) >= c.limit:
		c.stopped = true
	case c.ctx.Err() != nil:
		c.stopped = true
	}
	return c.stopped
}

// iterationDone records that an iteration of iterative deepening has
// completed, for another's estimate of the next one.
func (c *control) iterationDone() {
	now := c.elapsed()
	c.prevIter, c.lastIter, c.lastEnd = c.lastIter, now-c.lastEnd, now
}

// another reports whether the next iteration of iterative deepening is
// worth starting. Each iteration takes several times as long as the one
// before (the ratio of the last two, between 2 and 10); the next one is
// started when it is expected to finish in time, or in any case in the
// first part of the time (early: a third unless the player sets more), as
// a stopped iteration may still find a better move.
func (c *control) another() bool {
	switch {
	case c.stopped, c.ctx.Err() != nil:
		return false
	case c.maxNodes > 0 && c.nodes >= c.maxNodes:
		return false
	case c.limit <= 0, !c.predict:
		return true
	}
	el := c.elapsed()
	ratio := 4.0
	if c.prevIter > 0 {
		ratio = min(max(float64(c.lastIter)/float64(c.prevIter), 2), 10)
	}
	next := time.Duration(float64(c.lastIter) * ratio)
	return el < time.Duration(float64(c.limit)*c.early) || el+next <= c.limit
}

func (c *control) elapsed() time.Duration { return time.Since(c.start) }
