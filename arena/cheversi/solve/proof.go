package solve

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// A proof shows the value of a position down to the positions of a cut
// ply, whose values it states and a checker solves again (all of them, or a
// sample). A value is shown by Bounds: a win is "at least a win", a loss
// "at most a loss", a draw both "at least a draw" and "at most a draw". A
// bound "at least t" needs one move whose position is at most -t for the
// opponent; "at most t" needs every move's position to be at least -t. So a
// draw needs, on each side, one move that holds it and, against each other
// move, one answer: not the values of every move. The proof holds, for
// every claim of its tree in depth-first order, one record:
//
//   - a leaf (a position at the cut ply, or a finished game): its value;
//   - "at least a win" or "at least a draw": the index of the move among
//     the position's distinct moves in the order children gives them (the
//     moves whose positions are not images of an earlier move's under a
//     symmetry of the board, sorted as the solver sorts them), followed by
//     the record of that move's position;
//   - "at most a loss" or "at most a draw": the records of all its distinct
//     moves' positions, in order;
//   - a position met before (a transposition, or an image of an earlier
//     position under a symmetry) whose Bounds shown there are enough:
//     nothing more.
//
// So the positions are never written out: each follows from its parent and
// an index, as the rules generate them. The root has one record, or two for
// a draw (at least, then at most). The file is gzip-compressed; its text
// header names the rule set, the root position and the cut ply:
//
//	arena cheversi proof 2
//	rules opening=king-first touch=opponent ...
//	root 8/8/8/8/8/8/8/8 w 0 -
//	cut 6
//	value loss
//	(an empty line, then the records)
const proofMagic = "arena cheversi proof 2"

// Record tags.
const (
	tagLeafLoss byte = iota
	tagLeafDraw
	tagLeafWin
	tagWin         // at least a win: + uvarint index of the move
	_              // (a draw of proof format 1, which listed every move)
	tagLoss        // at most a loss: + every move
	tagSeen        // a position already in the proof
	tagAtLeastDraw // + uvarint index of the move
	tagAtMostDraw  // + every move
)

// claim is a bound on a position's value for the side to move: at least t
// (atLeast) or at most t.
type claim struct {
	t       Value
	atLeast bool
}

// holds reports whether Bounds b imply c.
func (b Bounds) holds(c claim) bool {
	if c.atLeast {
		return b.Lo >= c.t
	}
	return b.Hi <= c.t
}

// with returns b narrowed by c.
func (b Bounds) with(c claim) Bounds {
	if c.atLeast {
		b.Lo = max(b.Lo, c.t)
	} else {
		b.Hi = min(b.Hi, c.t)
	}
	return b
}

var unbounded = Bounds{Lo: Loss, Hi: Win}

// String returns "at least a draw", "at most a loss" and so on.
func (c claim) String() string {
	if c.atLeast {
		return "at least a " + c.t.String()
	}
	return "at most a " + c.t.String()
}

// rootClaims are the claims that show b.
func rootClaims(b Bounds) []claim {
	var cs []claim
	if b.Lo > Loss {
		cs = append(cs, claim{b.Lo, true})
	}
	if b.Hi < Win {
		cs = append(cs, claim{b.Hi, false})
	}
	return cs
}

// boundsText is the header's text of b: "win", "draw", "loss", "at least
// draw" or "at most draw".
func boundsText(b Bounds) string {
	switch {
	case b.Exact():
		return b.Lo.String()
	case b.Lo > Loss:
		return "at least " + b.Lo.String()
	}
	return "at most " + b.Hi.String()
}

// ErrIncomplete is returned by WriteProof when the results lack a value
// the proof needs.
var ErrIncomplete = errors.New("the results do not prove the value yet")

