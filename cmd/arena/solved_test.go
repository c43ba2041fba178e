package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
)

// docs/solved.md publishes what the solver proved. Its tables are made
// from committed data: the proofs shipped with the solver
// (arena/cheversi/solve/proofs), the units of the cheversi solve
// (docs/solved/cheversi-results.txt.gz) and the error counts of "arena
// solve errors" (docs/solved/errors-*.json). TestSolvedDoc checks that each
// table is what the data give;
//
//	go test ./cmd/arena -run TestSolvedDoc -solved.update
//
// rewrites them.
var solvedUpdate = flag.Bool("solved.update", false, "rewrite the tables of docs/solved.md from the committed data")

const (
	solvedDoc = "../../docs/solved.md"
	// solvedResults match the committed units of every solve: of
	// cheversi, of its komi steps and of other rule sets, each file's rules
	// in its header.
	solvedResults = "../../docs/solved/*-results.txt.gz"
)

// kingClasses are the squares of White's first King, one of each class of
// squares the symmetries of the board map onto each other.
var kingClasses = []string{"a1", "b1", "c1", "d1", "b2", "c2", "d2", "c3", "d3", "d4"}

// docSection returns the text of doc between the markers of table id.
func docSection(doc, prefix, id string) (start, end int, ok bool) {
	open, closing := "<!-- "+prefix+":"+id+" -->\n", "<!-- /"+prefix+":"+id+" -->"
	i := strings.Index(doc, open)
	if i < 0 {
		return 0, 0, false
	}
	j := strings.Index(doc[i:], closing)
	if j < 0 {
		return 0, 0, false
	}
	return i + len(open), i + j, true
}

// committedSolve is a committed results file: the rule set its header
// names, the switches in which that differs from cheversi's (key=value),
// every entry, and the units (entries with positions searched).
type committedSolve struct {
	rules *cheversi.Rules
	sets  []string
	res   *solve.Results
	units []solve.Entry // its own units (not those shared from another)
	path  string        // its results, uncompressed
}

// komiStep returns k when the solve is of cheversi under komi -k (whole
// points, k > 0), and 0 otherwise.
func (cs committedSolve) komiStep() int {
	k := -int(cs.rules.Options().Komi)
	if len(cs.sets) != 1 || !strings.HasPrefix(cs.sets[0], "komi=") || k <= 0 || k%2 != 0 {
		return 0
	}
	return k / 2
}

