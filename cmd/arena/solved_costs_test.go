package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/arena/game"
)

// solvedCosts measures again what solving each rule set costs, into
// docs/solved/costs.tsv (minutes of CPU time):
//
//	go test ./cmd/arena -run TestSolvedDoc -solved.costs -solved.update -timeout 2h
var solvedCosts = flag.Bool("solved.costs", false, "measure the cost of solving each rule set into docs/solved/costs.tsv")

const (
	solvedCostsFile = "../../docs/solved/costs.tsv"
	// costSamples is how many random positions are solved at each ply.
	costSamples = 8
)

// costPlies are the plies whose positions the measurement solves.
var costPlies = []int{10, 9, 8}

// costRuleSets are the rule sets whose costs docs/solved.md gives: the
// presets, then each single switch of cheversi (komi aside: it moves the
// threshold of a win, not the tree).
var costRuleSets = []struct {
	preset string
	set    string // key=value, or "" for the preset itself
}{
	{"cheversi", ""},
	{"cheversi-classic", ""},
	{"echeversi", ""},
	{"cheversi", "opening=free"},
	{"cheversi", "opening=king-queen"},
	{"cheversi", "touch=any"},
	{"cheversi", "touch=none"},
	{"cheversi", "bishops_opposite=false"},
	{"cheversi", "queen_call=false"},
	{"cheversi", "black_king_last=false"},
	{"cheversi", "scoring=squares"},
}

func costRulesName(preset, set string) string {
	if set == "" {
		return preset
	}
	return preset + " " + set
}

// costRow is one line of costs.tsv: the mean positions searched and CPU
// seconds of a value search of a random position at a ply.
type costRow struct {
	rules     string
	ply, n    int
	positions float64
	seconds   float64
}

// measureCosts solves costSamples random positions at each of costPlies
// under each rule set, each with an empty table, and writes the means.
func measureCosts(t *testing.T) {
	var rows []costRow
	for i, rs := range costRuleSets {
		var over []game.Setting
		if rs.set != "" {
			k, v, _ := strings.Cut(rs.set, "=")
			over = append(over, game.Setting{Key: k, Value: v})
		}
		rules, err := cheversi.New(rs.preset, over)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i)+1, 7))
		for _, ply := range costPlies {
			row := costRow{rules: costRulesName(rs.preset, rs.set), ply: ply, n: costSamples}
			for range costSamples {
				p := costPosition(t, rng, rules, ply)
				s := solve.NewSolver(solve.SolverOptions{TableBytes: 256 << 20})
				start := time.Now()
				if _, err := s.Solve(context.Background(), &p); err != nil {
					t.Fatal(err)
				}
				row.seconds += time.Since(start).Seconds() / costSamples
				row.positions += float64(s.TotalPositions()) / costSamples
			}
			t.Logf("%s ply %d: %.3g positions, %.2f s", row.rules, ply, row.positions, row.seconds)
			rows = append(rows, row)
		}
	}
	var b strings.Builder
	b.WriteString("# rules\tply\tsamples\tmean positions\tmean seconds\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s\t%d\t%d\t%.0f\t%.4f\n", r.rules, r.ply, r.n, r.positions, r.seconds)
	}
	if err := os.WriteFile(solvedCostsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// costPosition plays random legal moves from the empty board to ply.
func costPosition(t *testing.T, rng *rand.Rand, rules *cheversi.Rules, ply int) cheversi.Position {
	var buf [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
	for range 1000 {
		p := rules.StartPosition()
		for p.Ply() < ply {
			moves := p.GenerateMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
		if p.Ply() == ply {
			return p
		}
	}
	t.Fatalf("no random game reached ply %d", ply)
	return cheversi.Position{}
}

// readCosts reads costs.tsv.
func readCosts(t *testing.T) []costRow {
	f, err := os.Open(solvedCostsFile)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []costRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			t.Fatalf("%s: bad line %q", solvedCostsFile, line)
		}
		var r costRow
		r.rules = f[0]
		var errs [4]error
		r.ply, errs[0] = strconv.Atoi(f[1])
		r.n, errs[1] = strconv.Atoi(f[2])
		r.positions, errs[2] = strconv.ParseFloat(f[3], 64)
		r.seconds, errs[3] = strconv.ParseFloat(f[4], 64)
		for _, err := range errs {
			if err != nil {
				t.Fatalf("%s: %q: %v", solvedCostsFile, line, err)
			}
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// costTable writes the table of what solving each rule set costs: the
// positions a value search takes from a random position at each measured
// ply, how many times cheversi's that is at the deepest ply measured, and
// the CPU time of the whole game that gives when cheversi's (measured on
// its proved king classes, perClassCPU seconds each) is scaled by it.
func costTable(t *testing.T, perClassCPU float64) string {
	rows := readCosts(t)
	if len(rows) == 0 {
		return "(no measurement committed yet)\n"
	}
	deepest := costPlies[len(costPlies)-1]
	at := map[string]map[int]costRow{}
	var order []string
	for _, r := range rows {
		if at[r.rules] == nil {
			at[r.rules] = map[int]costRow{}
			order = append(order, r.rules)
		}
		at[r.rules][r.ply] = r
	}
	base := at["cheversi"][deepest].positions
	var b strings.Builder
	b.WriteString("| rules |")
	for _, ply := range costPlies {
		fmt.Fprintf(&b, " positions from ply %d |", ply)
	}
	fmt.Fprintf(&b, " × `cheversi` at ply %d | the whole game, scaled |\n|---|", deepest)
	for range costPlies {
		b.WriteString("---|")
	}
	b.WriteString("---|---|\n")
	for _, name := range order {
		fmt.Fprintf(&b, "| `%s` |", name)
		for _, ply := range costPlies {
			if r, ok := at[name][ply]; ok {
				fmt.Fprintf(&b, " %.2g |", r.positions)
			} else {
				b.WriteString(" |")
			}
		}
		ratio := math.NaN()
		if base > 0 {
			ratio = at[name][deepest].positions / base
		}
		whole := ""
		if perClassCPU > 0 && !math.IsNaN(ratio) {
			whole = cpuText(ratio * 10 * perClassCPU)
		}
		fmt.Fprintf(&b, " %.2g | %s |\n", ratio, whole)
	}
	return b.String()
}
