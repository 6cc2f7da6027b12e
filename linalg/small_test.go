package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// denseSPD returns a random n×n row-major symmetric positive definite
// matrix B Bᵀ + n I.
func denseSPD(r *rand.Rand, n int) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = r.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for k := range n {
				s += b[i*n+k] * b[j*n+k]
			}
			a[i*n+j] = s
		}
		a[i*n+i] += float64(n)
	}
	return a
}

// TestSmallCholeskyMatchesGonum: CholUpper and SolveUpper give gonum's
// Potrf and Potrs results bit for bit (n = 1…SmallMax, 1 and 3 right-hand
// sides), and the solution satisfies A x = b to round-off.
func TestSmallCholeskyMatchesGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= SmallMax; n++ {
		for trial := range 20 {
			a := denseSPD(r, n)
			mine := append([]float64(nil), a...)
			ref := append([]float64(nil), a...)
			if !CholUpper(n, mine) {
				t.Fatalf("n=%d: CholUpper failed on an SPD matrix", n)
			}
			sym := blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: ref}
			if _, ok := lapack64.Potrf(sym); !ok {
				t.Fatalf("n=%d: Potrf failed", n)
			}
			for i := range n {
				for j := i; j < n; j++ {
					if math.Float64bits(mine[i*n+j]) != math.Float64bits(ref[i*n+j]) {
						t.Fatalf("n=%d trial %d: U[%d][%d] = %v, gonum %v", n, trial, i, j, mine[i*n+j], ref[i*n+j])
					}
				}
			}
			for _, cols := range []int{1, 3} {
				b := make([]float64, n*cols)
				for i := range b {
					b[i] = r.NormFloat64()
				}
				x, xr := append([]float64(nil), b...), append([]float64(nil), b...)
				SolveUpper(n, mine, x, cols)
				tri := blas64.Triangular{N: n, Stride: n, Uplo: blas.Upper, Diag: blas.NonUnit, Data: ref}
				lapack64.Potrs(tri, blas64.General{Rows: n, Cols: cols, Stride: cols, Data: xr})
				for i := range x {
					if math.Float64bits(x[i]) != math.Float64bits(xr[i]) {
						t.Fatalf("n=%d cols=%d: x[%d] = %v, gonum %v", n, cols, i, x[i], xr[i])
					}
				}
				for i := range n {
					for c := range cols {
						s := 0.0
						for k := range n {
							s += a[i*n+k] * x[k*cols+c]
						}
						if d := math.Abs(s - b[i*cols+c]); d > 1e-12*float64(n)*(1+math.Abs(b[i*cols+c])) {
							t.Fatalf("n=%d: residual %g", n, d)
						}
					}
				}
			}
		}
	}
}

// TestSmallCholeskyRejects: a matrix that is not positive definite (or has
// a NaN) is reported, as Potrf reports it.
func TestSmallCholeskyRejects(t *testing.T) {
	for _, a := range [][]float64{{-1}, {1, 2, 2, 1}, {math.NaN()}, {4, 0, 0, 0}} {
		n := int(math.Sqrt(float64(len(a))))
		if CholUpper(n, append([]float64(nil), a...)) {
			t.Errorf("%v: factored", a)
		}
	}
}

// BenchmarkSmallCholesky compares CholUpper+SolveUpper with gonum's
// Potrf+Potrs (one right-hand side) on SPD matrices of a few orders:
//
//	go test ./linalg -run XXX -bench SmallCholesky -count 6
func BenchmarkSmallCholesky(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 6, 16, 27, 48} {
		a := denseSPD(r, n)
		w := make([]float64, n*n)
		x := make([]float64, n)
		b.Run(fmt.Sprintf("small/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(w, a)
				CholUpper(n, w)
				SolveUpper(n, w, x, 1)
			}
		})
		b.Run(fmt.Sprintf("gonum/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(w, a)
				lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: w})
				lapack64.Potrs(blas64.Triangular{N: n, Stride: n, Uplo: blas.Upper, Diag: blas.NonUnit, Data: w}, blas64.General{Rows: n, Cols: 1, Stride: 1, Data: x})
			}
		})
	}
}

// TestSolveUpperVecMatchesTrsv: SolveUpperVec gives the bits of gonum's
// Dtrsv, Trans then NoTrans, on CholUpper's factor (n = 1…SmallMax), which
// differ from Dpotrs's (SolveUpper) in the order of the sums; and the
// solution satisfies A x = b to round-off.
func TestSolveUpperVecMatchesTrsv(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 9))
	differs := 0
	for n := 1; n <= SmallMax; n++ {
		for trial := range 20 {
			a := denseSPD(r, n)
			u := append([]float64(nil), a...)
			if !CholUpper(n, u) {
				t.Fatalf("n=%d: CholUpper failed on an SPD matrix", n)
			}
			b := make([]float64, n)
			for i := range b {
				b[i] = r.NormFloat64()
			}
			x, xr, xs := append([]float64(nil), b...), append([]float64(nil), b...), append([]float64(nil), b...)
			SolveUpperVec(n, u, x)
			tri := blas64.Triangular{N: n, Stride: n, Uplo: blas.Upper, Diag: blas.NonUnit, Data: u}
			blas64.Trsv(blas.Trans, tri, blas64.Vector{N: n, Inc: 1, Data: xr})
			blas64.Trsv(blas.NoTrans, tri, blas64.Vector{N: n, Inc: 1, Data: xr})
			SolveUpper(n, u, xs, 1)
			for i := range x {
				if math.Float64bits(x[i]) != math.Float64bits(xr[i]) {
					t.Fatalf("n=%d trial %d: x[%d] = %v, Dtrsv %v", n, trial, i, x[i], xr[i])
				}
				if x[i] != xs[i] {
					differs++
				}
				s := 0.0
				for k := range n {
					s += a[i*n+k] * x[k]
				}
				if d := math.Abs(s - b[i]); d > 1e-12*float64(n)*(1+math.Abs(b[i])) {
					t.Fatalf("n=%d: residual %g", n, d)
				}
			}
		}
	}
	t.Logf("%d entries differ from SolveUpper's (Dpotrs's order)", differs)
}
