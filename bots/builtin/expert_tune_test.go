package builtin_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"

	"gonum.org/v1/gonum/mat"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/bots/builtin"
)

// Expert's evaluation weights are fitted to self-play games played by the
// arena: run tournaments of expert against itself (configs/study/tune-*.toml),
// then
//
//	go test ./bots/builtin -run TestExpertWeights -tune DIR,DIR,...
//
// refits expert_weights.go from their journals. The first round started
// from hand-set weights, which -tune.bootstrap writes.
var (
	tuneDirs      = flag.String("tune", "", "refit expert_weights.go from the journals of these tournament `directories` (comma-separated)")
	tuneBootstrap = flag.Bool("tune.bootstrap", false, "write the hand-set starting weights to expert_weights.go")
)

const weightsFile = "expert_weights.go"

// sample is a position's features and the final score difference of its
// game, White's minus Black's.
type sample struct {
	x [builtin.NumFeatures]int32
	y float64
}

// samples holds the positions of a set of games by weight set and ply.
type samples [builtin.NumWeightSets][cheversi.MaxPlies][]sample

func TestExpertWeights(t *testing.T) {
	switch {
	case *tuneBootstrap:
		writeWeights(t, handWeights(), []string{"hand-set starting weights (score difference and piece potentials)"})
	case *tuneDirs != "":
		var (
			all     samples
			sources []string
		)
		for _, dir := range strings.Split(*tuneDirs, ",") {
			m, recs, err := journal.LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			n, err := all.add(recs)
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			sources = append(sources, fmt.Sprintf("%s: %d games, rules %s, schedule %s", m.Name, n, m.Preset, m.Fingerprint))
		}
		w, err := fitWeights(&all, 1)
		if err != nil {
			t.Fatal(err)
		}
		writeWeights(t, w, sources)
	default:
		// The committed file is what the generator writes for its weights.
		data, err := os.ReadFile(weightsFile)
		if err != nil {
			t.Fatal(err)
		}
		table := formatWeights(t, builtin.FittedWeights(), nil)
		if i := bytes.Index(table, []byte("var fittedWeights")); i < 0 || !bytes.Contains(data, table[i:]) {
			t.Errorf("%s is not the generator's output for its own weights; regenerate it", weightsFile)
		}
	}
}

// add appends the positions of every game of recs that ended by score to
// s and returns the number of games used.
func (s *samples) add(recs []journal.Record) (int, error) {
	n := 0
	for i := range recs {
		rec := &recs[i]
		if rec.Game != "cheversi" || rec.Reason != game.ReasonScore {
			continue
		}
		rules, err := journal.RulesOf(rec)
		if err != nil {
			return n, err
		}
		st := rules.Start()
		var rows [cheversi.MaxPlies][builtin.NumFeatures]int32
		set := -1
		for ply, text := range rec.AllMoves() {
			cs, ok := st.(*cheversi.State)
			if !ok || ply >= cheversi.MaxPlies {
				return n, fmt.Errorf("game %d: not a cheversi game of %d plies", rec.ID, cheversi.MaxPlies)
			}
			p := cs.Position()
			rows[ply] = builtin.Features(&p)
			set = builtin.WeightSet(p.Options())
			if _, err := game.PlayText(st, text); err != nil {
				return n, fmt.Errorf("game %d: %w", rec.ID, err)
			}
		}
		final := st.Outcome()
		if st.Ply() != cheversi.MaxPlies || len(final.Scores) != 2 {
			return n, fmt.Errorf("game %d ended by score after %d plies", rec.ID, st.Ply())
		}
		y := float64(final.Scores[game.White] - final.Scores[game.Black])
		for ply := range rows {
			s[set][ply] = append(s[set][ply], sample{rows[ply], y})
		}
		n++
	}
	return n, nil
}

// fitWeights fits, for each weight set and ply with samples, the weights
// that predict the final score difference from the features: ridge
// regression with penalty lambda on every weight but the constant's. Sets
// and plies without samples keep the current weights.
func fitWeights(s *samples, lambda float64) (builtin.Weights, error) {
	w := builtin.FittedWeights()
	const n = builtin.NumFeatures
	for set := range s {
		for ply, rows := range s[set] {
			if len(rows) == 0 {
				continue
			}
			a := mat.NewSymDense(n, nil)
			b := mat.NewVecDense(n, nil)
			for _, r := range rows {
				for i := range n {
					xi := float64(r.x[i])
					if xi == 0 {
						continue
					}
					b.SetVec(i, b.AtVec(i)+xi*r.y)
					for j := i; j < n; j++ {
						a.SetSym(i, j, a.At(i, j)+xi*float64(r.x[j]))
					}
				}
			}
			for i := range n - 1 {
				a.SetSym(i, i, a.At(i, i)+lambda)
			}
			// The constant's column is never all zero, but a set of plies
			// may leave others so: the penalty keeps the system definite.
			var ch mat.Cholesky
			if !ch.Factorize(a) {
				return w, fmt.Errorf("weight set %d ply %d: singular system (%d samples)", set, ply, len(rows))
			}
			var sol mat.VecDense
			if err := ch.SolveVecTo(&sol, b); err != nil {
				return w, fmt.Errorf("weight set %d ply %d: %w", set, ply, err)
			}
			for i := range n {
				w[set][ply][i] = int32(math.Round(sol.AtVec(i) * builtin.WeightScale))
			}
		}
	}
	return w, nil
}

