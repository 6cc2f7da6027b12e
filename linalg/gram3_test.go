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

// BenchmarkUpperGram6x3 times a contact's Delassus block on a free body's
// dense 6×6 factor (three dense rows), by the general loop (N) and by the
// three-column kernel UpperGram uses (3), in one binary.
func BenchmarkUpperGram6x3(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 8))
	u := denseSPD(r, 6)
	if !CholUpper(6, u) {
		b.Fatal("not positive definite")
	}
	j := make([]float64, 18)
	for i := range j {
		j[i] = r.NormFloat64()
	}
	y, w := make([]float64, 18), make([]float64, 9)
	for _, k := range []struct {
		name string
		f    func()
	}{
		{"N", func() { upperGramN(6, u, y, 3, w) }},
		{"3", func() { upperGram3(6, u, y, w) }},
	} {
		b.Run(k.name, func(b *testing.B) {
			for range b.N {
				copy(y, j)
				clear(w)
				k.f()
			}
		})
	}
}
