package sap

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// BenchmarkMulJNonzero: J v over J's non-zero columns (mulJ after the
// dense system's setup) for a problem shaped like a legged robot's: one
// clique of 27 velocities, 8 three-row contacts whose blocks are non-zero
// on two thirds of the columns, 20 one-row limits on one column each.
func BenchmarkMulJNonzero(b *testing.B) {
	const nv, nc, nl = 27, 8, 20
	rng := rand.New(rand.NewPCG(1, 2))
	p := &solver.Problem{}
	p.Reset(nv)
	p.Cliques = append(p.Cliques, solver.Clique{Size: nv})
	p.A = make([]float64, nv*nv)
	for range nc {
		c := p.AddConstraint(solver.ContactCone, 3, 0.8)
		jb := p.AddJBlock(c, 0)
		limb := nv / 3 * (1 + rng.IntN(2))
		for r := range 3 {
			for j := range nv / 3 {
				jb[r*nv+j] = rng.NormFloat64()
				jb[r*nv+limb+j] = rng.NormFloat64()
			}
		}
	}
	for range nl {
		c := p.AddConstraint(solver.Interval, 1, -1, 1)
		p.AddJBlock(c, 0)[rng.IntN(nv)] = 1
	}
	var d denseSystem
	if err := d.setup(p); err != nil {
		b.Fatal(err)
	}
	v, vc := make([]float64, nv), make([]float64, p.NR)
	for i := range v {
		v[i] = float64(i%7) - 3
	}
	for b.Loop() {
		mulJ(p, &d, v, vc)
	}
}
