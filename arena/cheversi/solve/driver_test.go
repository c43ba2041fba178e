package solve

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/arena-games/arena/arena/cheversi"
)

// TestDriverAgreesWithSolver solves positions in units cut a few plies
// below them and compares with one search of the whole position.
func TestDriverAgreesWithSolver(t *testing.T) {
	for _, rs := range testRuleSets[:5] {
		rules, err := cheversi.New(rs.preset, rs.overrides)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(5, uint64(len(rs.overrides))))
		for i := range 4 {
			ply := 10
			if rules.Options().Touch == cheversi.TouchNone {
				ply = 13 // fifty moves a ply: keep it short
			}
			p := randomPosition(t, r, rules, ply)
			want, err := NewSolver(SolverOptions{TableBytes: 1 << 22}).Solve(t.Context(), &p)
			if err != nil {
				t.Fatal(err)
			}
			res, err := OpenResults(filepath.Join(t.TempDir(), "results"), rules)
			if err != nil {
				t.Fatal(err)
			}
			d := &Driver{Results: res, Cut: ply + 2, Jobs: 1 + i%2, Table: NewTable(1 << 22)}
			got, err := d.Run(t.Context(), &p)
			if err != nil {
				t.Fatal(err)
			}
			if got != want.Value {
				t.Errorf("%s %v: %s: driver %v, solver %v", rs.preset, rs.overrides, p.Text(), got, want.Value)
			}
			res.Close()
		}
	}
}