// WriteProof writes the proof of root's value, down to the positions at the
// cut ply, from the values in res, to w; when the value is not known yet,
// the proof of what is known of it (say, at least a draw), if anything is.
// It returns what the proof shows and the number of leaves.
func WriteProof(w io.Writer, rules *cheversi.Rules, root *cheversi.Position, cut int, res *Results) (Bounds, int, error) {
	wk := newWalker(res, cut)
	wk.up = newUpward(res, root.Ply())
	b := wk.bounds(root)
	if b.Lo == Loss && b.Hi == Win {
		return Bounds{}, 0, fmt.Errorf("%w: %d units needed", ErrIncomplete, len(wk.frontier))
	}
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriter(zw)
	fmt.Fprintf(bw, "%s\n%s\nroot %s\ncut %d\nvalue %s\n\n", proofMagic, strings.TrimPrefix(rulesLine(rules), "# "), root.Text(), cut, boundsText(b))
	pw := &proofWriter{wk: wk, w: bw, seen: map[uint64]Bounds{}}
	for _, c := range rootClaims(b) {
		if err := pw.write(root, c); err != nil {
			return Bounds{}, 0, err
		}
	}
	if err := bw.Flush(); err != nil {
		return Bounds{}, 0, err
	}
	if err := zw.Close(); err != nil {
		return Bounds{}, 0, err
	}
	return b, pw.leaves, nil
}

type proofWriter struct {
	wk     *walker
	w      *bufio.Writer
	seen   map[uint64]Bounds // what the records written show
	leaves int
	buf    [binary.MaxVarintLen64]byte
}

// write writes the record of claim c on p, which the walker has shown.
func (pw *proofWriter) write(p *cheversi.Position, c claim) error {
	key := CanonicalKey(p)
	b, ok := pw.seen[key]
	if ok && b.holds(c) {
		return pw.w.WriteByte(tagSeen)
	}
	if !ok {
		b = unbounded
	}
	if p.Over() || p.Ply() >= pw.wk.cut {
		v := pw.wk.peek(p, key)
		if v.Lo != v.Hi || !v.holds(c) {
			return fmt.Errorf("%w: %s has no solved value", ErrIncomplete, p.Text())
		}
		pw.seen[key] = v
		pw.leaves++
		return pw.w.WriteByte(byte(int(v.Lo) + 1))
	}
	pw.seen[key] = b.with(c)
	if c.atLeast {
		return pw.writeMove(p, c)
	}
	tag := tagAtMostDraw
	if c.t == Loss {
		tag = tagLoss
	}
	if err := pw.w.WriteByte(tag); err != nil {
		return err
	}
	for _, ch := range children(p) {
		if pw.wk.atLeast(&ch.pos, -c.t) != yes {
			return fmt.Errorf("%w: %s after %s is not shown to be at least a %s", ErrIncomplete, ch.move, p.Text(), -c.t)
		}
		if err := pw.write(&ch.pos, claim{-c.t, true}); err != nil {
			return err
		}
	}
	return nil
}

// writeMove writes the record of "p is at least c.t": the first move whose
// position is shown to be at most -c.t for the opponent, and its record.
func (pw *proofWriter) writeMove(p *cheversi.Position, c claim) error {
	tag := tagAtLeastDraw
	if c.t == Win {
		tag = tagWin
	}
	for i, ch := range children(p) {
		if pw.wk.atLeast(&ch.pos, 1-c.t) != no {
			continue
		}
		pw.w.WriteByte(tag)
		n := binary.PutUvarint(pw.buf[:], uint64(i))
		pw.w.Write(pw.buf[:n])
		return pw.write(&ch.pos, claim{-c.t, false})
	}
	return fmt.Errorf("%w: no move shown to hold a %s at %s", ErrIncomplete, c.t, p.Text())
}

// Proof is a proof read by ReadProof, its tree checked.
type Proof struct {
	Rules *cheversi.Rules
	Root  cheversi.Position
	Cut   int
	// Shown is what the proof shows of Root's value for the side to move:
	// the value itself (Value) when the bounds meet, or a bound.
	Shown Bounds
	Value Value
	// Move is a move of Root that holds its lower bound, when it has one
	// above a loss.
	Move cheversi.Move
	// Leaves are the positions at the cut ply with the values the proof
	// states for them (finished games are checked by the rules at once).
	Leaves []Entry
	// Nodes is the number of records.
	Nodes int
	// known holds each position of the tree (by canonical hash) with what
	// the proof shows of its value and, where that is at least a draw, the
	// move that holds it, in the canonical orientation.
	known map[uint64]bookEntry
}

type bookEntry struct {
	b    Bounds
	move cheversi.Move // 0 unless b.Lo is at least a draw
}

