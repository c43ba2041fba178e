package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/arena/game"
)

// komiStep is what the committed units of the solve under komi -k show.
type komiStep struct {
	k     int
	rules *cheversi.Rules
	st    solve.Status
	per   map[string]*sums
	all   sums
}

// komiSteps returns the committed solves of cheversi under komi -1, -2
// ..., komi -1 first.
func komiSteps(solves []committedSolve) []komiStep {
	var steps []komiStep
	for _, cs := range solves {
		k := cs.komiStep()
		if k == 0 {
			continue
		}
		start := cs.rules.StartPosition()
		step := komiStep{k: k, rules: cs.rules, st: solve.StatusOf(cs.res, &start, 6)}
		step.per, step.all = classSums(cs.units)
		steps = append(steps, step)
	}
	sort.Slice(steps, func(i, j int) bool { return steps[i].k < steps[j].k })
	return steps
}

// margin bounds Black's final margin under cheversi with best play: lo <=
// margin <= hi, hi noLimit where no upper bound is known.
type margin struct{ lo, hi int }

const noLimit = math.MaxInt

// learn narrows m by what the solve under komi -k knows of a position
// with White to move (White given k points): lo <= White's value <= hi,
// through the bounds on White's margin the solver's book uses.
func (m margin) learn(k int, lo, hi solve.Value) margin {
	d := solve.AnyMargin()
	d.Hi = -m.lo
	if m.hi != noLimit {
		d.Lo = -m.hi
	}
	d = d.Narrow(solve.Bounds{Lo: lo, Hi: hi}, int16(-2*k))
	m.lo = -d.Hi
	if open, _ := d.Unbounded(); !open {
		m.hi = -d.Lo
	}
	return m
}

func (m margin) String() string {
	switch {
	case m.lo == m.hi:
		return fmt.Sprintf("exactly %d", m.lo)
	case m.hi == noLimit:
		return fmt.Sprintf("%d or more", m.lo)
	}
	return fmt.Sprintf("%d to %d", m.lo, m.hi)
}

// bounds returns what st, or its move m, knows: lo <= value <= hi.
func bounds(known bool, v, lo, hi solve.Value) (solve.Value, solve.Value) {
	if known {
		return v, v
	}
	return lo, hi
}

// marginTable is the doc's table of the margin: what the committed solves
// under komi -1, -2 ... show of the game and of each king class. Under
// cheversi Black wins (the value above): the margin is 1 or more to start.
func marginTable(t *testing.T, solves []committedSolve) string {
	t.Helper()
	steps := komiSteps(solves)
	if len(steps) == 0 {
		t.Fatalf("no committed solve of cheversi under a komi (%s)", solvedResults)
	}
	root := margin{lo: 1, hi: noLimit}
	for _, s := range steps {
		lo, hi := bounds(s.st.Known, s.st.Value, s.st.Lo, s.st.Hi)
		root = root.learn(s.k, lo, hi)
	}
	var b strings.Builder
	fmt.Fprint(&b, marginVerdict(root, steps[len(steps)-1].k))
	fmt.Fprint(&b, " The committed units:")
	for i, s := range steps {
		sep := ";"
		if i == len(steps)-1 {
			sep = "."
		}
		fmt.Fprintf(&b, " under `komi=-%d`, %d (%s of CPU time)%s", s.k, s.all.units, cpuText(s.all.cpu), sep)
	}
	fmt.Fprint(&b, "\n\n| White's King |")
	for _, s := range steps {
		fmt.Fprintf(&b, " under `komi=-%d` |", s.k)
	}
	fmt.Fprintln(&b, " so under `cheversi` Black wins by | Black's proved reply | units | CPU |")
	fmt.Fprintln(&b, strings.Repeat("|---", len(steps)+5)+"|")
	for _, c := range kingClasses {
		fmt.Fprintln(&b, marginRow(t, c, steps))
	}
	return b.String()
}

// marginVerdict is the sentence on the game's margin m, the solve under
// komi -last the deepest committed.
func marginVerdict(m margin, last int) string {
	points := func(n int) string {
		if n == 1 {
			return "a point"
		}
		return fmt.Sprintf("%d points", n)
	}
	switch {
	case m.lo == m.hi && m.lo > 1:
		return fmt.Sprintf("Under `cheversi` with best play, Black wins by **exactly %s**: given %s (`komi=-%d`), White still loses; given %s (`komi=-%d`), White draws.", points(m.lo), points(m.lo-1), m.lo-1, points(m.lo), m.lo)
	case m.lo == m.hi:
		return "Under `cheversi` with best play, Black wins by **exactly a point**: given a point (`komi=-1`), White draws."
	case m.hi == noLimit && m.lo > 1:
		s := fmt.Sprintf("Under `cheversi` with best play, Black wins by **%d points or more**: given %s (`komi=-%d`), White still loses.", m.lo, points(m.lo-1), m.lo-1)
		if last >= m.lo {
			s += fmt.Sprintf(" The solve under `komi=-%d`, which tells %d from more, is under way.", m.lo, m.lo)
		}
		return s
	}
	return fmt.Sprintf("By how much Black wins under `cheversi` is not known yet: by %s points (the value above); the solve under `komi=-%d` tells %d from more.", m, m.lo, m.lo)
}

