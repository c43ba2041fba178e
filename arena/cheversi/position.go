package cheversi

import (
	"fmt"
	"math/bits"

	"github.com/arena-games/arena/arena/game"
)

// MaxPlies is the length of every complete game: 8 pieces each.
const MaxPlies = 16

// Position is a Cheversi position together with the rule set it is played
// under. It is a small value: copying it is the cheap way to keep a
// position before playing a move, which search code relies on. Obtain one
// from Rules.StartPosition, Rules.ParsePosition or State.Position (the
// zero Position is the empty board under the zero Options).
//
// Everything the rules need (pending queen call, the square Black's King
// must touch, bishop colours, unplaced pieces) follows from the placed
// pieces and the last placed square, so Position holds nothing else.
type Position struct {
	pieces [2][NumPieces]uint64 // [color][piece] bitboards
	occ    [2]uint64            // all pieces of each color
	key    uint64               // Zobrist key of the placed pieces
	ply    uint8                // pieces placed so far
	last   uint8                // 1 + square of the last placed piece, 0 at ply 0
	opts   Options
}

// Options returns the rule set the position is played under.
func (p *Position) Options() Options { return p.opts }

// Turn returns the side to move: White on even plies, Black on odd ones.
// After the last ply it returns White, although nobody moves.
func (p *Position) Turn() game.Color { return game.Color(p.ply & 1) }

// Ply returns the number of pieces placed so far, 0 to 16.
func (p *Position) Ply() int { return int(p.ply) }

// Last returns the square of the last placed piece; ok is false before the
// first move.
func (p *Position) Last() (sq Square, ok bool) {
	if p.last == 0 {
		return 0, false
	}
	return p.lastSquare(), true
}

// lastSquare returns the square of the last placed piece (a1 before the
// first move).
func (p *Position) lastSquare() Square {
	return Square(p.last-1) & 63
}

// Pieces returns the bitboard (bit i for Square i) of c's pieces of kind pc.
func (p *Position) Pieces(c game.Color, pc Piece) uint64 {
	if c > game.Black || pc >= NumPieces {
		return 0
	}
	return p.pieces[c][pc]
}

// Occupied returns the bitboard of all of c's pieces.
func (p *Position) Occupied(c game.Color) uint64 {
	if c > game.Black {
		return 0
	}
	return p.occ[c]
}

// PieceAt returns the piece on sq and its color; ok is false for an empty
// square.
func (p *Position) PieceAt(sq Square) (pc Piece, c game.Color, ok bool) {
	if sq >= NumSquares {
		return 0, 0, false
	}
	b := uint64(1) << sq
	for c := range game.Color(2) {
		if p.occ[c]&b == 0 {
			continue
		}
		for pc := range Piece(NumPieces) {
			if p.pieces[c][pc]&b != 0 {
				return pc, c, true
			}
		}
	}
	return 0, 0, false
}

// Unplaced returns how many of c's pieces of kind pc are still to be placed.
func (p *Position) Unplaced(c game.Color, pc Piece) int {
	if c > game.Black || pc >= NumPieces {
		return 0
	}
	return pieceCount[pc] - bits.OnesCount64(p.pieces[c][pc])
}

// moveMasks holds, for each piece kind, the squares it may legally go to.
type moveMasks [NumPieces]uint64

// targets fills t with the legal target squares of each piece kind for the
// side to move. It applies every rule, including the lifting of the touch
// constraint when it would leave no legal move.
func (p *Position) targets(t *moveMasks) {
	*t = moveMasks{}
	if p.ply >= MaxPlies {
		return
	}
	us := p.ply & 1
	occ := p.occ[0] | p.occ[1]
	kinds := p.kindsToPlace(us)
	base, kingTo, bishopTo := p.targetMasks(us, ^occ, &kinds)
	touch := p.touchMask(occ)
	if fillTargets(t, kinds, base&touch, kingTo, bishopTo) == 0 && touch != allSquares {
		// No legal move: the touch constraint is lifted for this move.
		fillTargets(t, kinds, base, kingTo, bishopTo)
	}
}

