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
	sim, nv1 := twoTreeSim(t)
	m, nv := sim.Model, sim.Model.NV
	rng := rand.New(rand.NewPCG(23, 55))
	entry := signedZerosOrNormal(rng)
	for trial := range 60 {
		q := randomRotations(m, rng, trial%10 == 0)
		rows := func(k int) int { return 1 + k%4/3 }            // 1, 1, 1, 2
		keep := func(int, int) bool { return rng.IntN(3) != 0 } // runs of zeros inside and across the angular blocks
		p := twoCliqueProblem(nv, nv1, entry, 9, rows, keep)
		perm := make([]int, 0, p.NR)
		for r := range p.NR {
			perm = append(perm, (r*5)%p.NR) // p.NR = 11: a permutation
		}
		sim.ws.pgs.perm = perm
		dense := &newtonWork{}
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
		checkSparseMatchesDense(t, trial, sparseCoordinatesOf(sim, &p, q, perm), dense, &p, len(perm))
	}
}