// marginRow is the row of king class c: its value under each komi, the
// margin they give, a reply of Black's that wins by at least its lower
// bound (from the shipped proof under komi -(lo-1)), units and CPU time.
func marginRow(t *testing.T, c string, steps []komiStep) string {
	t.Helper()
	row := "| " + c + " |"
	m := margin{lo: 1, hi: noLimit}
	var all sums
	for _, s := range steps {
		text := "not known yet"
		for _, ms := range s.st.Moves {
			p := s.rules.StartPosition()
			p.Play(ms.Move)
			if kingClassOf(&p) != c {
				continue
			}
			lo, hi := bounds(ms.Known, ms.Value, ms.Lo, ms.Hi)
			m = m.learn(s.k, lo, hi)
			switch {
			case lo == hi:
				text = lo.String() + " for white"
			case lo > solve.Loss:
				text = "at least a " + lo.String() + " for white"
			case hi < solve.Win:
				text = "at most a " + hi.String() + " for white"
			}
		}
		row += " " + text + " |"
		if cs := s.per[c]; cs != nil {
			all.units += cs.units
			all.cpu += cs.cpu
		}
	}
	return fmt.Sprintf("%s %s | %s | %d | %s |", row, m, marginReply(t, c, m.lo), all.units, cpuText(all.cpu))
}

// marginReply returns Black's winning reply to White's King on c from the
// shipped proof under the deepest komi it is shipped for, up to komi
// -(lo-1): a reply that wins by lo or more, or (from a proof under a
// smaller komi) by less, which it says.
func marginReply(t *testing.T, c string, lo int) string {
	t.Helper()
	for k := lo - 1; k >= 0; k-- {
		if reply := proofReply(t, c, k); reply != "" {
			if k+1 < lo {
				reply += fmt.Sprintf(", by %d or more", k+1)
			}
			return reply
		}
	}
	return ""
}

// proofReply returns the winning reply the shipped proof under komi -k
// gives to White's King on c, or "" if no proof gives one.
func proofReply(t *testing.T, c string, k int) string {
	t.Helper()
	var sets []game.Setting
	if k > 0 {
		sets = []game.Setting{{Key: "komi", Value: strconv.Itoa(-k)}}
	}
	rules, err := cheversi.New("cheversi", sets)
	if err != nil {
		t.Fatal(err)
	}
	book, err := solve.ShippedBook(rules.Options())
	if err != nil {
		t.Fatal(err)
	}
	p := rules.StartPosition()
	king, err := p.ParseMove("K@" + c)
	if err != nil {
		t.Fatal(err)
	}
	p.Play(king)
	if v, reply, ok := book.Lookup(&p); ok && v == solve.Win && reply != 0 {
		return reply.String()
	}
	return ""
}

// TestMarginLearn checks what a value under komi -k says of Black's margin
// under cheversi.
func TestMarginLearn(t *testing.T) {
	start := margin{lo: 1, hi: noLimit}
	for _, tc := range []struct {
		k      int
		lo, hi solve.Value
		want   string
	}{
		{1, solve.Loss, solve.Loss, "2 or more"},
		{1, solve.Draw, solve.Draw, "exactly 1"},
		{2, solve.Draw, solve.Draw, "exactly 2"},
		{3, solve.Win, solve.Win, "1 to 2"},
		{3, solve.Loss, solve.Draw, "3 or more"}, // at most a draw for White
		{3, solve.Draw, solve.Win, "1 to 3"},     // at least a draw
		{2, solve.Loss, solve.Win, "1 or more"},  // nothing known
		{4, solve.Loss, solve.Loss, "5 or more"},
	} {
		if got := start.learn(tc.k, tc.lo, tc.hi).String(); got != tc.want {
			t.Errorf("komi -%d, white's value in [%v, %v]: margin %s, want %s", tc.k, tc.lo, tc.hi, got, tc.want)
		}
	}
	if got := start.learn(1, solve.Loss, solve.Loss).learn(2, solve.Draw, solve.Draw).String(); got != "exactly 2" {
		t.Errorf("a loss under komi -1 then a draw under -2: margin %s, want exactly 2", got)
	}
}
