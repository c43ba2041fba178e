package pgn

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/game"
)

func TestReadFiles(t *testing.T) {
	type want struct {
		white, black string
		result       game.Result
		first        game.Color
		opening      string
		line         int
	}
	tests := []struct {
		file  string
		games []want
	}{
		{"cutechess.pgn", []want{
			{"Engine A 1.0", "Engine B", game.WhiteWins, game.White, "King's pawn game", 1},
			{"Engine B", "Engine A 1.0", game.Draw, game.White, "King's pawn game", 21},
			{"Engine A 1.0", "Engine B", game.BlackWins, game.White, "", 38},
		}},
		{"fastchess.pgn", []want{
			{"alpha", "beta", game.BlackWins, game.White, "Indian Defense", 1},
			{"beta", "alpha", game.WhiteWins, game.White, "Indian Defense", 21},
		}},
		{"checkers.pdn", []want{
			{"red bot", "white bot", game.WhiteWins, game.Black, "ACF 1: 9-13 21-17 5-9", 1},
			{"white bot", "red bot", game.Draw, game.Black, "ACF 1: 9-13 21-17 5-9", 11},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			recs, err := ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(tt.games) {
				t.Fatalf("%d records, want %d", len(recs), len(tt.games))
			}
			for i, w := range tt.games {
				r := &recs[i]
				got := want{r.White(), r.Black(), r.Result, r.FirstMover(), r.Opening(), r.Line}
				if got != w {
					t.Errorf("game %d = %+v, want %+v", i+1, got, w)
				}
			}
		})
	}
}

