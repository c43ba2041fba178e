package protocol

import (
	"io"
	"sync"
)

// Writer writes protocol messages to a stream. It is safe for concurrent
// use: each WriteMessage call writes its lines with a single Write, never
// interleaved with another call's.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewWriter returns a Writer writing to w. Each line ends with LF.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// WriteMessage formats the messages, one line each, and writes them
// together. If a message cannot be formatted (an error wrapping ErrInvalid)
// or a line would be longer than MaxLineLength (ErrLineTooLong), nothing
// is written.
func (w *Writer) WriteMessage(ms ...Message) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.buf[:0]
	for _, m := range ms {
		start := len(b)
		var err error
		if b, err = m.AppendText(b); err != nil {
			return err
		}
		if len(b)-start > MaxLineLength {
			return &ProtocolError{Err: ErrLineTooLong, Line: string(b[start : start+maxErrorLine])}
		}
		b = append(b, '\n')
	}
	w.buf = b
	_, err := w.w.Write(b)
	return err
}
