package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestCliqueRowsCopiesNeededRows: cliqueRows, which sizes d.jq once for
// every row and reads each block's d.pos in place, gives per clique the
// needed rows (d.pos ≥ 0) in the problem's block order, their d.pos, J's
// rows on the clique (JBlockData) and the run ends where the kind changes,
// on random problems of two or three cliques whose blocks skip cliques and
// rows; it fails when a row is taken from the wrong block or offset.
func TestCliqueRowsCopiesNeededRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 83))
	kinds := []solver.Kind{solver.ContactCone, solver.Interval}
	for trial := range 200 {
		var p solver.Problem
		nq := 2 + rng.IntN(2)
		for c := range nq {
			p.Cliques = append(p.Cliques, solver.Clique{Offset: c * 7, Size: 1 + rng.IntN(7)})
		}
		for b := range 1 + rng.IntN(12) {
			size := 1 + rng.IntN(3)
			p.Constraints = append(p.Constraints, solver.Constraint{Kind: kinds[rng.IntN(2)], Row: p.NR, Size: size})
			p.NR += size
			for c := range nq {
				if rng.IntN(3) == 0 {
					continue
				}
				blk := solver.JBlock{Constraint: b, Clique: c, Off: len(p.JData)}
				for range size * p.Cliques[c].Size {
					p.JData = append(p.JData, rng.NormFloat64())
				}
				p.JBlock = append(p.JBlock, blk)
			}
		}
		var d pgsDual
		for r := range p.NR {
			d.pos = append(d.pos, -1)
			if rng.IntN(4) != 0 {
				d.pos[r] = 100 + r
			}
		}
		for c, q := range p.Cliques {
			var rows, ends []int
			var jq []float64
			var kind solver.Kind
			for b, blk := range p.JBlock {
				if blk.Clique != c {
					continue
				}
				con := p.Constraints[blk.Constraint]
				k0 := len(rows)
				for r := range con.Size {
					if d.pos[con.Row+r] >= 0 {
						rows = append(rows, d.pos[con.Row+r])
						jq = append(jq, p.JBlockData(b)[r*q.Size:(r+1)*q.Size]...)
					}
				}
				if len(rows) > k0 {
					if k0 > 0 && con.Kind != kind {
						ends = append(ends, k0)
					}
					kind = con.Kind
				}
			}
			k := d.cliqueRows(&p, c, q.Size)
			if k != len(rows) || !slices.Equal(d.rows, rows) || !slices.Equal(d.ends, ends) ||
				!slices.Equal(d.jq[:k*q.Size], jq) {
				t.Fatalf("trial %d clique %d: %d rows %v ends %v, want %d rows %v ends %v (or J's rows differ)",
					trial, c, k, d.rows, d.ends, len(rows), rows, ends)
			}
		}
	}
}