// kindsToPlace returns the set (bit k for Piece k) of the piece kinds the
// side us has a piece left to place of, as the opening and the queen call
// allow on this ply.
func (p *Position) kindsToPlace(us uint8) uint8 {
	o := &p.opts
	mine := &p.pieces[us]
	var kinds uint8
	if mine[King] == 0 {
		kinds |= 1 << King
	}
	if mine[Queen] == 0 {
		kinds |= 1 << Queen
	}
	if b := mine[Rook]; b&(b-1) == 0 {
		kinds |= 1 << Rook
	}
	if b := mine[Bishop]; b&(b-1) == 0 {
		kinds |= 1 << Bishop
	}
	if b := mine[Knight]; b&(b-1) == 0 {
		kinds |= 1 << Knight
	}
	switch {
	case p.ply == 0 && o.Opening != OpeningFree:
		kinds &= 1 << King
	case p.ply == 1 && o.Opening == OpeningKingQueen:
		kinds &= 1 << Queen
	}
	if o.QueenCall && p.queenCalled() {
		kinds &= 1 << Queen
	}
	return kinds
}

// targetMasks returns the squares the side us may place on before the
// touch switch (base), and those its King and its Bishop may take, by the
// black-King-last and opposite-Bishops switches; the first may also take
// the King out of kinds.
func (p *Position) targetMasks(us uint8, empty uint64, kinds *uint8) (base, kingTo, bishopTo uint64) {
	o := &p.opts
	base, kingTo, bishopTo = empty, allSquares, allSquares
	if o.BlackKingLast {
		switch {
		case us == uint8(game.Black) && p.ply < MaxPlies-1:
			*kinds &^= 1 << King
		case us == uint8(game.Black):
			kingTo = kingAttacks[p.lastSquare()]
		case p.ply == MaxPlies-2:
			// White's last piece must leave Black's King a square.
			base &= neighbours(empty)
		}
	}
	if b := p.pieces[us][Bishop]; o.BishopsOpposite && b != 0 && b&(b-1) == 0 {
		bishopTo = darkSquares
		if b&darkSquares != 0 {
			bishopTo = ^darkSquares
		}
	}
	return base, kingTo, bishopTo
}

// fillTargets sets t[k] for each piece kind k in kinds to the squares of
// to it may take, and returns their union.
func fillTargets(t *moveMasks, kinds uint8, to, kingTo, bishopTo uint64) uint64 {
	var found uint64
	for k := range Piece(NumPieces) {
		if kinds&(1<<k) == 0 {
			continue
		}
		m := to
		switch k {
		case King:
			m &= kingTo
		case Bishop:
			m &= bishopTo
		}
		t[k] = m
		found |= m
	}
	return found
}

// touchMask returns the squares the touch switch allows for the side to
// move (all squares for White's first move).
func (p *Position) touchMask(occ uint64) uint64 {
	if p.ply == 0 {
		return allSquares
	}
	switch p.opts.Touch {
	case TouchOpponent:
		return neighbours(p.occ[p.ply&1^1])
	case TouchAny:
		return neighbours(occ)
	}
	return allSquares
}

// queenCalled reports whether the opponent's last move placed its Queen
// while the side to move still has its own Queen to place (whether or not
// the queen_call switch is on).
func (p *Position) queenCalled() bool {
	if p.last == 0 {
		return false
	}
	us := p.ply & 1
	return p.pieces[us][Queen] == 0 && p.pieces[us^1][Queen]&(1<<p.lastSquare()) != 0
}

// GenerateMoves appends the legal moves to dst and returns it, ordered by
// piece kind (K, Q, R, B, N) then square. It does not allocate when dst has
// room for the moves (at most 5 × 64).
func (p *Position) GenerateMoves(dst []Move) []Move {
	var t moveMasks
	p.targets(&t)
	for k := range Piece(NumPieces) {
		for b := t[k]; b != 0; b &= b - 1 {
			dst = append(dst, NewMove(k, Square(bits.TrailingZeros64(b))))
		}
	}
	return dst
}

// Targets returns, for each piece kind (indexed by Piece), the squares the
// side to move may legally place a piece of that kind on: the squares of
// GenerateMoves' moves, as bit sets. All are empty when the game is over.
func (p *Position) Targets() [NumPieces]uint64 {
	var t moveMasks
	p.targets(&t)
	return t
}

// CountMoves returns the number of legal moves.
func (p *Position) CountMoves() int {
	var t moveMasks
	p.targets(&t)
	return countMasks(&t)
}

func countMasks(t *moveMasks) int {
	return bits.OnesCount64(t[0]) + bits.OnesCount64(t[1]) + bits.OnesCount64(t[2]) +
		bits.OnesCount64(t[3]) + bits.OnesCount64(t[4])
}

