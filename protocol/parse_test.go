package protocol

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
)

func TestParse(t *testing.T) {
	tests := []struct {
		line string
		want Message
	}{
		{"arena 1", Hello{Version: 1}},
		{"arena 2\r\n", Hello{Version: 2}},
		{"id name Deep Cheversi 2.0", IDName{Name: "Deep Cheversi 2.0"}},
		{"id  author \tAnn  Smith ", IDAuthor{Author: "Ann  Smith"}},
		{"option name Hash type spin default 16 min 1 max 1024",
			Option{Name: "Hash", Type: OptionSpin, Default: "16", Min: 1, Max: 1024}},
		{"option name Hash type spin max 1024 min -5 default -5",
			Option{Name: "Hash", Type: OptionSpin, Default: "-5", Min: -5, Max: 1024}},
		{"option name Ponder type check default false",
			Option{Name: "Ponder", Type: OptionCheck, Default: "false"}},
		{"option name Style type combo default solid var solid var risky var random",
			Option{Name: "Style", Type: OptionCombo, Default: "solid", Vars: []string{"solid", "risky", "random"}}},
		{"option name Book type string default /tmp/my book.txt",
			Option{Name: "Book", Type: OptionString, Default: "/tmp/my book.txt"}},
		{"option name Book type string default",
			Option{Name: "Book", Type: OptionString}},
		{"games cheversi checkers", Games{Games: []string{"cheversi", "checkers"}}},
		{"request legalmoves", Request{Feature: "legalmoves"}},
		{"request telepathy", Request{Feature: "telepathy"}},
		{"arenaok", ArenaOK{}},
		{"setoption name Hash value 64", SetOption{Name: "Hash", Value: "64"}},
		{"setoption name Book value my book.txt", SetOption{Name: "Book", Value: "my book.txt"}},
		{"setoption name Book value", SetOption{Name: "Book"}},
		{"isready", IsReady{}},
		{"readyok", ReadyOK{}},
		{"newgame game cheversi preset cheversi rules opening=king-first touch=opponent color black",
			NewGame{Game: "cheversi", Preset: "cheversi", Color: game.Black, Settings: []game.Setting{
				{Key: "opening", Value: "king-first"}, {Key: "touch", Value: "opponent"}}}},
		{"newgame color white game checkers preset american",
			NewGame{Game: "checkers", Preset: "american", Color: game.White}},
		{"newgame game x preset y rules a=b=c color white",
			NewGame{Game: "x", Preset: "y", Color: game.White, Settings: []game.Setting{{Key: "a", Value: "b=c"}}}},
		{"position startpos", Position{}},
		{"position startpos moves K@e4 Q@d5", Position{Moves: []string{"K@e4", "Q@d5"}}},
		{"position text 8/8/8/8/4K3/8/8/8  b 1 e4", Position{Text: "8/8/8/8/4K3/8/8/8 b 1 e4"}},
		{"position text B:W21,22:B1,2 moves 1-5 22-18",
			Position{Text: "B:W21,22:B1,2", Moves: []string{"1-5", "22-18"}}},
		{"legalmoves 11-15 9-13", LegalMoves{Moves: []string{"11-15", "9-13"}}},
		{"legalmoves", LegalMoves{}},
		{"go wtime 60000 btime 59000 winc 1000 binc 500",
			Go{Clock: Clock{WTime: time.Minute, BTime: 59 * time.Second, WInc: time.Second, BInc: 500 * time.Millisecond}}},
		{"go movetime 250", Go{Clock: Clock{MoveTime: 250 * time.Millisecond}}},
		{"go", Go{}},
		{"go wtime 9000 btime 8000 winc 0 binc 0 movestogo 12",
			Go{Clock: Clock{WTime: 9 * time.Second, BTime: 8 * time.Second, MovesToGo: 12}}},
		{"go movetime 1000 depth 6 nodes 20000", Go{Clock: Clock{MoveTime: time.Second}, Depth: 6, Nodes: 20000}},
		{"go nodes 5000", Go{Nodes: 5000}},
		{"fen B:W21,22:B1,2", FEN{Text: "B:W21,22:B1,2"}},
		{"fen  8/8/8/8/4K3/8/8/8   b 1 e4 ", FEN{Text: "8/8/8/8/4K3/8/8/8 b 1 e4"}},
		{"request fen", Request{Feature: FeatureFEN}},
		{"info depth 7 score -35 nodes 123456 time 1500 pv 11-15 23-19 string looks even",
			Info{Depth: 7, Score: -35, HasScore: true, Nodes: 123456, Time: 1500 * time.Millisecond,
				PV: []string{"11-15", "23-19"}, String: "looks even",
				Raw: "info depth 7 score -35 nodes 123456 time 1500 pv 11-15 23-19 string looks even"}},
		{"info score 0", Info{HasScore: true, Raw: "info score 0"}},
		{"info string depth 3 is a lie", Info{String: "depth 3 is a lie", Raw: "info string depth 3 is a lie"}},
		{"info", Info{Raw: "info"}},
		{"move K@e4", Move{Move: "K@e4"}},
		{"move 1x10x19\r", Move{Move: "1x10x19"}},
		{"ping", Ping{}},
		{"ping 42", Ping{Token: "42"}},
		{"pong abc", Pong{Token: "abc"}},
		{"gameover result 0-1 reason score", GameOver{Result: game.BlackWins, Reason: "score"}},
		{"gameover result 1/2-1/2 reason repetition", GameOver{Result: game.Draw, Reason: "repetition"}},
		{"gameover reason aborted result *", GameOver{Result: game.Ongoing, Reason: "aborted"}},
		{"quit", Quit{}},
		{"  quit  ", Quit{}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.line)
		if err != nil {
			t.Errorf("Parse(%q) error: %v", tt.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %#v, want %#v", tt.line, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		line string
		want error
	}{
		{"", ErrSyntax},
		{" \t ", ErrSyntax},
		{"uci", ErrUnknownCommand},
		{"bestmove e2e4", ErrUnknownCommand},
		{"MOVE K@e4", ErrUnknownCommand},
		{"arena", ErrSyntax},
		{"arena 0", ErrSyntax},
		{"arena one", ErrSyntax},
		{"arena 1 2", ErrSyntax},
		{"id", ErrSyntax},
		{"id name", ErrSyntax},
		{"id version 3", ErrSyntax},
		{"option Hash type spin default 1 min 0 max 2", ErrSyntax},
		{"option name Hash type spin default 1 min 0", ErrSyntax},
		{"option name Hash type spin default 5 min 0 max 2", ErrSyntax},
		{"option name Hash type spin default 1 min 3 max 2", ErrSyntax},
		{"option name Hash type spin default x min 0 max 2", ErrSyntax},
		{"option name Ponder type check default maybe", ErrSyntax},
		{"option name Ponder type check", ErrSyntax},
		{"option name Ponder type check default true var x", ErrSyntax},
		{"option name Style type combo default a var b", ErrSyntax},
		{"option name Style type combo default a", ErrSyntax},
		{"option name Go type button", ErrSyntax},
		{"option name Book type string", ErrSyntax},
		{"games", ErrSyntax},
		{"request", ErrSyntax},
		{"request a b", ErrSyntax},
		{"arenaok now", ErrSyntax},
		{"setoption Hash 3", ErrSyntax},
		{"setoption name Hash 3", ErrSyntax},
		{"isready please", ErrSyntax},
		{"newgame game cheversi preset cheversi", ErrSyntax},
		{"newgame game cheversi color white", ErrSyntax},
		{"newgame preset cheversi color white", ErrSyntax},
		{"newgame game cheversi preset cheversi color red", ErrSyntax},
		{"newgame game cheversi preset cheversi color w", ErrSyntax},
		{"newgame game cheversi preset cheversi rules =x color white", ErrSyntax},
		{"newgame game cheversi preset cheversi rules x= color white", ErrSyntax},
		{"newgame game cheversi preset cheversi rules touch color white", ErrSyntax},
		{"newgame game", ErrSyntax},
		{"position", ErrSyntax},
		{"position fen 8/8/8/8/8/8/8/8", ErrSyntax},
		{"position text", ErrSyntax},
		{"position text moves K@e4", ErrSyntax},
		{"position startpos K@e4", ErrSyntax},
		{"go wtime", ErrSyntax},
		{"go wtime -1", ErrSyntax},
		{"go wtime 1.5", ErrSyntax},
		{"go wtime 99999999999999999", ErrSyntax},
		{"go infinite", ErrSyntax},
		{"go nodes", ErrSyntax},
		{"go nodes -5", ErrSyntax},
		{"go depth 4294967296", ErrSyntax},
		{"go movestogo x", ErrSyntax},
		{"fen", ErrSyntax},
		{"info depth", ErrSyntax},
		{"info depth -1", ErrSyntax},
		{"info score 1.5", ErrSyntax},
		{"info score 9999999999", ErrSyntax},
		{"info nodes -3", ErrSyntax},
		{"info seldepth 4", ErrSyntax},
		{"move", ErrSyntax},
		{"move K e4", ErrSyntax},
		{"ping 1 2", ErrSyntax},
		{"pong a b", ErrSyntax},
		{"gameover result 1-0", ErrSyntax},
		{"gameover reason time", ErrSyntax},
		{"gameover result 2-0 reason time", ErrSyntax},
		{"gameover result 1-0 reason", ErrSyntax},
		{"gameover result 1-0 reason a b", ErrSyntax},
		{"quit now", ErrSyntax},
		{"games \r0", ErrSyntax},
		{"move K@e4\r\r", ErrSyntax},
		{"move K@e4\nquit", ErrSyntax},
		{"move \xff", ErrNotUTF8},
		{"move " + strings.Repeat("x", MaxLineLength), ErrLineTooLong},
	}
	for _, tt := range tests {
		m, err := Parse(tt.line)
		if !errors.Is(err, tt.want) {
			t.Errorf("Parse(%.40q) = %v, %v; want error %v", tt.line, m, err, tt.want)
			continue
		}
		var pe *ProtocolError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%.40q) error %T is not a *ProtocolError", tt.line, err)
		} else if len(pe.Line) > MaxLineLength {
			t.Errorf("Parse(%.40q): ProtocolError.Line holds %d bytes", tt.line, len(pe.Line))
		}
	}
}

