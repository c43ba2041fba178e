package tournament_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/tournament"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// compatExtras is configuration the version-1 bot must not notice, added
// to the [time] table: it applies only to bots that ask for it.
const compatExtras = "nodes = 5000\ndepth = 3\n"

// TestVersion1Transcript plays a tournament in which a bot that asks for
// nothing beyond version 1.0 of the protocol (legal-move lists only)
// records every line it reads, and compares that with the transcript the
// arena sent such a bot before the protocol's later additions.
func TestVersion1Transcript(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, body string }{
		{"cheversi", `
[game]
name = "cheversi"
`},
		{"checkers", `
[game]
name = "checkers"
[openings]
limit = 1
[adjudication]
max_plies = 40
resign = { score = 100, moves = 1 }
draw = { score = 100, moves = 1 }
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			transcript := filepath.Join(dir, "transcript.txt")
			var b strings.Builder
			fmt.Fprintf(&b, "name = \"compat\"\nconcurrency = 1\n%s\n[time]\nmove = \"5s\"\nmargin = \"5s\"\n", tc.body)
			b.WriteString(compatExtras)
			fmt.Fprintf(&b, "\n[[bots]]\nname = \"old\"\ncommand = %q\nenv = { %s = \"legal\", %s = %q }\n",
				exe, testBotEnv, testTranscriptEnv, transcript)
			fmt.Fprintf(&b, "\n[[bots]]\nname = \"new\"\ncommand = %q\nenv = { %s = \"first\" }\n", exe, testBotEnv)
			path := filepath.Join(dir, "compat.toml")
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := loadConfig(t, path)
			if _, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: filepath.Join(dir, "out")}); err != nil {
				t.Fatalf("Run: %v", err)
			}
			got, err := os.ReadFile(transcript)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "v1-transcript-"+tc.name+".txt")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("a version-1 bot read something else than before:\n%s", firstDiff(string(want), string(got)))
			}
		})
	}
}

// firstDiff describes the first line where two texts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n want %q\n  got %q", i+1, wl, gl)
		}
	}
	return "no difference"
}
