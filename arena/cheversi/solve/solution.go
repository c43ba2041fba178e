package solve

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"sync"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
)

// solutionSource says where a Solution comes from, for the reader of a
// report.
const solutionSource = "the arena's exact solver proved it, and its tests check the proofs " +
	"(docs/solved.md); bots playing from openings are another population, so their score " +
	"need not agree"

// StartSolution returns what the shipped proofs show of the game from the
// empty board under the rules r: its value under perfect play and the
// score margin best play leaves, as far as they are proved (what the
// Book's Bounds and Margin give at the empty board). ok is false when the
// proofs show nothing of it (rule sets not solved) or cannot be read.
//
// It reads only the proofs' headers, once for the process: a report asks
// it at once, and the trees are for the book (and the tests, which check
// them).
func StartSolution(r *cheversi.Rules) (s game.Solution, ok bool) {
	v, d, ok := startBounds(r)
	if !ok {
		return game.Solution{}, false
	}
	result, words := valueWords(v)
	text := "from the empty board, " + words
	if m := marginWords(d); m != "" {
		if r.Options().Komi != 0 {
			m += " before komi"
		}
		text += "; best play " + m
	}
	return game.Solution{Statement: text, Result: result, Source: solutionSource}, true
}

// startBounds returns White's value from the empty board under r and the
// bounds of the score margin, from the shipped proofs rooted there under
// r's rules with any komi; ok is false when they bound nothing.
func startBounds(r *cheversi.Rules) (v Bounds, d MarginBounds, ok bool) {
	heads, err := shippedHeads()
	if err != nil {
		return unbounded, AnyMargin(), false
	}
	opts := r.Options()
	d = AnyMargin()
	for _, h := range heads {
		o := h.Rules.Options()
		komi := o.Komi
		o.Komi = opts.Komi
		if o != opts || h.Root.Ply() != 0 {
			continue
		}
		shown := h.Shown // for the side to move at the empty board
		if h.Root.Turn() == game.Black {
			shown = shown.Neg()
		}
		d = d.Narrow(shown, komi)
	}
	v = d.Value(opts.Komi)
	return v, d, v != unbounded
}

// shippedHeads are the shipped proofs with their headers alone: rules,
// root, cut and what each shows of its root.
var shippedHeads = sync.OnceValues(func() ([]*Proof, error) {
	var heads []*Proof
	for _, name := range ShippedProofs() {
		data, err := provenFS.ReadFile("proofs/" + name)
		if err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %w", name, ErrBadProof, err)
		}
		pr := &Proof{}
		if err := pr.readHeader(bufio.NewReader(zr)); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		heads = append(heads, pr)
	}
	return heads, nil
})

// valueWords says White's value v under perfect play, in a few words
// for a table and in a clause.
func valueWords(v Bounds) (result, clause string) {
	switch {
	case v.Lo == Win:
		return "white wins", "white wins with perfect play"
	case v.Hi == Loss:
		return "black wins", "black wins with perfect play"
	case v.Exact():
		return "draw", "perfect play draws"
	case v.Lo == Draw:
		return "white at least draws", "white does not lose with perfect play (at least a draw; a win not proved)"
	}
	return "black at least draws", "black does not lose with perfect play (at least a draw; a win not proved)"
}

// marginWords says what d bounds of the final score margin, from the
// side ahead: "leaves black exactly 2 points ahead"; "" when d bounds
// nothing.
func marginWords(d MarginBounds) string {
	noLo, noHi := d.Unbounded()
	switch {
	case noLo && noHi:
		return ""
	case d.Lo == d.Hi && d.Lo == 0:
		return "leaves the scores level"
	case d.Lo == d.Hi:
		return fmt.Sprintf("leaves %s exactly %s ahead", lead(d.Lo), points(abs(d.Lo)))
	case noHi && d.Lo > 0, noLo && d.Hi < 0:
		n := d.Lo
		if noLo {
			n = d.Hi
		}
		return fmt.Sprintf("leaves %s at least %s ahead", lead(n), points(abs(n)))
	case noHi && d.Lo == 0:
		return "leaves white level or ahead"
	case noLo && d.Hi == 0:
		return "leaves black level or ahead"
	case noHi:
		return fmt.Sprintf("leaves black at most %s ahead", points(-d.Lo))
	case noLo:
		return fmt.Sprintf("leaves white at most %s ahead", points(d.Hi))
	}
	return fmt.Sprintf("leaves white between %+d and %+d points of black", d.Lo, d.Hi)
}

// lead names the side a margin of d puts ahead.
func lead(d int) string {
	if d < 0 {
		return "black"
	}
	return "white"
}

func points(n int) string {
	if n == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%d points", n)
}

func abs(n int) int { return max(n, -n) }
