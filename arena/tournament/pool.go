package tournament

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/arena-games/arena/arena/engine"
)

// pool keeps bot processes alive between games. A game takes one engine of
// each of its bots and gives them back when it ends; an engine that broke
// (crashed, timed out, broke the protocol) is closed instead and the next
// game starts a fresh process. At most maxIdle idle engines are kept; the
// oldest is closed when there are more.
type pool struct {
	ctx     context.Context // for starting engines; closing the pool does not depend on it
	specs   map[string]engine.Spec
	maxIdle int

	mu      sync.Mutex
	idle    []idleEngine // oldest first
	live    map[*engine.Engine]struct{}
	closed  bool
	started map[string]int // processes started per bot
	closing sync.WaitGroup // engines being closed in the background
}

type idleEngine struct {
	bot string
	e   *engine.Engine
}

var errPoolClosed = errors.New("engine pool closed")

func newPool(ctx context.Context, specs map[string]engine.Spec, maxIdle int) *pool {
	return &pool{ctx: ctx, specs: specs, maxIdle: maxIdle, live: map[*engine.Engine]struct{}{}, started: map[string]int{}}
}

// get returns an idle engine of bot, or starts one.
func (p *pool) get(bot string) (*engine.Engine, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errPoolClosed
	}
	for i := len(p.idle) - 1; i >= 0; i-- {
		ie := p.idle[i]
		if ie.bot != bot {
			continue
		}
		p.idle = append(p.idle[:i], p.idle[i+1:]...)
		select {
		case <-ie.e.Exited():
			// Died while idle: replace it.
			p.discardLocked(ie.e)
			continue
		default:
		}
		p.mu.Unlock()
		return ie.e, nil
	}
	spec, ok := p.specs[bot]
	if !ok {
		p.mu.Unlock()
		return nil, fmt.Errorf("no bot named %q", bot)
	}
	p.started[bot]++
	p.mu.Unlock()

	e, err := engine.Start(p.ctx, spec)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		p.closing.Add(1)
		go func() {
			defer p.closing.Done()
			e.Close()
		}()
		return nil, errPoolClosed
	}
	p.live[e] = struct{}{}
	return e, nil
}

// put gives an engine back after a game. broken engines are closed.
func (p *pool) put(bot string, e *engine.Engine, broken bool) {
	if e == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.live[e]; !ok {
		return // already closed by close
	}
	if broken || p.closed {
		p.discardLocked(e)
		return
	}
	p.idle = append(p.idle, idleEngine{bot: bot, e: e})
	for len(p.idle) > p.maxIdle {
		old := p.idle[0]
		p.idle = p.idle[1:]
		p.discardLocked(old.e)
	}
}

// discardLocked closes e in the background. p.mu is held.
func (p *pool) discardLocked(e *engine.Engine) {
	delete(p.live, e)
	p.closing.Add(1)
	go func() { // ends when Close returns (Close always reaps, with its own timeouts)
		defer p.closing.Done()
		e.Close()
	}()
}

// starts returns how many processes were started per bot.
func (p *pool) starts() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]int, len(p.started))
	for k, v := range p.started {
		out[k] = v
	}
	return out
}

// close closes every engine, idle or in use, and waits until all are
// reaped. Engines in use fail their current call with an engine.Error of
// kind KindClosed. It is safe to call more than once.
func (p *pool) close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		for e := range p.live {
			p.discardLocked(e)
		}
		p.idle = nil
	}
	p.mu.Unlock()
	p.closing.Wait()
}
