package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPairedKernelsSameBits checks that trsmLoops, syrkLoops and
// cholLoops, which work on two rows or two entries at a time (dotPrefix2),
// give the bits of the one-at-a-time loops they replaced, for every m, n
// up to 13 (odd and even counts, prefixes shorter and longer than the
// unrolling by four). Factor.Solve's paired rows are checked by the
// factorization tests' solves and TestStepHashes.
func TestPairedKernelsSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	for m := 1; m <= 13; m++ {
		for n := 1; n <= 13; n++ {
			l := make([]float64, n*n)
			for i := range n {
				for j := range i {
					l[i*n+j] = rng.NormFloat64()
				}
				l[i*n+i] = 1 + rng.Float64()
			}
			b := make([]float64, m*n)
			for i := range b {
				b[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
			}
			want := append([]float64(nil), b...)
			trsmRows(m, n, l, want)
			got := append([]float64(nil), b...)
			trsmLoops(m, n, l, got)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trsm m=%d n=%d: entry %d = %v, want %v", m, n, i, got[i], want[i])
				}
			}
			w := make([]float64, m*m)
			syrkLoops(m, n, b, w)
			for i := range m {
				for j := range i + 1 {
					if x, y := w[i*m+j], dotPrefix(b[i*n:(i+1)*n], b[j*n:(j+1)*n], n); math.Float64bits(x) != math.Float64bits(y) {
						t.Fatalf("syrk m=%d n=%d: (%d, %d) = %v, want %v", m, n, i, j, x, y)
					}
				}
			}
		}
	}
	for n := 1; n <= 13; n++ {
		a := make([]float64, n*n) // B Bᵀ + n I: positive definite
		b := make([]float64, n*n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		for i := range n {
			for j := range n {
				a[i*n+j] = dotPrefix(b[i*n:(i+1)*n], b[j*n:(j+1)*n], n)
			}
			a[i*n+i] += float64(n)
		}
		want := append([]float64(nil), a...)
		if !cholRows(n, want, n) {
			t.Fatalf("chol n=%d: the one-row loop finds it not positive definite", n)
		}
		got := append([]float64(nil), a...)
		if !cholLoops(n, got, n) {
			t.Fatalf("chol n=%d: not positive definite", n)
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("chol n=%d: entry %d = %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}

// trsmRows is trsmLoops one row at a time (dotPrefix's sums): the
// reference of the kernel tests.
func trsmRows(m, n int, l, b []float64) {
	for r := range m {
		x := b[r*n : (r+1)*n]
		for j := range n {
			lj := l[j*n : j*n+j+1]
			x[j] = (x[j] - dotPrefix(x, lj, j)) / lj[j]
		}
	}
}
