package checkers

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestACFBallots plays the three plies of every ACF three-move ballot from
// the start and compares the position with the one the file records.
func TestACFBallots(t *testing.T) {
	f, err := os.Open("ballots.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	var header []string
	rows := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = cols
			want := []string{"acf_no", "moves", "class", "ctd", "name", "fen_after"}
			if strings.Join(header, ",") != strings.Join(want, ",") {
				t.Fatalf("header %v, want %v", header, want)
			}
			continue
		}
		if len(cols) != len(header) {
			t.Fatalf("row %q has %d columns, want %d", sc.Text(), len(cols), len(header))
		}
		rows++
		no, moves, fen := cols[0], strings.Fields(cols[1]), cols[5]
		if len(moves) != 3 {
			t.Errorf("ballot %s: %d moves, want 3", no, len(moves))
			continue
		}
		s := r.Start()
		for _, text := range moves {
			m, err := s.ParseMove(text)
			if err != nil {
				t.Errorf("ballot %s: %s: %v", no, text, err)
				break
			}
			if got := m.String(); got != text {
				t.Errorf("ballot %s: %s formats as %s", no, text, got)
			}
			if err := s.Play(m); err != nil {
				t.Errorf("ballot %s: play %s: %v", no, text, err)
				break
			}
		}
		if got := s.Text(); got != fen {
			t.Errorf("ballot %s (%s): position %s, want %s", no, cols[1], got, fen)
		}
		if s.Ply() != 3 || s.Outcome().Over() {
			t.Errorf("ballot %s: ply %d outcome %+v", no, s.Ply(), s.Outcome())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != 174 {
		t.Errorf("read %d ballots, want 174", rows)
	}
}
