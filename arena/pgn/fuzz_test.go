package pgn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write renders records back as PGN: escaped tags and the result token.
func write(recs []Record) string {
	var b strings.Builder
	for _, r := range recs {
		for _, t := range r.Tags {
			v := strings.ReplaceAll(t.Value, `\`, `\\`)
			v = strings.ReplaceAll(v, `"`, `\"`)
			b.WriteString("[" + t.Name + ` "` + v + "\"]\n")
		}
		b.WriteString("\n" + r.Result.String() + "\n\n")
	}
	return b.String()
}

func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.p?n"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"", "[White \"a\"] 1-0", "{", "[", "[W \"\\", "% x\n[A \"b\"] (1. e4 {x} ;y\n) $3 *",
		"\xef\xbb\xbf[A\"b\"]1-0[C \"d\"]", "[A \"b\"]\r\n1. e4\n[B \"c\"] 2-0", "[Ä \"é\"] ½-½",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		lines := strings.Count(in, "\n") + 1
		recs, err := ReadAll(strings.NewReader(in), "f.pgn")
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a SyntaxError", err)
			}
			if se.Line < 1 || se.Line > lines {
				t.Fatalf("error line %d outside 1..%d", se.Line, lines)
			}
			return
		}
		for _, r := range recs {
			if r.Line < 1 || r.Line > lines {
				t.Fatalf("record line %d outside 1..%d", r.Line, lines)
			}
			for _, tag := range r.Tags {
				if tag.Name == "" || strings.ContainsAny(tag.Value, "\n") {
					t.Fatalf("bad tag %q", tag)
				}
			}
		}
		// Written back, the records read the same.
		again, err := ReadAll(strings.NewReader(write(recs)), "again.pgn")
		if err != nil {
			t.Fatalf("re-reading %q: %v", write(recs), err)
		}
		if len(again) != len(recs) {
			t.Fatalf("%d records, %d after writing them back", len(recs), len(again))
		}
		for i := range recs {
			if again[i].Result != recs[i].Result || len(again[i].Tags) != len(recs[i].Tags) {
				t.Fatalf("record %d: %+v, written back %+v", i, recs[i], again[i])
			}
			for j := range recs[i].Tags {
				if again[i].Tags[j] != recs[i].Tags[j] {
					t.Fatalf("record %d tag %d: %q, written back %q", i, j, recs[i].Tags[j], again[i].Tags[j])
				}
			}
		}
	})
}
