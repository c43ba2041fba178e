package config

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Override sets one configuration key from the command line, on top of a
// configuration file (arena run --set) or of the keys other flags set
// (arena match).
//
// Key is the key's dotted TOML path: "seed", "time.move",
// "format.rounds", "game.rules.touch". A bot's keys are addressed by the
// bot's name: "bots.NAME.args", "bots.NAME.time.move". A key without a dot
// that is not a top-level key is a rule switch: "touch" stands for
// "game.rules.touch", as in arena perft --set.
//
// Value is written as in TOML, except that a string needs no quotes where
// the key takes a string or a time ("200ms", "any"); text that is not a
// TOML value is taken as a string.
//
// Source is how the user gave the key ("--set time.move=200ms",
// "--rounds 0"); errors about the key name it instead of a line.
//
// Unset removes the key instead (Value is not used): a flag that replaces
// a whole group of keys, as a clock replaces a time per move, unsets the
// others of the group.
type Override struct {
	Key    string
	Value  string
	Source string
	Unset  bool
}

// ParseOverride parses "KEY=VALUE" as given to flag ("--set"). The
// Override's Source is "flag KEY=VALUE".
func ParseOverride(flag, s string) (Override, error) {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return Override{}, fmt.Errorf("%q is not of the form KEY=VALUE", s)
	}
	if _, err := splitKey(k); err != nil {
		return Override{}, err
	}
	return Override{Key: k, Value: strings.TrimSpace(v), Source: flag + " " + s}, nil
}

// splitKey splits a dotted key into its parts.
func splitKey(key string) ([]string, error) {
	parts := strings.Split(key, ".")
	for _, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t=\"'") {
			return nil, fmt.Errorf("%q is not a configuration key (want e.g. time.move or bots.NAME.args)", key)
		}
	}
	return parts, nil
}

// Document is a configuration as TOML keys and values, before it is
// decoded and validated: read from a file, built from command-line flags,
// or both. Keys set with Set remember where they came from, so that
// errors name the flag; keys from the file keep their lines.
type Document struct {
	root  map[string]any
	keys  keyLines
	rules []string // the keys of game.rules in the order given
	// text is the file as read, as long as no key has been set; it is
	// decoded as it is, so that errors keep the file's lines exactly.
	text []byte
}

// NewDocument returns an empty document.
func NewDocument() *Document {
	return &Document{root: map[string]any{}, keys: keyLines{lines: map[string]int{}}}
}

// ReadDocument reads a configuration file's text. A TOML syntax error is
// reported with its line, name being the file's name.
func ReadDocument(data []byte, name string) (*Document, error) {
	d := &Document{root: map[string]any{}, keys: scanKeyLines(string(data)), text: data}
	md, err := toml.Decode(string(data), &d.root)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%w: %w", ErrInvalid, syntaxError(pe, data, name))
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalid, name, err)
	}
	d.rules = ruleKeys(md)
	if bots, ok := d.root["bots"].([]any); ok {
		// bots = [{...}, ...]: keep the tables as an array of tables.
		tables := make([]map[string]any, 0, len(bots))
		for _, b := range bots {
			t, ok := b.(map[string]any)
			if !ok {
				return d, nil // not tables: the decoder reports it
			}
			tables = append(tables, t)
		}
		d.root["bots"] = tables
	}
	return d, nil
}

// ruleKeys returns the rule switches a document sets, in order.
func ruleKeys(md toml.MetaData) []string {
	var out []string
	for _, k := range md.Keys() {
		if len(k) == 3 && k[0] == "game" && k[1] == "rules" {
			out = append(out, k[2])
		}
	}
	return out
}

// Set sets a key (see Override). It fails when the key cannot be placed:
// no bot has the name, or a key on the way holds a value, not a table.
// Whether the key exists and its value is valid is for Config to say.
func (d *Document) Set(o Override) error {
	path, err := d.keyPath(o.Key, o.Source)
	if err != nil {
		return err
	}
	if o.Unset {
		d.unset(path)
		return nil
	}
	return d.set(path, valueFor(typeAt(path), o.Value), o.Source)
}

