package engine

import (
	"strings"
	"testing"
)

func TestCappedLog(t *testing.T) {
	tests := []struct {
		name   string
		limit  int64
		writes []string
		want   string
	}{
		{"under the limit", 10, []string{"abc", "def"}, "abcdef"},
		{"exactly the limit", 6, []string{"abc", "def"}, "abcdef"},
		{"over the limit", 4, []string{"abc", "def", "ghi"},
			"abcd\n[arena: log truncated after 4 bytes]\n[arena: 5 bytes of output dropped]\n"},
		{"zero limit", 0, []string{"abc"},
			"\n[arena: log truncated after 0 bytes]\n[arena: 3 bytes of output dropped]\n"},
		{"unlimited", -1, []string{strings.Repeat("x", 1000)}, strings.Repeat("x", 1000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			l := newCappedLog(&b, tt.limit)
			for _, w := range tt.writes {
				if n, err := l.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", w, n, err, len(w))
				}
			}
			if err := l.finish(); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("log = %q, want %q", got, tt.want)
			}
		})
	}
}
