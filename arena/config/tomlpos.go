package config

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// keyLines records the line on which each key of a TOML document is
// defined, so that configuration errors found after decoding (unknown keys,
// duplicate bot names, missing executables) can name a line. The TOML
// decoder keeps that information to itself.
//
// Paths are dotted, with the index of an array-of-tables element inserted
// after the array's name: the third [[bots]] table's name is "bots.2.name".
// The scanner understands exactly as much TOML as it needs to find keys:
// comments, table headers, dotted and quoted keys, basic, literal and
// multi-line strings, arrays and inline tables. On anything it does not
// understand it stops; lookups then fall back to the nearest enclosing key
// it did see, or to no line at all.
//
// Keys set from the command line are recorded in sources instead, with the
// flag that set them.
type keyLines struct {
	lines   map[string]int
	sources map[string]string
	// The same by path without array indices (bots.name), keeping the
	// least line and flag, so that a lookup by such a path costs no scan
	// of every key: a document of many keys, each in error, would
	// otherwise take time quadratic in their number.
	plainLines   map[string]int
	plainSources map[string]string
}

// setSource records that a flag set the key at an indexed path.
func (k *keyLines) setSource(path []string, flag string) {
	if k.sources == nil {
		k.sources, k.plainSources = map[string]string{}, map[string]string{}
	}
	p := strings.Join(path, ".")
	k.sources[p] = flag
	if plain := unindexed(p); k.plainSources[plain] == "" || flag < k.plainSources[plain] {
		k.plainSources[plain] = flag
	}
}

// unindexed drops the array indices (numeric segments) of a dotted path.
func unindexed(p string) string {
	segs := strings.Split(p, ".")
	out := segs[:0]
	for _, seg := range segs {
		if _, err := strconv.Atoi(seg); err != nil {
			out = append(out, seg)
		}
	}
	return strings.Join(out, ".")
}

// defines reports whether the file sets the key at the indexed dotted
// path p, or a key inside it.
func (k keyLines) defines(p string) bool {
	if _, ok := k.lines[p]; ok {
		return true
	}
	for q := range k.lines {
		if strings.HasPrefix(q, p+".") {
			return true
		}
	}
	return false
}

// source returns the flag that set the key at an indexed path, or "".
func (k keyLines) source(path []string) string { return k.sources[strings.Join(path, ".")] }

// where locates a key for an error message: the flag that set it or an
// enclosing key (exact when it set the key itself), else the line of the
// key or of its nearest enclosing key in the file, else the first flag
// that set a key inside it. indexed says whether path carries array
// indices (bots.2.name) or not, as the decoder gives keys (bots.name).
func (k keyLines) where(path []string, indexed bool) (line int, flag string, exact bool) {
	for n := len(path); n > 0; n-- {
		if f, ok := lookup(k.sources, k.plainSources, path[:n], indexed, func(a, b string) bool { return a < b }); ok {
			return 0, f, n == len(path)
		}
		if l, ok := lookup(k.lines, k.plainLines, path[:n], indexed, func(a, b int) bool { return a < b }); ok {
			return l, "", false
		}
	}
	prefix := strings.Join(path, ".") + "."
	var inner []string
	for p := range k.sources {
		if strings.HasPrefix(p, prefix) {
			inner = append(inner, p)
		}
	}
	if len(inner) > 0 {
		slices.Sort(inner)
		return 0, k.sources[inner[0]], false
	}
	return 0, "", false
}

// lookup finds the value recorded for path, trying every array index when
// path has none and keeping the least value by less. plain holds m's least
// values by unindexed path (see keyLines).
func lookup[V any](m, plain map[string]V, path []string, indexed bool, less func(a, b V) bool) (V, bool) {
	if indexed {
		v, ok := m[strings.Join(path, ".")]
		return v, ok
	}
	if !slices.ContainsFunc(path, isNumber) {
		v, ok := plain[strings.Join(path, ".")]
		return v, ok
	}
	// A key that is itself a number: match segment by segment.
	var best V
	found := false
	for _, p := range slices.Sorted(maps.Keys(m)) { // in order: the same work every time
		if v := m[p]; matchesUnindexed(strings.Split(p, "."), path) && (!found || less(v, best)) {
			best, found = v, true
		}
	}
	return best, found
}

func isNumber(seg string) bool {
	_, err := strconv.Atoi(seg)
	return err == nil
}

// matchesUnindexed reports whether an indexed path equals key once its
// numeric array-index segments are dropped.
func matchesUnindexed(indexed, key []string) bool {
	i := 0
	for _, seg := range indexed {
		if i < len(key) && seg == key[i] {
			i++
			continue
		}
		if _, err := strconv.Atoi(seg); err == nil {
			continue
		}
		return false
	}
	return i == len(key)
}

// scanKeyLines scans a TOML document. It never fails: on malformed input it
// returns what it found so far.
func scanKeyLines(src string) keyLines {
	s := &keyScanner{src: src, line: 1, out: map[string]int{}, arrays: map[string]int{}}
	s.document()
	plain := make(map[string]int, len(s.out))
	for p, line := range s.out {
		u := unindexed(p)
		if l, ok := plain[u]; !ok || line < l {
			plain[u] = line
		}
	}
	return keyLines{lines: s.out, plainLines: plain}
}

type keyScanner struct {
	src    string
	pos    int
	line   int
	out    map[string]int
	arrays map[string]int // unindexed array-of-tables path -> number of elements so far
	table  []string       // current table, indexed
}

