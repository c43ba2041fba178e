package suggest

import (
	"fmt"
	"testing"
)

func TestClosest(t *testing.T) {
	cmds := []string{"bench", "bot", "check", "match", "merge", "play", "rate", "report", "run", "serve"}
	for _, c := range []struct {
		word string
		in   []string
		want string
	}{
		{"rn", cmds, "run"},
		{"rnu", cmds, "run"},
		{"mtach", cmds, "match"},
		{"reprot", cmds, "report"},
		{"xyz", cmds, ""},
		{"concurency", []string{"concurrency", "out", "quiet"}, "concurrency"},
		{"rouns", []string{"kind", "rounds", "players"}, "rounds"},
		{"bultin", []string{"name", "builtin", "command", "args"}, "builtin"},
		{"ARGS", []string{"args"}, "args"},
		{"a", []string{"b", "ab"}, "b"},
		{"timeout", []string{"time", "move"}, ""},
	} {
		if got := Closest(c.word, c.in); got != c.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", c.word, c.in, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"abc", "abc", 0},
		{"abc", "acb", 1}, {"kitten", "sitting", 3}, {"rouns", "rounds", 1}, {"ca", "abc", 3},
	} {
		if got := distance(c.a, c.b); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func ExampleHint() {
	fmt.Printf("arena: unknown command %q%s\n", "rn", Hint("rn", []string{"rate", "run"}))
	// Output: arena: unknown command "rn" (did you mean run?)
}