// ErrBadProof is wrapped by the errors of ReadProof about a proof that does
// not hold.
var ErrBadProof = errors.New("bad proof")

// ReadProof reads a proof and checks everything but its leaves' values:
// that every record fits the position the rules give it, that every move of
// a drawn or lost position is there, that each stated value follows from
// its children's, and that it ends where it should. Check the leaves with
// CheckLeaves.
func ReadProof(r io.Reader) (*Proof, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadProof, err)
	}
	br := bufio.NewReader(zr)
	pr := &Proof{}
	if err := pr.readHeader(br); err != nil {
		return nil, err
	}
	pr.known = map[uint64]bookEntry{}
	rd := newProofReader(br, pr)
	if err := rd.readRoot(); err != nil {
		return nil, err
	}
	if pr.Shown.Exact() {
		pr.Value = pr.Shown.Lo
	}
	if _, key, sym := Canonical(&pr.Root); rd.moves[key] != 0 {
		pr.Move = sym.Inverse().Move(rd.moves[key])
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%w: records left after the tree", ErrBadProof)
	}
	return pr, nil
}

func (pr *Proof) readHeader(br *bufio.Reader) error {
	line := func() (string, error) {
		s, err := br.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("%w: header: %w", ErrBadProof, err)
		}
		return strings.TrimSuffix(s, "\n"), nil
	}
	field := func(name string) (string, error) {
		s, err := line()
		if err != nil {
			return "", err
		}
		v, ok := strings.CutPrefix(s, name+" ")
		if !ok {
			return "", fmt.Errorf("%w: header: want %q, got %q", ErrBadProof, name, s)
		}
		return v, nil
	}
	if s, err := line(); err != nil || s != proofMagic {
		return fmt.Errorf("%w: not a Cheversi proof", ErrBadProof)
	}
	rs, err := field("rules")
	if err != nil {
		return err
	}
	if pr.Rules, err = rulesFromLine(rs); err != nil {
		return fmt.Errorf("%w: %w", ErrBadProof, err)
	}
	root, err := field("root")
	if err != nil {
		return err
	}
	if pr.Root, err = pr.Rules.ParsePosition(root); err != nil {
		return fmt.Errorf("%w: root: %w", ErrBadProof, err)
	}
	cut, err := field("cut")
	if err != nil {
		return err
	}
	if pr.Cut, err = strconv.Atoi(cut); err != nil || pr.Cut < pr.Root.Ply() || pr.Cut > cheversi.MaxPlies {
		return fmt.Errorf("%w: cut %q", ErrBadProof, cut)
	}
	val, err := field("value")
	if err != nil {
		return err
	}
	if pr.Shown, err = parseBounds(val); err != nil {
		return fmt.Errorf("%w: %w", ErrBadProof, err)
	}
	if s, err := line(); err != nil || s != "" {
		return fmt.Errorf("%w: header: want an empty line", ErrBadProof)
	}
	return nil
}

// rulesFromLine builds the rule set a "rules" header names.
func rulesFromLine(s string) (*cheversi.Rules, error) {
	var sets []game.Setting
	for _, kv := range strings.Fields(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("rules: %q is not key=value", kv)
		}
		sets = append(sets, game.Setting{Key: k, Value: v})
	}
	return cheversi.New("cheversi", sets)
}

// parseBounds parses the header's value: "win", "draw", "loss", "at least
// draw" or "at most draw".
func parseBounds(s string) (Bounds, error) {
	if t, ok := strings.CutPrefix(s, "at least "); ok {
		if v, err := parseValue(t); err == nil && v == Draw {
			return Bounds{Lo: Draw, Hi: Win}, nil
		}
	} else if t, ok := strings.CutPrefix(s, "at most "); ok {
		if v, err := parseValue(t); err == nil && v == Draw {
			return Bounds{Lo: Loss, Hi: Draw}, nil
		}
	} else if v, err := parseValue(s); err == nil {
		return Bounds{Lo: v, Hi: v}, nil
	}
	return Bounds{}, fmt.Errorf("bad value %q (want win, draw, loss, at least draw or at most draw)", s)
}