// Legal reports whether m is a legal move in p.
func (p *Position) Legal(m Move) bool {
	if !m.Valid() {
		return false
	}
	var t moveMasks
	p.targets(&t)
	return t[m.Piece()]&(1<<m.Square()) != 0
}

// Over reports whether the game has ended: all pieces are placed or the
// side to move has no legal move.
func (p *Position) Over() bool {
	return p.ply >= MaxPlies || p.CountMoves() == 0
}

// Play places m for the side to move. It does not check legality: m must
// come from GenerateMoves, or have passed Legal or ParseMove. Playing
// anything else leaves a position the rules cannot reach (an invalid Move,
// an occupied square or a finished game leave p unchanged).
func (p *Position) Play(m Move) {
	pc, sq := m.Piece(), m.Square()
	occ := p.occ[0] | p.occ[1]
	if pc >= NumPieces || p.ply >= MaxPlies || occ&(1<<sq) != 0 {
		return
	}
	p.place(p.ply&1, pc, sq)
}

// place puts a piece of color c on sq and advances the ply.
func (p *Position) place(c uint8, pc Piece, sq Square) {
	b := uint64(1) << sq
	p.pieces[c][pc] |= b
	p.occ[c] |= b
	p.key ^= zobrist[c][pc][sq]
	p.ply++
	p.last = uint8(sq) + 1
}

// unplace takes back place(c, pc, sq), restoring the previous last square.
func (p *Position) unplace(c uint8, pc Piece, sq Square, last uint8) {
	b := uint64(1) << sq
	p.pieces[c][pc] &^= b
	p.occ[c] &^= b
	p.key ^= zobrist[c][pc][sq]
	p.ply--
	p.last = last
}

// Perft returns the number of legal move sequences of the given depth from
// p (1 for depth 0 or less, 0 for a finished game). It counts the moves of
// the last ply without playing them and does not allocate.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	q := *p
	return q.perft(depth)
}

// perft plays and takes back moves on p, leaving it as it found it.
func (p *Position) perft(depth int) uint64 {
	var t moveMasks
	p.targets(&t)
	if depth == 1 {
		return uint64(countMasks(&t))
	}
	var n uint64
	us, last := p.ply&1, p.last
	for k := range Piece(NumPieces) {
		for b := t[k]; b != 0; b &= b - 1 {
			sq := Square(bits.TrailingZeros64(b))
			p.place(us, k, sq)
			n += p.perft(depth - 1)
			p.unplace(us, k, sq, last)
		}
	}
	return n
}

// Score returns c's score under the rule set's scoring mode, for any
// position (a partial one scores its placed pieces over its empty
// squares). With scoring "attacks" each piece earns a point for every empty
// square it attacks; with "squares" c earns a point for every empty square
// at least one of its pieces attacks. Sliding attacks stop at the first
// occupied square of either color.
func (p *Position) Score(c game.Color) int {
	if c > game.Black {
		return 0
	}
	occ := p.occ[0] | p.occ[1]
	empty := ^occ
	pcs := &p.pieces[c]
	if p.opts.Scoring == ScoreSquares {
		return bits.OnesCount64(p.attacked(c, occ) & empty)
	}
	n := 0
	if b := pcs[King]; b != 0 {
		n += bits.OnesCount64(kingAttacks[bits.TrailingZeros64(b)] & empty)
	}
	for b := pcs[Knight]; b != 0; b &= b - 1 {
		n += bits.OnesCount64(knightAttacks[bits.TrailingZeros64(b)] & empty)
	}
	for b := pcs[Rook] | pcs[Queen]; b != 0; b &= b - 1 {
		n += bits.OnesCount64(rookAttacks(Square(bits.TrailingZeros64(b)), occ) & empty)
	}
	for b := pcs[Bishop] | pcs[Queen]; b != 0; b &= b - 1 {
		n += bits.OnesCount64(bishopAttacks(Square(bits.TrailingZeros64(b)), occ) & empty)
	}
	return n
}

// Attacked returns the bitboard of squares (empty or not) that at least one
// of c's pieces attacks.
func (p *Position) Attacked(c game.Color) uint64 {
	if c > game.Black {
		return 0
	}
	return p.attacked(c, p.occ[0]|p.occ[1])
}

