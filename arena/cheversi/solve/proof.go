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
// sample). It holds, for every position of the proof tree in depth-first
// order, one record:
//
//   - a leaf (a position at the cut ply, or a finished game): its value;
//   - a won position: the index of the winning move among the position's
//     distinct moves in the order children gives them (the moves whose
//     positions are not images of an earlier move's under a symmetry of
//     the board, sorted as the solver sorts them), followed by that move's
//     subtree;
//   - a drawn or lost position: the subtrees of all its distinct moves, in
//     order;
//   - a position met before (a transposition, or an image of an earlier
//     position under a symmetry): nothing more; its value is the earlier
//     one's.
//
// So the positions are never written out: each follows from its parent and
// an index, as the rules generate them. The file is gzip-compressed; its
// text header names the rule set, the root position and the cut ply:
//
//	arena cheversi proof 1
//	rules opening=king-first touch=opponent ...
//	root 8/8/8/8/8/8/8/8 w 0 -
//	cut 6
//	value loss
//	(an empty line, then the records)
const proofMagic = "arena cheversi proof 1"

// Record tags.
const (
	tagLeafLoss byte = iota
	tagLeafDraw
	tagLeafWin
	tagWin  // + uvarint index of the winning child
	tagDraw // + every child
	tagLoss // + every child
	tagSeen // a position already in the proof
)

// ErrIncomplete is returned by WriteProof when the results lack a value
// the proof needs.
var ErrIncomplete = errors.New("the results do not prove the value yet")

// WriteProof writes the proof of root's value, down to the positions at the
// cut ply, from the values in res, to w. It returns the root's value and the
// number of leaves.
func WriteProof(w io.Writer, rules *cheversi.Rules, root *cheversi.Position, cut int, res *Results) (Value, int, error) {
	pw := &proofWriter{res: res, cut: cut, seen: map[uint64]Value{}, values: map[uint64]Value{}}
	v, err := pw.value(root)
	if err != nil {
		return 0, 0, err
	}
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriter(zw)
	fmt.Fprintf(bw, "%s\n%s\nroot %s\ncut %d\nvalue %s\n\n", proofMagic, strings.TrimPrefix(rulesLine(rules), "# "), root.Text(), cut, v)
	pw.w = bw
	if err := pw.write(root); err != nil {
		return 0, 0, err
	}
	if err := bw.Flush(); err != nil {
		return 0, 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, 0, err
	}
	return v, pw.leaves, nil
}

type proofWriter struct {
	res    *Results
	cut    int
	w      *bufio.Writer
	seen   map[uint64]Value // positions written
	values map[uint64]Value // values computed
	leaves int
	buf    [binary.MaxVarintLen64]byte
}

// value returns p's value from the results: directly at the cut ply, by
// minimax of its children above it.
func (pw *proofWriter) value(p *cheversi.Position) (Value, error) {
	key := CanonicalKey(p)
	if v, ok := pw.values[key]; ok {
		return v, nil
	}
	var v Value
	switch {
	case p.Over():
		v = terminalValue(p)
	case p.Ply() >= pw.cut:
		e, ok := pw.res.GetKey(key)
		if !ok || e.Positions == 0 {
			return 0, fmt.Errorf("%w: %s has no solved value", ErrIncomplete, p.Text())
		}
		v = e.Value
	default:
		// A won position needs one losing child; look at those with
		// known values first so that no missing value stops it.
		cs := children(p)
		v = Loss
		var missing error
		for _, c := range cs {
			cv, err := pw.value(&c.pos)
			if err != nil {
				missing = err
				continue
			}
			v = max(v, cv.Neg())
			if v == Win {
				missing = nil
				break
			}
		}
		if missing != nil {
			return 0, missing
		}
	}
	pw.values[key] = v
	return v, nil
}

func (pw *proofWriter) write(p *cheversi.Position) error {
	key := CanonicalKey(p)
	if _, ok := pw.seen[key]; ok {
		return pw.w.WriteByte(tagSeen)
	}
	v := pw.values[key]
	pw.seen[key] = v
	if p.Over() || p.Ply() >= pw.cut {
		pw.leaves++
		return pw.w.WriteByte(byte(int(v) + 1))
	}
	cs := children(p)
	if v == Win {
		for i, c := range cs {
			if cv, ok := pw.values[c.key]; ok && cv == Loss {
				pw.w.WriteByte(tagWin)
				n := binary.PutUvarint(pw.buf[:], uint64(i))
				pw.w.Write(pw.buf[:n])
				return pw.write(&c.pos)
			}
		}
		return fmt.Errorf("%w: no winning move recorded in %s", ErrIncomplete, p.Text())
	}
	tag := tagDraw
	if v == Loss {
		tag = tagLoss
	}
	if err := pw.w.WriteByte(tag); err != nil {
		return err
	}
	for _, c := range cs {
		if err := pw.write(&c.pos); err != nil {
			return err
		}
	}
	return nil
}

// Proof is a proof read by ReadProof, its tree checked.
type Proof struct {
	Rules *cheversi.Rules
	Root  cheversi.Position
	Cut   int
	Value Value // of Root, for the side to move
	// Leaves are the positions at the cut ply with the values the proof
	// states for them (finished games are checked by the rules at once).
	Leaves []Entry
	// Nodes is the number of records.
	Nodes int
	// known holds each position of the tree (by canonical hash) with its
	// value and, for a won one, the winning move in the canonical
	// orientation.
	known map[uint64]bookEntry
}