func TestParseLengthLimit(t *testing.T) {
	// The limit counts the line's bytes without its line end.
	ok := "move " + strings.Repeat("x", MaxLineLength-len("move "))
	for _, line := range []string{ok, ok + "\n", ok + "\r\n"} {
		if _, err := Parse(line); err != nil {
			t.Errorf("Parse(line of %d bytes + %q): %v, want no error", len(ok), line[len(ok):], err)
		}
	}
	if _, err := Parse(ok + "x"); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("Parse(line of %d bytes): %v, want ErrLineTooLong", len(ok)+1, err)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		m    Message
		want string
	}{
		{Hello{Version: 1}, "arena 1"},
		{IDName{Name: " Random Mover "}, "id name Random Mover"},
		{IDAuthor{Author: "A. N. Other"}, "id author A. N. Other"},
		{Option{Name: "Depth", Type: OptionSpin, Default: "4", Min: 1, Max: 64},
			"option name Depth type spin default 4 min 1 max 64"},
		{Option{Name: "Ponder", Type: OptionCheck, Default: "true"}, "option name Ponder type check default true"},
		{Option{Name: "Style", Type: OptionCombo, Default: "b", Vars: []string{"a", "b"}},
			"option name Style type combo default b var a var b"},
		{Option{Name: "Log", Type: OptionString}, "option name Log type string default"},
		{Option{Name: "Log", Type: OptionString, Default: "a b"}, "option name Log type string default a b"},
		{Games{Games: []string{"checkers"}}, "games checkers"},
		{Request{Feature: FeatureLegalMoves}, "request legalmoves"},
		{ArenaOK{}, "arenaok"},
		{SetOption{Name: "Log", Value: "x y"}, "setoption name Log value x y"},
		{SetOption{Name: "Log"}, "setoption name Log value"},
		{IsReady{}, "isready"},
		{ReadyOK{}, "readyok"},
		{NewGame{Game: "checkers", Preset: "american", Color: game.Black, Settings: []game.Setting{
			{Key: "repetition", Value: "3"}, {Key: "quiet_moves", Value: "40"}, {Key: "max_plies", Value: "400"}}},
			"newgame game checkers preset american rules repetition=3 quiet_moves=40 max_plies=400 color black"},
		{NewGame{Game: "cheversi", Preset: "echeversi", Color: game.White},
			"newgame game cheversi preset echeversi color white"},
		{Position{}, "position startpos"},
		{Position{Moves: []string{"11-15", "23-19"}}, "position startpos moves 11-15 23-19"},
		{Position{Text: "8/8/8/8/4K3/8/8/8 b 1 e4", Moves: []string{"Q@d5"}},
			"position text 8/8/8/8/4K3/8/8/8 b 1 e4 moves Q@d5"},
		{Position{Text: " W:W21:B1\t"}, "position text W:W21:B1"},
		{LegalMoves{Moves: []string{"K@a1", "K@a2"}}, "legalmoves K@a1 K@a2"},
		{Go{Clock: Clock{WTime: 61500 * time.Millisecond, BTime: 2 * time.Second, WInc: 100 * time.Millisecond}},
			"go wtime 61500 btime 2000 winc 100 binc 0"},
		{Go{Clock: Clock{MoveTime: 1999999 * time.Microsecond}}, "go movetime 1999"},
		{Go{}, "go wtime 0 btime 0 winc 0 binc 0"},
		{Go{Clock: Clock{WTime: time.Minute, BTime: time.Minute, MovesToGo: 40}},
			"go wtime 60000 btime 60000 winc 0 binc 0 movestogo 40"},
		{Go{Clock: Clock{MoveTime: time.Second}, Nodes: 20000, Depth: 8}, "go movetime 1000 depth 8 nodes 20000"},
		{Go{Nodes: 1}, "go nodes 1"},
		{Go{Depth: 3}, "go depth 3"},
		{FEN{Text: " W:W17,22,K30:B1,2,K13 "}, "fen W:W17,22,K30:B1,2,K13"},
		{FEN{Text: "8/8/8/8/4K3/8/8/8 b 1 e4"}, "fen 8/8/8/8/4K3/8/8/8 b 1 e4"},
		{Info{Depth: 3, Score: -2, HasScore: true, Nodes: 99, Time: 12 * time.Millisecond,
			PV: []string{"K@e4", "Q@d5"}, String: "ok", Raw: "ignored"},
			"info depth 3 score -2 nodes 99 time 12 pv K@e4 Q@d5 string ok"},
		{Info{Score: 5}, "info"},
		{Info{String: "hello  world"}, "info string hello  world"},
		{Move{Move: "15x24"}, "move 15x24"},
		{Ping{}, "ping"},
		{Ping{Token: "7"}, "ping 7"},
		{Pong{Token: "7"}, "pong 7"},
		{GameOver{Result: game.WhiteWins, Reason: ReasonTimeout}, "gameover result 1-0 reason timeout"},
		{GameOver{Result: game.Ongoing, Reason: "stopped"}, "gameover result * reason stopped"},
		{Quit{}, "quit"},
	}
	for _, tt := range tests {
		got, err := Format(tt.m)
		if err != nil {
			t.Errorf("Format(%#v) error: %v", tt.m, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Format(%#v) = %q, want %q", tt.m, got, tt.want)
		}
		// AppendText appends; it does not overwrite.
		b, err := tt.m.AppendText([]byte("prefix\n"))
		if err != nil || string(b) != "prefix\n"+tt.want {
			t.Errorf("AppendText(prefix) on %#v = %q, %v; want %q", tt.m, b, err, "prefix\n"+tt.want)
		}
		if s, ok := tt.m.(interface{ String() string }); ok && s.String() != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.m, s.String(), tt.want)
		}
	}
}

