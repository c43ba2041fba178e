package engine

import "sync/atomic"

// Skipping the check for stray output. Before each request a call reads
// what the bot wrote since its last exchange (drain), which costs a read
// system call even when, as almost always, the bot wrote nothing. In a
// game the bots take turns: while the arena waits for one bot's move, the
// other is idle, and the poll(2) that waits for the move can look at the
// idle bot's output too, at no extra cost. When that poll, made after the
// idle bot's last call ended, found its output empty, and the arena holds
// none of its lines, the idle bot's next call starts without the read:
// the bot wrote nothing before the poll, and what it writes after it is
// taken as the answer to its next request, as output written between the
// check and the request always was (see Move).

// idleOutput is what other calls' waits learn about a bot's output
// between its calls.
type idleOutput struct {
	fd    int32         // the arena's end of the bot's stdout
	calls atomic.Uint64 // incremented as each call starts and as it ends: odd during a call
	quiet atomic.Uint64 // calls+1 when a watching wait last saw the output empty; 0: not seen so
}

// begin marks the start of a call and reports whether a wait of another
// call saw the bot's output empty since the bot's last call ended.
func (o *idleOutput) begin() (quiet bool) {
	n := o.calls.Add(1)
	return o.quiet.Load() == n
}

// end marks the end of a call.
func (o *idleOutput) end() { o.calls.Add(1) }

// idleWatch is one call's watch on another bot's output (see idleOutput):
// it holds the count of that bot's calls when the watch began, and only a
// poll made while that bot is still between the same two calls counts.
type idleWatch struct {
	out     *idleOutput
	between uint64 // out.calls when the watch began (even: between calls)
	off     bool   // the output showed something: no longer watched in this call
}

// start begins a watch on o for a call of another bot; o nil, or o in a
// call of its own, watches nothing.
func (w *idleWatch) start(o *idleOutput) {
	*w = idleWatch{}
	if o != nil {
		if n := o.calls.Load(); n%2 == 0 {
			*w = idleWatch{out: o, between: n}
		}
	}
}

// stop ends the watch.
func (w *idleWatch) stop() { *w = idleWatch{} }

// active reports whether the next poll should look at the watched output.
func (w *idleWatch) active() bool { return w != nil && w.out != nil && !w.off }

// saw records what a poll saw of the watched output: empty, if the bot is
// still between the same calls, means its next call may skip its check;
// anything else (output, its end, an error) means it must not, and the
// output is not watched again in this call, so that a bot that keeps its
// output readable cannot keep waking the poll.
func (w *idleWatch) saw(ready bool) {
	if ready {
		w.off = true
		w.out.quiet.Store(0)
		return
	}
	if w.out.calls.Load() == w.between {
		w.out.quiet.Store(w.between + 1)
	}
}
