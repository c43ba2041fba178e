package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLog(t *testing.T) {
	tests := []struct {
		name   string
		limit  int64
		writes []string
		want   string
	}{
		{"under the cap", 100, []string{"abc", "def"}, "abcdef"},
		{"unlimited", -1, []string{strings.Repeat("x", 1000)}, strings.Repeat("x", 1000)},
		// A cap of 40 keeps 30 bytes and a tail of 10.
		{"over the cap", 40, []string{strings.Repeat("a", 25), "bbbbbbbbbb\n", "cc\nlast words\n"},
			strings.Repeat("a", 25) + "bbbbb" +
				"\n[arena: log capped at 40 bytes: 10 bytes of output dropped; the newest 10 follow]\nast words\n"},
		{"note on a line of its own", 100, []string{"partial", "\x00note"}, "partial\n[arena: note]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.log")
			l, err := OpenLog(path, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.writes {
				if note, ok := strings.CutPrefix(w, "\x00"); ok {
					l.Notef("%s", note)
					continue
				}
				if n, err := l.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", w, n, err, len(w))
				}
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("log = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLogFlushReplacesTail checks that each Flush writes the newest tail
// in place of the previous one: the file does not grow past the cap.
func TestLogFlushReplacesTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.log")
	l, err := OpenLog(path, 400)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		l.Line(strings.Repeat("x", 30) + " line " + string(rune('A'+i%26)))
		if err := l.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	got, _ := os.ReadFile(path)
	if len(got) > 400+120 {
		t.Errorf("log of %d bytes after 50 flushes, want at most the cap and a note", len(got))
	}
	if !strings.HasSuffix(string(got), " line X\n") {
		t.Errorf("log does not end with the newest line:\n%s", got)
	}
}
