package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestSparseCoordinatesOneRowMatchDense: the sparse path's change of
// coordinates of constraints of one row (turnRowNZ on the non-zero columns
// of pgsJac, the pgsSetup's copy of J_w) and of two, on one clique or two
// with angular blocks inside them, gives the bits of the dense path's M and
// J (coordinates, held to the dense products by TestCoordinatesMatchDense),
// every non-zero kept and no zero; whether pgsJac is the problem's, empty,
// or built for another problem with fewer block rows (sparseJacobian then
// builds it). M_w, J_w and T hold exact zeros of both signs.
func TestSparseCoordinatesOneRowMatchDense(t *testing.T) {
	m, nv1 := twoTreeModel(t)
	nv := m.NV
	rng := rand.New(rand.NewPCG(23, 55))
	entry := signedZerosOrNormal(rng)
	sim := &Simulator{Model: m}
	for trial := range 60 {
		q := randomRotations(m, rng, trial%10 == 0)
		var p solver.Problem
		p.Reset(nv)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: nv1}, solver.Clique{Offset: nv1, Size: nv - nv1, AOff: nv1 * nv1})
		p.A = make([]float64, nv1*nv1+(nv-nv1)*(nv-nv1))
		for i := range p.A {
			p.A[i] = entry()
		}
		for k := range 9 {
			con := p.AddConstraint(solver.Bilateral, 1+k%4/3) // rows 1, 1, 1, 2
			for c := range 2 {
				if k%3 == c || k%3 == 2 {
					d := p.AddJBlock(con, c)
					for i := range d {
						if rng.IntN(3) != 0 { // runs of zeros inside and across the angular blocks
							d[i] = entry()
						}
					}
				}
			}
		}
		perm := make([]int, 0, p.NR)
		for r := range p.NR {
			perm = append(perm, (r*5)%p.NR) // p.NR = 11: a permutation
		}
		sim.ws.pgs.perm = perm
		dense, sparse := &newtonWork{}, &newtonWork{}
		dense.resize(nv, len(perm), p.NR)
		dense.coordinates(sim, &p, q) // builds sim.ws.pgs.jac from p
		switch trial % 3 {
		case 1:
			sim.ws.pgs.jac = pgsJac{}
		case 2:
			var other solver.Problem
			other.Reset(nv)
			other.Cliques = p.Cliques[:1]
			other.A = p.A[:nv1*nv1]
			copy(other.AddJBlock(other.AddConstraint(solver.Bilateral, 1), 0), p.A)
			sim.ws.pgs.jac.build(&other)
		}
		sparse.sp.on = true
		sparse.resize(nv, len(perm), p.NR)
		sparse.sparseCoordinates(sim, &p, q, perm)
		checkSparseMatchesDense(t, trial, sparse, dense, &p, len(perm))
	}
}
