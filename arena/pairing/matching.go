package pairing

import (
	"errors"
	"fmt"
	"slices"
)

// Edge joins vertices I and J with weight W.
type Edge struct {
	I, J int
	W    int64
}

// ErrWeights is wrapped by the error about weights too large for exact
// arithmetic.
var ErrWeights = errors.New("matching weights out of range")

// maxMatchingWeight bounds the weights MaxWeightMatching takes: its dual
// variables stay within a few times the largest weight, far from
// overflowing an int64.
const maxMatchingWeight = 1 << 60

// MaxWeightMatching returns a matching of the graph of n vertices and the
// edges given whose total weight is the largest: mate[v] is the vertex
// matched to v, or -1. With maxCardinality, it is the heaviest among the
// matchings with the most edges (a perfect matching whenever there is
// one). Weights may be negative; their absolute values must be below
// 2^60. Edges must join two different vertices in [0, n), at most one
// edge per pair.
//
// It is Edmonds' blossom algorithm with dual variables (Galil's O(n³)
// form), in integers throughout, as Joris van Rantwijk's reference
// implementation computes it; the result depends only on the edges and
// their order, so the same graph always gives the same matching.
func MaxWeightMatching(n int, edges []Edge, maxCardinality bool) ([]int, error) {
	seen := make(map[[2]int]bool, len(edges))
	for _, e := range edges {
		switch {
		case e.I < 0 || e.J < 0 || e.I >= n || e.J >= n:
			return nil, fmt.Errorf("edge %d-%d: vertex out of range [0, %d)", e.I, e.J, n)
		case e.I == e.J:
			return nil, fmt.Errorf("edge %d-%d: a loop", e.I, e.J)
		case e.W >= maxMatchingWeight || e.W <= -maxMatchingWeight:
			return nil, fmt.Errorf("%w: edge %d-%d weighs %d", ErrWeights, e.I, e.J, e.W)
		}
		k := [2]int{min(e.I, e.J), max(e.I, e.J)}
		if seen[k] {
			return nil, fmt.Errorf("edge %d-%d given twice", e.I, e.J)
		}
		seen[k] = true
	}
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	if len(edges) == 0 {
		return mate, nil
	}
	m := newMatcher(n, edges, maxCardinality)
	m.solve()
	for v := range n {
		if m.mate[v] >= 0 {
			mate[v] = m.endpoint[m.mate[v]]
		}
	}
	return mate, nil
}

// matcher holds the state of the blossom algorithm. Vertices are 0..n-1,
// blossoms n..2n-1; an edge k has endpoints 2k and 2k+1 (endpoint[p] is
// the vertex at endpoint p, and p^1 the other end).
type matcher struct {
	n        int
	edges    []Edge
	maxCard  bool
	endpoint []int
	neighb   [][]int // for each vertex, the remote endpoints of its edges
	mate     []int   // the remote endpoint of v's matched edge, or -1
	// label: 0 free, 1 S (outer), 2 T (inner); 5 marks a blossom being
	// scanned. labelend is the endpoint through which it got its label.
	label         []int
	labelend      []int
	inblossom     []int // the top-level blossom holding each vertex
	blossomparent []int
	blossomchilds [][]int
	blossombase   []int
	blossomendps  [][]int
	bestedge      []int
	blossombest   [][]int
	unused        []int
	dual          []int64
	allowedge     []bool
	queue         []int
}

func newMatcher(n int, edges []Edge, maxCard bool) *matcher {
	m := &matcher{n: n, edges: edges, maxCard: maxCard}
	var maxw int64
	for _, e := range edges {
		maxw = max(maxw, e.W)
	}
	m.endpoint = make([]int, 2*len(edges))
	m.neighb = make([][]int, n)
	for k, e := range edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.I, e.J
		m.neighb[e.I] = append(m.neighb[e.I], 2*k+1)
		m.neighb[e.J] = append(m.neighb[e.J], 2*k)
	}
	m.mate = filled(n, -1)
	m.label = make([]int, 2*n)
	m.labelend = filled(2*n, -1)
	m.inblossom = make([]int, n)
	for i := range m.inblossom {
		m.inblossom[i] = i
	}
	m.blossomparent = filled(2*n, -1)
	m.blossomchilds = make([][]int, 2*n)
	m.blossombase = filled(2*n, -1)
	for i := range n {
		m.blossombase[i] = i
	}
	m.blossomendps = make([][]int, 2*n)
	m.bestedge = filled(2*n, -1)
	m.blossombest = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]int64, 2*n)
	for i := range n {
		m.dual[i] = maxw
	}
	m.allowedge = make([]bool, len(edges))
	return m
}

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// slack returns the slack of edge k (twice its reduced cost).
func (m *matcher) slack(k int) int64 {
	e := m.edges[k]
	return m.dual[e.I] + m.dual[e.J] - 2*e.W
}

