package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCubeslide2UpperGram6x3Bits: UpperGram6x3 on a 3×6 J block gives the
// bits of UpperGram(6, u, Jᵀ, 3, w), W added to a non-zero W, for 6×6
// factors with exact zeros of both signs above the diagonal (a free body's
// factor has its linear–angular coupling zero when its centre of mass is
// its origin) and J blocks with zero entries, zero columns (rows of Jᵀ
// that upperGram3 skips) and, now and then, a NaN.
func TestCubeslide2UpperGram6x3Bits(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 6))
	draw := func() float64 { // an exact zero of either sign half the time
		x := sparseEntry(r)
		if r.IntN(4) == 0 {
			return math.Copysign(0, x)
		}
		return x
	}
	for trial := range 2000 {
		u := denseSPD(r, 6)
		if !CholUpper(6, u) {
			t.Fatalf("trial %d: not positive definite", trial)
		}
		for k := range 6 {
			for i := k + 1; i < 6; i++ {
				if r.IntN(2) == 0 {
					u[k*6+i] = draw()
				}
			}
		}
		j := make([]float64, 18)
		for i := range j {
			j[i] = draw()
			if trial%3 == 0 {
				j[i] = r.NormFloat64()
			}
		}
		for range r.IntN(4) { // whole zero columns
			c := r.IntN(6)
			j[c], j[6+c], j[12+c] = 0, math.Copysign(0, -1), 0
		}
		if trial%97 == 0 {
			j[r.IntN(18)] = math.NaN()
		}
		w0 := make([]float64, 9)
		for i := range w0 {
			w0[i] = draw()
		}
		y := make([]float64, 18)
		for k := range 6 {
			y[3*k], y[3*k+1], y[3*k+2] = j[k], j[6+k], j[12+k]
		}
		want := append([]float64(nil), w0...)
		UpperGram(6, u, y, 3, want)
		got := append([]float64(nil), w0...)
		UpperGram6x3(u, j, got)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: W[%d] = %v (bits %x), UpperGram's %v (bits %x)", trial, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
			}
		}
	}
}
