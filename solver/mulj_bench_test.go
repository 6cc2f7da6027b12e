package solver_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// treeProblem returns a problem shaped like a legged robot's: one clique of
// nv velocities (a single tree), nc three-row contacts and nl one-row
// limits; a contact's J block is non-zero on its path to the root (the
// first third of the columns and one limb's), a limit's on one column.
func treeProblem(nv, nc, nl int) *solver.Problem {
	rng := rand.New(rand.NewPCG(1, 2))
	p := &solver.Problem{}
	p.Reset(nv)
	p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: nv})
	p.A = make([]float64, nv*nv)
	for i := range nv {
		p.A[i*nv+i] = 1
	}
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
	return p
}

// BenchmarkMulJ: J v of a humanoid-sized problem (27 velocities in one
// tree, 8 contacts, 20 limits).
func BenchmarkMulJ(b *testing.B) {
	p := treeProblem(27, 8, 20)
	v, vc := make([]float64, p.NV), make([]float64, p.NR)
	for i := range v {
		v[i] = float64(i%7) - 3
	}
	for b.Loop() {
		p.MulJ(v, vc)
	}
}

// BenchmarkMulA: A x of the same problem (one 27×27 block).
func BenchmarkMulA(b *testing.B) {
	p := treeProblem(27, 8, 20)
	x, out := make([]float64, p.NV), make([]float64, p.NV)
	for i := range x {
		x[i] = float64(i%5) - 2
	}
	for b.Loop() {
		p.MulA(x, out)
	}
}
