package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// checkWidth fails the test for every line of out wider than 80 columns.
func checkWidth(t *testing.T, what, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if w := twwidth.Width(line); w > lineWidth {
			t.Errorf("%s: a line of %d columns, more than %d:\n%s", what, w, lineWidth, line)
		}
	}
}

func TestWrapLine(t *testing.T) {
	for _, c := range []struct {
		in     string
		width  int
		indent int
		want   string
	}{
		{"short line", 80, 4, "short line"},
		{"one two three four", 9, 2, "one two\n  three\n  four"},
		{"  lead words here", 10, 4, "  lead\n    words\n    here"},
		{"averyveryverylongword and more", 10, 0, "averyveryverylongword\nand more"},
		{"µs µs µs µs", 6, 0, "µs µs\nµs µs"},
	} {
		if got := wrapLine(c.in, c.width, c.indent); got != c.want {
			t.Errorf("wrapLine(%q, %d, %d) = %q, want %q", c.in, c.width, c.indent, got, c.want)
		}
	}
}

func TestWrapWriter(t *testing.T) {
	var b bytes.Buffer
	w := &wrapWriter{w: &b, width: 10, indent: 2}
	w.Write([]byte("one two three"))
	w.Write([]byte(" four\n  a b\n"))
	if want := "one two\n  three\n  four\n  a b\n"; b.String() != want {
		t.Errorf("wrapWriter wrote %q, want %q", b.String(), want)
	}
}

// TestHelpFitsTheTerminal checks that arena help and the command's
// own messages stay within 80 columns.
func TestHelpFitsTheTerminal(t *testing.T) {
	var b bytes.Buffer
	printUsage(&b)
	checkWidth(t, "arena help", b.String())
	if !strings.Contains(b.String(), "  sweep    race rule variants") && !strings.Contains(b.String(), "  run      play") {
		t.Errorf("arena help lists no command:\n%s", b.String())
	}
}