func TestFormatInvalid(t *testing.T) {
	tests := []Message{
		Hello{},
		IDName{},
		IDName{Name: "two\nlines"},
		IDAuthor{Author: "\xff"},
		Option{Type: OptionCheck, Default: "true"},
		Option{Name: "a b", Type: OptionCheck, Default: "true"},
		Option{Name: "x", Type: "button"},
		Option{Name: "x", Type: OptionCheck, Default: "yes"},
		Option{Name: "x", Type: OptionSpin, Default: "5", Min: 6, Max: 9},
		Option{Name: "x", Type: OptionSpin, Default: "5", Min: 9, Max: 1},
		Option{Name: "x", Type: OptionCombo, Default: "a"},
		Option{Name: "x", Type: OptionCombo, Default: "a b", Vars: []string{"a b"}},
		Option{Name: "x", Type: OptionString, Default: "a\rb"},
		Games{},
		Games{Games: []string{"chess", ""}},
		Request{},
		SetOption{Value: "1"},
		SetOption{Name: "x", Value: "1\n2"},
		NewGame{Preset: "p", Color: game.White},
		NewGame{Game: "g", Color: game.White},
		NewGame{Game: "g", Preset: "p", Color: 7},
		NewGame{Game: "g", Preset: "p", Settings: []game.Setting{{Key: "", Value: "v"}}},
		NewGame{Game: "g", Preset: "p", Settings: []game.Setting{{Key: "k", Value: ""}}},
		NewGame{Game: "g", Preset: "p", Settings: []game.Setting{{Key: "a=b", Value: "c"}}},
		NewGame{Game: "g", Preset: "p", Settings: []game.Setting{{Key: "k", Value: "v w"}}},
		Position{Text: "   "},
		Position{Text: "8/8 moves"},
		Position{Text: "a\nb"},
		Position{Moves: []string{"K@e4", ""}},
		LegalMoves{Moves: []string{"a b"}},
		Go{Clock: Clock{WTime: -time.Millisecond}},
		Go{Nodes: -1},
		Go{Depth: -1},
		Go{Clock: Clock{MovesToGo: -1}},
		FEN{},
		FEN{Text: " \t"},
		FEN{Text: "a\nb"},
		Info{Depth: -1},
		Info{Nodes: -1},
		Info{PV: []string{"string"}},
		Info{String: "a\nb"},
		Info{HasScore: true, Score: 1 << 40},
		Move{},
		Move{Move: "K @e4"},
		Ping{Token: "a b"},
		Pong{Token: "\n"},
		GameOver{Result: game.Draw},
		GameOver{Result: 9, Reason: "x"},
		GameOver{Result: game.Draw, Reason: "two words"},
	}
	for _, m := range tests {
		b, err := m.AppendText([]byte("keep"))
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("AppendText(%#v) error = %v, want ErrInvalid", m, err)
		}
		if string(b) != "keep" {
			t.Errorf("AppendText(%#v) changed the buffer to %q on error", m, b)
		}
	}
}

