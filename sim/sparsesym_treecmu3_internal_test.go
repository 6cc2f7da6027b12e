package sim

import (
	"math/rand/v2"
	"testing"
)

// TestTreecmu3SymKeptCycle: symKept + 1 different H patterns met in turn
// (a random problem's J with one more row on fresh random columns each)
// are built once each and then, met again in the same order and in
// reverse, taken back without a rebuild, each factor the merges' bits.
// It fails when fewer symbolic Hessians are kept than symKept + 1 (the
// current one and symKept others), or a kept one is taken for another.
func TestTreecmu3SymKeptCycle(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	nw := &newtonWork{}
	for trial := range 60 {
		randomSparseNewton(rng, nw)
		v := sparsehess2Variants(rng, nw)
		pats := [][]sparsehess2Row{v[0]}
		for len(pats) < symKept+1 {
			w := sparsehess2Variants(rng, nw)
			pats = append(pats, w[2]) // a row on fresh columns: H's pattern most likely new
		}
		seen := map[string]bool{}
		order := make([]int, 0, 3*len(pats))
		for i := range pats {
			order = append(order, i)
		}
		for i := range pats {
			order = append(order, i)
		}
		for i := range pats {
			order = append(order, len(pats)-1-i)
		}
		for solve, x := range order {
			sparsehess2SetRows(rng, nw, pats[x])
			before := nw.sp.symBuilds
			want := mergeHessian(nw)
			mergeFactor(want, mjMinVal)
			nw.hessianDirectSparse(nil)
			sameSparseRows(t, "kept factor", &nw.sp.h, want)
			key := string(nw.sp.hpat)
			if built := nw.sp.symBuilds - before; seen[key] && built != 0 {
				t.Fatalf("trial %d, solve %d (pattern %d): H's pattern met before, built again", trial, solve, x)
			}
			seen[key] = true
		}
	}
}
