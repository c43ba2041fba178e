package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/arena/game"
)

// switchesOf returns the switches in which rules differ from cheversi's,
// as key=value.
func switchesOf(t *testing.T, rules *cheversi.Rules) (sets []string) {
	t.Helper()
	base, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, s := range base.Settings() {
		want[s.Key] = s.Value
	}
	for _, s := range rules.Settings() {
		if want[s.Key] != s.Value {
			sets = append(sets, s.Key+"="+s.Value)
		}
	}
	return sets
}

// switchesTable is the doc's table of the solves of rule sets other than
// cheversi and its komi steps (a switch's komi steps included, after the
// switch), in the order of their switches: the value from the empty board, or what is
// known of it, what is known of White's first moves, and the cost.
func switchesTable(t *testing.T, solves []committedSolve) string {
	t.Helper()
	var rows []string
	solves = slices.Clone(solves)
	slices.SortStableFunc(solves, func(a, b committedSolve) int {
		return strings.Compare(strings.Join(a.sets, " "), strings.Join(b.sets, " "))
	})
	for _, cs := range solves {
		if !slices.ContainsFunc(cs.sets, func(s string) bool { return !strings.HasPrefix(s, "komi=") }) {
			continue // cheversi's, or a step of its margin
		}
		rows = append(rows, switchRow(t, cs))
	}
	if len(rows) == 0 {
		return "No other rule set has committed units yet.\n"
	}
	var b strings.Builder
	fmt.Fprintln(&b, "| rules | value from the empty board | White's first moves: lose / draw / win / at most a draw / at least a draw / not known | proof | units | positions | CPU |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintln(&b, r)
	}
	return b.String()
}

// switchRow is the row of the solve cs.
func switchRow(t *testing.T, cs committedSolve) string {
	t.Helper()
	rules, res, sets := cs.rules, cs.res, cs.sets
	_, all := classSums(cs.units)
	start := rules.StartPosition()
	st := solve.StatusOf(res, &start, 6)
	value := boundsText(st.Lo, st.Hi, game.White)
	if st.Known {
		value = verdict(&start, st.Value)
	}
	lo := st.Lo // what White is shown to get at least
	if st.Known {
		lo = st.Value
	}
	var counts [6]int // White's loss, draw, win; bounded above or below by a draw; not known
	var best cheversi.Move
	for _, m := range st.Moves {
		mlo := m.Lo
		switch {
		case m.Known:
			counts[m.Value-solve.Loss]++
			mlo = m.Value
		case m.Hi == solve.Draw:
			counts[3]++
		case m.Lo == solve.Draw:
			counts[4]++
		default:
			counts[5]++
		}
		if best == 0 && lo >= solve.Draw && mlo >= lo {
			best = m.Move
		}
	}
	switch {
	case best != 0 && st.Known:
		value += fmt.Sprintf(" (%s)", best) // the first move that wins or draws
	case best != 0:
		value = fmt.Sprintf("at least a draw for white, with %s (a win not known yet)", best)
	}
	return fmt.Sprintf("| `cheversi %s` | %s | %d / %d / %d / %d / %d / %d | %s | %d | %.3g | %s |", strings.Join(sets, " "), value,
		counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], shippedProofOf(t, rules), all.units, float64(all.positions), cpuText(all.cpu))
}

// shippedProofOf names the shipped proof of the value of rules from the
// empty board, or "" when none is shipped.
func shippedProofOf(t *testing.T, rules *cheversi.Rules) string {
	t.Helper()
	for _, name := range solve.ShippedProofs() {
		pr, err := solve.ReadShippedProof(name)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Rules.Options() == rules.Options() && pr.Root.Ply() == 0 {
			return "`" + name + "`"
		}
	}
	return ""
}