func parseValue(s string) (Value, error) {
	switch s {
	case "win":
		return Win, nil
	case "draw":
		return Draw, nil
	case "loss":
		return Loss, nil
	}
	return 0, fmt.Errorf("bad value %q (want win, draw or loss)", s)
}

type proofReader struct {
	r    *bufio.Reader
	pr   *Proof
	seen map[uint64]Bounds
	// moves holds, by canonical hash, the move (in the canonical
	// orientation) that shows a position's lower bound.
	moves map[uint64]cheversi.Move
	// onLeaf, when not nil, gives the offset of each leaf record at the
	// cut ply, kept in leafAt (for tests that alter a proof).
	onLeaf func() int
	leafAt []int
}

func newProofReader(r *bufio.Reader, pr *Proof) *proofReader {
	return &proofReader{r: r, pr: pr, seen: map[uint64]Bounds{}, moves: map[uint64]cheversi.Move{}}
}

// readRoot reads the records of the root, which must show the value the
// header states.
func (rd *proofReader) readRoot() error {
	for _, c := range rootClaims(rd.pr.Shown) {
		if err := rd.read(&rd.pr.Root, c); err != nil {
			return err
		}
	}
	return nil
}

// read reads the record of p, which must show claim c.
func (rd *proofReader) read(p *cheversi.Position, c claim) error {
	tag, err := rd.r.ReadByte()
	if err != nil {
		return fmt.Errorf("%w: the records end early, at %s", ErrBadProof, p.Text())
	}
	rd.pr.Nodes++
	key := CanonicalKey(p)
	b, met := rd.seen[key]
	if tag == tagSeen {
		if !met || !b.holds(c) {
			return fmt.Errorf("%w: %s is marked as shown before and was not", ErrBadProof, p.Text())
		}
		return nil
	}
	if met && b.holds(c) {
		return fmt.Errorf("%w: %s is shown twice", ErrBadProof, p.Text())
	}
	if !met {
		b = unbounded
	}
	shown, err := rd.node(p, tag, c)
	if err != nil {
		return err
	}
	if !shown.holds(c) {
		return fmt.Errorf("%w: %s is to be %s, its record shows %s", ErrBadProof, p.Text(), c, shown)
	}
	rd.seen[key] = Bounds{Lo: max(b.Lo, shown.Lo), Hi: min(b.Hi, shown.Hi)}
	rd.know(p, rd.seen[key], tag)
	return nil
}

// node reads the rest of a record with tag at p and returns what it shows.
func (rd *proofReader) node(p *cheversi.Position, tag byte, c claim) (Bounds, error) {
	leaf := p.Over() || p.Ply() >= rd.pr.Cut
	switch {
	case tag <= tagLeafWin && !leaf:
		return Bounds{}, fmt.Errorf("%w: a leaf at %s, above the cut ply %d", ErrBadProof, p.Text(), rd.pr.Cut)
	case tag > tagLeafWin && leaf:
		return Bounds{}, fmt.Errorf("%w: %s should be a leaf", ErrBadProof, p.Text())
	case tag <= tagLeafWin:
		v, err := rd.leaf(p, Value(tag)-1)
		return Bounds{Lo: v, Hi: v}, err
	case tag == tagWin:
		return rd.move(p, Win)
	case tag == tagAtLeastDraw:
		return rd.move(p, Draw)
	case tag == tagLoss:
		return rd.all(p, Loss)
	case tag == tagAtMostDraw:
		return rd.all(p, Draw)
	}
	return Bounds{}, fmt.Errorf("%w: unknown record %d at %s", ErrBadProof, tag, p.Text())
}

// leaf records a leaf stated to have value v; a finished game's value is
// checked at once.
func (rd *proofReader) leaf(p *cheversi.Position, v Value) (Value, error) {
	if p.Over() {
		if tv := terminalValue(p); tv != v {
			return 0, fmt.Errorf("%w: finished game %s is a %s, not a %s", ErrBadProof, p.Text(), tv, v)
		}
		return v, nil
	}
	rd.pr.Leaves = append(rd.pr.Leaves, Entry{Key: CanonicalKey(p), Position: *p, Value: v})
	if rd.onLeaf != nil {
		rd.leafAt = append(rd.leafAt, rd.onLeaf())
	}
	return v, nil
}

