package linalg

// MulVec sets out = A x for the n×n row-major a. Each entry is its row's
// products added in column order to a sum that starts at +0, as a
// row-by-row loop adds them (the same bits); rows are taken two at a time,
// two independent sums over one pass of x. out and x must not alias.
func MulVec(n int, a, x, out []float64) {
	if n == 6 { // a free body's block
		mulVec6(a, x, out)
		return
	}
	a, x, out = a[:n*n], x[:n], out[:n]
	i := 0
	for ; i+1 < n; i += 2 {
		r0 := a[i*n : (i+1)*n]
		r1, xs := a[(i+1)*n : (i+2)*n][:len(r0)], x[:len(r0)]
		s0, s1 := 0.0, 0.0
		for j, a0 := range r0 {
			xj := xs[j]
			s0 += a0 * xj
			s1 += r1[j] * xj
		}
		out[i], out[i+1] = s0, s1
	}
	if i < n {
		row := a[i*n : (i+1)*n]
		xs := x[:len(row)]
		s := 0.0
		for j, aij := range row {
			s += aij * xs[j]
		}
		out[i] = s
	}
}

// mulVec6 is MulVec for n = 6: each row's sum +0 + a_i0 x_0 + … + a_i5 x_5
// in column order, with x held in registers, written out on arrays (no
// loop, no bounds checks on a's rows).
func mulVec6(a, x, out []float64) {
	m, o := (*[36]float64)(a[:36]), (*[6]float64)(out[:6])
	x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
	o[0] = (((((0 + m[0]*x0) + m[1]*x1) + m[2]*x2) + m[3]*x3) + m[4]*x4) + m[5]*x5
	o[1] = (((((0 + m[6]*x0) + m[7]*x1) + m[8]*x2) + m[9]*x3) + m[10]*x4) + m[11]*x5
	o[2] = (((((0 + m[12]*x0) + m[13]*x1) + m[14]*x2) + m[15]*x3) + m[16]*x4) + m[17]*x5
	o[3] = (((((0 + m[18]*x0) + m[19]*x1) + m[20]*x2) + m[21]*x3) + m[22]*x4) + m[23]*x5
	o[4] = (((((0 + m[24]*x0) + m[25]*x1) + m[26]*x2) + m[27]*x3) + m[28]*x4) + m[29]*x5
	o[5] = (((((0 + m[30]*x0) + m[31]*x1) + m[32]*x2) + m[33]*x3) + m[34]*x4) + m[35]*x5
}