func TestReadFixture(t *testing.T) {
	recs, err := ReadFile(filepath.Join("testdata", "ratings-fixture-30.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 30 {
		t.Fatalf("%d records, want 30", len(recs))
	}
	// White scores 15 wins, 8 draws, 7 losses over the file.
	counts := map[game.Result]int{}
	pairs := map[string]int{}
	for _, r := range recs {
		counts[r.Result]++
		pairs[r.White()+"-"+r.Black()]++
		if r.Tag("Event") != "test" || r.Tag("Round") == "" {
			t.Errorf("line %d: tags %v", r.Line, r.Tags)
		}
	}
	if counts[game.WhiteWins] != 15 || counts[game.Draw] != 8 || counts[game.BlackWins] != 7 {
		t.Errorf("results %v, want 15/8/7", counts)
	}
	for _, p := range []string{"A-B", "B-A", "A-C", "C-A", "B-C", "C-B"} {
		if pairs[p] != 5 {
			t.Errorf("%s played %d games, want 5", p, pairs[p])
		}
	}
}

func TestReader(t *testing.T) {
	type rec struct {
		tags   string // "Name=Value;..." in order
		result game.Result
		line   int
	}
	tests := []struct {
		name string
		in   string
		want []rec
	}{
		{"empty", "", nil},
		{"blank", "\n\n  \n", nil},
		{"one game", "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n",
			[]rec{{"White=a;Black=b;Result=1-0", game.WhiteWins, 1}}},
		{"token without tag", "[White \"a\"]\n\n1. e4 e5 0-1\n", []rec{{"White=a", game.BlackWins, 1}}},
		{"tag wins over token", "[Result \"1/2-1/2\"]\n1-0\n", []rec{{"Result=1/2-1/2", game.Draw, 1}}},
		{"star tag, token decides", "[Result \"*\"]\n1-0\n", []rec{{"Result=*", game.WhiteWins, 1}}},
		{"unfinished", "[Result \"*\"]\n1. e4 *\n", []rec{{"Result=*", game.Ongoing, 1}}},
		{"bad result tag", "[Result \"won\"]\n1. e4 0-1", []rec{{"Result=won", game.BlackWins, 1}}},
		{"no token at end", "[Result \"1-0\"]\n1. e4 e5", []rec{{"Result=1-0", game.WhiteWins, 1}}},
		{"tags only", "[Result \"0-1\"]", []rec{{"Result=0-1", game.BlackWins, 1}}},
		{"moves only", "1. e4 e5 1/2-1/2 1. d4 0-1", []rec{{"", game.Draw, 1}, {"", game.BlackWins, 1}}},
		{"missing token before next game", "[Round \"1\"]\n1. e4\n\n[Round \"2\"]\n1. d4 1-0\n",
			[]rec{{"Round=1", game.Ongoing, 1}, {"Round=2", game.WhiteWins, 4}}},
		{"comments and variations", "[Round \"1\"]\n1. e4 {1-0 not the end} (1. d4 0-1) ; 0-1 neither\ne5 $1 (1... c5 (1... e6 1-0)) 1/2-1/2\n",
			[]rec{{"Round=1", game.Draw, 1}}},
		{"multi-line comment", "[Round \"1\"]\n{a\nb\nc} e4\n[Round \"2\"] 1-0", []rec{{"Round=1", game.Ongoing, 1}, {"Round=2", game.WhiteWins, 5}}},
		{"comment is not move text", "[Round \"1\"]\n{game comment}\n[Round \"2\"] 1-0", []rec{{"Round=1;Round=2", game.WhiteWins, 1}}},
		{"escape line", "% 1-0 [White \"x\"]\n[White \"a\"] 0-1", []rec{{"White=a", game.BlackWins, 2}}},
		{"percent mid-line is move text", "[White \"a\"] %x 0-1", []rec{{"White=a", game.BlackWins, 1}}},
		{"escaped quotes", `[White "a \"b\" \\ c"] *`, []rec{{`White=a "b" \ c`, game.Ongoing, 1}}},
		{"other backslash kept", `[White "a\b"] *`, []rec{{`White=a\b`, game.Ongoing, 1}}},
		{"spacing in tags", "[  White   \"a\"   ]\t[Black\"b\"] 1-0", []rec{{"White=a;Black=b", game.WhiteWins, 1}}},
		{"crlf and bom", "\xef\xbb\xbf[White \"a\"]\r\n[Black \"b\"]\r\n\r\n1-0\r\n",
			[]rec{{"White=a;Black=b", game.WhiteWins, 1}}},
		{"pdn results", "[GameType \"21\"] 2-0 [GameType \"21\"] 0-2 [GameType \"21\"] 1-1",
			[]rec{{"GameType=21", game.WhiteWins, 1}, {"GameType=21", game.BlackWins, 1}, {"GameType=21", game.Draw, 1}}},
		{"unclosed variation ends at a tag line", "[Round \"1\"]\n1. e4 (1. d4\n[Round \"2\"] 0-1",
			[]rec{{"Round=1", game.Ongoing, 1}, {"Round=2", game.BlackWins, 3}}},
		{"stray closers", "[Round \"1\"] ) } ] 1-0", []rec{{"Round=1", game.WhiteWins, 1}}},
		{"long word", "[Round \"1\"] " + strings.Repeat("x", 200) + "1-0 0-1", []rec{{"Round=1", game.BlackWins, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadAll(strings.NewReader(tt.in), "t.pgn")
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(tt.want) {
				t.Fatalf("%d records %+v, want %d", len(recs), recs, len(tt.want))
			}
			for i, w := range tt.want {
				var tags []string
				for _, tag := range recs[i].Tags {
					tags = append(tags, tag.Name+"="+tag.Value)
				}
				got := rec{strings.Join(tags, ";"), recs[i].Result, recs[i].Line}
				if got != w {
					t.Errorf("record %d = %+v, want %+v", i, got, w)
				}
			}
		})
	}
}

func TestReaderErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int
		msg  string
		good int // records read before the error
	}{
		{"value not closed", "[White \"a\"]\n[Black \"b\n1-0", 2, "tag Black: value is not closed", 0},
		{"value at eof", "[White \"a", 1, "value is not closed", 0},
		{"missing bracket", "[White \"a\" 1-0", 1, "tag White: missing ]", 0},
		{"unquoted value", "[White a]", 1, "value must be a quoted string", 0},
		{"no name", "1-0\n\n[ \"a\"]", 3, "tag pair without a name", 1},
		{"comment not closed", "[White \"a\"] 1-0\n[White \"b\"]\n{ never\nclosed", 3, "comment is not closed", 1},
		{"huge name", "[" + strings.Repeat("N", 300) + " \"a\"]", 1, "tag name longer", 0},
		{"binary", "\x7fELF\x02\x01\x01\x00\x00", 1, "byte 0x7f: not PGN/PDN text", 0},
		{"binary after a game", "[White \"a\"] 1-0\n\n\x00\x00\x01", 3, "byte 0x00: not PGN/PDN text", 1},
		{"control byte in a word", "[White \"a\"]\n1. e4\x01 1-0", 2, "byte 0x01", 0},
		{"control byte in a tag", "[White \"a\x02\"]\n1-0", 1, "tag White: byte 0x02", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadAll(strings.NewReader(tt.in), "bad.pgn")
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %v, want a SyntaxError", err)
			}
			if se.Line != tt.line || se.File != "bad.pgn" || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("error %q (line %d), want line %d and %q", err, se.Line, tt.line, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "bad.pgn:") {
				t.Errorf("error %q does not name the file", err)
			}
			if len(recs) != tt.good {
				t.Errorf("%d records before the error, want %d", len(recs), tt.good)
			}
		})
	}
	// The reader stays failed.
	r := NewReader(strings.NewReader("[White \"a"), "")
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 {
		t.Errorf("errors %v then %v, want the same error twice", err1, err2)
	}
	if got := err1.Error(); got != "line 1: tag White: value is not closed on its line" {
		t.Errorf("error without file name %q", got)
	}
}

