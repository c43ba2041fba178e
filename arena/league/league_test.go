package league_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/league"
)

// roster writes a league's roster of n random movers with the given
// [league] keys and opens it.
func roster(t testing.TB, n int, keys string) (*league.Roster, []byte) {
	t.Helper()
	dir := t.TempDir()
	text := "name = \"l\"\nseed = 4\n[game]\nname = \"cheversi\"\n[league]\n" + keys + "\n"
	for i := range n {
		text += fmt.Sprintf("[[bots]]\nname = \"b%d\"\ncommand = \"sh\"\n", i)
	}
	path := filepath.Join(dir, league.RosterFile)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := league.Open(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r, []byte(text)
}

// joinAll lets every newcomer join against its pool.
func joinAll(t testing.TB, r *league.Roster, text []byte) {
	t.Helper()
	for _, name := range r.Newcomers() {
		if _, err := r.Join(name, r.Pool(), text); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPool(t *testing.T) {
	for _, c := range []struct {
		bots, sample int
		want         []int // pool sizes of the stages
	}{
		{5, 0, []int{0, 1, 2, 3, 4}},
		{5, 2, []int{0, 1, 2, 2, 2}},
		{5, 9, []int{0, 1, 2, 3, 4}},
		{12, 3, []int{0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
	} {
		r, text := roster(t, c.bots, fmt.Sprintf("sample = %d", c.sample))
		joinAll(t, r, text)
		stages, err := league.Stages(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		var sizes []int
		for i, s := range stages {
			sizes = append(sizes, len(s.Pool))
			before := r.Members[:i]
			for _, p := range s.Pool {
				if !slices.Contains(before, p) {
					t.Errorf("%d bots, sample %d: %s plays %s, which joined after it", c.bots, c.sample, s.Bot, p)
				}
			}
			if !slices.IsSortedFunc(s.Pool, func(a, b string) int { return slices.Index(before, a) - slices.Index(before, b) }) {
				t.Errorf("%s's pool %v is not in the order of joining", s.Bot, s.Pool)
			}
			if _, err := os.Stat(s.Config()); (err == nil) != (len(s.Pool) > 0) {
				t.Errorf("%s: pool %v, configuration %v", s.Bot, s.Pool, err)
			}
		}
		if !slices.Equal(sizes, c.want) {
			t.Errorf("%d bots, sample %d: pools of %v, want %v", c.bots, c.sample, sizes, c.want)
		}
		if len(r.Newcomers()) != 0 {
			t.Errorf("newcomers %v after every bot joined", r.Newcomers())
		}
	}
}

// TestPoolSameSample checks that a sample depends on the seed and the
// newcomer's place alone, so that a league laid out again draws it again.
func TestPoolSameSample(t *testing.T) {
	var pools [2][][]string
	for k := range pools {
		r, text := roster(t, 10, "sample = 4")
		joinAll(t, r, text)
		for _, s := range r.Stages {
			pools[k] = append(pools[k], s.Pool)
		}
	}
	for i := range pools[0] {
		if !slices.Equal(pools[0][i], pools[1][i]) {
			t.Errorf("stage %d: pools %v and %v", i+1, pools[0][i], pools[1][i])
		}
	}
}

func TestStagesRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(dir string) error
		want   string
	}{
		{"gap", func(dir string) error { return os.RemoveAll(filepath.Join(dir, "002-b1")) }, "place 3, want 2"},
		{"moved", func(dir string) error { return os.Rename(filepath.Join(dir, "002-b1"), filepath.Join(dir, "002-bx")) }, "belongs in 002-b1"},
		{"unknown key", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "002-b1", league.StageFile), []byte(`{"index": 2, "bot": "b1", "pools": []}`), 0o644)
		}, `unknown field "pools"`},
		{"no file", func(dir string) error { return os.Remove(filepath.Join(dir, "003-b2", league.StageFile)) }, "no such file"},
		{"own pool", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "002-b1", league.StageFile), []byte(`{"index": 2, "bot": "b1", "pool": ["b1"]}`), 0o644)
		}, "in its own pool"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, text := roster(t, 3, "")
			joinAll(t, r, text)
			if err := c.damage(filepath.Join(r.Dir, league.StagesDir)); err != nil {
				t.Fatal(err)
			}
			_, err := league.Stages(r.Dir)
			if !errors.Is(err, league.ErrDamaged) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Stages: %v, want ErrDamaged saying %q", err, c.want)
			}
		})
	}
}

// TestSynonyms checks that a bot's earlier name counts as its own and
// that a bot off the roster is retired.
func TestSynonyms(t *testing.T) {
	r, text := roster(t, 3, "")
	joinAll(t, r, text)
	renamed := strings.Replace(strings.Replace(string(text), `"b1"`, `"bee"`, 1), "[league]\n", "[league]\nsynonyms = { bee = [\"b1\"] }\n", 1)
	renamed = strings.Replace(renamed, "[[bots]]\nname = \"b2\"\ncommand = \"sh\"\n", "", 1)
	path := filepath.Join(r.Dir, league.RosterFile)
	if err := os.WriteFile(path, []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err = league.Open(r.Dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Newcomers(); len(got) != 0 {
		t.Errorf("newcomers %v: bee joined as b1", got)
	}
	if r.Name("b1") != "bee" || r.Name("b2") != "b2" {
		t.Errorf("names b1 -> %s, b2 -> %s", r.Name("b1"), r.Name("b2"))
	}
	if got := r.Retired(); !slices.Equal(got, []string{"b2"}) {
		t.Errorf("retired %v, want b2", got)
	}
}

// ExampleRoster_Join lays out a league of three bots: the first plays no
// one, each later one the bots before it.
func ExampleRoster_Join() {
	dir, _ := os.MkdirTemp("", "league")
	defer os.RemoveAll(dir)
	text := []byte(`[game]
name = "cheversi"
[league]
[[bots]]
name = "random"
command = "sh"
[[bots]]
name = "greedy"
command = "sh"
[[bots]]
name = "alphabeta"
command = "sh"
`)
	path := filepath.Join(dir, league.RosterFile)
	os.WriteFile(path, text, 0o644)
	cfg, err := config.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := league.Open(dir, cfg)
	for _, name := range r.Newcomers() {
		s, err := r.Join(name, r.Pool(), text)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(s.Index, s.Bot, "plays", s.Pool)
	}
	// Output:
	// 1 random plays []
	// 2 greedy plays [random]
	// 3 alphabeta plays [random greedy]
}
