package engine

import (
	"errors"
	"fmt"
)

// Kind classifies an engine failure so that a tournament runner can decide
// what it means for the game: a forfeit on time, a crash, a protocol
// violation, or no fault of the bot at all (KindCanceled, KindClosed).
type Kind int

const (
	// KindStart means the bot process could not be launched: the command
	// was not found or not executable, the working directory is missing,
	// or the stderr log file could not be opened.
	KindStart Kind = iota + 1
	// KindHandshake means the bot answered the handshake with well-formed
	// lines whose content is unacceptable: an unsupported protocol
	// version, no games declared, or an option that is not declared or
	// whose value does not fit the declaration.
	KindHandshake
	// KindTimeout means the bot did not answer (or did not read its input)
	// before the deadline.
	KindTimeout
	// KindCrash means the bot exited, or closed its output, while the
	// arena expected an answer or tried to write to it.
	KindCrash
	// KindProtocol means the bot wrote something that breaks the protocol:
	// a malformed or over-long line, invalid UTF-8, a known message with
	// bad arguments, a message that is not allowed at that point (such as
	// a move nobody asked for), or a flood of unknown lines.
	KindProtocol
	// KindUnsupported means the arena asked for something the bot did not
	// declare, such as a game missing from its games list.
	KindUnsupported
	// KindCanceled means the caller's context was canceled or its deadline
	// passed. It is not the bot's fault; Err wraps the context's error.
	KindCanceled
	// KindClosed means the Engine was closed (possibly while the call was
	// in progress), that stopping it failed, or that the program is
	// exiting (Exit). Err wraps ErrClosed for calls made on or interrupted
	// by a closed Engine, and for any call that fails once Exit has begun.
	KindClosed
	// KindInvalid means the request itself cannot be sent: a move, option
	// value or position text the protocol cannot carry, a line over the
	// protocol's length limit, or a missing argument. Nothing was sent and
	// the Engine stays usable; it is never the bot's fault.
	KindInvalid
	// KindLimit means the bot reached one of the limits of its Policy:
	// its memory or processes (as its cgroup counted them), the size of a
	// file it wrote, or its CPU time in the game. Err names the limit
	// first ("memory limit 512 MiB") and then how the bot failed.
	KindLimit
)

var kindNames = [...]string{
	KindStart:       "start",
	KindHandshake:   "handshake",
	KindTimeout:     "timeout",
	KindCrash:       "crash",
	KindProtocol:    "protocol violation",
	KindUnsupported: "unsupported",
	KindCanceled:    "canceled",
	KindClosed:      "closed",
	KindInvalid:     "invalid request",
	KindLimit:       "limit",
}

// String returns a short lower-case name such as "timeout" or "crash".
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ErrClosed is wrapped by the error of any call made on, or interrupted by,
// a closed Engine.
var ErrClosed = errors.New("engine closed")

// Error is the error type returned by every Engine operation. Bot names the
// bot, Kind classifies the failure and Op names the operation that failed
// ("start", "handshake", "newgame", "move", "gameover", "ping" or "close").
type Error struct {
	Bot  string
	Kind Kind
	Op   string
	Err  error
}

// Error returns a message such as `bot "x": timeout: no move within 1.2s`.
func (e *Error) Error() string {
	return fmt.Sprintf("bot %q: %s: %v", e.Bot, e.Kind, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
