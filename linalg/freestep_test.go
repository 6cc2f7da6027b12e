package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// TestSolveUpperOneColumnBits: SolveUpper's single-column path
// (solveUpper1) gives, bit for bit, column 0 of the n×cols path on the
// same right-hand side, for factors with structural zeros (a branched
// tree's mass matrix), negative zeros and right-hand sides with zeros,
// infinities and NaNs, which the skipped products would otherwise turn
// into NaNs or +0. A NaN matches a NaN: its payload depends on the operand
// order the compiler picks, which Go does not specify.
func TestSolveUpperOneColumnBits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()}
	for n := 1; n <= SmallMax; n++ {
		for trial := range 30 {
			a := denseSPD(r, n)
			if !CholUpper(n, a) {
				t.Fatalf("n=%d: CholUpper failed", n)
			}
			for i := range n { // zero some of U's off-diagonal entries, some as −0
				for j := i + 1; j < n; j++ {
					switch r.IntN(3) {
					case 0:
						a[i*n+j] = 0
					case 1:
						if trial%2 == 0 {
							a[i*n+j] = math.Copysign(0, -1)
						}
					}
				}
			}
			b := make([]float64, n)
			for i := range b {
				b[i] = r.NormFloat64()
				if trial >= 20 && r.IntN(4) == 0 {
					b[i] = special[r.IntN(len(special))]
				}
			}
			two := make([]float64, 2*n) // [b, 1] row-major: column 0 is b
			for i := range n {
				two[2*i], two[2*i+1] = b[i], 1
			}
			SolveUpper(n, a, b, 1)
			SolveUpper(n, a, two, 2)
			for i := range n {
				if math.Float64bits(b[i]) != math.Float64bits(two[2*i]) && !(math.IsNaN(b[i]) && math.IsNaN(two[2*i])) {
					t.Fatalf("n=%d trial %d: x[%d] = %v (%#x), n×cols path %v (%#x)", n, trial, i, b[i], math.Float64bits(b[i]), two[2*i], math.Float64bits(two[2*i]))
				}
			}
		}
	}
}

// TestCholUpperSparseBits.
func cholUpperBefore(n int, a []float64) bool {
	a = a[:n*n]
	for j := range n {
		ajj := a[j*n+j] - colDot(a, n, j)
		if ajj <= 0 || math.IsNaN(ajj) {
			a[j*n+j] = ajj
			return false
		}
		ajj = math.Sqrt(ajj)
		a[j*n+j] = ajj
		if j == n-1 {
			break
		}
		row := a[j*n+j+1 : j*n+n]
		for i := range j {
			if x := -a[i*n+j]; x != 0 {
				src := a[i*n+j+1 : i*n+n]
				for k := range row {
					row[k] += x * src[k]
				}
			}
		}
		inv := 1 / ajj
		for k := range row {
			row[k] *= inv
		}
	}
	return true
}

// TestCholUpperSparseBits: CholUpper gives gonum's Potrf factor (its upper
// triangle) on diagonally dominant matrices with symmetric structural zeros
// (some −0), as a branched tree's mass matrix has, to the bit up to the
// sign of a zero: CholUpper skips the updates by a_ij = 0, which add ±0
// to gonum's sums (TestSmallCholeskyMatchesGonum compares every bit on
// dense matrices).
func TestCholUpperSparseBits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 1; n <= SmallMax; n++ {
		for trial := range 30 {
			a := make([]float64, n*n)
			for i := range n {
				for j := i + 1; j < n; j++ {
					x := r.NormFloat64()
					switch r.IntN(3) {
					case 0:
						x = 0
					case 1:
						if trial%2 == 0 {
							x = math.Copysign(0, -1)
						}
					}
					a[i*n+j], a[j*n+i] = x, x
				}
			}
			for i := range n {
				s := 1.0
				for j := range n {
					s += math.Abs(a[i*n+j])
				}
				a[i*n+i] = s + r.Float64()
			}
			mine, ref := append([]float64(nil), a...), append([]float64(nil), a...)
			_, ok := lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: ref})
			if CholUpper(n, mine) != ok {
				t.Fatalf("n=%d trial %d: CholUpper and Potrf disagree on definiteness", n, trial)
			}
			for i := range n {
				for j := i; j < n; j++ {
					if k := i*n + j; math.Float64bits(mine[k]) != math.Float64bits(ref[k]) && !(mine[k] == 0 && ref[k] == 0) {
						t.Fatalf("n=%d trial %d: U[%d][%d] = %v, gonum %v", n, trial, i, j, mine[k], ref[k])
					}
				}
			}
		}
	}
}
