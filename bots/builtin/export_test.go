package builtin

import "github.com/arena-games/arena/arena/cheversi"

// Exported for the tests of package builtin_test.

const (
	FeatAttacks     = featAttacks
	FeatUnion       = featUnion
	FeatUnplaced    = featUnplaced
	FeaturesPerSide = featuresPerSide
	NumFeatures     = numFeatures
	NumWeightSets   = numWeightSets
	WeightScale     = weightScale
	EvalScale       = evalScale
)

// Weights is a full set of expert's evaluation weights, as the generated
// expert_weights.go holds them.
type Weights = [numWeightSets]expertWeights

// WeightSetNames names the weight sets by the rule set they were fitted on.
var WeightSetNames = [numWeightSets]string{
	weightsCheversi:  "cheversi",
	weightsClassic:   "cheversi-classic",
	weightsEcheversi: "echeversi",
}

// Features returns the features of p.
func Features(p *cheversi.Position) [numFeatures]int32 {
	var f [numFeatures]int32
	var ps pieces
	ps.of(p)
	features(p, &ps, &f, true)
	return f
}

// WeightSet returns the index of the weight set expert uses under o.
func WeightSet(o cheversi.Options) int {
	w := weightsFor(o)
	for i := range fittedWeights {
		if w == &fittedWeights[i] {
			return i
		}
	}
	return -1
}

// FittedWeights returns the weights expert plays with.
func FittedWeights() Weights { return fittedWeights }

// Evaluate returns expert's evaluation of p for the side to move under the
// weights of one rule set, in 1/EvalScale points.
func Evaluate(w *expertWeights, p *cheversi.Position) int {
	var ps pieces
	ps.of(p)
	return w.evaluate(p, &ps)
}