// TestRoundTrip checks that every message formats to a line that parses
// back to the same message.
func TestRoundTrip(t *testing.T) {
	msgs := []Message{
		Hello{Version: 1},
		IDName{Name: "x y"},
		Option{Name: "Depth", Type: OptionSpin, Default: "-4", Min: -10, Max: 64},
		Option{Name: "Style", Type: OptionCombo, Default: "var", Vars: []string{"default", "var"}},
		NewGame{Game: "cheversi", Preset: "cheversi", Color: game.Black, Settings: []game.Setting{
			{Key: "opening", Value: "king-first"}, {Key: "bishops_opposite", Value: "true"}}},
		Position{Text: "B:W21,22:BK1", Moves: []string{"1-5"}},
		Go{Clock: Clock{WTime: 5 * time.Second, BTime: 4 * time.Second, WInc: time.Second, BInc: time.Second, MoveTime: time.Second}},
		Go{Clock: Clock{WTime: 5 * time.Second, BTime: 4 * time.Second, MovesToGo: 7}, Nodes: 1 << 40, Depth: 12},
		FEN{Text: "8/8/8/8/4K3/8/8/8 b 1 e4"},
		Info{Depth: 2, Score: 0, HasScore: true, PV: []string{"depth", "pv"}, String: "string"},
		GameOver{Result: game.Draw, Reason: "max-plies"},
	}
	for _, m := range msgs {
		line, err := Format(m)
		if err != nil {
			t.Errorf("Format(%#v): %v", m, err)
			continue
		}
		got, err := Parse(line)
		if err != nil {
			t.Errorf("Parse(%q): %v", line, err)
			continue
		}
		if info, ok := got.(Info); ok {
			if info.Raw != line {
				t.Errorf("Parse(%q).Raw = %q", line, info.Raw)
			}
			info.Raw = ""
			got = info
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("Parse(Format(%#v)) = %#v", m, got)
		}
	}
}

