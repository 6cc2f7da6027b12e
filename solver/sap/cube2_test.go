package sap

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestReusedSizesMatchFresh solves a sequence of problems whose structure
// changes now and then (clique size, contact count), with failed calls in
// between, on one solver, which keeps the workspace's sizes while the
// structure stays (workspace.reset), and checks each result bit for bit
// against a fresh solver's. The problems of size-6 cliques take pack's
// free-body path (appendSix), the others packBlock.
func TestReusedSizesMatchFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	type spec struct{ cliques, n, nc int }
	specs := []spec{{1, 6, 4}, {1, 6, 4}, {2, 6, 5}, {2, 6, 5}, {1, 4, 3}, {1, 6, 4}, {3, 6, 8}, {3, 6, 2}}
	reused := New(DefaultParams())
	for k, sp := range specs {
		p := randomProblem(rng, sp.cliques, sp.n, sp.nc)
		if k%3 == 2 { // a call that fails its checks after the structure was validated
			bad := make([]float64, p.NV)
			bad[0] = math.NaN()
			if err := reused.Solve(p, bad, new(solver.Result)); err == nil {
				t.Fatalf("problem %d: Solve with a NaN warm start did not fail", k)
			}
		}
		got := solveOK(t, reused, p, nil)
		want := solveOK(t, New(DefaultParams()), p, nil)
		if !reflect.DeepEqual(bitsOf(got.V), bitsOf(want.V)) || !reflect.DeepEqual(bitsOf(got.Gamma), bitsOf(want.Gamma)) ||
			!reflect.DeepEqual(bitsOf(got.VC), bitsOf(want.VC)) || got.Stats != want.Stats {
			t.Fatalf("problem %d (%+v): the reused solver's result differs from a fresh one's", k, sp)
		}
	}
}

// bitsOf returns the bits of x's entries.
func bitsOf(x []float64) []uint64 {
	b := make([]uint64, len(x))
	for i, v := range x {
		b[i] = math.Float64bits(v)
	}
	return b
}