// TestReaderLongLines: lines longer than the reader's buffer are read in
// pieces without cutting a word, and a comment or variation that spans
// pieces keeps its meaning.
func TestReaderLongLines(t *testing.T) {
	long := strings.Repeat("Nf3 {+0.25/12 0.31s} ", bufSize/10)
	tests := []struct {
		name   string
		in     string
		result game.Result
		games  int
	}{
		{"moves on one line", "[White \"a\"]\n" + long + "1-0\n[White \"b\"] 0-1", game.WhiteWins, 2},
		{"semicolon comment", "[White \"a\"]\n;" + long + "1-0\n0-1", game.BlackWins, 1},
		{"escape line", "%" + long + "1-0\n[White \"a\"] 0-1", game.BlackWins, 1},
		{"variation", "[White \"a\"]\n(" + long + "1-0) 0-1", game.BlackWins, 1},
		{"brace comment", "[White \"a\"]\n{" + strings.Repeat("Nf3 +0.25/12 ", bufSize/5) + "1-0} 1/2-1/2", game.Draw, 1},
		{"no blank at all", "[White \"a\"]\n" + strings.Repeat("x", 3*bufSize) + " 1-0", game.WhiteWins, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadAll(strings.NewReader(tt.in), "long.pgn")
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != tt.games || recs[0].Result != tt.result {
				t.Fatalf("%d records, first %v; want %d, first %v", len(recs), recs[0].Result, tt.games, tt.result)
			}
		})
	}
}

// oneByteReader hands over its input a byte at a time.
type oneByteReader struct{ s string }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0], r.s = r.s[0], r.s[1:]
	return 1, nil
}

// TestReaderSmallReads: the result does not depend on how the input
// arrives (a byte order mark split over reads included).
func TestReaderSmallReads(t *testing.T) {
	in := "\xef\xbb\xbf[White \"a\"]\r\n[Black \"b\"]\n\n1. e4 {x\ny} e5 1-0\n[White \"c\"] 0-1"
	want, err := ReadAll(strings.NewReader(in), "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadAll(&oneByteReader{in}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(want) != 2 {
		t.Fatalf("%d and %d records, want 2", len(got), len(want))
	}
	for i := range got {
		if got[i].White() != want[i].White() || got[i].Result != want[i].Result || got[i].Line != want[i].Line {
			t.Errorf("record %d read a byte at a time: %+v, want %+v", i, got[i], want[i])
		}
	}
	if got[0].White() != "a" {
		t.Errorf("first White %q, want a (the byte order mark skipped)", got[0].White())
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "none.pgn"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "none.pgn") {
		t.Errorf("error %v, want a not-exist error naming the file", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadIOError(t *testing.T) {
	if _, err := ReadAll(failingReader{}, "x"); err == nil || errors.Is(err, io.EOF) {
		t.Errorf("error %v, want the read error", err)
	}
}

func TestRecordAccessors(t *testing.T) {
	tests := []struct {
		tags    []Tag
		first   game.Color
		opening string
	}{
		{nil, game.White, ""},
		{[]Tag{{"GameType", "21"}}, game.Black, ""},
		{[]Tag{{"GameType", " 21 ,W,8,8,A0,0"}}, game.Black, ""},
		{[]Tag{{"GameType", "20"}}, game.White, ""},
		{[]Tag{{"GameType", "x"}}, game.White, ""},
		{[]Tag{{"Opening", "Sicilian"}, {"Variation", "Najdorf"}, {"ECO", "B90"}}, game.White, "Sicilian, Najdorf"},
		{[]Tag{{"ECO", "B90"}, {"FEN", "x"}}, game.White, "B90"},
		{[]Tag{{"FEN", "B:W21:B1"}}, game.White, "B:W21:B1"},
		{[]Tag{{"opening", "lower case"}}, game.White, "lower case"},
	}
	for _, tt := range tests {
		r := Record{Tags: tt.tags}
		if got := r.FirstMover(); got != tt.first {
			t.Errorf("%v: FirstMover = %v, want %v", tt.tags, got, tt.first)
		}
		if got := r.Opening(); got != tt.opening {
			t.Errorf("%v: Opening = %q, want %q", tt.tags, got, tt.opening)
		}
	}
	for term, want := range map[string]bool{
		"": false, "normal": false, "adjudication": false, "3-fold repetition": false,
		"time forfeit": true, " Time Forfeit ": true, "rules infraction": true, "abandoned": true,
	} {
		r := Record{Tags: []Tag{{"Termination", term}}}
		if got := r.Forfeit(); got != want {
			t.Errorf("Termination %q: Forfeit = %v, want %v", term, got, want)
		}
	}
	r := Record{Tags: []Tag{{"white", "x"}, {"White", " y "}}}
	if got := r.White(); got != "y" {
		t.Errorf("White = %q, want the exact-case tag, trimmed", got)
	}
}

func TestParseResult(t *testing.T) {
	for in, want := range map[string]game.Result{
		"1-0": game.WhiteWins, "2-0": game.WhiteWins, "0-1": game.BlackWins, "0-2": game.BlackWins,
		"1/2-1/2": game.Draw, "½-½": game.Draw, "1-1": game.Draw, "*": game.Ongoing, " 1-0 ": game.WhiteWins,
	} {
		if got, err := ParseResult(in); err != nil || got != want {
			t.Errorf("ParseResult(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseResult("1-2"); !errors.Is(err, ErrSyntax) {
		t.Errorf("ParseResult(1-2) error %v, want ErrSyntax", err)
	}
}
