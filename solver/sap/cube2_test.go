package sap

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
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

// TestSameForestMatchesKey checks sameForest against the comparison of
// forestKey's key, on cliques with and without parents and keys changed in
// one entry, cut short or made longer.
func TestSameForestMatchesKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	for trial := range 200 {
		var p solver.Problem
		off := 0
		for range rng.IntN(4) {
			q := solver.Clique{Offset: off, Size: 1 + rng.IntN(4)}
			if rng.IntN(2) == 0 {
				q.Parent = make([]int, q.Size)
				for i := range q.Parent {
					q.Parent[i] = rng.IntN(i+1) - 1
				}
			}
			p.Cliques = append(p.Cliques, q)
			off += q.Size
		}
		p.NV = off
		key := forestKey(&p, nil)
		switch trial % 4 {
		case 1:
			key[rng.IntN(len(key))]++
		case 2:
			key = key[:rng.IntN(len(key))]
		case 3:
			key = append(key, rng.IntN(3))
		}
		if got, want := sameForest(&p, key), slices.Equal(forestKey(&p, nil), key); got != want {
			t.Fatalf("trial %d: sameForest = %v, want %v (key %v)", trial, got, want, key)
		}
	}
}

// TestSameLengthsMatchesArray checks sameLengths against the comparison of
// lengths' arrays, with each entry changed in turn.
func TestSameLengthsMatchesArray(t *testing.T) {
	p := randomProblem(rand.New(rand.NewPCG(14, 4)), 2, 6, 3)
	l := lengths(p)
	if !sameLengths(p, &l) {
		t.Fatal("sameLengths: false on the problem's own lengths")
	}
	for i := range l {
		m := l
		m[i]++
		if sameLengths(p, &m) {
			t.Fatalf("sameLengths: true with entry %d changed", i)
		}
	}
}
