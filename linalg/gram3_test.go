package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestUpperGram3Bits: UpperGram's three-column kernel (upperGram3) gives
// upperGramN's bits, W added to a non-zero W (a second tree's term) and Y,
// for dense and sparse right-hand sides (zero rows skipped), 6×6 factors
// (a free body) and others.
func TestUpperGram3Bits(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for trial := range 300 {
		n := 6
		if trial%2 == 1 {
			n = 1 + r.IntN(20)
		}
		u := denseSPD(r, n)
		if !CholUpper(n, u) {
			t.Fatalf("trial %d: not positive definite", trial)
		}
		b := sparseRHS(r, n, 3)
		if trial%3 == 0 {
			for i := range b {
				b[i] = r.NormFloat64()
			}
		}
		w0 := make([]float64, 9)
		for i := range w0 {
			w0[i] = r.NormFloat64()
		}
		bn, wn := append([]float64(nil), b...), append([]float64(nil), w0...)
		upperGramN(n, u, bn, 3, wn)
		b3, w3 := append([]float64(nil), b...), append([]float64(nil), w0...)
		upperGram3(n, u, b3, w3)
		for i := range wn {
			if math.Float64bits(wn[i]) != math.Float64bits(w3[i]) {
				t.Fatalf("trial %d (n %d): W[%d] = %v, upperGramN's %v", trial, n, i, w3[i], wn[i])
			}
		}
		for i := range bn {
			if math.Float64bits(bn[i]) != math.Float64bits(b3[i]) {
				t.Fatalf("trial %d (n %d): Y[%d] = %v, upperGramN's %v", trial, n, i, b3[i], bn[i])
			}
		}
	}
}
