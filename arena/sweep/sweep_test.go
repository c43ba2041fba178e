package sweep

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
)

// load writes a sweep configuration into dir and reads it.
func load(t *testing.T, dir, text string) *Config {
	t.Helper()
	path := filepath.Join(dir, "sweep.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromConfig(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const tournamentHead = `name = "t"
seed = %SEED%
[game]
name = "cheversi"
preset = "cheversi"
[openings]
plies = 4
count = %COUNT%
[[bots]]
name = "a"
command = "sh"
[[bots]]
name = "b"
command = "sh"
`

func head(seed, count string) string {
	return strings.NewReplacer("%SEED%", seed, "%COUNT%", count).Replace(tournamentHead)
}

// TestGridOrder: every combination of the grid's values, the keys in
// alphabetical order and the last varying fastest, then the listed
// variants; strengths in the order given.
func TestGridOrder(t *testing.T) {
	c := load(t, t.TempDir(), head("1", "10")+`[sweep]
nodes = [100, 1000]
[sweep.grid]
touch = ["opponent", "any"]
komi = [0, 1.5, 3]
[[sweep.variants]]
black_king_last = false
`)
	var names []string
	for _, v := range c.Variants {
		names = append(names, VariantName(v))
	}
	want := []string{"komi=0 touch=opponent", "komi=0 touch=any", "komi=1.5 touch=opponent", "komi=1.5 touch=any",
		"komi=3 touch=opponent", "komi=3 touch=any", "black_king_last=false"}
	if !slices.Equal(names, want) {
		t.Errorf("variants %q, want %q", names, want)
	}
	if !slices.Equal(c.Strengths(), []int64{100, 1000}) || c.Batch != DefaultBatch || c.MinOpenings != DefaultBatch {
		t.Errorf("strengths %v, batch %d, min %d", c.Strengths(), c.Batch, c.MinOpenings)
	}
}

// TestSharedOpenings: the openings are legal and unfinished under every
// variant, repeat none of an excluded configuration's (by moves or by the
// position they reach), are distinct, and are the same on every draw.
func TestSharedOpenings(t *testing.T) {
	dir := t.TempDir()
	// The excluded configuration draws 4,000 four-ply openings.
	if err := os.WriteFile(filepath.Join(dir, "fitted.toml"), []byte(head("1", "4000")), 0o644); err != nil {
		t.Fatal(err)
	}
	c := load(t, dir, head("1", "300")+`[sweep]
exclude = ["fitted.toml"]
[sweep.grid]
touch = ["opponent", "none"]
queen_call = [true, false]
`)
	ctx := context.Background()
	list, err := c.sharedOpenings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 300 {
		t.Fatalf("%d openings, want 300", len(list))
	}
	ex, err := loadExcluded(ctx, c.Exclude)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.moves) != 4000 {
		t.Fatalf("%d excluded openings, want 4000", len(ex.moves))
	}
	seen := map[string]bool{}
	for i, o := range list {
		key := strings.Join(o.Moves, " ")
		if seen[key] {
			t.Errorf("opening %d (%s) repeated", i+1, key)
		}
		seen[key] = true
		for _, v := range c.Variants {
			rules, err := c.VariantRules(v)
			if err != nil {
				t.Fatal(err)
			}
			st, err := play(rules, o.Moves)
			if err != nil || st.Outcome().Over() {
				t.Errorf("opening %d (%s) under %s: %v", i+1, key, VariantName(v), err)
				continue
			}
			if ex.has(o.Moves, st.Text()) {
				t.Errorf("opening %d (%s) is an excluded one", i+1, key)
			}
		}
	}
	again, err := c.sharedOpenings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range list {
		if !slices.Equal(list[i].Moves, again[i].Moves) {
			t.Fatalf("opening %d drawn as %v, then %v", i+1, list[i].Moves, again[i].Moves)
		}
	}
}

// TestExcludedByPosition: an opening that places the same pieces on the
// same squares in another order is excluded too.
func TestExcludedByPosition(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fitted.txt")
	if err := os.WriteFile(path, []byte("K@d4 N@e5 B@f4 R@e3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fitted := strings.Replace(head("1", "1"), "plies = 4\ncount = 1\n", "file = \"fitted.txt\"\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "fitted.toml"), []byte(fitted), 0o644); err != nil {
		t.Fatal(err)
	}
	ex, err := loadExcluded(context.Background(), []string{filepath.Join(dir, "fitted.toml")})
	if err != nil {
		t.Fatal(err)
	}
	c := load(t, t.TempDir(), head("1", "10")+"[sweep]\n")
	for _, tc := range []struct {
		moves []string
		want  bool
	}{
		{[]string{"K@d4", "N@e5", "B@f4", "R@e3"}, true},
		{[]string{"K@d4", "R@e3", "B@f4", "N@e5"}, true}, // the same board, Black's pieces the other way round
		{[]string{"K@d4", "R@e3", "B@f4", "N@c5"}, false},
	} {
		st, err := play(c.Base.Rules, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		if got := ex.has(tc.moves, st.Text()); got != tc.want {
			t.Errorf("%v: excluded %v, want %v", tc.moves, got, tc.want)
		}
	}
}
