package solve

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// TestResultsFile writes entries, cuts the last line short as a crash
// would, reads the file again, and checks that a second writer is refused.
func TestResultsFile(t *testing.T) {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "results.txt")
	res, err := OpenResults(path, rules)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenResults(path, rules); !errors.Is(err, ErrResultsLocked) {
		t.Fatalf("second writer: %v, want ErrResultsLocked", err)
	}
	p := rules.StartPosition()
	var want []Entry
	for _, m := range []string{"K@d4", "N@e5", "Q@d5"} {
		mv, err := p.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(mv)
		e := Entry{Key: CanonicalKey(&p), Position: p, Value: Value(len(want)%3 - 1), Positions: uint64(len(want) + 1), Seconds: 0.5}
		if err := res.Add(e); err != nil {
			t.Fatal(err)
		}
		want = append(want, e)
	}
	res.Close()
	// A crash in the middle of the next line.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("0123456789abcdef 8/8/8/8/3K")
	f.Close()

	res, err = OpenResults(path, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if res.Len() != len(want) {
		t.Fatalf("read %d entries, want %d", res.Len(), len(want))
	}
	for _, w := range want {
		got, ok := res.GetKey(w.Key)
		if !ok || got.Value != w.Value || got.Positions != w.Positions || got.Position.Text() != w.Position.Text() {
			t.Errorf("entry %s: %+v, want %+v", w.Position.Text(), got, w)
		}
	}
	// An image of a position under a symmetry finds its entry.
	img := want[2].Position.Transform(3)
	if _, ok := res.Get(&img); !ok {
		t.Errorf("no entry for %s, an image of %s", img.Text(), want[2].Position.Text())
	}
	// The partial line is gone: the next entry starts a line of its own.
	data, _ := os.ReadFile(path)
	if n := len(data); data[n-1] != '\n' {
		t.Errorf("file ends without a newline: %q", data[n-20:])
	}

	// Another rule set's reader is refused.
	classic, _ := cheversi.New("cheversi-classic", nil)
	if _, err := ReadResults(classic, path); !errors.Is(err, ErrRulesMismatch) {
		t.Errorf("classic reader: %v, want ErrRulesMismatch", err)
	}
	// The header names the rules it was written for.
	if got, err := ReadRules(path); err != nil || got.Options() != rules.Options() {
		t.Errorf("ReadRules: %v, %v; want the rules the file was written for", got, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte(resultsMagic+"\n# rules komi=lots\n"), 0o644)
	if _, err := ReadRules(bad); err == nil || !strings.Contains(err.Error(), "bad.txt:2:") {
		t.Errorf("ReadRules of a bad rules line: %v, want an error at bad.txt:2", err)
	}
	// The refusal names the switches that differ.
	komi, _ := cheversi.New("cheversi", []game.Setting{{Key: "komi", Value: "-1"}})
	_, err = ReadResults(komi, path)
	if want := "results.txt:2: results are for another rule set: komi 0 there, -1 here (give the solve the same --rules and --set)"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("komi -1 reader: %v, want it to end %q", err, want)
	}
}