type bookEntry struct {
	v    Value
	move cheversi.Move // 0 unless v is Win
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
	rd := &proofReader{r: br, pr: pr, seen: map[uint64]Value{}}
	v, err := rd.read(&pr.Root)
	if err != nil {
		return nil, err
	}
	if v != pr.Value {
		return nil, fmt.Errorf("%w: the header says %s, the tree proves %s", ErrBadProof, pr.Value, v)
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
	if pr.Value, err = parseValue(val); err != nil {
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
	seen map[uint64]Value
	// onLeaf, when not nil, gives the offset of each leaf record at the
	// cut ply, kept in leafAt (for tests that alter a proof).
	onLeaf func() int
	leafAt []int
}

func (rd *proofReader) read(p *cheversi.Position) (Value, error) {
	tag, err := rd.r.ReadByte()
	if err != nil {
		return 0, fmt.Errorf("%w: the records end early, at %s", ErrBadProof, p.Text())
	}
	rd.pr.Nodes++
	key := CanonicalKey(p)
	if tag == tagSeen {
		v, ok := rd.seen[key]
		if !ok {
			return 0, fmt.Errorf("%w: %s is marked as met before and was not", ErrBadProof, p.Text())
		}
		return v, nil
	}
	if _, ok := rd.seen[key]; ok {
		return 0, fmt.Errorf("%w: %s is written twice", ErrBadProof, p.Text())
	}
	v, err := rd.node(p, tag)
	if err != nil {
		return 0, err
	}
	rd.seen[key] = v
	return v, nil
}

func (rd *proofReader) node(p *cheversi.Position, tag byte) (Value, error) {
	leaf := p.Over() || p.Ply() >= rd.pr.Cut
	switch {
	case tag <= tagLeafWin && !leaf:
		return 0, fmt.Errorf("%w: a leaf at %s, above the cut ply %d", ErrBadProof, p.Text(), rd.pr.Cut)
	case tag > tagLeafWin && leaf:
		return 0, fmt.Errorf("%w: %s should be a leaf", ErrBadProof, p.Text())
	case tag <= tagLeafWin:
		return rd.leaf(p, Value(tag)-1)
	case tag == tagWin:
		return rd.won(p)
	case tag == tagDraw:
		return rd.all(p, Draw)
	case tag == tagLoss:
		return rd.all(p, Loss)
	}
	return 0, fmt.Errorf("%w: unknown record %d at %s", ErrBadProof, tag, p.Text())
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
	key := CanonicalKey(p)
	rd.pr.Leaves = append(rd.pr.Leaves, Entry{Key: key, Position: *p, Value: v})
	if rd.pr.known != nil {
		rd.pr.known[key] = bookEntry{v: v}
	}
	if rd.onLeaf != nil {
		rd.leafAt = append(rd.leafAt, rd.onLeaf())
	}
	return v, nil
}

// won reads the winning move of a position stated won, and its subtree,
// which must be a loss for the opponent.
func (rd *proofReader) won(p *cheversi.Position) (Value, error) {
	cs := children(p)
	i, err := binary.ReadUvarint(rd.r)
	if err != nil || i >= uint64(len(cs)) {
		return 0, fmt.Errorf("%w: bad move index at %s", ErrBadProof, p.Text())
	}
	cv, err := rd.read(&cs[i].pos)
	if err != nil {
		return 0, err
	}
	if cv != Loss {
		return 0, fmt.Errorf("%w: %s after %s is a %s for the mover, not a loss", ErrBadProof, cs[i].move, p.Text(), cv)
	}
	if rd.pr.known != nil {
		_, key, sym := Canonical(p)
		rd.pr.known[key] = bookEntry{Win, sym.Move(cs[i].move)}
	}
	return Win, nil
}

// all reads the subtrees of every move of a position stated a want (a
// draw or a loss), whose best must be just that.
func (rd *proofReader) all(p *cheversi.Position, want Value) (Value, error) {
	best := Loss
	for _, c := range children(p) {
		cv, err := rd.read(&c.pos)
		if err != nil {
			return 0, err
		}
		best = max(best, cv.Neg())
	}
	if best != want {
		return 0, fmt.Errorf("%w: %s is stated a %s but its moves give a %s", ErrBadProof, p.Text(), want, best)
	}
	if rd.pr.known != nil {
		rd.pr.known[CanonicalKey(p)] = bookEntry{v: want}
	}
	return want, nil
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
// and for a won position the winning move the proof gives (0 otherwise).
// ok is false when p is not in the proof's tree above its leaves.
func (pr *Proof) Lookup(p *cheversi.Position) (v Value, m cheversi.Move, ok bool) {
	if pr.known == nil || p.Options() != pr.Rules.Options() {
		return 0, 0, false
	}
	_, key, sym := Canonical(p)
	e, ok := pr.known[key]
	if !ok {
		return 0, 0, false
	}
	if e.move != 0 {
		m = sym.Inverse().Move(e.move)
	}
	return e.v, m, true
}
