package linalg

import "math"

// SmallMax is the largest order for which the small dense kernels
// (CholUpper, SolveUpper) are used in place of the gonum calls: below it,
// gonum's argument checks and assembly call overhead cost more than the
// arithmetic (a 1×1 or 2×2 mass-matrix block, a 6×6 contact block, a
// 27-dof humanoid). BenchmarkSmallCholesky, factor and one solve on the
// shared 2-core machine: n = 1 55 ns against gonum's 320–360, n = 6
// 0.65–0.76 µs against 1.5–1.7, n = 27 17 µs against 22–25, n = 48 equal.
const SmallMax = 32

// CholUpper factors the n×n row-major symmetric matrix a (upper triangle
// referenced) in place as A = UᵀU, U upper triangular, and reports whether
// A is numerically positive definite. It performs the operations of gonum's
// Dpotf2 (Upper) in the same order, so that its factor is the same to the
// bit: for column j,
//
//	u_jj = √(a_jj − Σ_{i<j} u_ij²),  u_jk = (a_jk − Σ_{i<j} u_ij u_ik) · (1/u_jj),
//
// with the dot product of Dpotf2's Ddot (even and odd terms summed apart,
// then added) and the row update of its Dgemv (one row i at a time). Row j
// is updated and scaled through a slice of length n (a[j n:][:n]), so that
// those loops, whose indices are below n, run without bounds checks.
func CholUpper(n int, a []float64) bool {
	a = a[:n*n]
	if n == 2 { // written out (cholUpper2)
		return cholUpper2(a)
	}
	for j := range n {
		rj := j * n
		ajj := a[rj+j] - colDot(a, n, j)
		if ajj <= 0 || math.IsNaN(ajj) {
			a[rj+j] = ajj
			return false
		}
		ajj = math.Sqrt(ajj)
		a[rj+j] = ajj
		if j == n-1 {
			break
		}
		rowj := a[rj:][:n]              // length n: the loops below index it without bounds checks
		for ri := 0; ri < rj; ri += n { // row j += (−a_ij) row i past column j, written a_jk − a_ij a_ik (solveUpper1)
			if x := a[ri+j]; x != 0 {
				for k := j + 1; k < n; k++ {
					rowj[k] -= x * a[ri+k]
				}
			}
		}
		inv := 1 / ajj
		for k := j + 1; k < n; k++ {
			rowj[k] *= inv
		}
	}
	return true
}

// cholUpper2 is CholUpper for n = 2 (two slides of one body, a two-link
// arm: many of the small models' cliques), the loops' operations written
// out without their set-up. Column 0's dot product is the empty sum +0,
// and a_00 − (+0) is a_00 to the bit (−0 and NaN included), so it is not
// subtracted; column 1's is colDot's +0 + (+0 + u_01²), which is u_01²
// (+0, positive, +Inf or NaN).
func cholUpper2(a []float64) bool {
	a = a[:4]
	u00 := a[0]
	if u00 <= 0 || math.IsNaN(u00) {
		return false // a_00 stays, as CholUpper stores a_00 − (+0)
	}
	u00 = math.Sqrt(u00)
	a[0] = u00
	u01 := a[1] * (1 / u00)
	a[1] = u01
	d := a[3] - u01*u01
	if d <= 0 || math.IsNaN(d) {
		a[3] = d
		return false
	}
	a[3] = math.Sqrt(d)
	return true
}

// colDot returns Σ_{i<j} a_ij² for column j of the n×n row-major a, summed
// as gonum's strided Ddot sums: even-indexed and odd-indexed terms apart,
// then the two sums added.
func colDot(a []float64, n, j int) float64 {
	var even, odd float64
	end := j * n // a_jj's row: a_ij for i < j lies at j + i n < end
	p := j
	for ; p+n < end; p += 2 * n {
		x0, x1 := a[p], a[p+n]
		even += x0 * x0
		odd += x1 * x1
	}
	if p < end {
		x := a[p]
		odd += x * x
	}
	return even + odd
}

// SolveUpper overwrites the row-major n×cols matrix b with A⁻¹ b, for the
// factor A = UᵀU of CholUpper in the n×n row-major u: Uᵀ y = b forward,
// then U x = y backward. It performs the operations of gonum's Dpotrs
// (Upper; two Dtrsm calls) in the same order, so that x is the same to the
// bit.
//
// One column (cols = 1) of order 1 or 2 is written out here and in
// solveUpper2, larger orders are solveUpper1's loops, more columns
// solveUpperCols': the same operations in the same order for each.
func SolveUpper(n int, u, b []float64, cols int) {
	switch {
	case cols != 1:
		solveUpperCols(n, u, b, cols)
	case n == 1: // solveUpper1's last-row scalings alone
		inv := 1 / u[0]
		b[0] = b[0] * inv * inv
	case n == 2:
		solveUpper2(u, b)
	case n > 2:
		solveUpper1(n, u, b)
	}
}

