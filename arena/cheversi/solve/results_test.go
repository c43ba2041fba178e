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
