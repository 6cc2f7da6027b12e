package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/linalg"
)

// treecmu4Tree returns a random forest of 1 to 70 velocities (chains,
// branches at random earlier velocities, new roots; not always numbered in
// pre-order) and a random n×n block on its mass matrix pattern: each entry
// of a velocity and its ancestor or itself random (randomEntry: exact ±0
// one time in four), every other entry ±0.
func treecmu4Tree(rng *rand.Rand) ([]int, []float64) {
	n := 1 + rng.IntN(70)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i - 1
		if i > 0 && rng.IntN(3) == 0 {
			parent[i] = rng.IntN(i+1) - 1
		}
	}
	a := make([]float64, n*n)
	for k := range a {
		a[k] = math.Copysign(0, float64(rng.IntN(2))-0.5)
	}
	for i := range n {
		for j := i; j >= 0; j = parent[j] {
			a[i*n+j], a[j*n+i] = randomEntry(rng), randomEntry(rng)
		}
	}
	return parent, a
}

// TestTreecmu4MassPatternMatchesMulVec: M x on the tree's pattern
// (treeMulPattern, two rows at a time over their union) is linalg.MulVec's
// to the bit on random forests (1 to 70 velocities, ±0 on and off the
// pattern, ±0 in x), both straight (mulVec) and through mul, which also
// takes MulVec for x with ±Inf or NaN (a zero off the pattern times them is
// NaN). It fails when a row's pattern misses a column (a descendant, an
// ancestor below the run, the second row's own), or when the sums' order
// differs from column order.
func TestTreecmu4MassPatternMatchesMulVec(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 62))
	sparse := 0
	for trial := range 3000 {
		parent, a := treecmu4Tree(rng)
		n := len(parent)
		x := make([]float64, n)
		for i := range x {
			x[i] = randomEntry(rng)
		}
		if trial%5 == 0 {
			x[rng.IntN(n)] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
		}
		want, got, direct := make([]float64, n), make([]float64, n), make([]float64, n)
		linalg.MulVec(n, a, x, want)
		var pt treeMulPattern
		pt.mul(parent, a, x, got)
		if !sameBits(got, want) {
			t.Fatalf("trial %d (n %d, parent %v): mul %v, MulVec %v", trial, n, parent, got, want)
		}
		if !finiteAll(x) {
			continue
		}
		if pt.sparse {
			sparse++
		}
		pt.mulVec(a, x, direct)
		if !sameBits(direct, want) {
			t.Fatalf("trial %d (n %d, parent %v): mulVec %v, MulVec %v", trial, n, parent, direct, want)
		}
	}
	if sparse < 100 {
		t.Fatalf("only %d trials took the pattern", sparse)
	}
}

// TestTreecmu4OffRunsMatchesOffPattern: offRuns over runs of places gives
// offPattern's answer over the same places one by one, on random runs
// (empty, of 1 to 13 places, adjacent and apart) over entries that are ±0
// but for a few non-zeros, subnormals and NaNs. It fails when a run's last
// entries (past its groups of four) or a run are skipped.
func TestTreecmu4OffRunsMatchesOffPattern(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 63))
	odd := []float64{1, -2.5, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1)}
	for trial := range 5000 {
		src := make([]float64, 1+rng.IntN(200))
		for i := range src {
			src[i] = math.Copysign(0, float64(rng.IntN(2))-0.5)
		}
		for range rng.IntN(3) {
			src[rng.IntN(len(src))] = odd[rng.IntN(len(odd))]
		}
		var runs, places []int
		for p := rng.IntN(4); p < len(src); {
			end := min(p+rng.IntN(14), len(src))
			runs = append(runs, p, end)
			for q := p; q < end; q++ {
				places = append(places, q)
			}
			p = end + rng.IntN(6)
		}
		if got, want := offRuns(src, runs), offPattern(src, places); got != want {
			t.Fatalf("trial %d: offRuns %#x, offPattern %#x (runs %v)", trial, got, want, runs)
		}
	}
}
