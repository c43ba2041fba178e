package solve

import (
	"bytes"
	"errors"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
)

// FuzzReadProof feeds ReadProof arbitrary bytes (the shipped proofs as
// seeds): it must refuse what is not a proof with ErrBadProof, never panic,
// and whatever it accepts must have a value and leaves at the cut ply.
func FuzzReadProof(f *testing.F) {
	for _, name := range ShippedProofs() {
		data, err := provenFS.ReadFile("proofs/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pr, err := ReadProof(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrBadProof) {
				t.Fatalf("error not wrapping ErrBadProof: %v", err)
			}
			return
		}
		for _, l := range pr.Leaves {
			if l.Position.Ply() < pr.Cut {
				t.Fatalf("leaf %s above the cut ply %d", l.Position.Text(), pr.Cut)
			}
		}
	})
}

// FuzzResultsLine feeds the results file's line parser arbitrary lines: no
// panic, and a line it accepts writes back as itself.
func FuzzResultsLine(f *testing.F) {
	f.Add("0000000000000000 8/8/8/8/8/8/8/8 w 0 - loss - 10 0.500")
	f.Add("a3c1b8f1e2d4c5b6 8/8/8/8/3K4/8/8/8 b 1 d4 win N@e5 123 1.000")
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		f.Fatal(err)
	}
	r := &Results{rules: rules, entries: map[uint64]Entry{}}
	f.Fuzz(func(t *testing.T, line string) {
		e, err := r.parse(line)
		if err != nil {
			return
		}
		if got := e.format(); got != line+"\n" {
			// Accepted lines need not be canonical (say "+5" for
			// a count), but they must read back the same.
			e2, err := r.parse(got[:len(got)-1])
			if err != nil || e2 != e {
				t.Fatalf("%q reads as %+v, written %q reads as %+v (%v)", line, e, got, e2, err)
			}
		}
	})
}
