package protocol

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arena-games/arena/arena/game"
)

// Parse decodes one line (with or without its line end) into a message.
// Words may be separated by runs of spaces and tabs; free texts (a name, an
// info string, a string option value) are taken from the rest of the line
// with surrounding white space removed.
//
// Errors are *ProtocolError values wrapping ErrLineTooLong, ErrNotUTF8,
// ErrUnknownCommand (the first word is not a command; the protocol says to
// ignore such a line) or ErrSyntax (a known command with bad arguments; a
// blank line and a CR or LF inside the line are syntax errors too).
func Parse(line string) (Message, error) {
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	if len(line) > MaxLineLength {
		return nil, &ProtocolError{Err: ErrLineTooLong, Line: line[:maxErrorLine]}
	}
	if !utf8.ValidString(line) {
		return nil, &ProtocolError{Err: ErrNotUTF8, Line: line}
	}
	if hasLineBreak(line) {
		return nil, syntaxErr(line, "line break inside the line")
	}
	p := &parser{line: line}
	cmd := p.word()
	if cmd == "" {
		return nil, syntaxErr(line, "blank line")
	}
	if m, err, ok := p.setup(cmd); ok {
		return m, err
	}
	if m, err, ok := p.play(cmd); ok {
		return m, err
	}
	return nil, &ProtocolError{Err: ErrUnknownCommand, Line: line, Detail: strconv.Quote(cmd)}
}

// setup parses the arguments of a command of the handshake and of the
// setting of options, after its first word; ok is false for another
// command. (A switch, not a table of functions: called through a
// function value, the parser would leave the stack on every line.)
func (p *parser) setup(cmd string) (m Message, err error, ok bool) {
	switch cmd {
	case cmdHello:
		m, err = p.hello()
	case cmdID:
		m, err = p.id()
	case cmdOption:
		m, err = p.option()
	case cmdGames:
		m, err = p.games()
	case cmdRequest:
		m, err = p.request()
	case cmdArenaOK:
		m, err = p.bare(ArenaOK{})
	case cmdSetOption:
		m, err = p.setOption()
	case cmdIsReady:
		m, err = p.bare(IsReady{})
	case cmdReadyOK:
		m, err = p.bare(ReadyOK{})
	default:
		return nil, nil, false
	}
	return m, err, true
}

// play parses the arguments of a command of a game, after its first
// word; ok is false for another command.
func (p *parser) play(cmd string) (m Message, err error, ok bool) {
	switch cmd {
	case cmdNewGame:
		m, err = p.newGame()
	case cmdPosition:
		m, err = p.position()
	case cmdLegalMoves:
		m = LegalMoves{Moves: p.words()}
	case cmdFEN:
		m, err = p.fen()
	case cmdGameInfo:
		m, err = p.gameInfo()
	case cmdGo:
		m, err = p.goMsg()
	case cmdInfo:
		m, err = p.info()
	case cmdMove:
		m, err = p.move()
	case cmdPing:
		var tok string
		tok, err = p.optionalWord()
		m = Ping{Token: tok}
	case cmdPong:
		var tok string
		tok, err = p.optionalWord()
		m = Pong{Token: tok}
	case cmdGameOver:
		m, err = p.gameOver()
	case cmdQuit:
		m, err = p.bare(Quit{})
	default:
		return nil, nil, false
	}
	return m, err, true
}

// parser walks the words of one line.
type parser struct {
	line string
	pos  int
}

func (p *parser) skipSpace() {
	for p.pos < len(p.line) && isSpace(p.line[p.pos]) {
		p.pos++
	}
}

// word returns the next word, or "" at the end of the line.
func (p *parser) word() string {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.line) && !isSpace(p.line[p.pos]) {
		p.pos++
	}
	return p.line[start:p.pos]
}

// peek returns the next word without consuming it.
func (p *parser) peek() string {
	save := p.pos
	w := p.word()
	p.pos = save
	return w
}

// rest returns the rest of the line with surrounding white space removed.
func (p *parser) rest() string {
	r := trim(p.line[p.pos:])
	p.pos = len(p.line)
	return r
}

// words returns the remaining words, or nil when there are none.
func (p *parser) words() []string { return p.wordsUntil("") }