func (p *Position) attacked(c game.Color, occ uint64) uint64 {
	pcs := &p.pieces[c]
	a := neighbours(pcs[King])
	for b := pcs[Knight]; b != 0; b &= b - 1 {
		a |= knightAttacks[bits.TrailingZeros64(b)]
	}
	for b := pcs[Rook] | pcs[Queen]; b != 0; b &= b - 1 {
		a |= rookAttacks(Square(bits.TrailingZeros64(b)), occ)
	}
	for b := pcs[Bishop] | pcs[Queen]; b != 0; b &= b - 1 {
		a |= bishopAttacks(Square(bits.TrailingZeros64(b)), occ)
	}
	return a
}

// Lead returns by how much c is ahead, in half-points and with the komi
// counted: 2·(c's score − the other side's) − Komi for White, and the
// opposite for Black. After the last ply the side with a positive lead
// has won, and a zero lead is a draw.
func (p *Position) Lead(c game.Color) int {
	d := 2*(p.Score(game.White)-p.Score(game.Black)) - int(p.opts.Komi)
	if c == game.Black {
		return -d
	}
	return d
}

// Outcome reports whether and how the game has ended. A finished game has
// Scores indexed by game.Color. After 16 plies the side ahead with the
// komi counted wins (Lead; game.ReasonScore); a side to move without a
// legal move loses (game.ReasonNoMoves), and Scores then holds the scores
// of that position. Scores never include the komi.
func (p *Position) Outcome() game.Outcome {
	if p.ply < MaxPlies && p.CountMoves() > 0 {
		return game.Outcome{}
	}
	w, b := p.Score(game.White), p.Score(game.Black)
	o := game.Outcome{Scores: []int{w, b}}
	lead := 2*(w-b) - int(p.opts.Komi)
	switch {
	case p.ply < MaxPlies:
		o.Result, o.Reason = game.Win(p.Turn().Other()), game.ReasonNoMoves
	case lead > 0:
		o.Result, o.Reason = game.WhiteWins, game.ReasonScore
	case lead < 0:
		o.Result, o.Reason = game.BlackWins, game.ReasonScore
	default:
		o.Result, o.Reason = game.Draw, game.ReasonScore
	}
	return o
}

// Hash returns a Zobrist hash of the position for transposition tables.
// Positions that differ in their placed pieces hash differently (up to
// collisions); the last placed square is mixed in only where some rule set
// depends on it (a pending queen call, and ply 15, where Black's King must
// touch White's last piece), so transpositions otherwise hash alike. The
// rule set is not part of the hash.
func (p *Position) Hash() uint64 {
	h := p.key
	if p.hashesLast() {
		h ^= zobristLast[p.lastSquare()]
	}
	return h
}

// hashesLast reports whether the last placed square is part of Hash.
func (p *Position) hashesLast() bool {
	return p.last != 0 && (p.ply == MaxPlies-1 || p.queenCalled())
}

var (
	zobrist     [2][NumPieces][NumSquares]uint64
	zobristLast [NumSquares]uint64
)

func init() {
	// splitmix64 with a fixed seed: hashes are stable across runs.
	x := uint64(0x636865766572736)
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for c := range zobrist {
		for pc := range zobrist[c] {
			for sq := range zobrist[c][pc] {
				zobrist[c][pc][sq] = next()
			}
		}
	}
	for sq := range zobristLast {
		zobristLast[sq] = next()
	}
}

// ParseMove decodes move text in drop notation and checks that it is legal
// in p. Errors wrap game.ErrBadNotation for bad text and game.ErrIllegalMove
// (with the reason) for a well-formed move that is not legal here.
func (p *Position) ParseMove(text string) (Move, error) {
	m, err := ParseMove(text)
	if err != nil {
		return 0, err
	}
	if err := p.check(m); err != nil {
		return 0, err
	}
	return m, nil
}

// check returns nil if m is legal and otherwise an error wrapping
// game.ErrIllegalMove that says why.
func (p *Position) check(m Move) error {
	if !m.Valid() {
		return fmt.Errorf("%w: invalid move %v", game.ErrIllegalMove, m)
	}
	var t moveMasks
	p.targets(&t)
	if t == (moveMasks{}) {
		// No legal move at all: the game is over (see Over).
		return fmt.Errorf("%w %v: %w", game.ErrIllegalMove, m, game.ErrGameOver)
	}
	pc, sq := m.Piece(), m.Square()
	if t[pc]&(1<<sq) != 0 {
		return nil
	}
	return fmt.Errorf("%w %v: %s", game.ErrIllegalMove, m, p.whyIllegal(pc, sq))
}

