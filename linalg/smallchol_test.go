package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// smallcholRefCholUpper is CholUpper as it was before the smallchol pass
// (main cae6e06), kept as the reference of TestSmallcholBits.
func smallcholRefCholUpper(n int, a []float64) bool {
	a = a[:n*n]
	for j := range n {
		ajj := a[j*n+j] - smallcholRefColDot(a, n, j)
		if ajj <= 0 || math.IsNaN(ajj) {
			a[j*n+j] = ajj
			return false
		}
		ajj = math.Sqrt(ajj)
		a[j*n+j] = ajj
		if j == n-1 {
			break
		}
		rj := j * n
		for i := range j {
			ri := i * n
			if x := a[ri+j]; x != 0 {
				for k := j + 1; k < n; k++ {
					a[rj+k] -= x * a[ri+k]
				}
			}
		}
		inv := 1 / ajj
		for k := j + 1; k < n; k++ {
			a[rj+k] *= inv
		}
	}
	return true
}

// smallcholRefColDot is colDot as it was before the smallchol pass.
func smallcholRefColDot(a []float64, n, j int) float64 {
	var even, odd float64
	i := 0
	for ; i+2 <= j; i += 2 {
		x0, x1 := a[i*n+j], a[(i+1)*n+j]
		even += x0 * x0
		odd += x1 * x1
	}
	if i < j {
		x := a[i*n+j]
		odd += x * x
	}
	return even + odd
}

// smallcholRefSolveUpper1 is solveUpper1 as it was before the smallchol
// pass.
func smallcholRefSolveUpper1(n int, u, b []float64) {
	u, b = u[:n*n], b[:n]
	for k := range n {
		d := k*n + k
		bk := b[k] * (1 / u[d])
		b[k] = bk
		for i := k + 1; i < n; i++ {
			if v := u[d+i-k]; v != 0 {
				b[i] -= v * bk
			}
		}
	}
	for i := n - 1; i >= 0; i-- {
		d := i*n + i
		bi := b[i]
		for k := i + 1; k < n; k++ {
			if v := u[d+k-i]; v != 0 {
				bi -= v * b[k]
			}
		}
		b[i] = bi * (1 / u[d])
	}
}

// smallcholMatrix returns a random n×n symmetric matrix of the kinds the
// factor meets: SPD with a random sparsity pattern (the zeros the factor
// and the solve skip, some of them −0), entries scaled over 2⁻²⁰…2²⁰, or,
// for kind 3, a matrix that is not positive definite (a zero, negative or
// NaN pivot somewhere).
func smallcholMatrix(r *rand.Rand, n, kind int) []float64 {
	a := denseSPD(r, n)
	if kind >= 1 { // a sparsity pattern, kept SPD by the diagonal
		for i := range n {
			for j := i + 1; j < n; j++ {
				if r.IntN(3) == 0 {
					z := 0.0
					if r.IntN(2) == 0 {
						z = math.Copysign(0, -1)
					}
					a[i*n+j], a[j*n+i] = z, z
				}
			}
		}
	}
	if kind >= 2 { // D A D: scaled entries, still SPD
		d := make([]float64, n)
		for i := range d {
			d[i] = math.Ldexp(1+r.Float64(), r.IntN(41)-20)
		}
		for i := range n {
			for j := range n {
				a[i*n+j] *= d[i] * d[j]
			}
		}
	}
	if kind == 3 {
		p := r.IntN(n)
		switch r.IntN(3) {
		case 0:
			a[p*n+p] = 0
		case 1:
			a[p*n+p] = -a[p*n+p]
		default:
			a[p*n+p] = math.NaN()
		}
	}
	return a
}

// smallcholRHS returns a random right-hand side with zeros, −0 and
// entries scaled over 2⁻³⁰…2³⁰.
func smallcholRHS(r *rand.Rand, n int) []float64 {
	b := make([]float64, n)
	for i := range b {
		switch r.IntN(6) {
		case 0:
			b[i] = 0
		case 1:
			b[i] = math.Copysign(0, -1)
		default:
			b[i] = math.Ldexp(r.NormFloat64(), r.IntN(61)-30)
		}
	}
	return b
}

// smallcholSameBits reports the first index where got and want differ in
// their bits, or −1.
func smallcholSameBits(got, want []float64) int {
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			return i
		}
	}
	return -1
}

// TestSmallcholBits: CholUpper and the one-column SolveUpper give the
// bits of the routines they replaced (copied above), every entry of the
// n×n array (the lower triangle it does not touch included) and of the
// solution, on n = 1…SmallMax+3 and four kinds of matrix: dense SPD,
// sparse SPD with ±0, scaled, and not positive definite (where the
// failure and the array as left must match too).
func TestSmallcholBits(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 59))
	for n := 1; n <= SmallMax+3; n++ {
		for kind := range 4 {
			for trial := range 25 {
				name := fmt.Sprintf("n=%d kind=%d trial=%d", n, kind, trial)
				a := smallcholMatrix(r, n, kind)
				ref := append([]float64(nil), a...)
				okRef := smallcholRefCholUpper(n, ref)
				ok := CholUpper(n, a)
				if ok != okRef {
					t.Fatalf("%s: CholUpper = %v, reference %v", name, ok, okRef)
				}
				if i := smallcholSameBits(a, ref); i >= 0 {
					t.Fatalf("%s: a[%d] = %v, reference %v", name, i, a[i], ref[i])
				}
				if !ok {
					continue
				}
				for range 3 {
					b := smallcholRHS(r, n)
					want := append([]float64(nil), b...)
					smallcholRefSolveUpper1(n, a, want)
					SolveUpper(n, a, b, 1)
					if i := smallcholSameBits(b, want); i >= 0 {
						t.Fatalf("%s: x[%d] = %v, reference %v", name, i, b[i], want[i])
					}
				}
			}
		}
	}
}

// BenchmarkSmallchol factors and solves a sparse 9×9 SPD matrix (the
// order of dm walker's mass matrix), for callgrind's instruction counts
// of CholUpper and solveUpper1.
func BenchmarkSmallchol(b *testing.B) {
	for _, n := range []int{1, 2, 3, 6, 9, 18} {
		r := rand.New(rand.NewPCG(9, uint64(n)))
		a0 := smallcholMatrix(r, n, 1)
		a := make([]float64, n*n)
		u := append([]float64(nil), a0...)
		if !CholUpper(n, u) {
			b.Fatalf("n=%d: not positive definite", n)
		}
		x := smallcholRHS(r, n)
		b.Run(fmt.Sprintf("factor/n=%d", n), func(b *testing.B) {
			for range b.N {
				copy(a, a0)
				CholUpper(n, a)
			}
		})
		b.Run(fmt.Sprintf("solve/n=%d", n), func(b *testing.B) {
			for range b.N {
				SolveUpper(n, u, x, 1)
			}
		})
	}
}
