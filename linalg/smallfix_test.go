package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// smallfixOdd returns one of the awkward values the written-out orders
// (cholUpper2, solveUpper2) must treat as the loops do: ±0, ±Inf, NaN,
// or else x.
func smallfixOdd(r *rand.Rand, x float64) float64 {
	switch r.IntN(8) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.Inf(1)
	case 3:
		return math.Inf(-1)
	case 4:
		return math.NaN()
	}
	return x
}

// smallfixSameBits is smallcholSameBits with any two NaNs alike: which
// operand's NaN an arithmetic instruction passes on (its sign and payload)
// depends on the order the compiler gives the operands, which the same
// source, compiled twice, need not keep.
func smallfixSameBits(got, want []float64) int {
	for i := range want {
		if math.IsNaN(got[i]) && math.IsNaN(want[i]) {
			continue
		}
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			return i
		}
	}
	return -1
}

// TestSmallfixOddValues: CholUpper and the one-column SolveUpper give the
// bits of the routines TestSmallcholBits keeps as references on orders
// 1…4 (1 and 2 written out, 3 and 4 the loops) when the matrix's entries
// (off-diagonal or on it) or the right-hand side's are ±0, ±Inf or NaN:
// the reported failure, the array as left and the solution (NaN for NaN).
func TestSmallfixOddValues(t *testing.T) {
	r := rand.New(rand.NewPCG(105, 2))
	for n := 1; n <= 4; n++ {
		for trial := range 400 {
			name := fmt.Sprintf("n=%d trial=%d", n, trial)
			a := smallcholMatrix(r, n, r.IntN(3))
			if r.IntN(2) == 0 { // an odd entry, mirrored
				i, j := r.IntN(n), r.IntN(n)
				a[i*n+j] = smallfixOdd(r, a[i*n+j])
				a[j*n+i] = a[i*n+j]
			}
			ref := append([]float64(nil), a...)
			okRef := smallcholRefCholUpper(n, ref)
			if ok := CholUpper(n, a); ok != okRef {
				t.Fatalf("%s: CholUpper = %v, reference %v", name, ok, okRef)
			}
			if i := smallfixSameBits(a, ref); i >= 0 {
				t.Fatalf("%s: a[%d] = %v, reference %v", name, i, a[i], ref[i])
			}
			b := smallcholRHS(r, n)
			for i := range b {
				b[i] = smallfixOdd(r, b[i])
			}
			want := append([]float64(nil), b...)
			smallcholRefSolveUpper1(n, a, want)
			SolveUpper(n, a, b, 1)
			if i := smallfixSameBits(b, want); i >= 0 {
				t.Fatalf("%s: x[%d] = %v, reference %v", name, i, b[i], want[i])
			}
		}
	}
}
