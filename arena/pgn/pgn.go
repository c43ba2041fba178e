package pgn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/game"
)

// ErrSyntax is wrapped by every SyntaxError.
var ErrSyntax = errors.New("pgn syntax error")

// SyntaxError is damage in the input that the reader cannot skip.
type SyntaxError struct {
	File string // as given to NewReader; may be empty
	Line int    // 1-based
	Msg  string
}

// Error returns "file:line: msg" (or "line N: msg" without a file name).
func (e *SyntaxError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Tag is one tag pair.
type Tag struct {
	Name, Value string
}

// Record is one game: its tag pairs and result.
type Record struct {
	Tags []Tag // in input order
	// Result is taken from the Result tag, or from the move text's
	// termination token when the tag is missing or unreadable;
	// game.Ongoing when neither gives a finished game.
	Result game.Result
	// Line is the line on which the game starts.
	Line int
}

// Tag returns the value of the named tag, matching the name exactly or,
// failing that, ignoring case; "" when absent.
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	for _, t := range r.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// White returns the White tag.
func (r *Record) White() string { return strings.TrimSpace(r.Tag("White")) }

// Black returns the Black tag.
func (r *Record) Black() string { return strings.TrimSpace(r.Tag("Black")) }

// FirstMover returns the colour that moved first: Black for PDN game type
// 21 (English draughts, that is American checkers), White otherwise.
func (r *Record) FirstMover() game.Color {
	gt, _, _ := strings.Cut(r.Tag("GameType"), ",")
	if n, err := strconv.Atoi(strings.TrimSpace(gt)); err == nil && n == 21 {
		return game.Black
	}
	return game.White
}

// Opening identifies the game's opening: the Opening tag (with the
// Variation tag, if any), else the ECO tag, else the FEN start position;
// "" when none is given.
func (r *Record) Opening() string {
	if o := strings.TrimSpace(r.Tag("Opening")); o != "" {
		if v := strings.TrimSpace(r.Tag("Variation")); v != "" {
			return o + ", " + v
		}
		return o
	}
	for _, name := range []string{"ECO", "FEN"} {
		if v := strings.TrimSpace(r.Tag(name)); v != "" {
			return v
		}
	}
	return ""
}

// Forfeit reports whether the Termination tag says that a player forfeited
// the game rather than lost it by play: "time forfeit", "rules infraction"
// (the arena's crashes, illegal moves and protocol breaches) or
// "abandoned", the PGN standard's values for these cases.
func (r *Record) Forfeit() bool {
	switch strings.ToLower(strings.TrimSpace(r.Tag("Termination"))) {
	case "time forfeit", "rules infraction", "abandoned":
		return true
	}
	return false
}

// ParseResult decodes a result as PGN or PDN writes it: 1-0, 0-1, 1/2-1/2
// (or ½-½), *, and PDN's 2-0, 0-2 and 1-1.
func ParseResult(s string) (game.Result, error) {
	switch strings.TrimSpace(s) {
	case "1-0", "2-0":
		return game.WhiteWins, nil
	case "0-1", "0-2":
		return game.BlackWins, nil
	case "1/2-1/2", "½-½", "1-1":
		return game.Draw, nil
	case "*":
		return game.Ongoing, nil
	}
	return game.Ongoing, fmt.Errorf("%w: unknown result %q", ErrSyntax, s)
}

// Limits that keep a damaged or hostile file from exhausting memory.
const (
	maxTagValue = 1 << 16
	maxTagName  = 256
	maxTags     = 1024
)

// Reader reads records one by one.
type Reader struct {
	in   *bufio.Reader
	file string
	line int
	col  int // bytes read on the current line
	err  error
	// pending holds a tag that started the next game.
	pendingLine int
	hasPending  bool
	pending     Tag
}

// NewReader returns a Reader of r; file names the input in errors.
func NewReader(r io.Reader, file string) *Reader {
	return &Reader{in: bufio.NewReaderSize(r, 64<<10), file: file, line: 1}
}

func (r *Reader) syntax(line int, format string, args ...any) error {
	return &SyntaxError{File: r.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// readByte returns the next byte, keeping the line count.
func (r *Reader) readByte() (byte, error) {
	c, err := r.in.ReadByte()
	if err != nil {
		return 0, err
	}
	if c == '\n' {
		r.line++
		r.col = 0
	} else {
		r.col++
	}
	return c, nil
}

// unreadByte steps back over the byte just read, which was not a newline.
func (r *Reader) unreadByte() {
	_ = r.in.UnreadByte()
	r.col--
}

// skipLine skips to the end of the line.
func (r *Reader) skipLine() error {
	for {
		c, err := r.readByte()
		if err != nil || c == '\n' {
			return err
		}
	}
}

// Next returns the next record, or io.EOF after the last one.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
		if errors.Is(err, io.EOF) && rec != nil {
			return rec, nil
		}
		return nil, err
	}
	return rec, nil
}

func (r *Reader) next() (*Record, error) {
	var rec *Record
	start := func(line int) {
		if rec == nil {
			rec = &Record{Line: line}
		}
	}
	if r.hasPending {
		start(r.pendingLine)
		rec.Tags = append(rec.Tags, r.pending)
		r.hasPending = false
	}
	inMoves := false // move text seen after the tags
	depth := 0       // variation nesting
	token := ""      // termination token seen
	finish := func() *Record {
		rec.Result = game.Ongoing
		if res, err := ParseResult(rec.Tag("Result")); err == nil && (res != game.Ongoing || token == "") {
			rec.Result = res
		} else if res, err := ParseResult(token); err == nil {
			rec.Result = res
		}
		return rec
	}
	for {
		if r.line == 1 && r.col == 0 {
			if bom, _ := r.in.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
				_, _ = r.in.Discard(3)
			}
		}
		col := r.col
		c, err := r.readByte()
		if err != nil {
			if errors.Is(err, io.EOF) && rec != nil {
				return finish(), io.EOF
			}
			return nil, err
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
		case c == '%' && col == 0:
			if err := r.skipLine(); err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
		case c == ';':
			if err := r.skipLine(); err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
		case c == '{':
			if err := r.skipComment(); err != nil {
				return nil, err
			}
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			}
		case c == '[' && (depth == 0 || col == 0):
			// A tag pair; one at the start of a line also ends a
			// variation that was never closed.
			depth = 0
			line := r.line
			tag, err := r.readTag()
			if err != nil {
				return nil, err
			}
			if inMoves {
				// A tag after move text starts the next game: the
				// current one lacked its termination token.
				r.pending, r.pendingLine, r.hasPending = tag, line, true
				return finish(), nil
			}
			start(line)
			if len(rec.Tags) >= maxTags {
				return nil, r.syntax(line, "more than %d tags in one game", maxTags)
			}
			rec.Tags = append(rec.Tags, tag)
		default:
			line := r.line
			word, err := r.readWord(c)
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			start(line)
			inMoves = true
			if depth == 0 {
				if _, perr := ParseResult(word); perr == nil {
					token = word
					return finish(), nil
				}
			}
			if errors.Is(err, io.EOF) {
				return finish(), io.EOF
			}
		}
	}
}

