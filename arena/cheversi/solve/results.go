package solve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// A results file records solved positions, one line each, so that a long
// solve survives being stopped at any moment (kill -9 included) and can be
// split over several machines whose files are then read together. It is
// plain text:
//
//	# arena solve results 1
//	# rules opening=king-first touch=opponent bishops_opposite=true queen_call=true black_king_last=true scoring=attacks
//	<key> <position> <value> <move> <positions> <seconds>
//
// key is the canonical hash of the position in 16 hex digits, position its
// text (any of its symmetric images), value "win", "draw" or "loss" for the
// side to move, move a move achieving it in that text's orientation ("-"
// when none is recorded), positions the number of positions the search
// visited and seconds its CPU time. A line is written whole, with one
// write, and synced to stable storage before the position counts as solved;
// a last line cut short by a crash is ignored when the file is read again.
const resultsMagic = "# arena solve results 1"

// Entry is one solved position.
type Entry struct {
	Key       uint64            // canonical hash
	Position  cheversi.Position // as solved (any orientation)
	Value     Value             // for the side to move
	Move      cheversi.Move     // a move achieving Value in Position, or 0
	Positions uint64            // positions searched to solve it (0: derived from other entries)
	Seconds   float64           // time taken
	// Shared marks an entry read from the results of another rule set
	// that gives the position the same value (see SharedFrom): solved
	// there, not by this solve.
	Shared bool
}

// SharedFrom returns the ply from which every position has the same value
// under rule sets a and b, and false when no such ply is known: 0 for the
// same rules, 2 for rules that differ only in their opening constraint
// (which bears on White's first move and Black's, nothing after), so that
// a solve of one can use the units of the other.
func SharedFrom(a, b *cheversi.Rules) (int, bool) { return sharedFrom(a.Options(), b.Options()) }

func sharedFrom(oa, ob cheversi.Options) (int, bool) {
	if oa == ob {
		return 0, true
	}
	oa.Opening = ob.Opening
	if oa == ob {
		return 2, true
	}
	return 0, false
}

// rulesLine returns the header line naming the rule set of opts.
func rulesLine(rules *cheversi.Rules) string {
	var sb strings.Builder
	sb.WriteString("# rules")
	for _, s := range rules.Settings() {
		sb.WriteString(" " + s.Key + "=" + s.Value)
	}
	return sb.String()
}

// Results is the set of solved positions of one rule set, read from and
// appended to a results file. It is safe for concurrent use.
type Results struct {
	rules *cheversi.Rules
	path  string

	mu      sync.Mutex
	f       *os.File // nil for a read-only set
	entries map[uint64]Entry
}

// ErrRulesMismatch is returned when a results file was written for another
// rule set.
var ErrRulesMismatch = errors.New("results are for another rule set")

// ErrDisagree is returned when two results files, or two lines of one,
// give a position different values: one of them is wrong.
var ErrDisagree = errors.New("results disagree")

// ErrResultsLocked is returned by OpenResults when another process has the
// results file open for appending.
var ErrResultsLocked = errors.New("results file is in use by another solve")

// OpenResults reads the results file at path (creating it when it does not
// exist) and opens it for appending, holding a lock on it so that no other
// solve appends to it at the same time.
func OpenResults(path string, rules *cheversi.Rules) (*Results, error) {
	r := &Results{rules: rules, path: path, entries: map[uint64]Entry{}}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", path, ErrResultsLocked)
		}
		return nil, fmt.Errorf("%s: lock: %w", path, err)
	}
	if err := r.read(f, path, true); err != nil {
		f.Close()
		return nil, err
	}
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return nil, err
	}
	if end == 0 {
		if _, err := fmt.Fprintf(f, "%s\n%s\n", resultsMagic, rulesLine(rules)); err != nil {
			f.Close()
			return nil, err
		}
	}
	r.f = f
	return r, nil
}

