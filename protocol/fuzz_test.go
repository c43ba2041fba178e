package protocol

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that Parse never panics, that every error is a
// classified *ProtocolError, and that every message it returns formats to
// a line that parses back to the same message.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"arena 1", "id name x y", "id author z",
		"option name Hash type spin default 16 min 1 max 1024",
		"option name S type combo default a var a var b",
		"option name B type string default some text",
		"option name P type check default true",
		"games cheversi checkers", "request legalmoves", "arenaok",
		"setoption name Hash value 32", "isready", "readyok",
		"newgame game cheversi preset cheversi rules opening=king-first touch=opponent color white",
		"position startpos moves K@e4 Q@d5",
		"position text 8/8/8/8/4K3/8/8/8 b 1 e4 moves Q@d5",
		"position text B:W21,22:B1,2",
		"legalmoves 11-15 9-13",
		"go wtime 1000 btime 2000 winc 10 binc 10", "go movetime 100",
		"go wtime 1000 btime 900 winc 0 binc 0 movestogo 3 depth 4 nodes 100", "go nodes 5",
		"fen B:W21,22:B1,2", "fen 8/8/8/8/4K3/8/8/8 b 1 e4", "request nodes",
		"info depth 3 score -4 nodes 10 time 5 pv a b string c d",
		"move 1x10x19", "ping 1", "pong", "gameover result 1-0 reason score", "quit",
		"", "\xff", "move\tK@e4\r",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := Parse(line)
		if err != nil {
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) error %v is not a *ProtocolError", line, err)
			}
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrUnknownCommand) &&
				!errors.Is(err, ErrNotUTF8) && !errors.Is(err, ErrLineTooLong) {
				t.Fatalf("Parse(%q) error %v has no sentinel", line, err)
			}
			return
		}
		out, err := Format(m)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v, which does not format: %v", line, m, err)
		}
		if !utf8.ValidString(out) || strings.ContainsAny(out, "\r\n") {
			t.Fatalf("Format(%#v) = %q is not one UTF-8 line", m, out)
		}
		m2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) (formatted from %q) failed: %v", out, line, err)
		}
		if info, ok := m.(Info); ok {
			info.Raw = ""
			m = info
			info2 := m2.(Info)
			info2.Raw = ""
			m2 = info2
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip of %q: %#v, then %q gives %#v", line, m, out, m2)
		}
	})
}

// FuzzReader checks that the Reader never panics, never returns an
// over-long or non-UTF-8 line, and always reaches the end of its input.
func FuzzReader(f *testing.F) {
	f.Add([]byte("isready\r\nquit\n"))
	f.Add([]byte("move \xff\npartial"))
	f.Add([]byte("\n\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(strings.NewReader(string(data)))
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatalf("more reads than input bytes")
			}
			line, err := r.ReadLine()
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return
			}
			if err != nil {
				if !errors.Is(err, ErrLineTooLong) && !errors.Is(err, ErrNotUTF8) {
					t.Fatalf("ReadLine error %v", err)
				}
				continue
			}
			if len(line) > MaxLineLength || !utf8.ValidString(line) || strings.ContainsAny(line, "\n") {
				t.Fatalf("ReadLine returned a bad line %q", line)
			}
		}
	})
}
