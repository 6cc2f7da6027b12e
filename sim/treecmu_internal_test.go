package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTreecmuHessianScratch: hessianDirectSparse clears its scratch row
// (sp.buf) once and then column by column as it gathers H's rows, which
// relies on every column that a row of J or M writes being on H's row
// (M's slots off it add ±0). On random problems whose J and M change
// between solves (TestSparseSymKeptMatchesMerges' variants), with sp.buf
// left full of NaN and ±1 by another user (cholUpdate shares it), H's
// factor has the merges' bits and sp.buf is +0 everywhere afterwards. It
// fails when the first clear is left out (the NaN reach H), when the
// gather does not clear (a row's sums reach the next rows), or when a
// column of J falls off H's row (its sum is left in sp.buf).
func TestTreecmuHessianScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 1))
	nw := &newtonWork{}
	dirty := []float64{math.NaN(), 1, -1, math.Copysign(0, -1)}
	check := func(trial, solve int) {
		t.Helper()
		for i := range nw.sp.buf {
			nw.sp.buf[i] = dirty[rng.IntN(len(dirty))]
		}
		want := mergeHessian(nw)
		mergeFactor(want, mjMinVal)
		nw.hessianDirectSparse(nil)
		sameSparseRows(t, "factor", &nw.sp.h, want)
		for c, v := range nw.sp.buf[:nw.nv] {
			if math.Float64bits(v) != 0 {
				t.Fatalf("trial %d, solve %d: scratch[%d] = %v after the Hessian, want +0", trial, solve, c, v)
			}
		}
	}
	for trial := range 150 {
		randomSparseNewton(rng, nw)
		v := sparsehess2Variants(rng, nw)
		for solve := range 12 {
			sparsehess2SetRows(rng, nw, v[rng.IntN(4)])
			if rng.IntN(3) == 0 {
				flipMZero(rng, &nw.sp)
			}
			check(trial, solve)
		}
	}
}