// handWeights returns the starting weights of the first round: the score
// difference (of the rule set's scoring) plus the expected worth of each
// unplaced piece, shrinking as the board fills.
func handWeights() builtin.Weights {
	potential := [cheversi.NumPieces]float64{6, 16, 10, 8, 5} // K Q R B N
	var w builtin.Weights
	for set := range w {
		for ply := range w[set] {
			row := &w[set][ply]
			room := float64(cheversi.NumSquares-ply) / cheversi.NumSquares
			for c, sign := range [2]int32{1, -1} {
				side := row[c*builtin.FeaturesPerSide:]
				if builtin.WeightSetNames[set] == "echeversi" {
					side[builtin.FeatUnion] = sign * builtin.WeightScale
				} else {
					for k := range cheversi.NumPieces {
						side[builtin.FeatAttacks+k] = sign * builtin.WeightScale
					}
				}
				for k := range cheversi.NumPieces {
					side[builtin.FeatUnplaced+k] = sign * int32(math.Round(potential[k]*room*builtin.WeightScale))
				}
			}
		}
	}
	return w
}

// formatWeights returns the Go source of expert_weights.go for w, fitted
// from the given sources.
func formatWeights(t *testing.T, w builtin.Weights, sources []string) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("// Code generated by \"go test ./bots/builtin -run TestExpertWeights -tune DIR,...\"; DO NOT EDIT.\n\n")
	b.WriteString("package builtin\n\n")
	if len(sources) > 0 {
		b.WriteString("// Fitted from:\n")
		for _, s := range sources {
			fmt.Fprintf(&b, "//   - %s\n", s)
		}
		b.WriteString("\n")
	}
	b.WriteString("// fittedWeights are expert's evaluation weights by rule set and ply, in\n")
	b.WriteString("// units of 1/weightScale point per unit of each feature.\n")
	b.WriteString("var fittedWeights = [numWeightSets]expertWeights{\n")
	for set := range w {
		fmt.Fprintf(&b, "// %s\n{\n", builtin.WeightSetNames[set])
		for ply := range w[set] {
			b.WriteString("{")
			for i, x := range w[set][ply] {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprint(&b, x)
			}
			fmt.Fprintf(&b, "}, // ply %d\n", ply)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func writeWeights(t *testing.T, w builtin.Weights, sources []string) {
	t.Helper()
	if err := os.WriteFile(weightsFile, formatWeights(t, w, sources), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", weightsFile)
}

// TestFitWeights checks the fit on positions of random games whose target
// is a known linear function of their features: it must find the function
// again.
func TestFitWeights(t *testing.T) {
	rules, err := cheversi.New("cheversi-classic", nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	want := handWeights()[1]
	var s samples
	const games = 400
	for range games {
		p := rules.StartPosition()
		for p.Ply() < cheversi.MaxPlies {
			f := builtin.Features(&p)
			y := 0.0
			for i, x := range f {
				y += float64(x) * float64(want[p.Ply()][i]) / builtin.WeightScale
			}
			s[1][p.Ply()] = append(s[1][p.Ply()], sample{f, y})
			moves := p.GenerateMoves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	got, err := fitWeights(&s, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	// Plies where some features are constant or collinear (the unplaced
	// counts early on) admit other weights with the same predictions:
	// compare predictions, not weights.
	for range 200 {
		p := rules.StartPosition()
		for n := rng.IntN(cheversi.MaxPlies); p.Ply() < n; {
			moves := p.GenerateMoves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		g, w := builtin.Evaluate(&got[1], &p), builtin.Evaluate(&want, &p)
		if math.Abs(float64(g-w)) > builtin.EvalScale/4 {
			t.Errorf("ply %d (%s): fitted evaluation %d, want %d", p.Ply(), p.Text(), g, w)
		}
	}
	if got[0] != builtin.FittedWeights()[0] {
		t.Errorf("weight set 0 had no samples but changed")
	}
}
