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
// in column order, with x held in registers.
func mulVec6(a, x, out []float64) {
	a, x, out = a[:36], x[:6], out[:6]
	x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
	for i := range out {
		r := a[i*6 : i*6+6]
		out[i] = (((((0 + r[0]*x0) + r[1]*x1) + r[2]*x2) + r[3]*x3) + r[4]*x4) + r[5]*x5
	}
}