// solveUpperCols is SolveUpper for cols columns.
func solveUpperCols(n int, u, b []float64, cols int) {
	u, b = u[:n*n], b[:n*cols]
	for k := range n { // Uᵀ y = b
		bk := b[k*cols : (k+1)*cols]
		inv := 1 / u[k*n+k]
		for c := range bk {
			bk[c] *= inv
		}
		for i := k + 1; i < n; i++ {
			if x := -u[k*n+i]; x != 0 {
				bi := b[i*cols : (i+1)*cols]
				for c := range bi {
					bi[c] += x * bk[c]
				}
			}
		}
	}
	for i := n - 1; i >= 0; i-- { // U x = y
		bi := b[i*cols : (i+1)*cols]
		for k := i + 1; k < n; k++ {
			if x := -u[i*n+k]; x != 0 {
				bk := b[k*cols : (k+1)*cols]
				for c := range bi {
					bi[c] += x * bk[c]
				}
			}
		}
		inv := 1 / u[i*n+i]
		for c := range bi {
			bi[c] *= inv
		}
	}
}

// solveUpper1 is SolveUpper for one column of order n > 2 (SolveUpper
// writes out orders 1 and 2): the same operations in the same order, so
// the same bits, without the per-row sub-slices of the
// n×cols form, which cost some four times the arithmetic for a 9-velocity
// mass matrix. Each b_k is scaled by the reciprocal 1/u_kk, and each
// update b_i + (−u_ki) b_k, skipped where u_ki = 0, is written
// b_i − u_ki b_k: IEEE 754 defines x − y as x + (−y), and (−u) b = −(u b)
// exactly. The backward sum runs in a register, which rounds as the
// stored b_i does (float64 everywhere). Each row of u is read through a
// slice of length n (u[k n:][:n]), so that the inner loops, whose indices
// are below n, run without bounds checks; the last row, which has no
// inner loop, is read in place (its forward and backward scalings, in
// that order).
func solveUpper1(n int, u, b []float64) {
	u, b = u[:n*n], b[:n]
	for k := range n - 1 { // Uᵀ y = b, rows 0…n−2
		row := u[k*n:][:n] // length n: the loop indexes it without bounds checks
		bk := b[k] * (1 / row[k])
		b[k] = bk
		for i := k + 1; i < n; i++ {
			if v := row[i]; v != 0 {
				b[i] -= v * bk
			}
		}
	}
	inv := 1 / u[n*n-1]
	b[n-1] = b[n-1] * inv * inv   // row n−1: its forward scaling, then its backward one
	for i := n - 2; i >= 0; i-- { // U x = y, rows n−2…0
		row := u[i*n:][:n]
		bi := b[i]
		for k := i + 1; k < n; k++ {
			if v := row[k]; v != 0 {
				bi -= v * b[k]
			}
		}
		b[i] = bi * (1 / row[i])
	}
}

// solveUpper2 is solveUpper1 for n = 2 (two slides of one body, a
// two-link arm), its loops' operations written out: b_0 scaled by
// 1/u_00, b_1 − u_01 b_0 unless u_01 = 0, b_1 scaled by 1/u_11 twice
// (forward, then backward), b_0 − u_01 b_1 unless u_01 = 0, scaled by
// 1/u_00.
func solveUpper2(u, b []float64) {
	u, b = u[:4], b[:2]
	u01 := u[1]
	b0 := b[0] * (1 / u[0])
	b1 := b[1]
	if u01 != 0 {
		b1 -= u01 * b0
	}
	inv := 1 / u[3]
	b1 = b1 * inv * inv
	b[1] = b1
	if u01 != 0 {
		b0 -= u01 * b1
	}
	b[0] = b0 * (1 / u[0])
}

// SolveUpperVec overwrites the vector x (length n) with A⁻¹ x, for the
// factor A = UᵀU of CholUpper in the n×n row-major u: Uᵀ y = x forward,
// then U x = y backward. It performs the operations of two calls of
// gonum's Dtrsv (Upper, NonUnit, unit stride; Trans, then NoTrans) in the
// same order, so that x is the same to the bit, without their argument
// checks and calls (a single right-hand side; SolveUpper is Dpotrs's,
// whose Dtrsm orders the sums differently).
func SolveUpperVec(n int, u, x []float64) {
	u, x = u[:n*n], x[:n]
	for i := range n { // Uᵀ y = x: Dtrsv Trans
		x[i] /= u[i*n+i]
		xi := x[i]
		for j, v := range u[i*n+i+1 : i*n+n] {
			x[i+1+j] -= v * xi
		}
	}
	for i := n - 1; i >= 0; i-- { // U x = y: Dtrsv NoTrans
		var sum float64
		for j, v := range u[i*n+i+1 : i*n+n] {
			sum += x[i+1+j] * v
		}
		x[i] -= sum
		x[i] /= u[i*n+i]
	}
}
