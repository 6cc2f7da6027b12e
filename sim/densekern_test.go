package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// densekernEntry is an entry of a kernel's input: ±0 (either sign) one
// time in three, else a normal value scaled by 10^(−3…3).
func densekernEntry(rng *rand.Rand) float64 {
	if rng.IntN(3) == 0 {
		return math.Copysign(0, float64(rng.IntN(2))-0.5)
	}
	return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
}

// densekernVector returns n entries of densekernEntry.
func densekernVector(rng *rand.Rand, n int) []float64 {
	v := make([]float64, 0, n)
	for range n {
		v = append(v, densekernEntry(rng))
	}
	return v
}

// TestDensekernMulRowsExactSlice: mulRows over a matrix cut to exactly
// its last row's end ((rows − 1)·stride + n entries, so that a row cut
// past the data's capacity panics) gives mju_dot's bits on every row, at
// every length 0–21 and strides n…n+3, with zeros of both signs in the
// rows and in x (a −0 sum, were a zero skipped or a partial sum moved,
// would show as a different bit).
func TestDensekernMulRowsExactSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	for trial := range 3000 {
		n, rows := trial%22, 1+rng.IntN(6)
		stride := n + rng.IntN(4)
		a, x := densekernVector(rng, (rows-1)*stride+n), densekernVector(rng, n)
		out := make([]float64, rows)
		mulRows(a[:len(a):len(a)], x, out, stride)
		for i := range rows {
			if want := refDot(a[i*stride:], x, n); math.Float64bits(out[i]) != math.Float64bits(want) {
				t.Fatalf("n %d stride %d row %d: mulRows %v, mju_dot %v", n, stride, i, out[i], want)
			}
		}
		if n > 0 {
			if got, want := dotMJ(a[:n:n], x), refDot(a, x, n); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("n %d: dotMJ %v, mju_dot %v", n, got, want)
			}
		}
	}
}

// TestDensekernFactorSignedZeros: cholFactorFrom, with and without a
// window (first), gives mju_cholFactor's bits on the lower triangle and
// its rank, on diagonally dominant matrices (off-diagonal entries of
// magnitude ≤ 1, diagonal 4n…4n+1) whose off-diagonal entries are zeros of
// both signs one time in three — a −0 in a window's first column (the
// factor's plain scale there: −0 − (+0) = −0) and −0 left of a row's first
// non-zero included — and now and then a negative last diagonal (the rank
// drops, the diagonal is raised to mindiag; every entry stays finite, as
// the window's argument needs). A window's left part is
// zeros of random sign: the terms the window leaves out are ±0 products.
func TestDensekernFactorSignedZeros(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	for trial := range 3000 {
		n := 1 + trial%24
		h := make([]float64, n*n)
		var first []int
		if trial%2 == 1 {
			first = make([]int, n)
			for j := range n {
				first[j] = rng.IntN(j + 1)
			}
		}
		for i := range n {
			for j := range i {
				if first != nil && j < first[i] {
					h[i*n+j] = math.Copysign(0, float64(rng.IntN(2))-0.5)
					continue
				}
				h[i*n+j] = math.Min(1, math.Abs(densekernEntry(rng))) * math.Copysign(1, rng.Float64()-0.5)
			}
			h[i*n+i] = float64(4*n) + rng.Float64()
			for j := i + 1; j < n; j++ {
				h[i*n+j] = math.NaN() // the upper triangle is not read
			}
		}
		if trial%9 == 0 {
			h[n*n-1] = -1 // the last diagonal: every entry stays finite
		}
		got, want := append([]float64(nil), h...), append([]float64(nil), h...)
		rg, rw := cholFactorFrom(got, n, mjMinVal, first), refCholFactor(want, n, mjMinVal)
		if rg != rw || !lowerSameBits(got, want, n) {
			t.Fatalf("trial %d n %d first %v: rank %d, MuJoCo's %d, or the factors' bits differ", trial, n, first, rg, rw)
		}
		// A solve with the factor (zeros of both signs in the right-hand
		// side) keeps MuJoCo's bits as well.
		vec := densekernVector(rng, n)
		sol := make([]float64, 2*n) // ours, then MuJoCo's
		cholSolve(got, vec, sol[:n], n)
		refCholSolve(want, vec, sol[n:], n)
		if !sameBits(sol[:n], sol[n:]) {
			t.Fatalf("trial %d n %d: cholSolve %v, MuJoCo's %v", trial, n, sol[:n], sol[n:])
		}
	}
}
