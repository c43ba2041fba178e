package config

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/arena-games/arena/arena/suggest"
)

// typeErrors checks the values of a document, decoded without a schema,
// against the types of Config's keys, as the TOML decoder does, but
// reports every value of the wrong type, and every unknown key, instead of
// the decoder's first error. raw holds the document's tables; the paths
// of array elements carry their index (bots.1.time.move).
func (c *Config) typeErrors(raw map[string]any) []error {
	var errs []error
	var walk func(path []string, v any, t reflect.Type)
	walk = func(path []string, v any, t reflect.Type) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if want := wantType(v, t); want != "" {
			errs = append(errs, c.KeyError(path, fmt.Errorf("wrong type: want %s, got %s", want, tomlTypeName(v))))
			return
		}
		switch t.Kind() {
		case reflect.Struct:
			if t == durationType || reflect.PointerTo(t).Implements(unmarshalType) {
				return
			}
			m, _ := v.(map[string]any)
			for _, k := range slices.Sorted(mapKeys(m)) {
				p := append(slices.Clone(path), k)
				f, ok := fieldByTag(t, k)
				if !ok {
					errs = append(errs, c.KeyError(p, fmt.Errorf("unknown key%s", keyHint(p))))
					continue
				}
				walk(p, m[k], f.Type)
			}
		case reflect.Map:
			m, _ := v.(map[string]any)
			for _, k := range slices.Sorted(mapKeys(m)) {
				walk(append(slices.Clone(path), k), m[k], t.Elem())
			}
		case reflect.Slice:
			for i, e := range sliceValues(v) {
				walk(append(slices.Clone(path), strconv.Itoa(i)), e, t.Elem())
			}
		}
	}
	walk(nil, raw, reflect.TypeFor[Config]())
	// In the file's order, as a reader goes through it.
	slices.SortStableFunc(errs, func(a, b error) int { return lineOf(a) - lineOf(b) })
	return errs
}

// lineOf returns the line of a configuration error, 0 when it has none.
func lineOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Line
	}
	return 0
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// sliceValues returns the elements of an array value: an array of values
// or of tables.
func sliceValues(v any) []any {
	switch v := v.(type) {
	case []any:
		return v
	case []map[string]any:
		out := make([]any, len(v))
		for i, t := range v {
			out[i] = t
		}
		return out
	}
	return nil
}

// wantType returns what a key of type t takes, in words ("an integer"),
// when the value v does not fit it; "" when it does. It accepts what the
// TOML decoder accepts (an integer for a time, which checkDurations then
// refuses with its own message).
func wantType(v any, t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Interface:
		return ""
	case t == durationType:
		if isAny[string](v) || isAny[int64](v) {
			return ""
		}
		return `a duration such as "2s"`
	case reflect.PointerTo(t).Implements(unmarshalType):
		if isAny[string](v) || isAny[int64](v) && t.Kind() == reflect.Int64 {
			return ""
		}
		return "text"
	}
	return wantKind(v, t.Kind())
}

// wantKind is wantType for the types decoded by their kind alone.
func wantKind(v any, kind reflect.Kind) string {
	switch kind {
	case reflect.String:
		if isAny[string](v) {
			return ""
		}
		return "a string"
	case reflect.Bool:
		if isAny[bool](v) {
			return ""
		}
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if isAny[int64](v) {
			return ""
		}
		return "an integer"
	case reflect.Float32, reflect.Float64:
		if isAny[float64](v) || isAny[int64](v) {
			return ""
		}
		return "a number"
	case reflect.Slice:
		if sliceValues(v) != nil || isAny[[]any](v) {
			return ""
		}
		return "an array"
	case reflect.Struct, reflect.Map:
		if isAny[map[string]any](v) {
			return ""
		}
		return "a table"
	}
	return ""
}

func isAny[T any](v any) bool {
	_, ok := v.(T)
	return ok
}

// tomlTypeName names the TOML type of a decoded value: "a string".
func tomlTypeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// keyHint returns " (did you mean KEY?)" for an unknown key at path
// (indexed): the known key of the same table nearest to it, or else a key
// of that name, or nearly, elsewhere in the configuration (rounds at the
// top level is format.rounds). It returns "" when none is near.
func keyHint(path []string) string {
	parent, name := path[:len(path)-1], path[len(path)-1]
	if t := tableType(parent); t != nil {
		if c := suggest.Closest(name, structKeys(t)); c != "" {
			return " (did you mean " + displayKey(append(slices.Clone(parent), c)) + "?)"
		}
	}
	var all []string
	var leaves func(prefix string, t reflect.Type, depth int)
	leaves = func(prefix string, t reflect.Type, depth int) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == durationType || depth > 3 {
			return
		}
		for i := range t.NumField() {
			tag, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			all = append(all, prefix+tag)
			leaves(prefix+tag+".", t.Field(i).Type, depth+1)
		}
	}
	leaves("", reflect.TypeFor[Config](), 0)
	var names []string
	for _, k := range all {
		names = append(names, k[strings.LastIndexByte(k, '.')+1:])
	}
	if c := suggest.Closest(name, names); c != "" {
		var where []string
		for _, k := range all {
			if strings.HasSuffix(k, "."+c) || k == c {
				where = append(where, k)
			}
		}
		return " (did you mean " + strings.Join(where, " or ") + "?)"
	}
	return ""
}

// structKeys returns the TOML keys of a struct type.
func structKeys(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ","); tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}

// tableType returns the struct type of the table at path, with or
// without array indices (bots.1.time, bots.time), nil when path names no
// table of structured keys.
func tableType(path []string) reflect.Type {
	t := reflect.TypeFor[Config]()
	for _, k := range path {
		if isNumber(k) {
			continue
		}
		f, ok := fieldByTag(t, k)
		if !ok {
			return nil
		}
		t = f.Type
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil
		}
	}
	return t
}

// syntaxError turns the TOML parser's error into a configuration error on
// the line where the problem is: the parser reports an error at the end
// of a line (a table name left open, "[game") on the line after it.
func syntaxError(pe toml.ParseError, data []byte, name string) *Error {
	line := pe.Position.Line
	if s := pe.Position.Start; s >= 0 && s < len(data) {
		line = 1 + bytes.Count(data[:s], []byte("\n"))
	}
	msg := strings.ReplaceAll(pe.Message, `'\n'`, "the end of the line")
	return &Error{Path: name, Line: line, Key: pe.LastKey, Err: errors.New(msg)}
}

// BotKeys returns the keys of a [[bots]] table, in the order of BotConfig.
func BotKeys() []string { return structKeys(reflect.TypeFor[BotConfig]()) }
