package linalg

import "math"

// Kernels for supernodes of six columns, the width of one free body's
// block and the commonest supernode of a contact problem's factor (a pile
// of free bodies: every supernode of clutter-160's factor but a few is six
// columns wide, with 12–72 rows below it). They give, entry for entry, the
// bits of the loops they replace (dotPrefix's four partial sums, added in
// its order), without the loops' per-call slicing and remainder loops.
//
// One change of form is exact: dotPrefix starts each of its four sums at
// +0, and a sum that starts at +0 is never −0 (x + y is −0 only when both
// are −0). So a sum of terms of which one is such a sum is never −0 either,
// and adding a term p directly instead of (+0 + p) changes no bit of it:
// the two differ only when p is −0, and then the other side of the
// addition decides the result, unless it is also −0, which it cannot be.
// The kernels keep one +0 start per sum (the first partial sum's) and
// drop the others; the empty sum is +0, and x − (+0) = x.
// TestKernels6SameBits compares them with the loops bit for bit on blocks
// with many zeros of both signs (it fails if the kept +0 is dropped).

// dot6 returns dotPrefix(x, y, 6): ((0 + x₀y₀ + x₄y₄ + x₅y₅) + x₁y₁)
// + (x₂y₂ + x₃y₃), the +0 starts of the last three partial sums dropped.
func dot6(x, y []float64) float64 {
	x, y = x[:6], y[:6]
	s0 := 0 + x[0]*y[0]
	s0 += x[4] * y[4]
	s0 += x[5] * y[5]
	return (s0 + x[1]*y[1]) + (x[2]*y[2] + x[3]*y[3])
}

// syrk6 is syrkLoops(m, 6, b, w): the lower triangle of w = b bᵀ, each
// entry dot6 of two rows of b.
func syrk6(m int, b, w []float64) {
	b = b[:m*6]
	for i := range m {
		bi := b[i*6 : i*6+6]
		x0, x1, x2, x3, x4, x5 := bi[0], bi[1], bi[2], bi[3], bi[4], bi[5]
		wi := w[i*m : i*m+i+1]
		for j := range wi {
			bj := b[j*6 : j*6+6]
			s0 := 0 + x0*bj[0]
			s0 += x4 * bj[4]
			s0 += x5 * bj[5]
			wi[j] = (s0 + x1*bj[1]) + (x2*bj[2] + x3*bj[3])
		}
	}
}

// solveLower6 overwrites x with L⁻¹ x by forward substitution, L the 6×6
// lower factor in the row-major l (stride 6; its lower triangle read in
// place, with constant indices, not copied): x_j = (x_j − dotPrefix(row j
// of L, x, j)) / l_jj, each sum as dotPrefix forms it (for j ≤ 3 its
// partial sums past the j-th are +0, added to a sum that is not −0: left
// out), one +0 start kept.
func solveLower6(l *[36]float64, x *[6]float64) {
	x0 := x[0] / l[0]
	x1 := (x[1] - (0 + l[6]*x0)) / l[7]
	x2 := (x[2] - ((0 + l[12]*x0) + l[13]*x1)) / l[14]
	x3 := (x[3] - (((0 + l[18]*x0) + l[19]*x1) + l[20]*x2)) / l[21]
	x4 := (x[4] - (((0 + l[24]*x0) + l[25]*x1) + (l[26]*x2 + l[27]*x3))) / l[28]
	s0 := 0 + l[30]*x0
	s0 += l[34] * x4
	x5 := (x[5] - ((s0 + l[31]*x1) + (l[32]*x2 + l[33]*x3))) / l[35]
	x[0], x[1], x[2], x[3], x[4], x[5] = x0, x1, x2, x3, x4, x5
}