// committedSolves reads every committed results file, in the order of
// their names.
func committedSolves(t *testing.T) []committedSolve {
	t.Helper()
	files, err := filepath.Glob(solvedResults)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var out []committedSolve
	for _, f := range files {
		out = append(out, readResultsFile(t, f))
	}
	// A solve reads the units of rule sets that share its positions from
	// some ply on (another opening), as "arena solve" does from the files
	// beside its own.
	for _, cs := range out {
		for _, other := range out {
			if ply, ok := solve.SharedFrom(cs.rules, other.rules); ok && ply > 0 {
				if err := cs.res.Merge(other.path); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return out
}

// readResultsFile reads a committed results file under the rules its
// header names.
func readResultsFile(t *testing.T, path string) committedSolve {
	t.Helper()
	zr := openGzip(t, path)
	tmp := filepath.Join(t.TempDir(), "results.txt")
	out, err := os.Create(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(zr).WriteTo(out); err != nil {
		t.Fatal(err)
	}
	out.Close()
	rules, err := solve.ReadRules(tmp)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	res, err := solve.ReadResults(rules, tmp)
	if err != nil {
		t.Fatal(err)
	}
	cs := committedSolve{rules: rules, sets: switchesOf(t, rules), res: res, path: tmp}
	for _, e := range res.Entries() {
		if e.Positions > 0 {
			cs.units = append(cs.units, e)
		}
	}
	return cs
}

// sums are the units of a king class, what they searched and their CPU
// time.
type sums struct {
	units     int
	positions uint64
	cpu       float64
}

// classSums adds up units by the king class they fall under, and in all.
func classSums(units []solve.Entry) (map[string]*sums, sums) {
	per := map[string]*sums{}
	var all sums
	for _, e := range units {
		c := kingClassOf(&e.Position)
		if per[c] == nil {
			per[c] = &sums{}
		}
		for _, s := range []*sums{per[c], &all} {
			s.units++
			s.positions += e.Positions
			s.cpu += e.Seconds
		}
	}
	return per, all
}

// kingClassOf returns the class (one of kingClasses) of White's King in p.
func kingClassOf(p *cheversi.Position) string {
	k := p.Pieces(0, cheversi.King)
	if k == 0 {
		return ""
	}
	for s := range cheversi.Symmetry(cheversi.NumSymmetries) {
		sq := s.Bits(k)
		for _, c := range kingClasses {
			if sq == 1<<squareIndex(c) {
				return c
			}
		}
	}
	return ""
}

func squareIndex(name string) int { return int(name[1]-'1')*8 + int(name[0]-'a') }

// solvedTables returns each table of docs/solved.md by its id.
func solvedTables(t *testing.T) map[string]string {
	rules, err := cheversi.New("cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	solves := committedSolves(t)
	var units []solve.Entry
	for _, cs := range solves {
		if len(cs.sets) == 0 {
			units = cs.units // cheversi's own
		}
	}
	per, all := classSums(units)
	// The proofs of the classes, of a value or of a bound.
	classProof := map[string]*solve.Proof{}
	rootLeaves := map[string]int{}
	var own []*solve.Proof
	for _, name := range solve.ShippedProofs() {
		pr, err := solve.ReadShippedProof(name)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Rules.Options() != rules.Options() {
			continue // another rule set's (under a komi, say)
		}
		own = append(own, pr)
		switch pr.Root.Ply() {
		case 1:
			classProof[kingClassOf(&pr.Root)] = pr
		case 0:
			// The proof of the whole game holds every class's: its
			// leaves fall under the class of their King.
			for _, l := range pr.Leaves {
				rootLeaves[kingClassOf(&l.Position)]++
			}
		}
	}

	// lookup answers from the proofs of the cheversi rules alone (the
	// solver's book also reads those under other komi).
	lookup := func(p *cheversi.Position) (solve.Value, cheversi.Move, bool) {
		for _, pr := range own {
			if v, m, ok := pr.Lookup(p); ok {
				return v, m, true
			}
		}
		return 0, 0, false
	}

	var classes strings.Builder
	fmt.Fprintln(&classes, "| White's King | squares | value | Black's proved reply | proof leaves | units | positions | CPU |")
	fmt.Fprintln(&classes, "|---|---|---|---|---|---|---|---|")
	for _, c := range kingClasses {
		p := rules.StartPosition()
		m, err := p.ParseMove("K@" + c)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
		images := map[string]bool{}
		for s := range cheversi.Symmetry(cheversi.NumSymmetries) {
			images[s.Square(cheversi.Square(squareIndex(c))).String()] = true
		}
		value, reply, lv := "not proved yet", "", ""
		if pr := classProof[c]; pr != nil {
			value = shownText(&p, pr.Shown)
			if pr.Move != 0 {
				reply = pr.Move.String()
			}
			lv = fmt.Sprint(len(pr.Leaves))
		} else if v, m, ok := lookup(&p); ok {
			value, lv = verdict(&p, v), fmt.Sprint(rootLeaves[c])
			if m != 0 {
				reply = m.String()
			}
		}
		s := per[c]
		if s == nil {
			s = &sums{}
		}
		fmt.Fprintf(&classes, "| %s | %d | %s | %s | %s | %d | %.3g | %s |\n", c, len(images), value, reply, lv, s.units, float64(s.positions), cpuText(s.cpu))
	}
	fmt.Fprintf(&classes, "| all | 64 | | | | %d | %.3g | %s |\n", all.units, float64(all.positions), cpuText(all.cpu))

	var value strings.Builder
	start := rules.StartPosition()
	if v, _, ok := lookup(&start); ok {
		fmt.Fprintf(&value, "From the empty board under the `cheversi` rules, with best play by both sides, **%s**.\n", verdict(&start, v))
	} else {
		proved := 0
		for _, c := range kingClasses {
			p := rules.StartPosition()
			m, _ := p.ParseMove("K@" + c)
			p.Play(m)
			if _, _, ok := lookup(&p); ok {
				proved++
			}
		}
		fmt.Fprintf(&value, "The value of `cheversi` from the empty board is not proved yet: %d of the ten king classes are (below).\n", proved)
	}
	fmt.Fprintf(&value, "The committed solve has %d work units: %.3g positions searched in %s of CPU time.\n", all.units, float64(all.positions), cpuText(all.cpu))

	perClass, proved := 0.0, 0
	for _, c := range kingClasses {
		p := rules.StartPosition()
		m, _ := p.ParseMove("K@" + c)
		p.Play(m)
		if _, _, ok := lookup(&p); ok && per[c] != nil {
			perClass += per[c].cpu
			proved++
		}
	}
	if proved > 0 {
		perClass /= float64(proved)
	}
	return map[string]string{"value": value.String(), "classes": classes.String(), "errors": errorTables(t),
		"costs": costTable(t, perClass), "margin": marginTable(t, solves), "switches": switchesTable(t, solves)}
}

func cpuText(sec float64) string {
	if sec < 3600 {
		return fmt.Sprintf("%.0f min", sec/60)
	}
	if sec < 100*3600 {
		return fmt.Sprintf("%.1f h", sec/3600)
	}
	return fmt.Sprintf("%.0f h", sec/3600)
}

// errorTables writes the tables of the committed "arena solve errors" runs.
func errorTables(t *testing.T) string {
	files, err := filepath.Glob("../../docs/solved/errors-*.json")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var st errorStudy
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fmt.Fprintf(&b, "`%s` at %d nodes a move, %d games from %d random plies (`docs/solved/%s`):\n\n", st.Bot, st.Nodes, st.Games, st.RandomPlies, filepath.Base(f))
		fmt.Fprintln(&b, "| ply | won | won: let go (95 % interval) | drawn | drawn: let go | lost |")
		fmt.Fprintln(&b, "|---|---|---|---|---|---|")
		for _, p := range st.Plies {
			fmt.Fprintf(&b, "| %d | %d | %s | %d | %s | %d |\n", p.Ply, p.Wins, ratio(p.WinToDraw+p.WinToLoss, p.Wins), p.Draws, ratio(p.DrawLoss, p.Draws), p.Losses)
		}
		plies := make([]int, 0, len(st.Decided))
		for ply := range st.Decided {
			if ply >= 0 {
				plies = append(plies, ply)
			}
		}
		sort.Ints(plies)
		var last []string
		for _, ply := range plies {
			last = append(last, fmt.Sprintf("%d at ply %d", st.Decided[ply], ply))
		}
		fmt.Fprintf(&b, "\nThe position at ply %d already had the game's result in %d of the %d games; in the others the last move that changed the value was: %s.\n",
			st.From, st.Decided[-1], st.Games, strings.Join(last, ", "))
		fmt.Fprintln(&b)
	}
	if len(files) == 0 {
		b.WriteString("(no run committed yet)\n")
	}
	return b.String()
}

func TestSolvedDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tables from every committed results file (go test without -short runs it)")
	}
	data, err := os.ReadFile(solvedDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	if *solvedCosts {
		measureCosts(t)
	}
	tables := solvedTables(t)
	ids := make([]string, 0, len(tables))
	for id := range tables {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		i, j, ok := docSection(doc, "solved", id)
		if !ok {
			t.Errorf("%s has no section for table %s (<!-- solved:%[2]s --> ... <!-- /solved:%[2]s -->)", solvedDoc, id)
			continue
		}
		if *solvedUpdate {
			doc = doc[:i] + tables[id] + doc[j:]
			continue
		}
		if doc[i:j] != tables[id] {
			t.Errorf("table %s of %s differs from the data (go test ./cmd/arena -run TestSolvedDoc -solved.update rewrites it)\n--- document ---\n%s--- data ---\n%s", id, solvedDoc, doc[i:j], tables[id])
		}
	}
	if *solvedUpdate {
		if err := os.WriteFile(solvedDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestShippedProofsFollowFromUnits writes each shipped proof's bounds again
// from the committed results files (those of its rule set and of the rule
// sets that share its positions, as "arena solve proof" reads them from a
// directory) and checks they are what the proof shows: no proof is shipped
// that the committed units do not give, and none is left behind units that
// show more.
func TestShippedProofsFollowFromUnits(t *testing.T) {
	if testing.Short() {
		t.Skip("walks every committed results file (go test without -short runs it)")
	}
	solves := committedSolves(t)
	for _, name := range solve.ShippedProofs() {
		pr, err := solve.ReadShippedProof(name)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, cs := range solves {
			if _, ok := solve.SharedFrom(pr.Rules, cs.rules); ok {
				paths = append(paths, cs.path)
			}
		}
		if len(paths) == 0 {
			t.Errorf("%s: no committed results file of its rules or of rules sharing its positions", name)
			continue
		}
		res, err := solve.ReadResults(pr.Rules, paths...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _, err := solve.WriteProof(io.Discard, pr.Rules, &pr.Root, pr.Cut, res)
		if err != nil {
			t.Errorf("%s: the committed units do not give its proof: %v", name, err)
			continue
		}
		if b != pr.Shown {
			t.Errorf("%s: the committed units show %v, the proof %v", name, b, pr.Shown)
		}
	}
}

// TestStatusFollowsItsMoves checks, on the committed opening=free units,
// that what "arena solve --status" says of a position follows from what it
// says of its moves: at least the best of their lower bounds, at most the
// best of their upper bounds. (The walk that answers a position's tests
// can meet a transposition before its value is known; the status asks its
// moves first.) The root and White's ten Rook first moves.
func TestStatusFollowsItsMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("bounds the opening=free units upward eleven times (go test without -short runs it)")
	}
	var free *committedSolve
	for _, cs := range committedSolves(t) {
		if len(cs.sets) == 1 && cs.sets[0] == "opening=free" {
			free = &cs
		}
	}
	if free == nil {
		t.Fatal("no committed opening=free results")
	}
	start := free.rules.StartPosition()
	positions := []cheversi.Position{start}
	for _, sq := range []string{"a1", "b1", "c1", "d1", "b2", "c2", "d2", "c3", "d3", "d4"} {
		p := start
		m, err := cheversi.ParseMove("R@" + sq)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
		positions = append(positions, p)
	}
	for _, p := range positions {
		st := solve.StatusOf(free.res, &p, 6)
		lo, hi := solve.Loss, solve.Loss
		for _, m := range st.Moves {
			lo, hi = max(lo, m.Lo), max(hi, m.Hi)
		}
		if st.Lo < lo || st.Hi > hi {
			t.Errorf("%s: status %v..%v, its moves show %v..%v", p.Text(), st.Lo, st.Hi, lo, hi)
		}
	}
}
