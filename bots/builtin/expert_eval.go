package builtin

import (
	"math/bits"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// Features of expert's Cheversi evaluation. Each side has the same block
// of featuresPerSide values (White's first, then Black's), and the last
// feature is a constant 1. Every feature counts something, so all are
// small non-negative integers.
const (
	// featAttacks + k: the empty squares the side's pieces of kind k
	// attack (each piece counted, as attack scoring does).
	featAttacks = 0
	// featUnion: the empty squares at least one of the side's pieces
	// attacks (what square scoring counts).
	featUnion = cheversi.NumPieces
	// featFar: the empty squares the side's sliders (queen, rooks,
	// bishops) attack beyond their neighbouring squares: the part of the
	// score that a piece placed in between can still cut off.
	featFar     = featUnion + 1
	featExposed = featFar + 1
	// featExposed: the empty squares the side's pieces attack next to its
	// own pieces, where the touch rule sends the opponent's pieces.
	// featRoom: the empty squares next to the side's pieces.
	featRoom = featExposed + 1
	// featUnplaced + k: the side's pieces of kind k still to be placed.
	featUnplaced = featRoom + 1

	featuresPerSide = featUnplaced + cheversi.NumPieces
	numFeatures     = 2*featuresPerSide + 1
	featBias        = numFeatures - 1
)

// neighbours[sq] holds the squares next to sq.
var neighbours [cheversi.NumSquares]uint64

func init() {
	for sq := range neighbours {
		neighbours[sq] = cheversi.Attacks(cheversi.King, cheversi.Square(sq), 0)
	}
}

// evalScale is the unit of expert's evaluation: 1/evalScale of a score
// point.
const evalScale = 16

// weightScale is the fixed-point unit of the stored weights: a weight of
// weightScale adds one score point per unit of its feature.
const weightScale = 1024

// exactWin is the score of a position whose result the search has proved:
// a win by score is +exactWin, a loss -exactWin and a draw 0. Heuristic
// evaluations stay within ±maxEval, so that a proved result always ranks
// above (or below) any estimate.
const (
	exactWin = 10000
	maxEval  = exactWin / 2
)

// expertWeights are the weights of one rule set's evaluation: for every
// ply (the pieces placed so far, 0 to 15) one weight per feature, in units
// of 1/weightScale of a score point. The evaluation of a position at ply p
// is the dot product of its features with row p: the expected final score
// difference, White's minus Black's.
type expertWeights [cheversi.MaxPlies][numFeatures]int32

// weightsFor returns the evaluation weights fitted for the rule set closest
// to o: square scoring takes echeversi's, a touch constraint cheversi's,
// and the rest cheversi-classic's.
func weightsFor(o cheversi.Options) *expertWeights {
	switch {
	case o.Scoring == cheversi.ScoreSquares:
		return &fittedWeights[weightsEcheversi]
	case o.Touch != cheversi.TouchNone:
		return &fittedWeights[weightsCheversi]
	}
	return &fittedWeights[weightsClassic]
}

// The rule sets with fitted weights, indexes into fittedWeights.
const (
	weightsCheversi = iota
	weightsClassic
	weightsEcheversi
	numWeightSets
)

// features fills f with the features of p (see featAttacks and the
// others).
func features(p *cheversi.Position, f *[numFeatures]int32) {
	occ := p.Occupied(game.White) | p.Occupied(game.Black)
	empty := ^occ
	for c := range game.Color(2) {
		var s [featuresPerSide]int32
		var union, near uint64
		for b := p.Occupied(c); b != 0; b &= b - 1 {
			near |= neighbours[bits.TrailingZeros64(b)]
		}
		near &= empty
		for k := range cheversi.Piece(cheversi.NumPieces) {
			pcs := p.Pieces(c, k)
			s[featUnplaced+k] = int32(k.Count() - bits.OnesCount64(pcs))
			n, exposed := 0, 0
			for b := pcs; b != 0; b &= b - 1 {
				sq := cheversi.Square(bits.TrailingZeros64(b))
				a := cheversi.Attacks(k, sq, occ) & empty
				n += bits.OnesCount64(a)
				exposed += bits.OnesCount64(a & near)
				union |= a
				if k == cheversi.Queen || k == cheversi.Rook || k == cheversi.Bishop {
					s[featFar] += int32(bits.OnesCount64(a &^ neighbours[sq]))
				}
			}
			s[featAttacks+k] = int32(n)
			s[featExposed] += int32(exposed)
		}
		s[featUnion] = int32(bits.OnesCount64(union))
		s[featRoom] = int32(bits.OnesCount64(near))
		copy(f[int(c)*featuresPerSide:], s[:])
	}
	f[featBias] = 1
}

// evaluate returns the evaluation of p for the side to move, in
// 1/evalScale points, within ±maxEval. At the end of the game it returns
// the true score difference.
func (w *expertWeights) evaluate(p *cheversi.Position) int {
	us := p.Turn()
	if p.Ply() >= cheversi.MaxPlies {
		return evalScale * (p.Score(us) - p.Score(us.Other()))
	}
	var f [numFeatures]int32
	features(p, &f)
	row := &w[p.Ply()]
	var v int64
	for i, x := range f {
		v += int64(x) * int64(row[i])
	}
	e := int(v * evalScale / weightScale)
	if us == game.Black {
		e = -e
	}
	return max(-maxEval, min(maxEval, e))
}