// unset removes the key at path, if the document has it. Keys of bots are
// not removed this way.
func (d *Document) unset(path []string) {
	table := d.root
	for _, k := range path[:len(path)-1] {
		t, ok := table[k].(map[string]any)
		if !ok {
			return
		}
		table = t
	}
	if _, ok := table[path[len(path)-1]]; ok {
		delete(table, path[len(path)-1])
		d.text = nil
	}
}

// SetValue sets a key (as Set does) to a value of a TOML type: a string,
// bool, int64, float64, []string, []any or map[string]any.
func (d *Document) SetValue(key string, value any, source string) error {
	path, err := d.keyPath(key, source)
	if err != nil {
		return err
	}
	return d.set(path, value, source)
}

// keyPath splits a key, expanding a bare rule switch to game.rules.KEY.
func (d *Document) keyPath(key, source string) ([]string, error) {
	path, err := splitKey(key)
	if err != nil {
		return nil, flagError(source, "%v", err)
	}
	if len(path) == 1 && !isConfigKey(path[0]) {
		path = []string{"game", "rules", path[0]}
	}
	return path, nil
}

func flagError(source, format string, args ...any) error {
	return fmt.Errorf("%w: %w", ErrInvalid, &Error{Flag: source, Err: fmt.Errorf(format, args...)})
}

func (d *Document) set(path []string, value any, source string) error {
	table, at := d.root, path
	indexed := path
	if path[0] == "bots" {
		if len(path) < 3 {
			return flagError(source, "name a bot and its key: bots.NAME.KEY")
		}
		bots, _ := d.root["bots"].([]map[string]any)
		i := slices.IndexFunc(bots, func(b map[string]any) bool { return b["name"] == path[1] })
		if i < 0 {
			return flagError(source, "no bot is named %q", path[1])
		}
		table, at = bots[i], path[2:]
		indexed = append([]string{"bots", strconv.Itoa(i)}, at...)
	}
	for i, k := range at[:len(at)-1] {
		next, ok := table[k]
		if t := typeAt(path[:len(path)-len(at)+i+1]); t != nil && t.Kind() != reflect.Struct && t.Kind() != reflect.Map {
			return flagError(source, "%s is not a table", strings.Join(at[:i+1], "."))
		}
		if !ok {
			next = map[string]any{}
			table[k] = next
		}
		t, ok := next.(map[string]any)
		if !ok {
			return flagError(source, "%s is not a table", strings.Join(at[:i+1], "."))
		}
		table = t
	}
	if p, ok := value.(string); ok && isPathKey(path, p) && !filepath.IsAbs(p) {
		// A path on the command line is relative to the working
		// directory, not to the configuration file.
		abs, err := filepath.Abs(p)
		if err != nil {
			return flagError(source, "%v", err)
		}
		value = abs
	}
	table[at[len(at)-1]] = value
	d.keys.setSource(indexed, source)
	if len(path) == 3 && path[0] == "game" && path[1] == "rules" && !slices.Contains(d.rules, path[2]) {
		d.rules = append(d.rules, path[2])
	}
	d.text = nil
	return nil
}

// isPathKey reports whether the key at path holds a file or directory
// path that Load resolves against the configuration's directory: an
// opening file, a bot's directory, or a bot's command when it is a path
// rather than a name looked up in PATH.
func isPathKey(path []string, value string) bool {
	switch {
	case slices.Equal(path, []string{"openings", "file"}):
		return true
	case len(path) == 3 && path[0] == "bots" && path[2] == "dir":
		return true
	case len(path) == 3 && path[0] == "bots" && path[2] == "command":
		return strings.ContainsRune(value, '/') || strings.ContainsRune(value, filepath.Separator)
	}
	return false
}

// AddBot adds a bot table holding only its name; Set fills in its other
// keys as bots.NAME.KEY. Errors about the bot name source.
func (d *Document) AddBot(name, source string) {
	bots, _ := d.root["bots"].([]map[string]any)
	i := len(bots)
	d.root["bots"] = append(bots, map[string]any{"name": name})
	d.keys.setSource([]string{"bots", strconv.Itoa(i)}, source)
	d.keys.setSource([]string{"bots", strconv.Itoa(i), "name"}, source)
	d.text = nil
}

