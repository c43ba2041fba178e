package config_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/openings"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/tournament"
)

func rulesFor(t testing.TB, name, preset string) game.Rules {
	t.Helper()
	r, err := games.New(name, preset, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseBallotsDecks(t *testing.T) {
	for _, c := range []struct {
		deck  string
		count int
		first string
	}{
		{"", 156, "ACF 1"},
		{openings.DeckACF, 156, "ACF 1"},
		{openings.DeckCTD, 50, "ACF 5 Dreaded Edinburgh"},
		{openings.DeckAll, 174, "ACF 1"},
	} {
		list, err := openings.ParseBallots(rulesFor(t, "checkers", "").(game.Ballots).Ballots(), c.deck)
		if err != nil {
			t.Fatalf("deck %q: %v", c.deck, err)
		}
		if len(list) != c.count || list[0].Name != c.first {
			t.Errorf("deck %q: %d ballots starting with %q, want %d starting with %q", c.deck, len(list), list[0].Name, c.count, c.first)
		}
		if c.deck == openings.DeckAll {
			continue
		}
		for _, o := range list {
			if o.Name == "ACF 3" || o.Name == "ACF 13" { // barred
				t.Errorf("deck %q holds barred ballot %s", c.deck, o.Name)
			}
		}
	}
	// Every ballot is legal and leaves a game to play.
	rules := rulesFor(t, "checkers", "")
	all, _ := openings.ParseBallots(rules.(game.Ballots).Ballots(), openings.DeckAll)
	for i := range all {
		if err := openings.Canonicalize(rules, &all[i]); err != nil {
			t.Errorf("%s: %v", all[i].Name, err)
		}
		if len(all[i].Moves) != 3 {
			t.Errorf("%s: %d plies, want 3", all[i].Name, len(all[i].Moves))
		}
	}
}

func TestParseBallotsErrors(t *testing.T) {
	for _, c := range []struct{ name, data, deck string }{
		{"empty", "", ""},
		{"no class column", "acf_no\tmoves\tctd\n1\t9-13 21-17 5-9\t\n", ""},
		{"missing moves", "acf_no\tmoves\tclass\tctd\n1\t\tcrossboard\t\n", ""},
		{"unknown deck", "acf_no\tmoves\tclass\tctd\n1\t9-13\tcrossboard\t\n", "best"},
		{"empty deck", "acf_no\tmoves\tclass\tctd\n1\t9-13\tbarred\t\n", ""},
	} {
		if _, err := openings.ParseBallots(strings.NewReader(c.data), c.deck); !errors.Is(err, openings.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrOpenings", c.name, err)
		}
	}
}

func TestParseOpenings(t *testing.T) {
	got, err := openings.Parse(strings.NewReader("# openings\n\n1. K@e4 Q@d5\tclassic\n  R@a1  \r\n2... 9-13\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []openings.Opening{
		{Name: "classic", Moves: []string{"K@e4", "Q@d5"}},
		{Moves: []string{"R@a1"}},
		{Moves: []string{"9-13"}},
	}
	if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
		t.Errorf("ParseOpenings = %v, want %v", got, want)
	}
	for _, bad := range []string{"", "# nothing\n", "1. 2.\n"} {
		if _, err := openings.Parse(strings.NewReader(bad)); !errors.Is(err, openings.ErrInvalid) {
			t.Errorf("ParseOpenings(%q) err = %v, want ErrOpenings", bad, err)
		}
	}
}

func TestCanonicalizeOpening(t *testing.T) {
	rules := rulesFor(t, "cheversi", "cheversi-classic")
	for _, c := range []struct {
		moves   []string
		wantErr error
	}{
		{[]string{"K@e4", "Q@d5"}, nil},
		{[]string{"K@e4", "K@e4"}, game.ErrIllegalMove},
		{[]string{"X@q9"}, game.ErrBadNotation},
		{[]string{"Q@e4"}, game.ErrIllegalMove}, // king first
	} {
		o := openings.Opening{Moves: slices.Clone(c.moves)}
		err := openings.Canonicalize(rules, &o)
		if c.wantErr == nil && err != nil || c.wantErr != nil && !errors.Is(err, c.wantErr) {
			t.Errorf("%v: err = %v, want %v", c.moves, err, c.wantErr)
		}
	}
	// The game may not be over after the opening.
	st := rules.Start()
	var all []string
	var buf []game.Move
	for !st.Outcome().Over() {
		buf = st.LegalMoves(buf[:0])
		all = append(all, buf[0].String())
		st.Play(buf[0])
	}
	o := openings.Opening{Moves: all}
	if err := openings.Canonicalize(rules, &o); !errors.Is(err, openings.ErrInvalid) {
		t.Errorf("finished game as opening: err = %v, want ErrOpenings", err)
	}
}

func TestRandomOpenings(t *testing.T) {
	rules := rulesFor(t, "cheversi", "")
	a, err := openings.Random(context.Background(), rules, 42, 3, 20)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := openings.Random(context.Background(), rules, 42, 3, 20)
	c, _ := openings.Random(context.Background(), rules, 43, 3, 20)
	if movesOf(a) != movesOf(b) {
		t.Errorf("same seed, different openings:\n%s\n%s", movesOf(a), movesOf(b))
	}
	if movesOf(a) == movesOf(c) {
		t.Errorf("different seeds, same openings: %s", movesOf(a))
	}
	seen := map[string]bool{}
	for _, o := range a {
		key := strings.Join(o.Moves, " ")
		if seen[key] {
			t.Errorf("opening %s drawn twice", key)
		}
		seen[key] = true
		if err := openings.Canonicalize(rules, &o); err != nil || len(o.Moves) != 3 {
			t.Errorf("opening %v: %v", o.Moves, err)
		}
	}
	// Cheversi's first move is the king next to nothing: 64 one-ply openings.
	if _, err := openings.Random(context.Background(), rules, 1, 1, 65); !errors.Is(err, openings.ErrInvalid) {
		t.Errorf("65 distinct one-ply openings: err = %v, want ErrOpenings", err)
	}
	if _, err := openings.Random(context.Background(), rules, 1, 16, 1); !errors.Is(err, openings.ErrInvalid) {
		t.Errorf("openings that end the game: err = %v, want ErrOpenings", err)
	}
}

func TestLoadOpeningsFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "open.txt"), []byte("K@e4 Q@d5\tfirst\nK@a1 Q@b3\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.txt"), []byte("K@e4 Q@d5\nK@e4 K@e4\n"), 0o644)
	base := "[game]\nname = \"cheversi\"\npreset = \"echeversi\"\n[openings]\nfile = %q\n" + twoBots
	cfg, err := config.Parse(fmt.Appendf(nil, base, "open.txt"), "t.toml", dir)
	if err != nil {
		t.Fatal(err)
	}
	list, err := config.LoadOpenings(context.Background(), cfg)
	if err != nil || len(list) != 2 || list[0].Name != "first" {
		t.Errorf("LoadOpenings = %v, %v; want 2 openings, the first named", list, err)
	}
	cfg, err = config.Parse(fmt.Appendf(nil, base, "bad.txt"), "t.toml", dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = config.LoadOpenings(context.Background(), cfg)
	if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "t.toml:5: openings.file:") || !strings.Contains(err.Error(), "opening 2") {
		t.Errorf("LoadOpenings(bad) = %v; want an illegal move in opening 2 located at openings.file", err)
	}
}