// leaves appends the vertices of blossom b to out.
func (m *matcher) leaves(b int, out []int) []int {
	if b < m.n {
		return append(out, b)
	}
	for _, t := range m.blossomchilds[b] {
		out = m.leaves(t, out)
	}
	return out
}

// assignLabel labels the top-level blossom of w with t, reached through
// endpoint p, and labels the mate of a T blossom's base S.
func (m *matcher) assignLabel(w, t, p int) {
	for {
		b := m.inblossom[w]
		m.label[w], m.label[b] = t, t
		m.labelend[w], m.labelend[b] = p, p
		m.bestedge[w], m.bestedge[b] = -1, -1
		if t == 1 {
			m.queue = m.leaves(b, m.queue)
			return
		}
		base := m.blossombase[b]
		w, t, p = m.endpoint[m.mate[base]], 1, m.mate[base]^1
	}
}

// scanBlossom traces back from v and w to find a new blossom's base, or
// -1 when the paths reach different roots (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.blossombase[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

// addBlossom makes a new blossom with the given base, through edge k
// between two S vertices.
func (m *matcher) addBlossom(base, k int) {
	bb := m.inblossom[base]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.blossombase[b] = base
	m.blossomparent[b] = -1
	m.blossomparent[bb] = b
	path, endps := m.blossomCycle(b, bb, k)
	m.blossomchilds[b], m.blossomendps[b] = path, endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dual[b] = 0
	for _, v := range m.leaves(b, nil) {
		if m.label[m.inblossom[v]] == 2 {
			m.queue = append(m.queue, v)
		}
		m.inblossom[v] = b
	}
	m.blossomBestEdges(b, path)
}

