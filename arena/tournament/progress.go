package tournament

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress reports how a tournament is going: on a terminal one line
// redrawn in place, otherwise a plain line every interval. Notices are
// printed on lines of their own. It is safe for concurrent use.
type progress struct {
	mu       sync.Mutex
	w        io.Writer // nil: report nothing
	tty      bool
	interval time.Duration
	name     string

	total, done0, done int
	start              time.Time
	tally              *tally
	lastDraw           time.Time
	shown              bool // a live line is on the screen
}

// ttyRedraw bounds how often the live line is redrawn.
const ttyRedraw = 200 * time.Millisecond

// newProgress starts reporting; done games are already recorded and t
// holds their tally (progress keeps it up to date from then on).
func newProgress(opts Options, name string, total, done int, t *tally) *progress {
	p := &progress{
		w: opts.Progress, tty: opts.Terminal, interval: opts.ProgressInterval, name: name,
		total: total, done0: done, done: done, start: time.Now(), tally: t,
	}
	if p.interval <= 0 {
		p.interval = 5 * time.Second
	}
	return p
}

// ticker returns the ticker that drives tick.
func (p *progress) ticker() *time.Ticker {
	if p.tty {
		return time.NewTicker(ttyRedraw)
	}
	return time.NewTicker(p.interval)
}

// game records a finished game.
func (p *progress) game(rec *Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.tally.add(rec)
	if p.tty && time.Since(p.lastDraw) >= ttyRedraw {
		p.drawLocked()
	}
}

// tick redraws the live line or prints a plain progress line.
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w == nil {
		return
	}
	if p.tty {
		p.drawLocked()
		return
	}
	fmt.Fprintln(p.w, p.lineLocked())
}

// notice prints msg on a line of its own.
func (p *progress) notice(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w == nil {
		return
	}
	if p.tty && p.shown {
		fmt.Fprintf(p.w, "\r\x1b[K%s\n", msg)
		p.drawLocked()
		return
	}
	fmt.Fprintln(p.w, msg)
}

// finish prints the final progress line.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w == nil {
		return
	}
	if p.tty {
		p.drawLocked()
		fmt.Fprintln(p.w)
		p.shown = false
		return
	}
	fmt.Fprintln(p.w, p.lineLocked())
}

func (p *progress) drawLocked() {
	if p.w == nil {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", p.lineLocked())
	p.shown = true
	p.lastDraw = time.Now()
}

// lineLocked formats e.g.
// "quickstart: 23/96 games (24%), 12.3 games/s, ETA 6s, leader alphabeta 10.5/14".
func (p *progress) lineLocked() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d games", p.name, p.done, p.total)
	if p.total > 0 {
		fmt.Fprintf(&b, " (%d%%)", 100*p.done/p.total)
	}
	elapsed := time.Since(p.start)
	if n := p.done - p.done0; n > 0 && elapsed > 0 {
		rate := float64(n) / elapsed.Seconds()
		fmt.Fprintf(&b, ", %.1f games/s", rate)
		if left := p.total - p.done; left > 0 {
			eta := time.Duration(float64(left) / rate * float64(time.Second))
			fmt.Fprintf(&b, ", ETA %v", roundETA(eta))
		}
	}
	if st := p.tally.standings(); len(st) > 0 && st[0].Games > 0 {
		fmt.Fprintf(&b, ", leader %s %s/%d", st[0].Bot, formatPoints(st[0].Points), st[0].Games)
	}
	return b.String()
}

// roundETA rounds an ETA to a readable precision.
func roundETA(d time.Duration) time.Duration {
	switch {
	case d < time.Minute:
		return d.Round(time.Second)
	case d < time.Hour:
		return d.Round(10 * time.Second)
	}
	return d.Round(time.Minute)
}
