package protocol

import (
	"errors"
	"reflect"
	"testing"
)

func TestOptionCheck(t *testing.T) {
	spin := Option{Name: "Depth", Type: OptionSpin, Default: "4", Min: 1, Max: 10}
	check := Option{Name: "Ponder", Type: OptionCheck, Default: "false"}
	combo := Option{Name: "Style", Type: OptionCombo, Default: "a", Vars: []string{"a", "b"}}
	str := Option{Name: "Log", Type: OptionString}
	tests := []struct {
		o     Option
		value string
		ok    bool
	}{
		{spin, "1", true},
		{spin, "10", true},
		{spin, "0", false},
		{spin, "11", false},
		{spin, "4.0", false},
		{spin, "", false},
		{check, "true", true},
		{check, "false", true},
		{check, "TRUE", false},
		{check, "1", false},
		{combo, "b", true},
		{combo, "c", false},
		{combo, "", false},
		{str, "", true},
		{str, "any text at all", true},
		{str, "two\nlines", false},
		{Option{Name: "x", Type: "button"}, "", false},
	}
	for _, tt := range tests {
		err := tt.o.Check(tt.value)
		if tt.ok && err != nil {
			t.Errorf("%s.Check(%q) = %v, want nil", tt.o.Name, tt.value, err)
		}
		if !tt.ok && !errors.Is(err, ErrOptionValue) {
			t.Errorf("%s.Check(%q) = %v, want ErrOptionValue", tt.o.Name, tt.value, err)
		}
	}
}

func TestIDMessages(t *testing.T) {
	id := ID{
		Name:       "Greedy",
		Author:     "Arena",
		Options:    []Option{{Name: "Seed", Type: OptionSpin, Default: "0", Min: 0, Max: 100}},
		Games:      []string{"cheversi", "checkers"},
		LegalMoves: true,
		FEN:        true,
		Depth:      true,
		MovesToGo:  true,
	}
	var got []string
	for _, m := range id.Messages() {
		line, err := Format(m)
		if err != nil {
			t.Fatalf("Format(%#v): %v", m, err)
		}
		got = append(got, line)
	}
	want := []string{
		"id name Greedy",
		"id author Arena",
		"option name Seed type spin default 0 min 0 max 100",
		"games cheversi checkers",
		"request legalmoves",
		"request fen",
		"request depth",
		"request movestogo",
		"arenaok",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Messages() lines = %q, want %q", got, want)
	}
	if got := (ID{}).Messages(); !reflect.DeepEqual(got, []Message{ArenaOK{}}) {
		t.Errorf("empty ID Messages() = %v, want just arenaok", got)
	}
}

func TestIDApply(t *testing.T) {
	lines := []string{
		"id name First",
		"option name A type check default true",
		"info string warming up",
		"id name Second",
		"id author Someone",
		"option name B type string default x",
		"option name A type check default false",
		"games checkers",
		"games cheversi checkers",
		"request telepathy",
		"request legalmoves",
		"request nodes",
		"request fen",
	}
	var id ID
	for _, line := range lines {
		m, err := Parse(line)
		if err != nil {
			t.Fatalf("Parse(%q): %v", line, err)
		}
		done, err := id.Apply(m)
		if done || err != nil {
			t.Fatalf("Apply(%q) = %v, %v; want false, nil", line, done, err)
		}
	}
	if done, err := id.Apply(ArenaOK{}); !done || err != nil {
		t.Errorf("Apply(arenaok) = %v, %v; want true, nil", done, err)
	}
	want := ID{
		Name:   "Second",
		Author: "Someone",
		Options: []Option{
			{Name: "A", Type: OptionCheck, Default: "false"},
			{Name: "B", Type: OptionString, Default: "x"},
		},
		Games:      []string{"checkers", "cheversi"},
		LegalMoves: true,
		FEN:        true,
		Nodes:      true,
	}
	if !reflect.DeepEqual(id, want) {
		t.Errorf("after Apply: %+v, want %+v", id, want)
	}
	before := id
	before.Options = append([]Option(nil), id.Options...)
	for _, m := range []Message{Move{Move: "K@e4"}, ReadyOK{}, Hello{Version: 1}, Ping{Token: "1"}} {
		done, err := id.Apply(m)
		if done || !errors.Is(err, ErrUnexpected) {
			t.Errorf("Apply(%v) = %v, %v; want false, ErrUnexpected", m, done, err)
		}
	}
	if !reflect.DeepEqual(id, before) {
		t.Errorf("Apply of unexpected messages changed the ID to %+v", id)
	}
	if o, ok := id.Option("B"); !ok || o.Default != "x" {
		t.Errorf("Option(B) = %+v, %v", o, ok)
	}
	if _, ok := id.Option("C"); ok {
		t.Errorf("Option(C) found an undeclared option")
	}
	if !id.Plays("cheversi") || id.Plays("chess") {
		t.Errorf("Plays: cheversi %v, chess %v; want true, false", id.Plays("cheversi"), id.Plays("chess"))
	}
}