func (s *keyScanner) eof() bool { return s.pos >= len(s.src) }

func (s *keyScanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.pos]
}

func (s *keyScanner) advance() {
	if s.src[s.pos] == '\n' {
		s.line++
	}
	s.pos++
}

func (s *keyScanner) hasPrefix(p string) bool { return strings.HasPrefix(s.src[s.pos:], p) }

// skipSpace skips blanks; with newlines it also skips line ends and comments.
func (s *keyScanner) skipSpace(newlines bool) {
	for !s.eof() {
		switch c := s.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			s.advance()
		case c == '#':
			for !s.eof() && s.peek() != '\n' {
				s.advance()
			}
		case c == '\n' && newlines:
			s.advance()
		default:
			return
		}
	}
}

func (s *keyScanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.advance()
	}
}

func (s *keyScanner) document() {
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		line := s.line
		if s.peek() == '[' {
			array := s.hasPrefix("[[")
			s.pos++
			if array {
				s.pos++
			}
			s.skipSpace(false)
			key, ok := s.key()
			if !ok {
				return
			}
			if array {
				s.table = append(s.index(key[:len(key)-1]), key[len(key)-1])
			} else {
				s.table = s.index(key)
			}
			if array {
				// The array itself is where its first element starts, so
				// that an error about the whole array ([[bot]] for
				// [[bots]]) has a line.
				s.record(s.table, line)
				plain := strings.Join(key, ".")
				n := s.arrays[plain]
				s.arrays[plain] = n + 1
				s.table = append(s.table, strconv.Itoa(n))
			}
			s.record(s.table, line)
			s.skipLine()
			continue
		}
		if !s.keyValue(s.table) {
			return
		}
		s.skipLine()
	}
}

// index inserts the current element index after every prefix of key that
// names an array of tables, so that [bots.time] after the third [[bots]]
// becomes bots.2.time.
func (s *keyScanner) index(key []string) []string {
	var out []string
	for i, k := range key {
		out = append(out, k)
		if n, ok := s.arrays[strings.Join(key[:i+1], ".")]; ok && n > 0 {
			out = append(out, strconv.Itoa(n-1))
		}
	}
	return out
}

func (s *keyScanner) record(path []string, line int) {
	p := strings.Join(path, ".")
	if _, ok := s.out[p]; !ok {
		s.out[p] = line
	}
}

// keyValue scans `key = value` under prefix and records the key (and, for
// inline tables, the keys inside).
func (s *keyScanner) keyValue(prefix []string) bool {
	line := s.line
	key, ok := s.key()
	if !ok {
		return false
	}
	path := append(append([]string(nil), prefix...), key...)
	s.record(path, line)
	s.skipSpace(false)
	if s.peek() != '=' {
		return false
	}
	s.pos++
	s.skipSpace(false)
	return s.value(path)
}

// key scans a possibly dotted, possibly quoted key.
func (s *keyScanner) key() ([]string, bool) {
	var parts []string
	for {
		s.skipSpace(false)
		switch c := s.peek(); {
		case c == '"' || c == '\'':
			str, ok := s.str()
			if !ok {
				return nil, false
			}
			parts = append(parts, str)
		case isBareKeyChar(c):
			start := s.pos
			for !s.eof() && isBareKeyChar(s.peek()) {
				s.pos++
			}
			parts = append(parts, s.src[start:s.pos])
		default:
			return nil, false
		}
		s.skipSpace(false)
		if s.peek() != '.' {
			return parts, true
		}
		s.pos++
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// str scans a basic or literal string, single- or multi-line, and returns
// its raw contents (escapes are kept as written; keys rarely need them).
func (s *keyScanner) str() (string, bool) {
	q := s.peek()
	delim := string(q)
	if s.hasPrefix(strings.Repeat(delim, 3)) {
		delim = strings.Repeat(delim, 3)
	}
	s.pos += len(delim)
	start := s.pos
	for !s.eof() {
		if q == '"' && s.peek() == '\\' {
			s.advance()
			if !s.eof() {
				s.advance()
			}
			continue
		}
		if s.hasPrefix(delim) {
			end := s.pos
			s.pos += len(delim)
			// A multi-line string may end with up to two extra quotes.
			for len(delim) == 3 && s.peek() == q {
				s.pos++
				end++
			}
			return s.src[start:end], true
		}
		if len(delim) == 1 && s.peek() == '\n' {
			return "", false
		}
		s.advance()
	}
	return "", false
}

// list skips an array or an inline table from its opening bracket to the
// closing one, reading each item with item.
func (s *keyScanner) list(closing byte, item func() bool) bool {
	s.pos++
	for {
		s.skipSpace(true)
		switch s.peek() {
		case 0:
			return false
		case closing:
			s.pos++
			return true
		case ',':
			s.pos++
			continue
		}
		if !item() {
			return false
		}
	}
}

// value skips one value, descending into arrays and inline tables.
func (s *keyScanner) value(path []string) bool {
	switch s.peek() {
	case '"', '\'':
		_, ok := s.str()
		return ok
	case '[':
		return s.list(']', func() bool { return s.value(path) })
	case '{':
		return s.list('}', func() bool { return s.keyValue(path) })
	}
	// A bare value: number, boolean or date-time.
	start := s.pos
	for !s.eof() {
		c := s.peek()
		if c == ',' || c == ']' || c == '}' || c == '\n' || c == '#' {
			break
		}
		s.pos++
	}
	return s.pos > start
}