// skipComment skips a brace comment whose '{' was just read.
func (r *Reader) skipComment() error {
	line := r.line
	for {
		c, err := r.readByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return r.syntax(line, "comment is not closed")
			}
			return err
		}
		if c == '}' {
			return nil
		}
	}
}

// readWord reads a move-text symbol that starts with c. Words longer than
// a move are cut short; the rest is read as further words.
func (r *Reader) readWord(c byte) (string, error) {
	var b strings.Builder
	b.WriteByte(c)
	for b.Len() < 64 {
		c, err := r.readByte()
		if err != nil {
			return b.String(), err
		}
		switch c {
		case ' ', '\t', '\r', '\n', '\f', '\v':
			return b.String(), nil // the blank separates and is done with
		case '{', '}', '(', ')', '[', ']', ';', '$':
			r.unreadByte()
			return b.String(), nil
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// readTag reads a tag pair whose '[' was just read: a name, a quoted value
// with \" and \\ escapes, and ']', all on one line.
func (r *Reader) readTag() (Tag, error) {
	line := r.line
	var t Tag
	var name strings.Builder
	c, err := r.skipBlanks()
	for err == nil && isNameByte(c) {
		if name.Len() >= maxTagName {
			return t, r.syntax(line, "tag name longer than %d bytes", maxTagName)
		}
		name.WriteByte(c)
		c, err = r.readByte()
	}
	if name.Len() == 0 {
		return t, r.syntax(line, "tag pair without a name")
	}
	t.Name = name.String()
	if err == nil && (c == ' ' || c == '\t') {
		c, err = r.skipBlanks()
	}
	if err != nil || c != '"' {
		return t, r.syntax(line, "tag %s: value must be a quoted string", t.Name)
	}
	var value strings.Builder
	for {
		c, err = r.readByte()
		if err != nil || c == '\n' {
			return t, r.syntax(line, "tag %s: value is not closed on its line", t.Name)
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			next, err := r.readByte()
			if err != nil || next == '\n' {
				return t, r.syntax(line, "tag %s: value is not closed on its line", t.Name)
			}
			if next != '"' && next != '\\' {
				value.WriteByte(c)
			}
			c = next
		}
		if value.Len() >= maxTagValue {
			return t, r.syntax(line, "tag %s: value longer than %d bytes", t.Name, maxTagValue)
		}
		value.WriteByte(c)
	}
	t.Value = strings.TrimRight(value.String(), "\r")
	c, err = r.skipBlanks()
	if err != nil || c != ']' {
		return t, r.syntax(line, "tag %s: missing ]", t.Name)
	}
	return t, nil
}

// skipBlanks returns the next byte that is not a space, tab or carriage
// return (a newline is returned).
func (r *Reader) skipBlanks() (byte, error) {
	for {
		c, err := r.readByte()
		if err != nil || (c != ' ' && c != '\t' && c != '\r') {
			return c, err
		}
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '+' || c == '#' || c == '=' || c == ':' || c == '.' ||
		(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// ReadAll reads every record of r; file names the input in errors.
func ReadAll(r io.Reader, file string) ([]Record, error) {
	rd := NewReader(r, file)
	var out []Record
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, *rec)
	}
}

// ReadFile reads every record of the named file.
func ReadFile(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := ReadAll(f, path)
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return recs, err
	}
	return recs, nil
}
