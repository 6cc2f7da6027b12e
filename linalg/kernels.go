package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
)

// Kernels selects the dense kernels of the supernodal factorization.
type Kernels int

const (
	// AutoKernels (the default) chooses per supernode: Loops for small
	// supernodes, BLAS once the supernode's update has at least
	// blasMinWork multiply-adds (measured crossover, BENCHMARKS.md).
	AutoKernels Kernels = iota
	// Loops uses hand-written row-major loops (every inner loop is a dot
	// product of two contiguous rows). They are faster than the gonum calls
	// on the small supernodes (a few 6×6 blocks) that dominate contact
	// problems.
	Loops
	// BLAS uses gonum's Dpotrf, Dtrsm and Dsyrk (pure Go, serial for
	// these routines).
	BLAS
)

// String returns the kernel name.
func (k Kernels) String() string {
	switch k {
	case AutoKernels:
		return "auto"
	case Loops:
		return "loops"
	case BLAS:
		return "blas"
	}
	return "unknown"
}

// blasMinWork is the size of a supernode's work ns²·(ns + m), for ns
// columns and m off-diagonal rows, from which AutoKernels uses BLAS.
var blasMinWork = 65536

// useBLAS reports whether kernels k use BLAS for a supernode with ns
// columns and m off-diagonal rows.
func useBLAS(k Kernels, ns, m int) bool {
	switch k {
	case Loops:
		return false
	case BLAS:
		return true
	}
	return ns*ns*(ns+m) >= blasMinWork
}

// cholLoops factors the n×n row-major matrix a (lower triangle referenced,
// row stride lda) as L Lᵀ in place, and reports whether it is numerically
// positive definite.
func cholLoops(n int, a []float64, lda int) bool {
	if n == 6 {
		return chol6(a, lda)
	}
	for j := range n {
		rj := a[j*lda : j*lda+j+1]
		d := rj[j] - dotPrefix(rj, rj, j)
		if !(d > 0) || math.IsInf(d, 0) {
			return false
		}
		ljj := math.Sqrt(d)
		rj[j] = ljj
		if j+1 < n {
			cholColumn(a[(j+1)*lda:], n-j-1, lda, rj[:j], 1/ljj)
		}
	}
	return true
}

// cholColumn sets column j = len(y) of the m rows of a below the diagonal
// (row stride lda; y is row j of L left of the diagonal) to
// (a_ij − dotPrefix(a_i, y, j)) · inv. Two rows at a time, dotPrefix2's
// body written in line: each entry's four partial sums get the products of
// dotPrefix in its order, and the row pairs are found by one offset
// stepped by 2·lda, not sliced from a with two products of indices (the
// slicing and the call were 60% of cholLoops' instructions on clutter-40's
// supernodes of 12–24 columns). The same bits: TestPeers6CholSameBits.
func cholColumn(a []float64, m, lda int, y []float64, inv float64) {
	j := len(y)
	g := j &^ 3 // the end of dotPrefix's full groups of four
	yg := y[:g:g]
	o := 0
	i := 0
	for ; i+2 <= m; i += 2 {
		x1 := a[o : o+j+1]
		x2 := a[o+lda : o+lda+j+1]
		g1, g2 := x1[:g:g], x2[:g:g]
		var s0, s1, s2, s3, t0, t1, t2, t3 float64
		for k := 0; k+4 <= g; k += 4 {
			a, b, c := (*[4]float64)(g1[k:k+4]), (*[4]float64)(g2[k:k+4]), (*[4]float64)(yg[k:k+4])
			c0 := c[0]
			s0 += a[0] * c0
			t0 += b[0] * c0
			c1 := c[1]
			s1 += a[1] * c1
			t1 += b[1] * c1
			c2 := c[2]
			s2 += a[2] * c2
			t2 += b[2] * c2
			c3 := c[3]
			s3 += a[3] * c3
			t3 += b[3] * c3
		}
		for k := g; k < j; k++ {
			s0 += x1[k] * y[k]
			t0 += x2[k] * y[k]
		}
		x1[j] = (x1[j] - ((s0 + s1) + (s2 + s3))) * inv
		x2[j] = (x2[j] - ((t0 + t1) + (t2 + t3))) * inv
		o += 2 * lda
	}
	if i < m {
		x := a[o : o+j+1]
		x[j] = (x[j] - dotPrefix(x, y, j)) * inv
	}
}

