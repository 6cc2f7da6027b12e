package linalg

// upperGram3 is UpperGram for three columns (a contact's rows t1, t2, n):
// the same operations in the same order as upperGramN, with the columns
// unrolled, so the same bits. Uᵀ Y = B by forward substitution, then
// W += Yᵀ Y over the non-zero rows of Y (upper triangle, then mirrored).
func upperGram3(n int, u, b, w []float64) {
	u, b, w = u[:n*n], b[:3*n], w[:9]
	for k := range n { // Uᵀ Y = B
		b0, b1, b2 := b[3*k], b[3*k+1], b[3*k+2]
		if b0 == 0 && b1 == 0 && b2 == 0 {
			continue
		}
		inv := 1 / u[k*n+k]
		b0, b1, b2 = b0*inv, b1*inv, b2*inv
		b[3*k], b[3*k+1], b[3*k+2] = b0, b1, b2
		urow := u[k*n : (k+1)*n]
		for i := k + 1; i < n; i++ {
			if x := -urow[i]; x != 0 {
				bi := b[3*i : 3*i+3 : 3*i+3]
				bi[0] += x * b0
				bi[1] += x * b1
				bi[2] += x * b2
			}
		}
	}
	// W's upper triangle, added to in upperGramN's order (row by row of Y).
	w00, w01, w02, w11, w12, w22 := w[0], w[1], w[2], w[4], w[5], w[8]
	for i := range n {
		w00, w01, w02, w11, w12, w22 = gramRow(b[3*i], b[3*i+1], b[3*i+2], w00, w01, w02, w11, w12, w22)
	}
	w[0], w[1], w[2], w[4], w[5], w[8] = w00, w01, w02, w11, w12, w22
	w[3], w[6], w[7] = w01, w02, w12
}

// UpperGram6x3 is UpperGram(6, u, Y, 3, w) for a free body's contact: u is
// a 6×6 upper factor (row-major), j the contact's J block as it is stored,
// three rows of six (row-major), and Y = jᵀ, which UpperGram reads as its
// row-major 6×3 b. It forms the same numbers in the same order as
// upperGram3 (the same zero tests, the same products and sums), on arrays
// of fixed size: no transposed copy of j in the caller's scratch and no
// bounds checks in the loops. w (3×3, row-major) is added to.
func UpperGram6x3(u, j, w []float64) {
	ww := (*[9]float64)(w[:9])
	w00, w01, w02, w11, w12, w22 := UpperGram6x3Sum((*[36]float64)(u[:36]), (*[18]float64)(j[:18]),
		ww[0], ww[1], ww[2], ww[4], ww[5], ww[8])
	ww[0], ww[1], ww[2], ww[4], ww[5], ww[8] = w00, w01, w02, w11, w12, w22
	ww[3], ww[6], ww[7] = w01, w02, w12
}

// UpperGram6x3Sum is UpperGram6x3 with W's upper triangle (w00, w01, w02,
// w11, w12, w22) passed and returned as numbers rather than through a 3×3
// slice: the sums start from the given values and take the same terms in
// the same order, so the same bits. A caller that sums the terms of
// several free bodies (a contact between two) keeps them in registers.
func UpperGram6x3Sum(uu *[36]float64, jj *[18]float64, w00, w01, w02, w11, w12, w22 float64) (float64, float64, float64, float64, float64, float64) {
	// Y = jᵀ kept in j's layout, row k of Y being (y[k], y[6+k], y[12+k]):
	// one array copy, no transposing loop.
	y := *jj
	for k := range 6 { // Uᵀ Y = B
		b0, b1, b2 := y[k], y[6+k], y[12+k]
		if b0 == 0 && b1 == 0 && b2 == 0 {
			continue
		}
		urow := (*[6]float64)(uu[6*k : 6*k+6])
		inv := 1 / urow[k]
		b0, b1, b2 = b0*inv, b1*inv, b2*inv
		y[k], y[6+k], y[12+k] = b0, b1, b2
		switch k { // i = k+1, …, 5 in increasing order, written out
		case 0:
			sub3(&y, 1, urow[1], b0, b1, b2)
			fallthrough
		case 1:
			sub3(&y, 2, urow[2], b0, b1, b2)
			fallthrough
		case 2:
			sub3(&y, 3, urow[3], b0, b1, b2)
			fallthrough
		case 3:
			sub3(&y, 4, urow[4], b0, b1, b2)
			fallthrough
		case 4:
			sub3(&y, 5, urow[5], b0, b1, b2)
		}
	}
	for i := range 6 {
		w00, w01, w02, w11, w12, w22 = gramRow(y[i], y[6+i], y[12+i], w00, w01, w02, w11, w12, w22)
	}
	return w00, w01, w02, w11, w12, w22
}

// sub3 is one step of UpperGram6x3Sum's forward substitution: row i of Y
// (y[i], y[6+i], y[12+i]) −= u·b when u is not zero (upperGram3's test of
// −u, which is not zero just when u is not, and its products by −u).
func sub3(y *[18]float64, i int, u, b0, b1, b2 float64) {
	if u != 0 {
		x := -u
		y[i] += x * b0
		y[6+i] += x * b1
		y[12+i] += x * b2
	}
}

// gramRow adds row (y0, y1, y2) of Y to W's upper triangle (w00 … w22)
// and returns it, unchanged for a zero row (skipped, as upperGramN skips
// it): both Gram loops of this file, in registers once inlined.
func gramRow(y0, y1, y2, w00, w01, w02, w11, w12, w22 float64) (float64, float64, float64, float64, float64, float64) {
	if y0 == 0 && y1 == 0 && y2 == 0 {
		return w00, w01, w02, w11, w12, w22
	}
	return w00 + y0*y0, w01 + y0*y1, w02 + y0*y2, w11 + y1*y1, w12 + y1*y2, w22 + y2*y2
}