// blossomCycle makes the sub-blossoms on the cycle through edge k, from
// the base's blossom bb, children of the new blossom b, and returns them
// in order from bb with the endpoints that link each to the next.
func (m *matcher) blossomCycle(b, bb, k int) (path, endps []int) {
	v, w := m.edges[k].I, m.edges[k].J
	bv, bw := m.inblossom[v], m.inblossom[w]
	for bv != bb {
		m.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	slices.Reverse(path)
	slices.Reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	return path, endps
}

// blossomBestEdges computes the least-slack edges from the new blossom b,
// made of the sub-blossoms path, to each neighbouring S blossom, and the
// best of them.
func (m *matcher) blossomBestEdges(b int, path []int) {
	bestedgeto := filled(2*m.n, -1)
	for _, bv := range path {
		for _, list := range m.edgeLists(bv) {
			for _, k := range list {
				j := m.edges[k].J
				if m.inblossom[j] == b {
					j = m.edges[k].I
				}
				bj := m.inblossom[j]
				if bj != b && m.label[bj] == 1 && (bestedgeto[bj] == -1 || m.slack(k) < m.slack(bestedgeto[bj])) {
					bestedgeto[bj] = k
				}
			}
		}
		m.blossombest[bv] = nil
		m.bestedge[bv] = -1
	}
	best := []int{}
	for _, k := range bestedgeto {
		if k != -1 {
			best = append(best, k)
		}
	}
	m.blossombest[b] = best
	m.bestedge[b] = -1
	for _, k := range best {
		if m.bestedge[b] == -1 || m.slack(k) < m.slack(m.bestedge[b]) {
			m.bestedge[b] = k
		}
	}
}

// edgeLists returns the lists of edges to consider from the sub-blossom
// bv: its own least-slack list when it has one, else the edges of each of
// its vertices.
func (m *matcher) edgeLists(bv int) [][]int {
	if m.blossombest[bv] != nil {
		return [][]int{m.blossombest[bv]}
	}
	var lists [][]int
	for _, v := range m.leaves(bv, nil) {
		ks := make([]int, len(m.neighb[v]))
		for i, p := range m.neighb[v] {
			ks[i] = p / 2
		}
		lists = append(lists, ks)
	}
	return lists
}

// expandBlossom undoes blossom b, relabelling its children when it was a
// T blossom expanded during a stage.
func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.blossomchilds[b] {
		m.blossomparent[s] = -1
		switch {
		case s < m.n:
			m.inblossom[s] = s
		case endstage && m.dual[s] == 0:
			m.expandBlossom(s, endstage)
		default:
			for _, v := range m.leaves(s, nil) {
				m.inblossom[v] = s
			}
		}
	}
	if !endstage && m.label[b] == 2 {
		m.relabelExpanded(b)
	}
	m.label[b], m.labelend[b] = -1, -1
	m.blossomchilds[b], m.blossomendps[b] = nil, nil
	m.blossombase[b] = -1
	m.blossombest[b] = nil
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

// relabelExpanded labels the children of an expanded T blossom b along
// the even path from its entry child to its base.
func (m *matcher) relabelExpanded(b int) {
	childs, endps := m.blossomchilds[b], m.blossomendps[b]
	at := func(j int) int { return childs[((j%len(childs))+len(childs))%len(childs)] }
	endAt := func(j int) int { return endps[((j%len(endps))+len(endps))%len(endps)] }
	entry := m.inblossom[m.endpoint[m.labelend[b]^1]]
	j := slices.Index(childs, entry)
	var jstep, trick int
	if j&1 != 0 {
		j -= len(childs)
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	p := m.labelend[b]
	for j != 0 {
		m.label[m.endpoint[p^1]] = 0
		m.label[m.endpoint[endAt(j-trick)^trick^1]] = 0
		m.assignLabel(m.endpoint[p^1], 2, p)
		m.allowedge[endAt(j-trick)/2] = true
		j += jstep
		p = endAt(j-trick) ^ trick
		m.allowedge[p/2] = true
		j += jstep
	}
	bv := at(j)
	m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
	m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
	m.bestedge[bv] = -1
	j += jstep
	for at(j) != entry {
		bv := at(j)
		if m.label[bv] == 1 {
			j += jstep
			continue
		}
		v := -1
		for _, leaf := range m.leaves(bv, nil) {
			v = leaf
			if m.label[leaf] != 0 {
				break
			}
		}
		if m.label[v] != 0 {
			m.label[v] = 0
			m.label[m.endpoint[m.mate[m.blossombase[bv]]]] = 0
			m.assignLabel(v, 2, m.labelend[v])
		}
		j += jstep
	}
}

// augmentBlossom swaps the matched and unmatched edges of blossom b along
// the path from vertex v to its base, making v the base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.blossomparent[t] != b {
		t = m.blossomparent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs, endps := m.blossomchilds[b], m.blossomendps[b]
	at := func(j int) int { return childs[((j%len(childs))+len(childs))%len(childs)] }
	endAt := func(j int) int { return endps[((j%len(endps))+len(endps))%len(endps)] }
	i := slices.Index(childs, t)
	j := i
	var jstep, trick int
	if i&1 != 0 {
		j -= len(childs)
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = at(j)
		p := endAt(j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = at(j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.blossomchilds[b] = append(slices.Clone(childs[i:]), childs[:i]...)
	m.blossomendps[b] = append(slices.Clone(endps[i:]), endps[:i]...)
	m.blossombase[b] = m.blossombase[m.blossomchilds[b][0]]
}

// augmentMatching augments the matching along the path through edge k.
func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k].I, m.edges[k].J
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

// solve runs the stages of the algorithm, each of which augments the
// matching by one edge, until none can.
func (m *matcher) solve() {
	n := m.n
	for range n {
		clear(m.label)
		for i := range m.bestedge {
			m.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.blossombest[b] = nil
		}
		clear(m.allowedge)
		m.queue = m.queue[:0]
		for v := range n {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		if !m.stage() {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.blossomparent[b] == -1 && m.blossombase[b] >= 0 && m.label[b] == 1 && m.dual[b] == 0 {
				m.expandBlossom(b, true)
			}
		}
	}
}

// stage grows the alternating forest, changing the dual variables when it
// is stuck, until it augments the matching (true) or shows that the
// matching is optimal (false).
func (m *matcher) stage() bool {
	for {
		if m.scan() {
			return true
		}
		if !m.adjustDuals() {
			return false
		}
	}
}

// scan takes S vertices off the queue and follows their tight edges; it
// reports whether it augmented the matching.
func (m *matcher) scan() bool {
	for len(m.queue) > 0 {
		v := m.queue[len(m.queue)-1]
		m.queue = m.queue[:len(m.queue)-1]
		for _, p := range m.neighb[v] {
			k, w := p/2, m.endpoint[p]
			if m.inblossom[v] == m.inblossom[w] {
				continue
			}
			var kslack int64
			if !m.allowedge[k] {
				kslack = m.slack(k)
				if kslack <= 0 {
					m.allowedge[k] = true
				}
			}
			switch {
			case m.allowedge[k]:
				switch {
				case m.label[m.inblossom[w]] == 0:
					m.assignLabel(w, 2, p^1)
				case m.label[m.inblossom[w]] == 1:
					if base := m.scanBlossom(v, w); base >= 0 {
						m.addBlossom(base, k)
					} else {
						m.augmentMatching(k)
						return true
					}
				case m.label[w] == 0:
					m.label[w] = 2
					m.labelend[w] = p ^ 1
				}
			case m.label[m.inblossom[w]] == 1:
				b := m.inblossom[v]
				if m.bestedge[b] == -1 || kslack < m.slack(m.bestedge[b]) {
					m.bestedge[b] = k
				}
			case m.label[w] == 0:
				if m.bestedge[w] == -1 || kslack < m.slack(m.bestedge[w]) {
					m.bestedge[w] = k
				}
			}
		}
	}
	return false
}

// adjustDuals changes the dual variables by the largest step that keeps
// them feasible and acts on what limited the step; it reports false when
// the step shows the matching optimal.
func (m *matcher) adjustDuals() bool {
	d := m.chooseDelta()
	m.applyDelta(d.delta)
	switch d.typ {
	case 1:
		return false
	case 2:
		m.allowedge[d.edge] = true
		i, j := m.edges[d.edge].I, m.edges[d.edge].J
		if m.label[m.inblossom[i]] == 0 {
			i = j
		}
		m.queue = append(m.queue, i)
	case 3:
		m.allowedge[d.edge] = true
		m.queue = append(m.queue, m.edges[d.edge].I)
	case 4:
		m.expandBlossom(d.blossom, false)
	}
	return true
}

// dualDelta is the change of the dual variables a stage makes, of type 1
// (a vertex dual reaches 0), 2 (an edge from an S vertex to a free one
// becomes tight), 3 (an edge between two S blossoms becomes tight) or 4 (a
// T blossom's dual reaches 0), with the edge or blossom concerned; type -1
// while none is found.
type dualDelta struct {
	typ           int
	delta         int64
	edge, blossom int
}

// consider takes the change of type typ by delta when it is the first
// found or smaller than the one kept.
func (d *dualDelta) consider(typ int, delta int64, edge, blossom int) {
	if d.typ == -1 || delta < d.delta {
		*d = dualDelta{typ: typ, delta: delta, edge: edge, blossom: blossom}
	}
}

// chooseDelta returns the smallest change of the dual variables that
// makes progress.
func (m *matcher) chooseDelta() dualDelta {
	n := m.n
	d := dualDelta{typ: -1, edge: -1, blossom: -1}
	if !m.maxCard {
		d.typ, d.delta = 1, slices.Min(m.dual[:n])
	}
	for v := range n {
		if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
			d.consider(2, m.slack(m.bestedge[v]), m.bestedge[v], -1)
		}
	}
	for b := range 2 * n {
		if m.blossomparent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
			d.consider(3, m.slack(m.bestedge[b])/2, m.bestedge[b], -1)
		}
	}
	for b := n; b < 2*n; b++ {
		if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 && m.label[b] == 2 {
			d.consider(4, m.dual[b], -1, b)
		}
	}
	if d.typ == -1 {
		// No further improvement is possible (max cardinality): the
		// optimum is reached.
		d.typ, d.delta = 1, max(0, slices.Min(m.dual[:n]))
	}
	return d
}

// applyDelta changes the duals of the labelled vertices and top-level
// blossoms by delta.
func (m *matcher) applyDelta(delta int64) {
	n := m.n
	for v := range n {
		switch m.label[m.inblossom[v]] {
		case 1:
			m.dual[v] -= delta
		case 2:
			m.dual[v] += delta
		}
	}
	for b := n; b < 2*n; b++ {
		if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 {
			switch m.label[b] {
			case 1:
				m.dual[b] += delta
			case 2:
				m.dual[b] -= delta
			}
		}
	}
}