// ReadResults reads results files without opening any for writing: files
// of rules, and files of rule sets that give positions the same values
// from some ply on (see Merge).
func ReadResults(rules *cheversi.Rules, paths ...string) (*Results, error) {
	r := &Results{rules: rules, entries: map[uint64]Entry{}}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		err = r.read(f, p, false)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

// read adds the entries of f, leaving f's offset at the end of its last
// complete line (a partial last line is truncated away when f is writable).
func (r *Results) read(f *os.File, name string, writable bool) error {
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	complete := bytes.LastIndexByte(data, '\n') + 1
	if complete < len(data) {
		// A crash cut the last line short: forget it.
		if writable {
			if err := f.Truncate(int64(complete)); err != nil {
				return err
			}
		}
		data = data[:complete]
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var from *sharing // the file is another rule set's
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case n == 1:
			if line != resultsMagic {
				return fmt.Errorf("%s:1: not a results file (want %q)", name, resultsMagic)
			}
			continue
		case n == 2:
			var err error
			if from, err = r.header(line, writable); err != nil {
				return fmt.Errorf("%s:2: %w", name, err)
			}
			continue
		case line == "" || line[0] == '#':
			continue
		}
		e, keep, err := r.parseFrom(line, from)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if !keep {
			continue
		}
		old, ok := r.entries[e.Key]
		if ok && old.Value != e.Value {
			return fmt.Errorf("%s:%d: %w: %s is a %s here, a %s in an entry read before", name, n, ErrDisagree, e.Position.Text(), e.Value, old.Value)
		}
		if !ok || !e.Shared {
			r.entries[e.Key] = e
		}
	}
	return sc.Err()
}

// sharing is a results file of another rule set whose values r takes from
// ply on.
type sharing struct {
	rules *cheversi.Rules
	ply   int
}

// header checks a results file's rules line: r's own (nil), or, for a file
// only read, another rule set's that gives positions the same values from
// some ply on (see SharedFrom).
func (r *Results) header(line string, writable bool) (*sharing, error) {
	if line == rulesLine(r.rules) {
		return nil, nil
	}
	if theirs, err := parseRulesLine(line); err == nil && !writable {
		if ply, ok := SharedFrom(theirs, r.rules); ok {
			return &sharing{rules: theirs, ply: ply}, nil
		}
	}
	return nil, fmt.Errorf("%w: %s (give the solve the same --rules and --set)", ErrRulesMismatch, rulesDiff(line, r.rules))
}

// parseFrom decodes an entry line of r's own file (from nil) or of another
// rule set's, which keep says whether to take: a position from the ply
// on which the two rule sets agree, legal under r's rules.
func (r *Results) parseFrom(line string, from *sharing) (e Entry, keep bool, err error) {
	if from == nil {
		e, err = r.parse(line)
		return e, err == nil, err
	}
	// Read as r's own line; only a line that fails so is read again under
	// its own rules, to tell a position r's game never reaches (left out)
	// from a bad line.
	if e, err = r.parse(line); err != nil {
		if _, err := ParseEntry(from.rules, line); err != nil {
			return Entry{}, false, err
		}
		return Entry{}, false, nil
	}
	e.Shared = true
	return e, e.Position.Ply() >= from.ply, nil
}

// parseRulesLine returns the rule set a results file's rules line names.
func parseRulesLine(line string) (*cheversi.Rules, error) {
	rest, ok := strings.CutPrefix(line, "# rules ")
	if !ok {
		return nil, fmt.Errorf("not a rules line: %q", line)
	}
	return rulesFromLine(rest)
}

// ReadRules returns the rule set the results file at path was written
// for, as its header names it.
func ReadRules(path string) (*cheversi.Rules, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() || sc.Text() != resultsMagic {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return nil, fmt.Errorf("%s:1: not a results file (want %q)", path, resultsMagic)
	}
	if !sc.Scan() {
		return nil, fmt.Errorf("%s:2: no rules line", path)
	}
	rules, err := parseRulesLine(sc.Text())
	if err != nil {
		return nil, fmt.Errorf("%s:2: %w", path, err)
	}
	return rules, nil
}

// rulesDiff says how the rule set a rules line names differs from want:
// the switches whose values differ ("komi -1 there, 0 here"), or the line
// whole when it names none or the difference is in its form.
func rulesDiff(line string, want *cheversi.Rules) string {
	got, err := parseRulesLine(line)
	if err != nil {
		return fmt.Sprintf("%q there", strings.TrimPrefix(line, "# "))
	}
	there := map[string]string{}
	for _, s := range switchValues(got) {
		there[s.Key] = s.Value
	}
	var diffs []string
	for _, s := range switchValues(want) {
		if there[s.Key] != s.Value {
			diffs = append(diffs, fmt.Sprintf("%s %s there, %s here", s.Key, there[s.Key], s.Value))
		}
	}
	if len(diffs) == 0 {
		return fmt.Sprintf("%q there", strings.TrimPrefix(line, "# "))
	}
	return strings.Join(diffs, "; ")
}