// move reads the move of a position shown to be at least t, and its
// record, which must show the opponent at most -t.
func (rd *proofReader) move(p *cheversi.Position, t Value) (Bounds, error) {
	cs := children(p)
	i, err := binary.ReadUvarint(rd.r)
	if err != nil || i >= uint64(len(cs)) {
		return Bounds{}, fmt.Errorf("%w: bad move index at %s", ErrBadProof, p.Text())
	}
	if err := rd.read(&cs[i].pos, claim{-t, false}); err != nil {
		return Bounds{}, err
	}
	_, key, sym := Canonical(p)
	rd.moves[key] = sym.Move(cs[i].move)
	return Bounds{Lo: t, Hi: Win}, nil
}

// all reads the records of every move of a position shown to be at most t,
// each of which must show the opponent at least -t.
func (rd *proofReader) all(p *cheversi.Position, t Value) (Bounds, error) {
	for _, c := range children(p) {
		if err := rd.read(&c.pos, claim{-t, true}); err != nil {
			return Bounds{}, err
		}
	}
	return Bounds{Lo: Loss, Hi: t}, nil
}

// know records in the proof's book what is shown of p, with the move that
// holds its lower bound where there is one.
func (rd *proofReader) know(p *cheversi.Position, b Bounds, tag byte) {
	if rd.pr.known == nil || b == unbounded {
		return
	}
	key := CanonicalKey(p)
	e := bookEntry{b: b}
	if m, ok := rd.moves[key]; ok && b.Lo >= Draw {
		e.move = m
	}
	rd.pr.known[key] = e
}

// CheckLeaves solves n leaves of pr (all of them when n <= 0 or n is at
// least their number), drawn at random from seed, with a plain Solver (see
// SolverOptions.Plain) whose table has tableBytes bytes, and reports the first whose value is not
// the one the proof states. progress, when not nil, is called after each.
func (pr *Proof) CheckLeaves(ctx context.Context, n int, seed uint64, tableBytes int64, progress func(done, total int, e Entry)) error {
	idx := make([]int, len(pr.Leaves))
	for i := range idx {
		idx[i] = i
	}
	if n > 0 && n < len(idx) {
		r := rand.New(rand.NewPCG(seed, 0x70726f6f66))
		r.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		idx = idx[:n]
	}
	// One table serves every leaf: what it holds are facts about
	// positions found by this check's own searches, true whatever the
	// position a search starts from. The search is the plain one, which
	// does not share the solver's own code for the last plies.
	s := NewSolver(SolverOptions{TableBytes: tableBytes, Plain: true})
	for k, i := range idx {
		leaf := pr.Leaves[i]
		r, err := s.Solve(ctx, &leaf.Position)
		if err != nil {
			return err
		}
		if r.Value != leaf.Value {
			return fmt.Errorf("%w: leaf %s is a %s for the side to move, not a %s", ErrBadProof, leaf.Position.Text(), r.Value, leaf.Value)
		}
		if progress != nil {
			progress(k+1, len(idx), leaf)
		}
	}
	return nil
}

// Lookup returns what the proof says of p: its value for the side to move,
// and for a won or drawn position the move the proof gives that achieves
// it, where it gives one (0 otherwise).
// ok is false when p is not in the proof's tree above its leaves.
func (pr *Proof) Lookup(p *cheversi.Position) (v Value, m cheversi.Move, ok bool) {
	if p.Options() != pr.Rules.Options() {
		return 0, 0, false
	}
	b, m, ok := pr.bounds(p)
	if !ok || !b.Exact() {
		return 0, 0, false
	}
	return b.Lo, m, true
}

// bounds returns what the proof shows of p's value for the side to move
// under the proof's rules, with the move that holds its lower bound where
// that is at least a draw; ok is false when p is not in the proof's tree.
// p's own rules are not looked at: they may differ in the komi.
func (pr *Proof) bounds(p *cheversi.Position) (b Bounds, m cheversi.Move, ok bool) {
	if pr.known == nil {
		return unbounded, 0, false
	}
	_, key, sym := Canonical(p)
	e, ok := pr.known[key]
	if !ok {
		return unbounded, 0, false
	}
	if e.move != 0 {
		m = sym.Inverse().Move(e.move)
	}
	return e.b, m, true
}