func FuzzParseOpenings(f *testing.F) {
	f.Add("1. K@e4 Q@d5\tname\n# c\n9-13 22-18\n")
	f.Add("acf_no\tmoves\tclass\tctd\n1\t9-13 21-17 5-9\tcrossboard\t\n")
	f.Fuzz(func(t *testing.T, data string) {
		list, err := openings.Parse(strings.NewReader(data))
		if err == nil {
			for _, o := range list {
				if len(o.Moves) == 0 {
					t.Errorf("opening without moves: %+v", o)
				}
			}
		}
		for _, deck := range []string{"", openings.DeckCTD, openings.DeckAll} {
			list, err := openings.ParseBallots(strings.NewReader(data), deck)
			if err == nil && len(list) == 0 {
				t.Errorf("ParseBallots: no ballots and no error")
			}
		}
	})
}

// movesOf renders the moves of openings, one opening per line.
func movesOf(list []openings.Opening) string {
	var b strings.Builder
	for _, o := range list {
		b.WriteString(strings.Join(o.Moves, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestOpeningSizes checks what cannot be scheduled is refused with the key
// and line, and that nothing is read or generated without bound.
func TestOpeningSizes(t *testing.T) {
	dir := t.TempDir()
	parse := func(body string) *config.Config {
		t.Helper()
		cfg, err := config.Parse([]byte("[game]\nname = \"cheversi\"\n"+body+twoBots), "t.toml", dir)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	for _, c := range []struct {
		name, body string
		want       string
	}{
		// Cheversi's first move is the king next to nothing: 64 one-ply openings.
		{"more openings than exist", "[openings]\nplies = 1\ncount = 65\n", "t.toml:5: openings.count: bad openings: 65 openings of 1 plies asked for, but only 64 exist"},
		{"openings past the end of the game", "[openings]\nplies = 17\ncount = 50000\n", "t.toml:5: openings.count: bad openings: found only 0 distinct openings of 17 plies"},
		{"a device that never ends", "[openings]\nfile = \"/dev/zero\"\n", "t.toml:4: openings.file: /dev/zero: bad openings: line 1 is longer than 1024 KiB"},
		{"too many rounds for the openings", "[format]\nrounds = 1000000\n[openings]\nplies = 3\ncount = 100\n", "t.toml:4: format.rounds: bad schedule: too many games: 1000000 rounds of 100 openings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := parse(c.body)
			var err error
			if strings.Contains(c.body, "rounds") {
				_, err = tournament.Run(context.Background(), cfg, tournament.Options{Out: filepath.Join(dir, "out")})
			} else {
				_, err = config.LoadOpenings(context.Background(), cfg)
			}
			var ce *config.Error
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v; want a *ConfigError containing %q", err, c.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused tournament made its output directory (%v)", err)
	}
}

// TestOpeningsFileStreamed feeds an opening file through a named pipe that
// never ends: the arena reads up to openings.limit openings, or refuses the
// file at MaxOpenings openings, or at MaxOpeningsFileSize bytes.
func TestOpeningsFileStreamed(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, line, limit string
		want              string // "" for success
	}{
		{"limit", "K@e4 Q@d5\n", "limit = 3\n", ""},
		{"too many openings", "K@e4 Q@d5\n", "", "more than 100000 openings (the most a tournament takes); set openings.limit"},
		{"too many bytes", "# nothing but comments\n", "", "the file is larger than 64 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fifo := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			done := make(chan struct{})
			go func() { // exits when the reader closes the pipe
				defer close(done)
				f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					return
				}
				defer f.Close()
				block := bytes.Repeat([]byte(c.line), 4096/len(c.line))
				for {
					if _, err := f.Write(block); err != nil {
						return
					}
				}
			}()
			cfg, err := config.Parse(fmt.Appendf(nil, "[game]\nname = \"cheversi\"\n[openings]\nfile = %q\n%s%s", fifo, c.limit, twoBots), "t.toml", dir)
			if err != nil {
				t.Fatal(err)
			}
			list, err := config.LoadOpenings(context.Background(), cfg)
			switch {
			case c.want == "" && (err != nil || len(list) != 3):
				t.Errorf("LoadOpenings = %d openings, %v; want 3", len(list), err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.toml:4: openings.file:")):
				t.Errorf("LoadOpenings = %d openings, %v; want an error at openings.file containing %q", len(list), err, c.want)
			}
			<-done
		})
	}
}

// TestOpeningsCanceled checks that generating openings stops when the
// context is canceled, before or during the work.
func TestOpeningsCanceled(t *testing.T) {
	cfg, err := config.Parse([]byte("[game]\nname = \"cheversi\"\n[openings]\nplies = 12\ncount = 100000\n"+twoBots), "t.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if list, err := config.LoadOpenings(ctx, cfg); !errors.Is(err, context.Canceled) || list != nil {
		t.Errorf("LoadOpenings(canceled) = %d openings, %v; want context.Canceled", len(list), err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	stop := time.AfterFunc(50*time.Millisecond, cancel)
	defer stop.Stop()
	if list, err := config.LoadOpenings(ctx, cfg); !errors.Is(err, context.Canceled) || list != nil {
		t.Errorf("LoadOpenings canceled after 50ms = %d openings, %v; want context.Canceled", len(list), err)
	}
	sum, err := tournament.Run(ctx, cfg, tournament.Options{Out: filepath.Join(t.TempDir(), "out")})
	if !errors.Is(err, context.Canceled) || sum != nil {
		t.Errorf("Run(canceled) = %v, %v; want no summary and context.Canceled", sum, err)
	}
}

// BenchmarkRandomOpenings draws 10000 distinct random openings of 8 plies,
// as a configuration with [openings] plies = 8, count = 10000 does before
// its first game.
func BenchmarkRandomOpenings(b *testing.B) {
	rules := rulesFor(b, "cheversi", "")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openings.Random(context.Background(), rules, 1, 8, 10_000); err != nil {
			b.Fatal(err)
		}
	}
}