// trsm6 is trsmLoops(m, 6, l, b): each row x of b becomes x L⁻ᵀ, that is
// L⁻¹ applied to the row.
func trsm6(m int, l, b []float64) {
	L := (*[36]float64)(l)
	b = b[:m*6]
	for r := range m {
		solveLower6(L, (*[6]float64)(b[r*6:]))
	}
}

// chol6 is cholLoops(6, a, lda): the 6×6 lower triangle of a (row stride
// lda) becomes L with A = L Lᵀ, column by column, each entry stored as
// soon as it is formed (as the loop does, so a failed factorization leaves
// a as the loop leaves it). It reports whether A is numerically positive
// definite.
func chol6(a []float64, lda int) bool {
	r0, r1, r2 := a[:1], a[lda:lda+2], a[2*lda:2*lda+3]
	r3, r4, r5 := a[3*lda:3*lda+4], a[4*lda:4*lda+5], a[5*lda:5*lda+6]
	// Column 0: the sums are empty (+0).
	d := r0[0]
	if !(d > 0) || math.IsInf(d, 0) {
		return false
	}
	l00 := math.Sqrt(d)
	r0[0] = l00
	inv := 1 / l00
	l10, l20, l30, l40, l50 := r1[0]*inv, r2[0]*inv, r3[0]*inv, r4[0]*inv, r5[0]*inv
	r1[0], r2[0], r3[0], r4[0], r5[0] = l10, l20, l30, l40, l50
	// Column 1.
	d = r1[1] - (0 + l10*l10)
	if !(d > 0) || math.IsInf(d, 0) {
		return false
	}
	l11 := math.Sqrt(d)
	r1[1] = l11
	inv = 1 / l11
	l21 := (r2[1] - (0 + l20*l10)) * inv
	l31 := (r3[1] - (0 + l30*l10)) * inv
	l41 := (r4[1] - (0 + l40*l10)) * inv
	l51 := (r5[1] - (0 + l50*l10)) * inv
	r2[1], r3[1], r4[1], r5[1] = l21, l31, l41, l51
	// Column 2.
	d = r2[2] - ((0 + l20*l20) + l21*l21)
	if !(d > 0) || math.IsInf(d, 0) {
		return false
	}
	l22 := math.Sqrt(d)
	r2[2] = l22
	inv = 1 / l22
	l32 := (r3[2] - ((0 + l30*l20) + l31*l21)) * inv
	l42 := (r4[2] - ((0 + l40*l20) + l41*l21)) * inv
	l52 := (r5[2] - ((0 + l50*l20) + l51*l21)) * inv
	r3[2], r4[2], r5[2] = l32, l42, l52
	// Column 3.
	d = r3[3] - (((0 + l30*l30) + l31*l31) + l32*l32)
	if !(d > 0) || math.IsInf(d, 0) {
		return false
	}
	l33 := math.Sqrt(d)
	r3[3] = l33
	inv = 1 / l33
	l43 := (r4[3] - (((0 + l40*l30) + l41*l31) + l42*l32)) * inv
	l53 := (r5[3] - (((0 + l50*l30) + l51*l31) + l52*l32)) * inv
	r4[3], r5[3] = l43, l53
	// Column 4: four partial sums, as dotPrefix's unrolled loop.
	d = r4[4] - (((0 + l40*l40) + l41*l41) + (l42*l42 + l43*l43))
	if !(d > 0) || math.IsInf(d, 0) {
		return false
	}
	l44 := math.Sqrt(d)
	r4[4] = l44
	inv = 1 / l44
	l54 := (r5[4] - (((0 + l50*l40) + l51*l41) + (l52*l42 + l53*l43))) * inv
	r5[4] = l54
	// Column 5: the fifth term joins the first partial sum.
	s0 := 0 + l50*l50
	s0 += l54 * l54
	d = r5[5] - ((s0 + l51*l51) + (l52*l52 + l53*l53))
	if !(d > 0) || math.IsInf(d, 0) {
		return false
	}
	r5[5] = math.Sqrt(d)
	return true
}