// wordsUntil returns the next words up to the keyword stop, which it does
// not consume, or up to the end of the line; nil when there are none. The
// slice is sized from the separators left on the line, so that a long move
// list costs one allocation.
func (p *parser) wordsUntil(stop string) []string {
	var ws []string
	for {
		save := p.pos
		w := p.word()
		if w == "" || w == stop {
			p.pos = save
			return ws
		}
		if ws == nil {
			// Every later word follows at least one separator.
			rest := p.line[p.pos:]
			ws = make([]string, 0, 1+strings.Count(rest, " ")+strings.Count(rest, "\t"))
		}
		ws = append(ws, w)
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return syntaxErr(p.line, format, args...)
}

// end fails unless the line has no more words.
func (p *parser) end() error {
	if w := p.word(); w != "" {
		return p.errorf("unexpected %q", w)
	}
	return nil
}

// need returns the next word, failing when the line ends.
func (p *parser) need(what string) (string, error) {
	w := p.word()
	if w == "" {
		return "", p.errorf("missing %s", what)
	}
	return w, nil
}

// expect consumes the keyword kw.
func (p *parser) expect(kw string) error {
	if w := p.word(); w != kw {
		if w == "" {
			return p.errorf("missing %q", kw)
		}
		return p.errorf("got %q, want %q", w, kw)
	}
	return nil
}

func (p *parser) bare(m Message) (Message, error) {
	if err := p.end(); err != nil {
		return nil, err
	}
	return m, nil
}

func (p *parser) optionalWord() (string, error) {
	w := p.word()
	if err := p.end(); err != nil {
		return "", err
	}
	return w, nil
}

// int parses the next word as an integer of at most bits bits, no less
// than min.
func (p *parser) int(what string, bits int, min int64) (int64, error) {
	w, err := p.need(what)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(w, 10, bits)
	if err != nil || n < min {
		return 0, p.errorf("bad %s %q", what, w)
	}
	return n, nil
}

// millis parses the next word as a non-negative number of milliseconds.
func (p *parser) millis(what string) (time.Duration, error) {
	n, err := p.int(what, 64, 0)
	if err != nil {
		return 0, err
	}
	if n > math.MaxInt64/int64(time.Millisecond) {
		return 0, p.errorf("%s %d ms out of range", what, n)
	}
	return time.Duration(n) * time.Millisecond, nil
}

func (p *parser) hello() (Message, error) {
	v, err := p.int("version", 32, 1)
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return Hello{Version: int(v)}, nil
}

func (p *parser) id() (Message, error) {
	key := p.word()
	text := p.rest()
	switch key {
	case "name", "author":
	case "":
		return nil, p.errorf("missing id field")
	default:
		return nil, p.errorf("unknown id field %q", key)
	}
	if text == "" {
		return nil, p.errorf("empty id %s", key)
	}
	if key == "name" {
		return IDName{Name: text}, nil
	}
	return IDAuthor{Author: text}, nil
}

func (p *parser) option() (Message, error) {
	var o Option
	var err error
	if err = p.expect("name"); err != nil {
		return nil, err
	}
	if o.Name, err = p.need("option name"); err != nil {
		return nil, err
	}
	if err = p.expect("type"); err != nil {
		return nil, err
	}
	typ, err := p.need("option type")
	if err != nil {
		return nil, err
	}
	o.Type = OptionType(typ)
	if o.Type == OptionString {
		if err := p.expect("default"); err != nil {
			return nil, err
		}
		o.Default = p.rest()
		return o, nil
	}
	if o.Type != OptionCheck && o.Type != OptionSpin && o.Type != OptionCombo {
		return nil, p.errorf("unknown option type %q", typ)
	}
	if err := p.optionFields(&o); err != nil {
		return nil, err
	}
	return o, nil
}

// optionFields reads the keywords of a check, spin or combo option after
// its type into o, and checks that o is complete and its default valid.
func (p *parser) optionFields(o *Option) error {
	var hasDefault, hasMin, hasMax bool
	var err error
	for kw := p.word(); kw != ""; kw = p.word() {
		switch {
		case kw == "default":
			o.Default, err = p.need("default value")
			hasDefault = true
		case kw == "min" && o.Type == OptionSpin:
			o.Min, err = p.int("min", 64, math.MinInt64)
			hasMin = true
		case kw == "max" && o.Type == OptionSpin:
			o.Max, err = p.int("max", 64, math.MinInt64)
			hasMax = true
		case kw == "var" && o.Type == OptionCombo:
			var v string
			v, err = p.need("combo value")
			o.Vars = append(o.Vars, v)
		default:
			return p.errorf("unexpected %q in a %s option", kw, o.Type)
		}
		if err != nil {
			return err
		}
	}
	switch {
	case !hasDefault:
		return p.errorf("option %s has no default", o.Name)
	case o.Type == OptionSpin && (!hasMin || !hasMax):
		return p.errorf("spin option %s needs min and max", o.Name)
	case o.Type == OptionSpin && o.Min > o.Max:
		return p.errorf("spin option %s has min above max", o.Name)
	case o.Type == OptionCombo && len(o.Vars) == 0:
		return p.errorf("combo option %s has no var", o.Name)
	}
	if err := o.Check(o.Default); err != nil {
		return p.errorf("default: %v", err)
	}
	return nil
}

func (p *parser) games() (Message, error) {
	gs := p.words()
	if len(gs) == 0 {
		return nil, p.errorf("no games")
	}
	return Games{Games: gs}, nil
}

func (p *parser) request() (Message, error) {
	f, err := p.need("feature")
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return Request{Feature: f}, nil
}

func (p *parser) setOption() (Message, error) {
	var m SetOption
	var err error
	if err = p.expect("name"); err != nil {
		return nil, err
	}
	if m.Name, err = p.need("option name"); err != nil {
		return nil, err
	}
	if err = p.expect("value"); err != nil {
		return nil, err
	}
	m.Value = p.rest()
	return m, nil
}

func (p *parser) newGame() (Message, error) {
	var m NewGame
	var hasGame, hasPreset, hasColor bool
	for kw := p.word(); kw != ""; kw = p.word() {
		var err error
		switch kw {
		case "game":
			m.Game, err = p.need("game")
			hasGame = true
		case "preset":
			m.Preset, err = p.need("preset")
			hasPreset = true
		case "color":
			var c string
			if c, err = p.need("color"); err == nil {
				if c != "white" && c != "black" {
					return nil, p.errorf("bad color %q", c)
				}
				m.Color, err = game.ParseColor(c)
			}
			hasColor = true
		case "rules":
			for w := p.peek(); strings.Contains(w, "="); w = p.peek() {
				p.word()
				k, v, _ := strings.Cut(w, "=")
				if k == "" || v == "" {
					return nil, p.errorf("bad rule %q", w)
				}
				m.Settings = append(m.Settings, game.Setting{Key: k, Value: v})
			}
		default:
			return nil, p.errorf("unexpected %q", kw)
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case !hasGame:
		return nil, p.errorf("missing game")
	case !hasPreset:
		return nil, p.errorf("missing preset")
	case !hasColor:
		return nil, p.errorf("missing color")
	}
	return m, nil
}

func (p *parser) position() (Message, error) {
	var m Position
	switch kw := p.word(); kw {
	case "startpos":
	case "text":
		text := p.wordsUntil("moves")
		if len(text) == 0 {
			return nil, p.errorf("missing position text")
		}
		m.Text = strings.Join(text, " ")
	case "":
		return nil, p.errorf("missing startpos or text")
	default:
		return nil, p.errorf("got %q, want startpos or text", kw)
	}
	switch kw := p.word(); kw {
	case "":
	case "moves":
		m.Moves = p.words()
	default:
		return nil, p.errorf("got %q, want moves", kw)
	}
	return m, nil
}

func (p *parser) fen() (Message, error) {
	words := p.words()
	if len(words) == 0 {
		return nil, p.errorf("missing position text")
	}
	return FEN{Text: strings.Join(words, " ")}, nil
}

func (p *parser) goMsg() (Message, error) {
	var m Go
	c := &m.Clock
	for kw := p.word(); kw != ""; kw = p.word() {
		var d *time.Duration
		var err error
		switch kw {
		case "movestogo":
			var n int64
			n, err = p.int("movestogo", 32, 0)
			c.MovesToGo = int(n)
		case "depth":
			var n int64
			n, err = p.int("depth", 32, 0)
			m.Depth = int(n)
		case "nodes":
			m.Nodes, err = p.int("nodes", 64, 0)
		case "wtime":
			d = &c.WTime
		case "btime":
			d = &c.BTime
		case "winc":
			d = &c.WInc
		case "binc":
			d = &c.BInc
		case "movetime":
			d = &c.MoveTime
		default:
			return nil, p.errorf("unexpected %q", kw)
		}
		if d != nil {
			*d, err = p.millis(kw)
		}
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (p *parser) info() (Message, error) {
	m := Info{Raw: p.line}
	for kw := p.word(); kw != ""; kw = p.word() {
		var err error
		switch kw {
		case "depth":
			var n int64
			n, err = p.int("depth", 32, 0)
			m.Depth = int(n)
		case "score":
			var n int64
			n, err = p.int("score", 32, math.MinInt32)
			m.Score, m.HasScore = int(n), true
		case "nodes":
			m.Nodes, err = p.int("nodes", 64, 0)
		case "time":
			m.Time, err = p.millis("time")
		case "pv":
			m.PV = p.wordsUntil("string")
		case "string":
			m.String = p.rest()
		default:
			return nil, p.errorf("unexpected %q", kw)
		}
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (p *parser) move() (Message, error) {
	mv, err := p.need("move")
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return Move{Move: mv}, nil
}

func (p *parser) gameOver() (Message, error) {
	var m GameOver
	var hasResult, hasReason bool
	for kw := p.word(); kw != ""; kw = p.word() {
		switch kw {
		case "result":
			w, err := p.need("result")
			if err != nil {
				return nil, err
			}
			if m.Result, err = game.ParseResult(w); err != nil {
				return nil, p.errorf("bad result %q", w)
			}
			hasResult = true
		case "reason":
			w, err := p.need("reason")
			if err != nil {
				return nil, err
			}
			m.Reason, hasReason = w, true
		default:
			return nil, p.errorf("unexpected %q", kw)
		}
	}
	if !hasResult || !hasReason {
		return nil, p.errorf("gameover needs result and reason")
	}
	return m, nil
}
