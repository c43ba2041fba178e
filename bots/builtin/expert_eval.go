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

// features fills f with the features of p, whose pieces are ps (see
// featAttacks and the others); without exchange, the greedy exchange's
// (featGain) are left 0.
func features(p *cheversi.Position, ps *pieces, f *[numFeatures]int32, exchange bool) {
	occ := ps.occ
	empty := ^occ
	var s [2][featuresPerSide]int32
	var union, near [2]uint64
	for c := range game.Color(2) {
		for b := p.Occupied(c); b != 0; b &= b - 1 {
			near[c] |= neighbours[bits.TrailingZeros64(b)]
		}
		near[c] &= empty
		for k := range cheversi.Piece(cheversi.NumPieces) {
			s[c][featUnplaced+k] = int32(k.Count() - bits.OnesCount64(p.Pieces(c, k)))
		}
	}
	for _, x := range ps.pl[:ps.n] {
		c := x.color
		s[c][featAttacks+x.kind] += int32(bits.OnesCount64(x.a))
		s[c][featExposed] += int32(bits.OnesCount64(x.a & near[c]))
		union[c] |= x.a
		if slides(x.kind) {
			s[c][featFar] += int32(bits.OnesCount64(x.a &^ neighbours[x.sq]))
		}
	}
	for c := range game.Color(2) {
		s[c][featUnion] = int32(bits.OnesCount64(union[c]))
		s[c][featRoom] = int32(bits.OnesCount64(near[c]))
		copy(f[int(c)*featuresPerSide:], s[c][:])
	}
	f[featBias] = 1
	if !exchange {
		return
	}
	// A greedy exchange: the mover's best gain, then the reply's.
	if g, m := bestMove(p, ps); m != 0 {
		f[int(p.Turn())*featuresPerSide+featGain] = int32(g)
		q := *p
		q.Play(m)
		var r pieces // q's
		r.after(ps, m, p.Turn())
		g, _ = bestMove(&q, &r)
		f[int(q.Turn())*featuresPerSide+featGain] = int32(g)
	}
}

// placed is a piece on the board and the empty squares it attacks.
type placed struct {
	a     uint64
	sq    cheversi.Square
	kind  cheversi.Piece
	color game.Color
}

// slides reports whether pieces of kind k slide: the queen, rooks and
// bishops.
func slides(k cheversi.Piece) bool {
	return k == cheversi.Queen || k == cheversi.Rook || k == cheversi.Bishop
}

// pieces are the pieces of a position, with the squares they attack, and
// its occupied squares. A search derives those of a position from its
// parent's (see after), which is cheaper than finding every piece's
// attacks again.
type pieces struct {
	occ uint64
	n   int
	pl  [cheversi.MaxPlies]placed
}

// of sets ps to the pieces of p.
func (ps *pieces) of(p *cheversi.Position) {
	occ := p.Occupied(game.White) | p.Occupied(game.Black)
	n := 0
	for c := range game.Color(2) {
		for k := range cheversi.Piece(cheversi.NumPieces) {
			for b := p.Pieces(c, k); b != 0 && n < len(ps.pl); b &= b - 1 {
				sq := cheversi.Square(bits.TrailingZeros64(b))
				ps.pl[n] = placed{a: cheversi.Attacks(k, sq, occ) &^ occ, sq: sq, kind: k, color: c}
				n++
			}
		}
	}
	ps.occ, ps.n = occ, n
}

// after sets ps to the pieces of the position that follows parent's when
// side c plays m there: m's square is no longer empty, the sliders' lines
// through it stop there, and m's piece is added.
func (ps *pieces) after(parent *pieces, m cheversi.Move, c game.Color) {
	sq := m.Square()
	bit := uint64(1) << sq
	n := parent.n
	for i, x := range parent.pl[:n] {
		switch {
		case x.a&bit == 0:
		case slides(x.kind):
			x.a &^= bit | cheversi.Beyond(x.sq, sq)
		default:
			x.a &^= bit
		}
		ps.pl[i] = x
	}
	occ := parent.occ | bit
	if n < len(ps.pl) {
		ps.pl[n] = placed{a: cheversi.Attacks(m.Piece(), sq, occ) &^ occ, sq: sq, kind: m.Piece(), color: c}
		n++
	}
	ps.occ, ps.n = occ, n
}

