package builtin

import (
	"math"
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
	// featGain: for the side to move, the most one of its moves gains at
	// once (see bestMove); for the other side, the most one of its moves
	// then gains at once in reply to that move. Both are 0 under square
	// scoring.
	featGain = featRoom + 1
	// featUnplaced + k: the side's pieces of kind k still to be placed.
	featUnplaced = featGain + 1

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
	// A greedy exchange: the mover's best gain, then the reply's.
	if g, m := bestMove(p, occ); m != 0 {
		f[int(p.Turn())*featuresPerSide+featGain] = int32(g)
		q := *p
		q.Play(m)
		g, _ = bestMove(&q, occ|1<<m.Square())
		f[int(q.Turn())*featuresPerSide+featGain] = int32(g)
	}
	f[featBias] = 1
}

// bestMove returns the legal move of the side to move in p that gains the
// most at once, and its gain: the change it makes to the score difference,
// the mover's score less the other side's. Under square scoring, or when
// there is no legal move, it returns 0 and the zero Move. occ is p's
// occupied squares.
//
// A placement on an empty square adds the squares the new piece attacks,
// takes one point from every piece attacking the square, and from every
// slider whose line runs through it the empty squares beyond, up to the
// next piece or the edge.
func bestMove(p *cheversi.Position, occ uint64) (int, cheversi.Move) {
	if p.Ply() >= cheversi.MaxPlies || p.Options().Scoring != cheversi.ScoreAttacks {
		return 0, 0
	}
	var buf [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
	moves := p.GenerateMoves(buf[:0])
	var to uint64 // the squares some move goes to
	for _, m := range moves {
		to |= 1 << m.Square()
	}
	us := p.Turn()
	// lost[sq], for the squares of to: what a piece placed on sq takes from
	// the other side's score, less what it takes from the mover's.
	var lost [cheversi.NumSquares]int16
	for c := range game.Color(2) {
		sign := int16(1)
		if c == us {
			sign = -1
		}
		for k := range cheversi.Piece(cheversi.NumPieces) {
			for b := p.Pieces(c, k); b != 0; b &= b - 1 {
				sq := bits.TrailingZeros64(b)
				if k == cheversi.King || k == cheversi.Knight {
					for a := cheversi.Attacks(k, cheversi.Square(sq), 0) & to; a != 0; a &= a - 1 {
						lost[bits.TrailingZeros64(a)&63] += sign
					}
					continue
				}
				for dirs := sliderDirs(k); dirs != 0; dirs &= dirs - 1 {
					d := bits.TrailingZeros8(dirs)
					run := emptyRun(d, sq, occ)
					// A square's loss is the run's squares from it on.
					for a := run & to; a != 0; a &= a - 1 {
						x := bits.TrailingZeros64(a) & 63
						lost[x] += sign * int16(1+bits.OnesCount64(run&lines[d][x]))
					}
				}
			}
		}
	}
	best := math.MinInt
	var bm cheversi.Move
	for _, m := range moves {
		k, sq := m.Piece(), m.Square()
		if int(maxReach[k][sq])+int(lost[sq]) <= best {
			continue
		}
		if v := bits.OnesCount64(cheversi.Attacks(k, sq, occ)&^occ) + int(lost[sq]); v > best {
			best, bm = v, m
		}
	}
	if best == math.MinInt {
		return 0, 0
	}
	return best, bm
}

// maxReach[k][sq]: the squares a piece of kind k on sq attacks on an empty
// board.
var maxReach [cheversi.NumPieces][cheversi.NumSquares]int8

func init() {
	for k := range cheversi.Piece(cheversi.NumPieces) {
		for sq := range cheversi.Square(cheversi.NumSquares) {
			maxReach[k][sq] = int8(bits.OnesCount64(cheversi.Attacks(k, sq, 0)))
		}
	}
}

// sliderDirs returns the directions, as a bit set of indexes into lines,
// a slider of kind k moves in.
func sliderDirs(k cheversi.Piece) uint8 {
	switch k {
	case cheversi.Rook:
		return 0b00110011
	case cheversi.Bishop:
		return 0b11001100
	}
	return 0xff
}

// Directions of lines: dirNeg and after step towards lower squares.
const dirNeg = 4

// lines[d][sq] holds the squares from sq to the edge in direction d: the
// rook's north, east, north-east, north-west (towards higher squares), then
// their opposites.
var lines [8][cheversi.NumSquares]uint64

func init() {
	// The rook's directions are 0, 1, 4, 5; the bishop's 2, 3, 6, 7.
	steps := [8][2]int{{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}
	for d, st := range steps {
		for sq := range cheversi.NumSquares {
			for f, r := sq%8+st[0], sq/8+st[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+st[0], r+st[1] {
				lines[d][sq] |= 1 << (8*r + f)
			}
		}
	}
}

// emptyRun returns the empty squares from sq in direction d up to the
// first occupied square or the edge.
func emptyRun(d, sq int, occ uint64) uint64 {
	a := lines[d][sq]
	if b := a & occ; b != 0 {
		s := bits.TrailingZeros64(b)
		if d >= dirNeg {
			s = 63 - bits.LeadingZeros64(b)
		}
		a &^= lines[d][s] | 1<<s
	}
	return a
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
