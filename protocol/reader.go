package protocol

import (
	"bufio"
	"errors"
	"io"
	"unicode/utf8"
)

// Reader reads protocol lines from a stream. However long a line, it holds
// little more than MaxLineLength bytes of it in memory. A Reader is not safe
// for concurrent use.
type Reader struct {
	r          *bufio.Reader
	buf        []byte
	partial    bool // buf holds the start of a line cut short by a read error
	discarding bool // the rest of an over-long line is still to be skipped
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 4096)}
}

// ReadLine returns the next line without its line end (LF or CR LF).
//
// A line longer than MaxLineLength yields a *ProtocolError wrapping
// ErrLineTooLong as soon as the limit is passed; the next call skips the
// rest of that line. A line that is not valid UTF-8 yields a *ProtocolError
// wrapping ErrNotUTF8. After either, the Reader goes on with the next line.
// At the end of the stream ReadLine returns io.EOF, or io.ErrUnexpectedEOF
// when the stream ends inside a line (the partial line is dropped). Other
// errors are the underlying reader's; the part of a line read before such
// an error is kept, so that after a passing error (a read deadline, say)
// the next call goes on with the same line.
func (r *Reader) ReadLine() (string, error) {
	if !r.partial {
		r.buf = r.buf[:0]
	}
	r.partial = false
	for {
		frag, err := r.r.ReadSlice('\n')
		if r.discarding {
			switch {
			case err == nil:
				r.discarding = false
				continue
			case errors.Is(err, bufio.ErrBufferFull):
				continue
			case errors.Is(err, io.EOF):
				return "", io.ErrUnexpectedEOF
			default:
				return "", err
			}
		}
		r.buf = append(r.buf, frag...)
		switch {
		case err == nil:
			line := r.buf[:len(r.buf)-1]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			if len(line) > MaxLineLength {
				return "", &ProtocolError{Err: ErrLineTooLong, Line: string(line[:maxErrorLine])}
			}
			if !utf8.Valid(line) {
				return "", &ProtocolError{Err: ErrNotUTF8, Line: string(line)}
			}
			return string(line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			// MaxLineLength bytes plus a possible CR may still end well.
			if len(r.buf) > MaxLineLength+1 {
				r.discarding = true
				return "", &ProtocolError{Err: ErrLineTooLong, Line: string(r.buf[:maxErrorLine])}
			}
		case errors.Is(err, io.EOF):
			if len(r.buf) > MaxLineLength {
				r.discarding = true
				return "", &ProtocolError{Err: ErrLineTooLong, Line: string(r.buf[:maxErrorLine])}
			}
			if len(r.buf) > 0 {
				return "", io.ErrUnexpectedEOF
			}
			return "", io.EOF
		default:
			r.partial = true
			return "", err
		}
	}
}

// Pending reports whether the Reader holds anything it has read from the
// stream and not yet returned or skipped: buffered bytes, the start of a
// line cut short by a read error, or the rest of an over-long line still
// to be skipped. A Reader that holds nothing returns its next line only
// after reading the stream again.
func (r *Reader) Pending() bool {
	return r.r.Buffered() > 0 || r.partial && len(r.buf) > 0 || r.discarding
}

// ReadMessage reads lines until a non-blank one and parses it. Errors are
// those of ReadLine and Parse: a *ProtocolError wrapping ErrUnknownCommand
// or ErrSyntax leaves the Reader ready for the next line, so that a caller
// following the protocol logs the error and reads on.
func (r *Reader) ReadMessage() (Message, error) {
	for {
		line, err := r.ReadLine()
		if err != nil {
			return nil, err
		}
		if trim(line) == "" {
			continue
		}
		return Parse(line)
	}
}