// switchValues returns every switch of r with its value, the komi
// included where it is 0 (which Settings leaves out).
func switchValues(r *cheversi.Rules) []game.Setting {
	s := r.Settings()
	if r.Options().Komi == 0 {
		s = append(s, game.Setting{Key: "komi", Value: cheversi.FormatKomi(0)})
	}
	return s
}

// parse decodes one entry line.
func (r *Results) parse(line string) (Entry, error) { return ParseEntry(r.rules, line) }

// ParseEntry decodes a line of a results file (without its newline) under
// rules: the key must be the position's, and the move legal in it.
func ParseEntry(rules *cheversi.Rules, line string) (Entry, error) {
	f := strings.Fields(line)
	if len(f) != 9 {
		return Entry{}, fmt.Errorf("want 9 fields, got %d", len(f))
	}
	var e Entry
	var err error
	if e.Key, err = strconv.ParseUint(f[0], 16, 64); err != nil {
		return Entry{}, fmt.Errorf("bad key %q", f[0])
	}
	text := strings.Join(f[1:5], " ")
	if e.Position, err = rules.ParsePosition(text); err != nil {
		return Entry{}, err
	}
	if k := CanonicalKey(&e.Position); k != e.Key {
		return Entry{}, fmt.Errorf("key %016x does not match position %q (%016x)", e.Key, text, k)
	}
	switch f[5] {
	case "win":
		e.Value = Win
	case "draw":
		e.Value = Draw
	case "loss":
		e.Value = Loss
	default:
		return Entry{}, fmt.Errorf("bad value %q (want win, draw or loss)", f[5])
	}
	if f[6] != "-" {
		if e.Move, err = e.Position.ParseMove(f[6]); err != nil {
			return Entry{}, err
		}
	}
	if e.Positions, err = strconv.ParseUint(f[7], 10, 64); err != nil {
		return Entry{}, fmt.Errorf("bad position count %q", f[7])
	}
	if e.Seconds, err = strconv.ParseFloat(f[8], 64); err != nil || e.Seconds < 0 {
		return Entry{}, fmt.Errorf("bad time %q", f[8])
	}
	return e, nil
}

// format writes e as a line.
func (e Entry) format() string { return e.Line() + "\n" }

// Line returns e as a line of a results file, without its newline.
func (e Entry) Line() string {
	mv := "-"
	if e.Move != 0 {
		mv = e.Move.String()
	}
	return fmt.Sprintf("%016x %s %s %s %d %.3f", e.Key, e.Position.Text(), e.Value, mv, e.Positions, e.Seconds)
}

// Get returns the entry of p (under any symmetry).
func (r *Results) Get(p *cheversi.Position) (Entry, bool) {
	return r.GetKey(CanonicalKey(p))
}

// GetKey returns the entry with canonical hash key.
func (r *Results) GetKey(key uint64) (Entry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.entries[key]
	return e, ok
}

// Len returns the number of entries.
func (r *Results) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.entries)
}

// Entries returns every entry, in no particular order.
func (r *Results) Entries() []Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Entry, 0, len(r.entries))
	for _, e := range r.entries {
		out = append(out, e)
	}
	return out
}

// Add records e: in memory, and when the set was opened for writing, as a
// line of its file synced to stable storage before Add returns. An entry
// already present is kept, and e is not written again.
func (r *Results) Add(e Entry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.entries[e.Key]; ok {
		return nil
	}
	if r.f != nil {
		if _, err := r.f.WriteString(e.format()); err != nil {
			return err
		}
		if err := r.f.Sync(); err != nil {
			return err
		}
	}
	r.entries[e.Key] = e
	return nil
}

// Close closes the file.
func (r *Results) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}

// Merge reads the entries of another results file into r, in memory only:
// one of the same rule set, or of a rule set that gives positions the same
// values from some ply on (see SharedFrom), whose entries from that ply on
// are taken, marked Shared.
func (r *Results) Merge(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.read(f, path, false)
}