// trsmLoops overwrites the m×n row-major matrix b (stride n) with
// b L⁻ᵀ, where L is the n×n lower factor in l (stride n). Rows are
// independent: they are solved two at a time (dotPrefix2), each with the
// operations of one.
func trsmLoops(m, n int, l, b []float64) {
	if n == 6 {
		trsm6(m, l, b)
		return
	}
	r := 0
	for ; r+2 <= m; r += 2 {
		x1, x2 := b[r*n:(r+1)*n], b[(r+1)*n:(r+2)*n]
		for j := range n {
			lj := l[j*n : j*n+j+1]
			d1, d2 := dotPrefix2(x1, x2, lj, j)
			x1[j] = (x1[j] - d1) / lj[j]
			x2[j] = (x2[j] - d2) / lj[j]
		}
	}
	for ; r < m; r++ {
		x := b[r*n : (r+1)*n]
		for j := range n {
			lj := l[j*n : j*n+j+1]
			x[j] = (x[j] - dotPrefix(x, lj, j)) / lj[j]
		}
	}
}

// syrkLoops sets the lower triangle of the m×m row-major w (stride m) to
// b bᵀ for the m×n row-major b (stride n).
func syrkLoops(m, n int, b, w []float64) {
	if n == 6 {
		syrk6(m, b, w)
		return
	}
	for i := range m {
		bi := b[i*n : (i+1)*n]
		wi := w[i*m : i*m+i+1]
		j := 0
		for ; j+2 <= len(wi); j += 2 { // two entries at a time, each dotPrefix's sum (products commute)
			wi[j], wi[j+1] = dotPrefix2(b[j*n:(j+1)*n], b[(j+1)*n:(j+2)*n], bi, n)
		}
		for ; j < len(wi); j++ {
			wi[j] = dotPrefix(bi, b[j*n:(j+1)*n], n)
		}
	}
}

// dotPrefix returns Σ_{k<n} x[k] y[k], unrolled by four: four partial
// sums s_j over the columns k ≡ j (mod 4) of the full groups of four, the
// remainder added to s0, then (s0 + s1) + (s2 + s3). Each group is sliced
// once (one bounds check, which the loop's condition removes, instead of
// one per entry).
func dotPrefix(x, y []float64, n int) float64 {
	x, y = x[:n], y[:n]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= n; k += 4 {
		a, b := (*[4]float64)(x[k:k+4]), (*[4]float64)(y[k:k+4])
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
	}
	for ; k < n; k++ {
		s0 += x[k] * y[k]
	}
	return (s0 + s1) + (s2 + s3)
}

// dotPrefix2 returns dotPrefix(x1, y, n) and dotPrefix(x2, y, n), the same
// operations in the same order for each, in one pass over y (each group
// of y loaded once, for both products).
func dotPrefix2(x1, x2, y []float64, n int) (float64, float64) {
	x1, x2, y = x1[:n], x2[:n], y[:n]
	var s0, s1, s2, s3, t0, t1, t2, t3 float64
	k := 0
	for ; k+4 <= n; k += 4 {
		a, b, c := (*[4]float64)(x1[k:k+4]), (*[4]float64)(x2[k:k+4]), (*[4]float64)(y[k:k+4])
		c0, c1, c2, c3 := c[0], c[1], c[2], c[3]
		s0, s1, s2, s3 = s0+a[0]*c0, s1+a[1]*c1, s2+a[2]*c2, s3+a[3]*c3
		t0, t1, t2, t3 = t0+b[0]*c0, t1+b[1]*c1, t2+b[2]*c2, t3+b[3]*c3
	}
	for ; k < n; k++ {
		s0 += x1[k] * y[k]
		t0 += x2[k] * y[k]
	}
	return (s0 + s1) + (s2 + s3), (t0 + t1) + (t2 + t3)
}

// cholBLAS is cholLoops with gonum's Dpotrf.
func cholBLAS(n int, a []float64, lda int) bool {
	return gonum.Implementation{}.Dpotrf(blas.Lower, n, a, lda)
}

// trsmBLAS is trsmLoops with gonum's Dtrsm.
func trsmBLAS(m, n int, l, b []float64) {
	blas64.Implementation().Dtrsm(blas.Right, blas.Lower, blas.Trans, blas.NonUnit, m, n, 1, l, n, b, n)
}

// syrkBLAS is syrkLoops with gonum's Dsyrk.
func syrkBLAS(m, n int, b, w []float64) {
	blas64.Implementation().Dsyrk(blas.Lower, blas.NoTrans, m, n, 1, b, n, 0, w, m)
}