func TestProtocolErrorMessage(t *testing.T) {
	_, err := Parse("go wtime soon")
	if err == nil {
		t.Fatal("Parse(go wtime soon) succeeded")
	}
	for _, want := range []string{"syntax error", "wtime", `"go wtime soon"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	long := &ProtocolError{Err: ErrSyntax, Line: strings.Repeat("a", 1000)}
	if n := len(long.Error()); n > 2*maxErrorLine {
		t.Errorf("error message for a 1000-byte line has %d bytes, want it shortened", n)
	}
}

func TestClock(t *testing.T) {
	inc := Clock{WTime: 3 * time.Second, BTime: 4 * time.Second, WInc: time.Second, BInc: 2 * time.Second}
	fixed := Clock{MoveTime: 500 * time.Millisecond}
	tests := []struct {
		c              Clock
		side           game.Color
		remaining, inc time.Duration
	}{
		{inc, game.White, 3 * time.Second, time.Second},
		{inc, game.Black, 4 * time.Second, 2 * time.Second},
		{fixed, game.White, 500 * time.Millisecond, 0},
		{fixed, game.Black, 500 * time.Millisecond, 0},
	}
	for _, tt := range tests {
		if got := tt.c.Remaining(tt.side); got != tt.remaining {
			t.Errorf("%+v.Remaining(%v) = %v, want %v", tt.c, tt.side, got, tt.remaining)
		}
		if got := tt.c.Increment(tt.side); got != tt.inc {
			t.Errorf("%+v.Increment(%v) = %v, want %v", tt.c, tt.side, got, tt.inc)
		}
	}
}
