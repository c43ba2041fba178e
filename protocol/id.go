package protocol

import (
	"fmt"
	"slices"
	"strconv"
)

// OptionType is the kind of value an option takes.
type OptionType string

// Option types.
const (
	OptionCheck  OptionType = "check"  // "true" or "false"
	OptionSpin   OptionType = "spin"   // an integer from Min to Max
	OptionCombo  OptionType = "combo"  // one of Vars
	OptionString OptionType = "string" // any text on one line, possibly empty
)

// Option is an option a bot accepts, declared during the handshake (bot to
// arena):
//
//	option name <name> type check default <true|false>
//	option name <name> type spin default <int> min <int> max <int>
//	option name <name> type combo default <value> var <value> [var <value>]...
//	option name <name> type string default [<text>]
//
// Names and combo values are single words; a string default is the rest of
// the line.
type Option struct {
	Name    string
	Type    OptionType
	Default string
	Min     int64    // spin only
	Max     int64    // spin only
	Vars    []string // combo only
}

// Check reports whether value is acceptable for the option. The error wraps
// ErrOptionValue.
func (o Option) Check(value string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("option %s: %w: %s", o.Name, ErrOptionValue, fmt.Sprintf(format, args...))
	}
	switch o.Type {
	case OptionCheck:
		if value != "true" && value != "false" {
			return bad("%q is not true or false", value)
		}
	case OptionSpin:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return bad("%q is not an integer", value)
		}
		if n < o.Min || n > o.Max {
			return bad("%d is outside %d..%d", n, o.Min, o.Max)
		}
	case OptionCombo:
		if !slices.Contains(o.Vars, value) {
			return bad("%q is not one of %q", value, o.Vars)
		}
	case OptionString:
		if err := checkText(cmdSetOption, "value", value, true); err != nil {
			return bad("%q cannot be sent on one line", value)
		}
	default:
		return bad("unknown option type %q", o.Type)
	}
	return nil
}

// AppendText appends the option's declaration line.
func (o Option) AppendText(b []byte) ([]byte, error) {
	if err := checkToken(cmdOption, "name", o.Name); err != nil {
		return b, err
	}
	def := o.Default
	switch o.Type {
	case OptionCheck, OptionSpin, OptionCombo:
		if o.Type == OptionSpin && o.Min > o.Max {
			return b, invalidErr(cmdOption, "option %s: min %d above max %d", o.Name, o.Min, o.Max)
		}
		if o.Type == OptionCombo {
			if len(o.Vars) == 0 {
				return b, invalidErr(cmdOption, "option %s: combo without values", o.Name)
			}
			if err := checkTokens(cmdOption, "combo value", o.Vars); err != nil {
				return b, err
			}
		}
		if err := o.Check(def); err != nil {
			return b, invalidErr(cmdOption, "option %s: default: %v", o.Name, err)
		}
	case OptionString:
		def = trim(def)
		if err := checkText(cmdOption, "default", def, true); err != nil {
			return b, err
		}
	default:
		return b, invalidErr(cmdOption, "option %s: unknown type %q", o.Name, o.Type)
	}
	b = appendWords(append(b, cmdOption...), "name", o.Name, "type", string(o.Type), "default")
	if def != "" {
		b = appendWords(b, def)
	}
	switch o.Type {
	case OptionSpin:
		b = strconv.AppendInt(append(b, " min "...), o.Min, 10)
		b = strconv.AppendInt(append(b, " max "...), o.Max, 10)
	case OptionCombo:
		for _, v := range o.Vars {
			b = appendWords(b, "var", v)
		}
	}
	return b, nil
}

// ID is what a bot says about itself during the handshake: everything
// between Hello and ArenaOK.
type ID struct {
	Name    string
	Author  string
	Options []Option
	// Games lists the games the bot plays.
	Games []string
	// LegalMoves is set when the bot asked for FeatureLegalMoves.
	LegalMoves bool
	// FEN is set when the bot asked for FeatureFEN.
	FEN bool
	// Nodes and Depth are set when the bot asked for FeatureNodes and
	// FeatureDepth: it obeys those search limits.
	Nodes, Depth bool
	// MovesToGo is set when the bot asked for FeatureMovesToGo.
	MovesToGo bool
	// GameInfo is set when the bot asked for FeatureGameInfo.
	GameInfo bool
}

// featureFlag ties a feature to its flag in an ID.
type featureFlag struct {
	name string
	on   *bool
}

// features returns each feature with its flag in id.
func (id *ID) features() [6]featureFlag {
	return [...]featureFlag{
		{FeatureLegalMoves, &id.LegalMoves},
		{FeatureFEN, &id.FEN},
		{FeatureNodes, &id.Nodes},
		{FeatureDepth, &id.Depth},
		{FeatureMovesToGo, &id.MovesToGo},
		{FeatureGameInfo, &id.GameInfo},
	}
}

// Requests returns the features the bot asked for, in the order of the
// Feature constants.
func (id ID) Requests() []string {
	var out []string
	for _, f := range id.features() {
		if *f.on {
			out = append(out, f.name)
		}
	}
	return out
}

// Messages returns the bot's handshake reply, ending with ArenaOK: IDName
// and IDAuthor (when set), the options, Games (when any), a Request for
// each feature asked for (Requests) and ArenaOK.
func (id ID) Messages() []Message {
	var ms []Message
	if id.Name != "" {
		ms = append(ms, IDName{Name: id.Name})
	}
	if id.Author != "" {
		ms = append(ms, IDAuthor{Author: id.Author})
	}
	for _, o := range id.Options {
		ms = append(ms, o)
	}
	if len(id.Games) > 0 {
		ms = append(ms, Games{Games: slices.Clone(id.Games)})
	}
	for _, f := range id.Requests() {
		ms = append(ms, Request{Feature: f})
	}
	return append(ms, ArenaOK{})
}

// Apply records one message of the bot's handshake reply. It returns done
// once m is ArenaOK. An option declared twice keeps the later declaration;
// a Request for an unknown feature and Info messages are ignored. Any other
// message is not part of the handshake: Apply leaves id unchanged and
// returns an error wrapping ErrUnexpected.
func (id *ID) Apply(m Message) (done bool, err error) {
	switch m := m.(type) {
	case IDName:
		id.Name = m.Name
	case IDAuthor:
		id.Author = m.Author
	case Option:
		if i := slices.IndexFunc(id.Options, func(o Option) bool { return o.Name == m.Name }); i >= 0 {
			id.Options[i] = m
		} else {
			id.Options = append(id.Options, m)
		}
	case Games:
		for _, g := range m.Games {
			if !slices.Contains(id.Games, g) {
				id.Games = append(id.Games, g)
			}
		}
	case Request:
		for _, f := range id.features() {
			if f.name == m.Feature {
				*f.on = true
			}
		}
	case Info:
	case ArenaOK:
		return true, nil
	default:
		return false, fmt.Errorf("protocol: %w during the handshake: %s", ErrUnexpected, m.Command())
	}
	return false, nil
}

// Option returns the option called name.
func (id ID) Option(name string) (Option, bool) {
	i := slices.IndexFunc(id.Options, func(o Option) bool { return o.Name == name })
	if i < 0 {
		return Option{}, false
	}
	return id.Options[i], true
}

// Plays reports whether the bot listed game among its games.
func (id ID) Plays(game string) bool { return slices.Contains(id.Games, game) }