// whyIllegal explains why placing pc on sq is not legal, testing the rules
// in the order targets applies them.
func (p *Position) whyIllegal(pc Piece, sq Square) string {
	us := p.Turn()
	o := &p.opts
	b := uint64(1) << sq
	occ := p.occ[0] | p.occ[1]
	switch {
	case occ&b != 0:
		return fmt.Sprintf("%v is occupied", sq)
	case p.Unplaced(us, pc) == 0:
		return fmt.Sprintf("%s has no %s left to place", us, pc.name())
	case p.ply == 0 && o.Opening != OpeningFree && pc != King:
		return fmt.Sprintf("white's first move must place the king (opening %v)", o.Opening)
	case p.ply == 1 && o.Opening == OpeningKingQueen && pc != Queen:
		return fmt.Sprintf("black's first move must place the queen (opening %v)", o.Opening)
	case o.QueenCall && p.queenCalled() && pc != Queen:
		return "queen must be placed (queen call)"
	}
	if why := p.whyNotKingLast(pc, sq, occ); why != "" {
		return why
	}
	if why := p.whyNotBishopsOpposite(pc, b); why != "" {
		return why
	}
	if p.touchMask(occ)&b == 0 {
		if o.Touch == TouchOpponent {
			return "must touch an opponent piece"
		}
		return "must touch a piece"
	}
	return "not a legal move here"
}

// whyNotKingLast returns why the black-King-last switch refuses placing pc
// on sq with the squares occ taken, or "" if it does not.
func (p *Position) whyNotKingLast(pc Piece, sq Square, occ uint64) string {
	if !p.opts.BlackKingLast {
		return ""
	}
	us := p.Turn()
	switch {
	case us == game.Black && pc == King && p.ply < MaxPlies-1:
		return "black's king must be its last piece (black_king_last)"
	case us == game.Black && pc == King && kingAttacks[p.lastSquare()]&(uint64(1)<<sq) == 0:
		return fmt.Sprintf("black's king must go next to %v, white's last piece (black_king_last)", p.lastSquare())
	case p.ply == MaxPlies-2 && kingAttacks[sq]&^occ == 0:
		return "white's last piece must leave an empty square next to it for black's king (black_king_last)"
	}
	return ""
}

// whyNotBishopsOpposite returns why the opposite-Bishops switch refuses
// placing pc on the square b (a bitboard), or "" if it does not.
func (p *Position) whyNotBishopsOpposite(pc Piece, b uint64) string {
	pb := p.pieces[p.Turn()][Bishop]
	if pc != Bishop || !p.opts.BishopsOpposite || pb == 0 || (pb&darkSquares != 0) != (b&darkSquares != 0) {
		return ""
	}
	colour := "light"
	if b&darkSquares == 0 {
		colour = "dark"
	}
	return fmt.Sprintf("the second bishop must go on a %s square (bishops_opposite)", colour)
}

// Parents appends to dst the positions from which one legal move leads to
// p or to a position that hashes as p does (Hash: the same pieces, and a
// last placed square that differs only where no rule depends on it), and
// returns it. Each is such a position with its last placed piece taken back
// and, for the last square before it, one of the previous mover's pieces
// that could have been placed last (none at ply 1).
func (p *Position) Parents(dst []Position) []Position {
	if p.ply == 0 {
		return dst
	}
	c := (p.ply - 1) & 1
	h := p.Hash()
	for b := p.occ[c]; b != 0; b &= b - 1 {
		q := *p
		q.last = uint8(bits.TrailingZeros64(b)) + 1
		if q.Hash() == h {
			dst = q.parentsOfLast(dst)
		}
	}
	return dst
}

// parentsOfLast appends the parents of p whose move placed the piece on
// p's last square.
func (p *Position) parentsOfLast(dst []Position) []Position {
	sq := Square(p.last - 1)
	pc, c, ok := p.PieceAt(sq)
	if !ok {
		return dst
	}
	m := NewMove(pc, sq)
	q := *p
	q.unplace(uint8(c), pc, sq, 0)
	if q.ply == 0 {
		if q.Legal(m) {
			dst = append(dst, q)
		}
		return dst
	}
	for b := q.occ[c^1]; b != 0; b &= b - 1 {
		r := q
		r.last = uint8(bits.TrailingZeros64(b)) + 1
		if r.Legal(m) {
			dst = append(dst, r)
		}
	}
	return dst
}