// KeepBots removes the bot tables whose name is not one of names.
func (d *Document) KeepBots(names []string) {
	bots, _ := d.root["bots"].([]map[string]any)
	kept := slices.DeleteFunc(slices.Clone(bots), func(b map[string]any) bool {
		name, _ := b["name"].(string)
		return !slices.Contains(names, name)
	})
	if len(kept) != len(bots) {
		d.root["bots"] = kept
		d.keys = keyLines{lines: map[string]int{}}
		d.text = nil
	}
}

// Describe names the flag that stands for a key in errors about it, when
// no flag set it: "--bot" for "bots" ("needs at least two bots").
func (d *Document) Describe(key, source string) {
	path, err := splitKey(key)
	if err == nil && d.keys.source(path) == "" {
		d.keys.setSource(path, source)
	}
}

// Encode returns the document as TOML text: the top-level keys, then the
// tables in the order Config declares them ([game] first, [[bots]] last).
func (d *Document) Encode() ([]byte, error) {
	parts := []map[string]any{{}}
	rest := map[string]any{}
	for k, v := range d.root {
		switch v.(type) {
		case map[string]any, []map[string]any:
			rest[k] = v
		default:
			parts[0][k] = v
		}
	}
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		if v, ok := rest[tag]; ok {
			parts = append(parts, map[string]any{tag: v})
			delete(rest, tag)
		}
	}
	parts = append(parts, rest) // keys Config does not know: the decoder reports them
	var b bytes.Buffer
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		enc := toml.NewEncoder(&b)
		enc.Indent = ""
		if err := enc.Encode(p); err != nil {
			return nil, fmt.Errorf("encode configuration: %w", err)
		}
	}
	return b.Bytes(), nil
}

// Config decodes and validates the document, as Parse does. name is the
// file name errors cite ("" when the keys came from flags only); dir is
// the directory relative paths are resolved against.
func (d *Document) Config(name, dir string) (*Config, error) {
	if d.text != nil {
		return parse(d.text, name, dir, d.keys, nil, true)
	}
	text, err := d.Encode()
	if err != nil {
		return nil, err
	}
	return parse(text, name, dir, d.keys, d.rules, false)
}

// isConfigKey reports whether name is a top-level configuration key.
func isConfigKey(name string) bool {
	_, ok := fieldByTag(reflect.TypeFor[Config](), name)
	return ok
}

// fieldByTag finds the field of struct type t decoded from TOML key name.
func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("toml"), ","); tag == name && tag != "-" {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// typeAt returns the Go type a key decodes into, or nil for keys that do
// not exist (the decoder reports those). In bots.NAME.KEY the name selects
// an element of the array.
func typeAt(path []string) reflect.Type {
	t := reflect.TypeFor[Config]()
	for _, k := range path {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case t.Kind() == reflect.Struct:
			f, ok := fieldByTag(t, k)
			if !ok {
				return nil
			}
			t = f.Type
		case t.Kind() == reflect.Map:
			t = t.Elem()
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
			t = t.Elem() // k names the element
		default:
			return nil
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

var (
	durationType  = reflect.TypeFor[time.Duration]()
	unmarshalType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// valueFor turns the text of a value into what the document holds: for a
// key of type t that takes text (strings, times), the text itself, or the
// string it quotes; otherwise the TOML value it is, or, if it is none, the
// text as a string (the decoder then reports the wrong type).
func valueFor(t reflect.Type, raw string) any {
	v, isValue := tomlValue(raw)
	if t != nil && (t.Kind() == reflect.String || t == durationType || reflect.PointerTo(t).Implements(unmarshalType)) {
		if s, ok := v.(string); ok && isValue {
			return s
		}
		return raw
	}
	if isValue {
		return v
	}
	return raw
}

// tomlValue decodes text as one TOML value.
func tomlValue(text string) (any, bool) {
	var m map[string]any
	if _, err := toml.Decode("v = "+text, &m); err != nil || len(m) != 1 {
		return nil, false
	}
	v, ok := m["v"]
	return v, ok
}
