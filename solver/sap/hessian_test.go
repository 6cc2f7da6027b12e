package sap

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// TestCholeskyMatchesPotrf checks the chunked blocked Cholesky against
// lapack64.Potrf on random SPD matrices of sizes around the block and chunk
// sizes, and that it rejects indefinite and NaN matrices.
func TestCholeskyMatchesPotrf(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 7, 63, 64, 65, 128, 200, 257, 321, 400} {
		a := randSPD(rng, n, 1)
		got := append([]float64(nil), a...)
		if !choleskyUpper(n, got, n) {
			t.Fatalf("n = %d: SPD matrix rejected", n)
		}
		want := append([]float64(nil), a...)
		if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: want}); !ok {
			t.Fatalf("n = %d: Potrf failed", n)
		}
		worst := 0.0
		for i := range n {
			for j := i; j < n; j++ {
				worst = max(worst, math.Abs(got[i*n+j]-want[i*n+j])/math.Abs(want[i*n+i]))
			}
		}
		if worst > 1e-13 {
			t.Errorf("n = %d: factor differs from Potrf by %g", n, worst)
		}
		// Indefinite: flip the sign of one late diagonal entry.
		bad := append([]float64(nil), a...)
		bad[(n-1)*n+n-1] = -1
		if choleskyUpper(n, bad, n) {
			t.Errorf("n = %d: indefinite matrix accepted", n)
		}
		nan := append([]float64(nil), a...)
		nan[n/2*n+n/2] = math.NaN()
		if choleskyUpper(n, nan, n) {
			t.Errorf("n = %d: NaN matrix accepted", n)
		}
	}
}