// bestMove returns the legal move of the side to move in p that gains the
// most at once, and its gain: the change it makes to the score difference,
// the mover's score less the other side's. Under square scoring, or when
// there is no legal move, it returns 0 and the zero Move. ps are p's
// pieces.
//
// A placement on an empty square adds the squares the new piece attacks,
// takes one point from every piece attacking the square, and from every
// slider whose line runs through it the empty squares beyond, up to the
// next piece or the edge.
func bestMove(p *cheversi.Position, ps *pieces) (int, cheversi.Move) {
	if p.Ply() >= cheversi.MaxPlies || p.Options().Scoring != cheversi.ScoreAttacks {
		return 0, 0
	}
	t := p.Targets()
	// A queen attacks what a rook or a bishop on its square would, so a
	// rook or bishop never gains more than a queen that may go there.
	t[cheversi.Rook] &^= t[cheversi.Queen]
	t[cheversi.Bishop] &^= t[cheversi.Queen]
	var to uint64 // the squares some move goes to
	for _, b := range t {
		to |= b
	}
	if to == 0 {
		return 0, 0
	}
	var lost [cheversi.NumSquares]int16
	lostOn(&lost, ps, p.Turn(), to)
	// Of the moves that gain the most, the first in GenerateMoves' order
	// (a Move's order) is taken.
	best := math.MinInt
	var bm cheversi.Move
	empty := ^ps.occ
	// The king and the knights first: their gains cost a table look-up.
	for _, k := range [2]cheversi.Piece{cheversi.King, cheversi.Knight} {
		for b := t[k]; b != 0; b &= b - 1 {
			sq := cheversi.Square(bits.TrailingZeros64(b))
			v, m := bits.OnesCount64(reach[k][sq]&empty)+int(lost[sq]), cheversi.NewMove(k, sq)
			if v > best || v == best && m < bm {
				best, bm = v, m
			}
		}
	}
	best, bm = bestSlider(&t, &lost, ps.occ, best, bm)
	if best == math.MinInt {
		return 0, 0
	}
	return best, bm
}

// lostOn sets lost[sq], for the squares sq of to, to what a piece placed
// on sq takes from the score of the side other than us, less what it takes
// from us'.
func lostOn(lost *[cheversi.NumSquares]int16, ps *pieces, us game.Color, to uint64) {
	for _, x := range ps.pl[:ps.n] {
		sign := int16(1)
		if x.color == us {
			sign = -1
		}
		if !slides(x.kind) {
			for a := x.a & to; a != 0; a &= a - 1 {
				lost[bits.TrailingZeros64(a)&63] += sign
			}
			continue
		}
		// A slider also loses the squares of its line beyond.
		for a := x.a & to; a != 0; a &= a - 1 {
			y := bits.TrailingZeros64(a) & 63
			lost[y] += sign * int16(1+bits.OnesCount64(x.a&cheversi.Beyond(x.sq, cheversi.Square(y))))
		}
	}
}

// bestSlider returns the better of the move bm, which gains best, and the
// moves of the sliders to their squares in t, with occ the occupied
// squares: each is looked at only where its bound can beat the best, a
// slider attacking at most the empty squares of its lines.
func bestSlider(t *[cheversi.NumPieces]uint64, lost *[cheversi.NumSquares]int16, occ uint64, best int, bm cheversi.Move) (int, cheversi.Move) {
	empty := ^occ
	for _, k := range [3]cheversi.Piece{cheversi.Queen, cheversi.Rook, cheversi.Bishop} {
		for b := t[k]; b != 0; b &= b - 1 {
			sq := cheversi.Square(bits.TrailingZeros64(b))
			m := cheversi.NewMove(k, sq)
			if bound := bits.OnesCount64(reach[k][sq]&empty) + int(lost[sq]); bound < best || bound == best && m > bm {
				continue
			}
			if v := bits.OnesCount64(cheversi.Attacks(k, sq, occ)&empty) + int(lost[sq]); v > best || v == best && m < bm {
				best, bm = v, m
			}
		}
	}
	return best, bm
}

// reach[k][sq]: the squares a piece of kind k on sq attacks on an empty
// board, cheversi.Attacks(k, sq, 0) in a table: walking the sliders' rays
// on every call made expert 10 % slower.
var reach [cheversi.NumPieces][cheversi.NumSquares]uint64

func init() {
	for k := range cheversi.Piece(cheversi.NumPieces) {
		for sq := range cheversi.Square(cheversi.NumSquares) {
			reach[k][sq] = cheversi.Attacks(k, sq, 0)
		}
	}
}

// evaluate returns the evaluation of p for the side to move, in
// 1/evalScale points, within ±maxEval: the final score difference it
// predicts with the komi counted, so that 0 is an even result. At the end
// of the game it returns the true difference. ps are p's pieces.
func (w *expertWeights) evaluate(p *cheversi.Position, ps *pieces) int {
	return w.eval(p, ps, true)
}

// estimate is evaluate without the greedy exchange, which costs most of an
// evaluation: good enough to order moves by.
func (w *expertWeights) estimate(p *cheversi.Position, ps *pieces) int {
	return w.eval(p, ps, false)
}

// eval is evaluate, with the greedy exchange's features when exchange is
// set and without them otherwise.
func (w *expertWeights) eval(p *cheversi.Position, ps *pieces, exchange bool) int {
	us := p.Turn()
	if p.Ply() >= cheversi.MaxPlies {
		return evalScale * p.Lead(us) / 2
	}
	var f [numFeatures]int32
	features(p, ps, &f, exchange)
	row := &w[p.Ply()]
	var v int64
	for i, x := range f {
		v += int64(x) * int64(row[i])
	}
	// The weights predict the board's margin; the komi moves the line
	// between a win and a loss.
	e := int(v*evalScale/weightScale) - evalScale*int(p.Options().Komi)/2
	if us == game.Black {
		e = -e
	}
	return max(-maxEval, min(maxEval, e))
}
