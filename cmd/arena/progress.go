package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/tournament"
)

// progress shows how a tournament is going (tournament.Progress): on a
// terminal one line redrawn in place, otherwise a plain line every
// interval. Notices are printed on lines of their own. It is safe for
// concurrent use.
type progress struct {
	mu       sync.Mutex
	w        io.Writer // nil: report nothing
	tty      bool
	width    func() int // columns of the terminal; nil or 0: unknown
	interval time.Duration
	name     string

	total, done0, done int
	start              time.Time
	tally              *journal.Tally
	lastDraw           time.Time
	shown              bool   // a live line is on the screen
	sprt               string // the sequential test's state, short; "" without one

	stop     chan struct{} // closed by Finished: ends the ticking goroutine
	finished chan struct{} // closed when it has ended
}

// ttyRedraw bounds how often the live line is redrawn.
const ttyRedraw = 200 * time.Millisecond

// newProgress returns the progress display on w, one line redrawn in
// place when tty is set (fitted to width, when width is set), otherwise a
// plain line every interval (5s when 0).
func newProgress(w io.Writer, tty bool, width func() int, interval time.Duration) *progress {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	return &progress{w: w, tty: tty, width: width, interval: interval}
}

// Started starts reporting, from the games already recorded, and ticking.
func (p *progress) Started(s tournament.ProgressStart) {
	p.mu.Lock()
	p.name, p.total, p.done0, p.done, p.tally, p.sprt = s.Name, s.Games, s.Recorded, s.Recorded, s.Tally, s.Test
	p.start = time.Now()
	p.stop, p.finished = make(chan struct{}), make(chan struct{})
	p.mu.Unlock()
	tick := p.ticker()
	go func() { // exits when Finished closes p.stop
		defer close(p.finished)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tick.C:
				p.tick()
			}
		}
	}()
}

// ticker returns the ticker that drives tick.
func (p *progress) ticker() *time.Ticker {
	if p.tty {
		return time.NewTicker(ttyRedraw)
	}
	return time.NewTicker(p.interval)
}

// Recorded counts a game the run recorded.
func (p *progress) Recorded(rec *journal.Record, test string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.tally.Add(rec)
	p.sprt = test
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

// Notice prints msg on a line of its own.
func (p *progress) Notice(msg string) {
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

// Finished stops ticking and prints the final progress line.
func (p *progress) Finished() {
	if p.stop != nil {
		close(p.stop)
		<-p.finished
	}
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
	width := 0
	if p.width != nil {
		// One column short of the width: a line that fills the last
		// column makes some terminals wrap.
		width = max(p.width()-1, 0)
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", fitLine(p.lineParts(), width))
	p.shown = true
	p.lastDraw = time.Now()
}

// lineLocked formats e.g.
// "quickstart: 23/96 games (24%), 12.3 games/s, ETA 6s, leader alphabeta 10.5/14".
func (p *progress) lineLocked() string { return fitLine(p.lineParts(), 0) }

// lineParts returns the parts of the progress line: the name and the
// count, which stay, then the others by how long they stay when the line
// must be shortened (the rate goes first, the ETA last).
func (p *progress) lineParts() []linePart {
	parts := []linePart{{text: p.name, keep: -1, shrink: true}, {text: fmt.Sprintf(": %d/%d games", p.done, p.total), keep: -1}}
	if p.total > 0 {
		parts = append(parts, linePart{text: fmt.Sprintf(" (%d%%)", 100*p.done/p.total), keep: 2})
	}
	elapsed := time.Since(p.start)
	if n := p.done - p.done0; n > 0 && elapsed > 0 {
		rate := float64(n) / elapsed.Seconds()
		parts = append(parts, linePart{text: fmt.Sprintf(", %.1f games/s", rate), keep: 0})
		if left := p.total - p.done; left > 0 {
			eta := time.Duration(float64(left) / rate * float64(time.Second))
			parts = append(parts, linePart{text: fmt.Sprintf(", ETA %v", roundETA(eta)), keep: 3})
		}
	}
	if st := p.tally.Standings(); len(st) > 0 && st[0].Games > 0 {
		parts = append(parts, linePart{text: fmt.Sprintf(", leader %s %s/%d", st[0].Bot, formatPoints(st[0].Points), st[0].Games), keep: 1})
	}
	if p.sprt != "" {
		parts = append(parts, linePart{text: ", " + p.sprt, keep: 4})
	}
	return parts
}

// linePart is a part of a line. When the line is too long the parts with
// the lowest keep go first, except those with a negative keep, which stay;
// then a part that may shrink is cut short.
type linePart struct {
	text   string
	keep   int
	shrink bool
}

// fitLine joins parts into a line of at most width characters (no limit
// when width <= 0): it leaves out parts, then shortens those that may
// shrink (with an ellipsis), then cuts the line.
func fitLine(parts []linePart, width int) string {
	length := 0
	for _, p := range parts {
		length += utf8.RuneCountInString(p.text)
	}
	parts = slices.Clone(parts)
	for width > 0 && length > width {
		drop := -1
		for i, p := range parts {
			if p.keep >= 0 && (drop < 0 || p.keep < parts[drop].keep) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		length -= utf8.RuneCountInString(parts[drop].text)
		parts = slices.Delete(parts, drop, drop+1)
	}
	for i := range parts {
		if over := length - width; width > 0 && over > 0 && parts[i].shrink {
			r := []rune(parts[i].text)
			keep := max(len(r)-over-1, 1)
			length -= len(r) - keep - 1
			parts[i].text = string(r[:keep]) + "…"
		}
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.text)
	}
	if r := []rune(b.String()); width > 0 && len(r) > width {
		return string(r[:width])
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

// formatPoints prints 3 as "3" and 3.5 as "3.5".
func formatPoints(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }
