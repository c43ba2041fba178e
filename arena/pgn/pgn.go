package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
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
		// Names that differ in length differ in more than case (tag
		// names are ASCII).
		if len(t.Name) == len(name) && strings.EqualFold(t.Name, name) {
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

// OpeningMoves returns the moves of the game's opening as the arena's own
// files list them (the OpeningMoves tag), "" when the file does not say.
func (r *Record) OpeningMoves() string { return strings.TrimSpace(r.Tag("OpeningMoves")) }

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
	if res, ok := parseResult([]byte(strings.TrimSpace(s))); ok {
		return res, nil
	}
	return game.Ongoing, fmt.Errorf("%w: unknown result %q", ErrSyntax, s)
}

// parseResult decodes a result token without allocating.
func parseResult(s []byte) (game.Result, bool) {
	switch string(s) {
	case "1-0", "2-0":
		return game.WhiteWins, true
	case "0-1", "0-2":
		return game.BlackWins, true
	case "1/2-1/2", "½-½", "1-1":
		return game.Draw, true
	case "*":
		return game.Ongoing, true
	}
	return game.Ongoing, false
}

// Limits that keep a damaged or hostile file from exhausting memory.
const (
	maxTagValue = 1 << 16
	maxTagName  = 256
	maxTags     = 1024
	// bufSize holds any line the reader must see whole: a tag pair of the
	// longest name and value. Longer lines are handed over in pieces cut
	// at a blank.
	bufSize = 256 << 10
)

// byte classes of move text
const (
	clsWord  = iota // part of a word
	clsBlank        // separates words
	clsDelim        // a one-byte token: { } ( ) [ ] ; $
	clsCtrl         // never in PGN text: the input is binary
)

var class = func() (t [256]byte) {
	for c := range 0x20 {
		t[c] = clsCtrl
	}
	for _, c := range []byte(" \t\r\n\f\v\x1a") { // Ctrl-Z ends some old DOS files
		t[c] = clsBlank
	}
	for _, c := range []byte("{}()[];$") {
		t[c] = clsDelim
	}
	t[0x7f] = clsCtrl
	return t
}()

// Reader reads records one by one. It holds one buffer of input and the
// tag text of the current record; the move text is scanned and dropped.
type Reader struct {
	src  io.Reader
	file string
	err  error // sticky: returned by every later Next

	buf      []byte
	pos, end int
	eof      bool
	readErr  error
	line     int  // number of the line that starts at buf[pos]
	midLine  bool // buf[pos] continues a line handed over in pieces
	bomDone  bool
	commentL int  // line of the open brace comment; 0 when none is open
	restSkip bool // the rest of the line is a comment (after ';' or '%')

	// The rest of the current line, kept across records when a game ends
	// in the middle of a line.
	cur     []byte
	curLine int
	curCol0 bool // cur starts at the beginning of its line

	// The record being read (nil before its first tag or word), in
	// reused, the Record that Next hands out.
	rec     *Record
	reused  Record
	inMoves bool // move text seen after the tags
	depth   int  // variation nesting
	token   []byte
	tagText []byte
	tagPos  []tagSpan
}

// tagSpan locates one tag pair's name and value in Reader.tagText.
type tagSpan struct{ name, value, end int }

// NewReader returns a Reader of r; file names the input in errors.
func NewReader(r io.Reader, file string) *Reader {
	return &Reader{src: r, file: file, buf: make([]byte, bufSize), line: 1}
}

func (r *Reader) syntax(line int, format string, args ...any) error {
	return &SyntaxError{File: r.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// nextLine hands over the next line without its newline, or the next
// piece of a line longer than the buffer (cut after a blank). col0 reports
// that the piece starts its line. ok is false at the end of the input.
func (r *Reader) nextLine() (line []byte, num int, col0, ok bool, err error) {
	if !r.bomDone {
		for r.end-r.pos < 3 && !r.eof {
			r.fill()
		}
		if bytes.HasPrefix(r.buf[r.pos:r.end], []byte("\xef\xbb\xbf")) {
			r.pos += 3
		}
		r.bomDone = true
	}
	for {
		if i := bytes.IndexByte(r.buf[r.pos:r.end], '\n'); i >= 0 {
			line, num, col0 = r.buf[r.pos:r.pos+i], r.line, !r.midLine
			r.pos += i + 1
			r.line++
			r.midLine = false
			return line, num, col0, true, nil
		}
		if r.eof {
			if r.pos == r.end {
				return nil, r.line, false, false, r.readErr
			}
			line, num, col0 = r.buf[r.pos:r.end], r.line, !r.midLine
			r.pos = r.end
			r.midLine = true
			return line, num, col0, true, nil
		}
		if r.pos == 0 && r.end == len(r.buf) {
			// A line longer than the buffer: hand over what ends in a
			// blank, so that no word is cut.
			cut := r.end
			if i := bytes.LastIndexAny(r.buf[:r.end], " \t"); i > 0 {
				cut = i + 1
			}
			line, num, col0 = r.buf[:cut], r.line, !r.midLine
			r.pos = cut
			r.midLine = true
			return line, num, col0, true, nil
		}
		r.fill()
	}
}

// fill moves the unread bytes to the front of the buffer and reads more.
func (r *Reader) fill() {
	n := copy(r.buf, r.buf[r.pos:r.end])
	r.pos, r.end = 0, n
	for empty := 0; r.end < len(r.buf); empty++ {
		m, err := r.src.Read(r.buf[r.end:])
		r.end += m
		if err == nil && m == 0 && empty >= 100 {
			err = io.ErrNoProgress
		}
		if err != nil {
			r.eof = true
			if !errors.Is(err, io.EOF) {
				r.readErr = err
			}
			return
		}
		if m > 0 {
			return
		}
	}
}

// Next returns the next record, or io.EOF after the last one. The Record
// and its Tags slice are reused by the following call (the tags' strings
// are not); copy what must outlive it, as ReadAll does.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
		return nil, err
	}
	return rec, nil
}

func (r *Reader) next() (*Record, error) {
	r.rec, r.inMoves, r.depth, r.token = nil, false, 0, nil
	r.tagText, r.tagPos = r.tagText[:0], r.tagPos[:0]
	for {
		if r.cur == nil {
			line, num, col0, ok, err := r.nextLine()
			if err != nil {
				return nil, err
			}
			if !ok {
				if r.commentL > 0 {
					return nil, r.syntax(r.commentL, "comment is not closed")
				}
				if r.rec != nil {
					return r.finish(), nil
				}
				return nil, io.EOF
			}
			r.cur, r.curLine, r.curCol0 = line, num, col0
		}
		done, err := r.scanLine()
		if err != nil {
			return nil, err
		}
		if done {
			return r.finish(), nil
		}
	}
}

// start begins a record on the given line, if none is begun.
func (r *Reader) start(line int) {
	if r.rec == nil {
		r.reused = Record{Tags: r.reused.Tags[:0], Line: line}
		r.rec = &r.reused
	}
}

// scanLine consumes r.cur. It reports done when the record ends inside
// the line; r.cur then holds the rest (nil when the line is used up).
func (r *Reader) scanLine() (done bool, err error) {
	s, line := r.cur, r.curLine
	i, more := r.resume(s)
	defer func() {
		if done && i < len(s) {
			r.cur, r.curCol0 = s[i:], false
		} else {
			r.cur = nil
		}
	}()
	for more && i < len(s) {
		c := s[i]
		switch class[c] {
		case clsBlank:
			i++
			continue
		case clsCtrl:
			return false, r.syntax(line, "byte 0x%02x: not PGN/PDN text", c)
		}
		var stop bool
		if i, stop, done, err = r.scanToken(s, i, line); stop || done || err != nil {
			return done, err
		}
	}
	return false, nil
}

// scanToken consumes the token at s[i], a line of the input: a comment, a
// parenthesis, a tag pair or a word of move text. It returns where the
// next token starts; stop when the rest of the line is skipped or
// continues a comment; done when the record ends at i (a tag after move
// text, which then starts the next record) or with the word at i.
func (r *Reader) scanToken(s []byte, i, line int) (next int, stop, done bool, err error) {
	c := s[i]
	switch {
	case (c == '%' && i == 0 && r.curCol0) || c == ';':
		// An escape line, or a comment to the end of the line.
		r.restSkip = true
		return i, true, false, nil
	case c == '{':
		j := bytes.IndexByte(s[i+1:], '}')
		if j < 0 {
			r.commentL = line
			return i, true, false, nil
		}
		return i + j + 2, false, false, nil
	case c == '(':
		r.depth++
		return i + 1, false, false, nil
	case c == ')':
		r.depth = max(r.depth-1, 0)
		return i + 1, false, false, nil
	case c == '[' && (r.depth == 0 || (i == 0 && r.curCol0)):
		// A tag pair; one at the start of a line also ends a
		// variation that was never closed.
		if r.inMoves {
			// A tag after move text starts the next game: the
			// current one lacked its termination token.
			return i, false, true, nil
		}
		n, err := r.tag(s[i+1:], line)
		return i + 1 + n, false, false, err
	}
	next, done, err = r.word(s, i, line)
	return next, false, done, err
}

// resume returns where in s, r.cur, the scan of tokens starts: after the
// end of a comment that an earlier line opened. more is false when the
// whole line is skipped (in the comment, or after a ';' or an escape).
func (r *Reader) resume(s []byte) (i int, more bool) {
	if r.restSkip {
		if !r.curCol0 {
			return 0, false // the line continues a comment
		}
		r.restSkip = false
	}
	if r.commentL > 0 {
		j := bytes.IndexByte(s, '}')
		if j < 0 {
			return 0, false
		}
		r.commentL = 0
		i = j + 1
	}
	return i, true
}

// tag starts a record with a tag pair, the one after the '[' in s, and
// returns the bytes it used.
func (r *Reader) tag(s []byte, line int) (int, error) {
	r.depth = 0
	r.start(line)
	if len(r.tagPos) >= maxTags {
		return 0, r.syntax(line, "more than %d tags in one game", maxTags)
	}
	return r.readTag(s, line)
}

// word reads the word of move text at s[i:] and returns where it ends;
// done is true when it is the record's termination token.
func (r *Reader) word(s []byte, i, line int) (end int, done bool, err error) {
	j := i + 1
	for j < len(s) && class[s[j]] == clsWord {
		j++
	}
	if j < len(s) && class[s[j]] == clsCtrl {
		return j, false, r.syntax(line, "byte 0x%02x: not PGN/PDN text", s[j])
	}
	word := s[i:j]
	r.start(line)
	r.inMoves = true
	if r.depth == 0 {
		if _, ok := parseResult(word); ok {
			r.token = word
			return j, true, nil
		}
	}
	return j, false, nil
}

// readTag reads a tag pair after its '[': a name, a quoted value with \"
// and \\ escapes, and ']', all within s. It returns the bytes used.
func (r *Reader) readTag(s []byte, line int) (int, error) {
	nameStart := len(r.tagText)
	i, err := r.readTagName(s, line)
	if err != nil {
		return 0, err
	}
	name := string(r.tagText[nameStart:]) // for errors only
	i = skipBlanks(s, i)
	if i >= len(s) || s[i] != '"' {
		return 0, r.syntax(line, "tag %s: value must be a quoted string", name)
	}
	valueStart := len(r.tagText)
	if i, err = r.readTagValue(s, i+1, name, line); err != nil {
		return 0, err
	}
	valueEnd := len(r.tagText)
	for valueEnd > valueStart && r.tagText[valueEnd-1] == '\r' {
		valueEnd--
	}
	r.tagText = r.tagText[:valueEnd]
	for k := valueStart; k < valueEnd; k++ {
		if class[r.tagText[k]] == clsCtrl && r.tagText[k] != '\t' {
			return 0, r.syntax(line, "tag %s: byte 0x%02x: not PGN/PDN text", name, r.tagText[k])
		}
	}
	r.tagPos = append(r.tagPos, tagSpan{name: nameStart, value: valueStart, end: valueEnd})
	i = skipBlanks(s, i)
	if i >= len(s) || s[i] != ']' {
		return 0, r.syntax(line, "tag %s: missing ]", name)
	}
	return i + 1, nil
}

// readTagName appends the name of a tag pair, at the start of s after
// blanks, to r.tagText and returns where it ends.
func (r *Reader) readTagName(s []byte, line int) (int, error) {
	i := skipBlanks(s, 0)
	nameStart := len(r.tagText)
	for i < len(s) && isNameByte(s[i]) {
		if len(r.tagText)-nameStart >= maxTagName {
			return 0, r.syntax(line, "tag name longer than %d bytes", maxTagName)
		}
		r.tagText = append(r.tagText, s[i])
		i++
	}
	if len(r.tagText) == nameStart {
		return 0, r.syntax(line, "tag pair without a name")
	}
	return i, nil
}

// readTagValue appends the quoted value of the tag name, from s[i] after
// its opening quote, to r.tagText with its escapes undone, and returns
// where it ends, after the closing quote.
func (r *Reader) readTagValue(s []byte, i int, name string, line int) (int, error) {
	valueStart := len(r.tagText)
	for {
		j := i
		for j < len(s) && s[j] != '"' && s[j] != '\\' {
			j++
		}
		if len(r.tagText)-valueStart+j-i > maxTagValue {
			return 0, r.syntax(line, "tag %s: value longer than %d bytes", name, maxTagValue)
		}
		r.tagText = append(r.tagText, s[i:j]...)
		if j >= len(s) || (s[j] == '\\' && j+1 >= len(s)) {
			return 0, r.syntax(line, "tag %s: value is not closed on its line", name)
		}
		if s[j] == '"' {
			return j + 1, nil
		}
		// A backslash escapes a quote or a backslash and is kept
		// before anything else.
		if next := s[j+1]; next != '"' && next != '\\' {
			r.tagText = append(r.tagText, '\\')
		}
		r.tagText = append(r.tagText, s[j+1])
		i = j + 2
	}
}

// skipBlanks returns the index of the first byte of s from i on that is
// not a space, tab or carriage return.
func skipBlanks(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

// finish completes the current record: its tags, with every name and value
// a substring of one string, and its result.
func (r *Reader) finish() *Record {
	rec := r.rec
	if len(r.tagPos) > 0 {
		text := string(r.tagText)
		for _, p := range r.tagPos {
			rec.Tags = append(rec.Tags, Tag{Name: text[p.name:p.value], Value: text[p.value:p.end]})
		}
	}
	rec.Result = game.Ongoing
	res, ok := parseResult([]byte(strings.TrimSpace(rec.Tag("Result"))))
	switch {
	case ok && (res != game.Ongoing || r.token == nil):
		rec.Result = res
	case r.token != nil:
		rec.Result, _ = parseResult(r.token)
	}
	return rec
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
		c := *rec
		c.Tags = slices.Clone(rec.Tags)
		out = append(out, c)
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