func TestSharedFrom(t *testing.T) {
	rulesOf := func(preset string, sets ...string) *cheversi.Rules {
		t.Helper()
		var s []game.Setting
		for _, kv := range sets {
			k, v, _ := strings.Cut(kv, "=")
			s = append(s, game.Setting{Key: k, Value: v})
		}
		r, err := cheversi.New(preset, s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	base := rulesOf("cheversi")
	for _, c := range []struct {
		name  string
		other *cheversi.Rules
		ply   int
		ok    bool
	}{
		{"same rules", rulesOf("cheversi"), 0, true},
		{"opening free", rulesOf("cheversi", "opening=free"), 2, true},
		{"opening king-queen", rulesOf("cheversi", "opening=king-queen"), 2, true},
		{"komi", rulesOf("cheversi", "komi=-1"), 0, false},
		{"opening and komi", rulesOf("cheversi", "opening=free", "komi=-1"), 0, false},
		{"touch", rulesOf("cheversi", "touch=any"), 0, false},
		{"another preset", rulesOf("cheversi-classic"), 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, pair := range [][2]*cheversi.Rules{{base, c.other}, {c.other, base}} {
				if ply, ok := SharedFrom(pair[0], pair[1]); ply != c.ply || ok != c.ok {
					t.Errorf("SharedFrom = %d, %v; want %d, %v", ply, ok, c.ply, c.ok)
				}
			}
		})
	}
}

// TestResultsShared reads the results of cheversi under opening=free: the
// positions from ply 2 on are taken (as positions of the reader's rules,
// marked Shared), earlier ones are not, a file of other rules is refused,
// and so is one that contradicts what was read before. A solve never
// appends to another rule set's file.
func TestResultsShared(t *testing.T) {
	rules, _ := cheversi.New("cheversi", nil)
	free, err := cheversi.New("cheversi", []game.Setting{{Key: "opening", Value: "free"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	theirs := filepath.Join(dir, "cheversi.txt")
	res, err := OpenResults(theirs, rules)
	if err != nil {
		t.Fatal(err)
	}
	p := rules.StartPosition()
	var written []Entry
	for _, m := range []string{"K@d4", "Q@e5", "Q@e4", "N@c5"} {
		mv, err := p.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(mv)
		e := Entry{Key: CanonicalKey(&p), Position: p, Value: Win, Positions: 10, Seconds: 1}
		if err := res.Add(e); err != nil {
			t.Fatal(err)
		}
		written = append(written, e)
	}
	res.Close()

	got, err := ReadResults(free, theirs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range written {
		e, ok := got.GetKey(w.Key)
		if want := w.Position.Ply() >= 2; ok != want {
			t.Errorf("%s (ply %d): read %v, want %v", w.Position.Text(), w.Position.Ply(), ok, want)
			continue
		}
		if !ok {
			continue
		}
		if !e.Shared || e.Value != w.Value || e.Position.Text() != w.Position.Text() {
			t.Errorf("%s: %+v, want it shared with value %s", w.Position.Text(), e, w.Value)
		}
		// The position is the reader's: under opening=free White may place
		// any piece where cheversi allows only the King, and that shows in
		// its moves only at ply 0, so check the options the position holds.
		if want, _ := free.ParsePosition(w.Position.Text()); e.Position != want {
			t.Errorf("%s: the position is not read under the reader's rules", w.Position.Text())
		}
	}

	// The reader's own file, opened for appending beside the other, is
	// the only one written to: an entry the other file has is not solved
	// or written again, a new one goes to the own file.
	before, _ := os.ReadFile(theirs)
	ownPath := filepath.Join(dir, "results.txt")
	own, err := OpenResults(ownPath, free)
	if err != nil {
		t.Fatal(err)
	}
	if err := own.Merge(theirs); err != nil {
		t.Fatal(err)
	}
	q := written[3].Position
	mv, _ := q.ParseMove("B@c6")
	q.Play(mv)
	for _, e := range []Entry{{Key: written[3].Key, Position: written[3].Position, Value: Loss}, {Key: CanonicalKey(&q), Position: q, Value: Draw}} {
		if err := own.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	own.Close()
	if after, _ := os.ReadFile(theirs); string(after) != string(before) {
		t.Error("the other rule set's file was written to")
	}
	if data, _ := os.ReadFile(ownPath); strings.Count(string(data), "\n") != 3 || !strings.Contains(string(data), q.Text()) {
		t.Errorf("own file:\n%s\nwant its header and the one new entry", data)
	}
	// Opening the other rule set's file for appending is refused.
	if _, err := OpenResults(theirs, free); !errors.Is(err, ErrRulesMismatch) {
		t.Errorf("appending to cheversi's file under opening=free: %v, want ErrRulesMismatch", err)
	}
	// Rules that differ in more than the opening are refused.
	komi, _ := cheversi.New("cheversi", []game.Setting{{Key: "opening", Value: "free"}, {Key: "komi", Value: "-1"}})
	if _, err := ReadResults(komi, theirs); !errors.Is(err, ErrRulesMismatch) {
		t.Errorf("opening=free komi=-1 reader: %v, want ErrRulesMismatch", err)
	}
	// A file of the reader's rules that says written[3] is lost where
	// cheversi's says won: read together, they disagree, in either order.
	wrong := filepath.Join(t.TempDir(), "wrong.txt")
	w, err := OpenResults(wrong, free)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(Entry{Key: written[3].Key, Position: written[3].Position, Value: Loss})
	w.Close()
	for _, order := range [][]string{{theirs, wrong}, {wrong, theirs}} {
		if _, err := ReadResults(free, order...); !errors.Is(err, ErrDisagree) {
			t.Errorf("reading %v: %v, want ErrDisagree", order, err)
		}
	}
}
