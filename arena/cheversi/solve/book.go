package solve

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sync"

	"github.com/arena-games/arena/arena/cheversi"
)

// provenFS holds the proofs shipped with the package: proofs/NAME.proof,
// each the proof of one position's value (see docs/solved.md for how each
// was made).
//
//go:embed proofs/*.proof
var provenFS embed.FS

// ShippedProofs returns the names of the proofs shipped with the package.
func ShippedProofs() []string {
	names, _ := fs.Glob(provenFS, "proofs/*.proof")
	for i, n := range names {
		names[i] = path.Base(n)
	}
	return names
}

// ReadShippedProof reads and checks (all but its leaves' values, see
// ReadProof) the shipped proof of that name.
func ReadShippedProof(name string) (*Proof, error) {
	data, err := provenFS.ReadFile("proofs/" + name)
	if err != nil {
		return nil, err
	}
	pr, err := ReadProof(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return pr, nil
}

// Book answers from the shipped proofs: the value of the positions they
// hold and, for the won ones, a winning move.
type Book struct {
	proofs []*Proof
}

var (
	bookOnce   sync.Once
	bookProofs []*Proof
	bookErr    error
)

// ShippedBook returns the book of the shipped proofs of the rule set opts,
// read once for the process.
func ShippedBook(opts cheversi.Options) (*Book, error) {
	bookOnce.Do(func() {
		for _, name := range ShippedProofs() {
			pr, err := ReadShippedProof(name)
			if err != nil {
				bookErr = err
				return
			}
			bookProofs = append(bookProofs, pr)
		}
	})
	if bookErr != nil {
		return nil, bookErr
	}
	b := &Book{}
	for _, pr := range bookProofs {
		if pr.Rules.Options() == opts {
			b.proofs = append(b.proofs, pr)
		}
	}
	return b, nil
}

// Lookup returns the value of p for the side to move and, when it is won,
// a winning move; ok is false when no proof of the book holds p.
func (b *Book) Lookup(p *cheversi.Position) (v Value, m cheversi.Move, ok bool) {
	for _, pr := range b.proofs {
		if v, m, ok := pr.Lookup(p); ok {
			return v, m, true
		}
	}
	return 0, 0, false
}
