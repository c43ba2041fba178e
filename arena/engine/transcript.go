package engine

import (
	"bytes"
	"io"
	"strconv"
	"time"
	"unicode/utf8"
)

// maxTranscriptLine bounds how much of one line a transcript keeps; the
// rest is counted, not written.
const maxTranscriptLine = 1 << 10

// transcriptTimeFormat stamps each line of a transcript.
const transcriptTimeFormat = "15:04:05.000"

// transcriber writes one direction of a bot process's protocol traffic to
// its log, a line at a time, each stamped with the time it passed, the
// process id and an arrow ("→" arena to bot, "←" bot to arena). It sees
// the bytes exactly as they crossed the pipe, so lines the arena rejects
// (too long, not UTF-8) show too. It is used by one goroutine at a time.
type transcriber struct {
	log     *Log
	prefix  string // " [pid] →" after the time
	partial []byte // the start of the current line
	extra   int    // bytes of the current line beyond maxTranscriptLine
	buf     []byte
}

func newTranscriber(log *Log, pid int, arrow string) *transcriber {
	return &transcriber{log: log, prefix: " [" + strconv.Itoa(pid) + "] " + arrow + " "}
}

// add takes the bytes of one read or write.
func (t *transcriber) add(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		room := maxTranscriptLine - len(t.partial)
		if room > len(chunk) {
			room = len(chunk)
		}
		t.partial = append(t.partial, chunk[:room]...)
		t.extra += len(chunk) - room
		if i < 0 {
			return
		}
		t.flush()
		p = p[i+1:]
	}
}

// flush writes the current line to the log.
func (t *transcriber) flush() {
	line := bytes.TrimSuffix(t.partial, []byte{'\r'})
	b := time.Now().AppendFormat(t.buf[:0], transcriptTimeFormat)
	b = append(b, t.prefix...)
	if utf8.Valid(line) && bytes.IndexFunc(line, isControl) < 0 {
		b = append(b, line...)
	} else {
		b = strconv.AppendQuote(b, string(line))
	}
	if t.extra > 0 {
		b = append(b, " ... ("...)
		b = strconv.AppendInt(b, int64(len(t.partial)+t.extra), 10)
		b = append(b, " bytes)"...)
	}
	t.log.Line(string(b))
	t.buf, t.partial, t.extra = b, t.partial[:0], 0
}

func isControl(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }

// transcriptWriter writes to w and transcribes what was written.
type transcriptWriter struct {
	w io.Writer
	t *transcriber
}

func (tw transcriptWriter) Write(p []byte) (int, error) {
	n, err := tw.w.Write(p)
	tw.t.add(p[:n])
	return n, err
}

// transcriptReader reads from r and transcribes what was read.
type transcriptReader struct {
	r io.Reader
	t *transcriber
}

func (tr transcriptReader) Read(p []byte) (int, error) {
	n, err := tr.r.Read(p)
	tr.t.add(p[:n])
	return n, err
}
