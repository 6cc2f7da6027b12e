package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The dense port's kernels (mujoco_newton*.go) are MuJoCo 2.2.2's
// engine_util_solve.c and engine_util_blas.c to the bit. These tests hold
// the rewritten kernels (no re-slicing per entry, sums in line per row,
// loops merged) to the plain transcriptions below, bit for bit, on random
// inputs with exact zeros of both signs.

// refDot is mju_dot as written in MuJoCo: four partial sums over blocks of
// four, (s0 + s2) + (s1 + s3), then the tail.
func refDot(a, b []float64, n int) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i <= n-4; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	res := (s0 + s2) + (s1 + s3)
	for ; i < n; i++ {
		res += a[i] * b[i]
	}
	return res
}

// refCholFactor is mju_cholFactor as written in MuJoCo.
func refCholFactor(mat []float64, n int, mindiag float64) int {
	rank := n
	for j := range n {
		tmp := mat[j*(n+1)]
		if j > 0 {
			tmp -= refDot(mat[j*n:], mat[j*n:], j)
		}
		if tmp < mindiag {
			tmp = mindiag
			rank--
		}
		mat[j*(n+1)] = math.Sqrt(tmp)
		tmp = 1 / mat[j*(n+1)]
		for i := j + 1; i < n; i++ {
			mat[i*n+j] = (mat[i*n+j] - refDot(mat[i*n:], mat[j*n:], j)) * tmp
		}
	}
	return rank
}

// refCholSolve is mju_cholSolve as written in MuJoCo.
func refCholSolve(mat, vec, res []float64, n int) {
	copy(res, vec[:n])
	for i := range n {
		if i > 0 {
			res[i] -= refDot(mat[i*n:], res, i)
		}
		res[i] /= mat[i*(n+1)]
	}
	for i := n - 1; i >= 0; i-- {
		for j := i + 1; j < n; j++ {
			res[i] -= mat[j*n+i] * res[j]
		}
		res[i] /= mat[i*(n+1)]
	}
}

// refCholUpdate is mju_cholUpdate as written in MuJoCo (two loops).
func refCholUpdate(mat, x []float64, n int, plus bool) int {
	rank := n
	for k := range n {
		if x[k] == 0 {
			continue
		}
		lkk := mat[k*(n+1)]
		tmp := lkk*lkk - x[k]*x[k]
		if plus {
			tmp = lkk*lkk + x[k]*x[k]
		}
		if tmp < mjMinVal {
			tmp = mjMinVal
			rank--
		}
		r := math.Sqrt(tmp)
		c := r / lkk
		cinv := 1 / c
		s := x[k] / lkk
		mat[k*(n+1)] = r
		for i := k + 1; i < n; i++ {
			if plus {
				mat[i*n+k] = (mat[i*n+k] + s*x[i]) * cinv
			} else {
				mat[i*n+k] = (mat[i*n+k] - s*x[i]) * cinv
			}
		}
		for i := k + 1; i < n; i++ {
			x[i] = c*x[i] - s*mat[i*n+k]
		}
	}
	return rank
}

// randomEntry returns a random float64 that is an exact ±0 one time in four.
func randomEntry(rng *rand.Rand) float64 {
	if rng.IntN(4) == 0 {
		return math.Copysign(0, float64(rng.IntN(2))-0.5)
	}
	return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
}

// lowerSameBits reports whether a and b have the same bits on the lower
// triangle (diagonal included) of an n×n matrix.
func lowerSameBits(a, b []float64, n int) bool {
	for i := range n {
		if !sameBits(a[i*n:i*n+i+1], b[i*n:i*n+i+1]) {
			return false
		}
	}
	return true
}

// TestDot4MatchesMuJoCo: dot4 and mulRows (strided rows, in line) give
// mju_dot's bits at every length 0–40.
func TestDot4MatchesMuJoCo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 2000 {
		n, rows, stride := trial%41, 1+rng.IntN(5), trial%41+rng.IntN(3)
		a, x := make([]float64, rows*stride+n), make([]float64, n)
		for i := range a {
			a[i] = randomEntry(rng)
		}
		for i := range x {
			x[i] = randomEntry(rng)
		}
		if got, want := dot4(a[:n], x), refDot(a, x, n); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n %d: dot4 %v, mju_dot %v", n, got, want)
		}
		out := make([]float64, rows)
		mulRows(a, x, out, stride)
		for i := range rows {
			if want := refDot(a[i*stride:], x, n); math.Float64bits(out[i]) != math.Float64bits(want) {
				t.Fatalf("n %d stride %d row %d: mulRows %v, mju_dot %v", n, stride, i, out[i], want)
			}
		}
	}
}

// TestCholKernelsMatchMuJoCo: cholFactor, cholSolve and cholUpdate (both
// signs, with a rank loss now and then) give the bits of MuJoCo's loops on
// the lower triangle, which is all the factor is, at sizes 1–30.
func TestCholKernelsMatchMuJoCo(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for trial := range 600 {
		n := 1 + trial%30
		// H = A Aᵀ + diag, some rows of A zero: SPD, with zero couplings.
		a := make([]float64, n*n)
		for i := range a {
			a[i] = randomEntry(rng)
		}
		h := make([]float64, n*n)
		for i := range n {
			for j := range n {
				h[i*n+j] = refDot(a[i*n:], a[j*n:], n)
			}
			h[i*n+i] += 0.1 + rng.Float64()
		}
		if trial%7 == 0 {
			h[(n-1)*n+n-1] = -1 // below mindiag: the rank drops
		}
		got, want := append([]float64(nil), h...), append([]float64(nil), h...)
		if rg, rw := cholFactor(got, n, mjMinVal), refCholFactor(want, n, mjMinVal); rg != rw || !lowerSameBits(got, want, n) {
			t.Fatalf("n %d: cholFactor rank %d, MuJoCo's %d, or the factors' bits differ", n, rg, rw)
		}
		vec := make([]float64, n)
		for i := range vec {
			vec[i] = randomEntry(rng)
		}
		rg, rw := make([]float64, n), make([]float64, n)
		cholSolve(got, vec, rg, n)
		refCholSolve(want, vec, rw, n)
		if !sameBits(rg, rw) {
			t.Fatalf("n %d: cholSolve %v, MuJoCo's %v", n, rg, rw)
		}
		for _, plus := range []bool{true, false} {
			x := make([]float64, n)
			for i := range x {
				x[i] = 0.3 * randomEntry(rng)
			}
			xg, xw := append([]float64(nil), x...), append([]float64(nil), x...)
			if kg, kw := cholUpdate(got, xg, n, plus), refCholUpdate(want, xw, n, plus); kg != kw || !lowerSameBits(got, want, n) || !sameBits(xg, xw) {
				t.Fatalf("n %d plus %v: cholUpdate rank %d, MuJoCo's %d, or the bits differ", n, plus, kg, kw)
			}
		}
	}
}
