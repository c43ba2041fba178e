package main

import (
	"io"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// lineWidth is the width the arena's own messages are wrapped to: a
// terminal's classic 80 columns.
const lineWidth = 80

// wrapLine breaks s at spaces into lines of at most width columns, the
// lines after the first indented by indent spaces; a word longer than a
// line stays whole. The spaces within a line are kept as they are, and
// text that fits is returned as it is.
func wrapLine(s string, width, indent int) string {
	if width <= 0 || twwidth.Width(s) <= width {
		return s
	}
	var b strings.Builder
	pad := strings.Repeat(" ", indent)
	col, start := 0, true
	for rest := s; rest != ""; {
		// The next word and the spaces before it.
		word := strings.TrimLeft(rest, " ")
		space := rest[:len(rest)-len(word)]
		if i := strings.IndexByte(word, ' '); i >= 0 {
			word = word[:i]
		}
		rest = rest[len(space)+len(word):]
		if word == "" {
			break // trailing spaces
		}
		w := twwidth.Width(word)
		switch {
		case start:
			b.WriteString(space)
			col += len(space)
		case col+len(space)+w > width:
			b.WriteString("\n" + pad)
			col = indent
		default:
			b.WriteString(space)
			col += len(space)
		}
		b.WriteString(word)
		col += w
		start = false
	}
	return b.String()
}

// wrapWriter wraps every line written through it with wrapLine, indenting
// the continuation of a line by its own leading spaces plus indent.
type wrapWriter struct {
	w      io.Writer
	width  int
	indent int
	buf    []byte // an incomplete last line
}

func (ww *wrapWriter) Write(p []byte) (int, error) {
	ww.buf = append(ww.buf, p...)
	for {
		i := strings.IndexByte(string(ww.buf), '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(ww.buf[:i])
		ww.buf = ww.buf[i+1:]
		lead := len(line) - len(strings.TrimLeft(line, " "))
		if _, err := io.WriteString(ww.w, wrapLine(line, ww.width, lead+ww.indent)+"\n"); err != nil {
			return 0, err
		}
	}
}
