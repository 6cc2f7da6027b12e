package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMulVecBits: MulVec gives the bits of a plain row-by-row loop (each
// row's products added in column order from +0), for odd and even orders,
// with exact zeros and signed zeros in A and x (many trials of each order:
// n = 6 takes its own kernel).
func TestMulVecBits(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	for trial := range 1200 {
		n := trial % 12
		a, x := make([]float64, n*n), make([]float64, n)
		for i := range a {
			switch r.IntN(4) {
			case 0:
				a[i] = 0
			case 1:
				a[i] = math.Copysign(0, -1)
			default:
				a[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4))
			}
		}
		for i := range x {
			x[i] = r.NormFloat64()
			if r.IntN(3) == 0 {
				x[i] = math.Copysign(0, float64(r.IntN(2))-0.5)
			}
		}
		if n > 2 {
			x[1] = math.Copysign(0, -1)
		}
		got := make([]float64, n)
		MulVec(n, a, x, got)
		for i := range n {
			s := 0.0
			for j := range n {
				s += a[i*n+j] * x[j]
			}
			if math.Float64bits(got[i]) != math.Float64bits(s) {
				t.Fatalf("n = %d, row %d: %v, want %v", n, i, got[i], s)
			}
		}
	}
}
