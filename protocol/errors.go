package protocol

import (
	"errors"
	"fmt"
)

var (
	// ErrLineTooLong means a line is longer than MaxLineLength bytes.
	ErrLineTooLong = errors.New("line too long")
	// ErrNotUTF8 means a line is not valid UTF-8.
	ErrNotUTF8 = errors.New("line is not valid UTF-8")
	// ErrUnknownCommand means a line's first word is not a command of the
	// protocol. The protocol says such lines are ignored.
	ErrUnknownCommand = errors.New("unknown command")
	// ErrSyntax means a line starts with a known command but its arguments
	// do not follow the command's grammar.
	ErrSyntax = errors.New("syntax error")
	// ErrInvalid means a message holds a value that the protocol cannot
	// carry (an empty or space-containing token, a line break in a text, a
	// negative time, ...), so it cannot be formatted.
	ErrInvalid = errors.New("invalid message")
	// ErrUnexpected means a well-formed message arrived where the protocol
	// does not allow it (for example a move during the handshake).
	ErrUnexpected = errors.New("unexpected message")
	// ErrOptionValue means a value is not acceptable for an option.
	ErrOptionValue = errors.New("bad option value")
)

// maxErrorLine is how much of an offending line an error message quotes.
const maxErrorLine = 120

// ProtocolError reports a line that breaks the protocol. Err is one of
// ErrLineTooLong, ErrNotUTF8, ErrUnknownCommand or ErrSyntax.
type ProtocolError struct {
	// Err is the sentinel error that classifies the problem.
	Err error
	// Line is the offending line without its line end. For ErrLineTooLong
	// it holds only the first bytes of the line.
	Line string
	// Detail says what is wrong, when there is more to say than Err.
	Detail string
}

// Error returns a message naming the problem and quoting (the start of) the
// line.
func (e *ProtocolError) Error() string {
	line := e.Line
	ellipsis := ""
	if len(line) > maxErrorLine {
		line, ellipsis = line[:maxErrorLine], "..."
	}
	if e.Detail != "" {
		return fmt.Sprintf("protocol: %v: %s: %q%s", e.Err, e.Detail, line, ellipsis)
	}
	return fmt.Sprintf("protocol: %v: %q%s", e.Err, line, ellipsis)
}

// Unwrap returns Err, so that errors.Is(err, ErrSyntax) and the like work.
func (e *ProtocolError) Unwrap() error { return e.Err }

func syntaxErr(line, format string, args ...any) error {
	return &ProtocolError{Err: ErrSyntax, Line: line, Detail: fmt.Sprintf(format, args...)}
}

func invalidErr(cmd, format string, args ...any) error {
	return fmt.Errorf("protocol: %s: %w: %s", cmd, ErrInvalid, fmt.Sprintf(format, args...))
}
