package linalg

// The update of a supernode formed where it lands. The right-looking
// factorization subtracts L_off L_offᵀ of each supernode from the later
// panels; with the loop kernels it no longer forms that product in the
// m×m buffer w (syrkLoops) and then subtracts w block by block (scatter):
// each entry of the product is formed as syrkLoops forms it, dot6 for six
// columns and dotPrefix otherwise (the products' factors commute, so the
// bits are those of syrkLoops' paired form too), and subtracted from its
// place at once. Every entry of L receives the same subtraction of the
// same number, in the same order among the supernodes: the same bits
// (TestUpdateSameBits), without w's stores and loads and scatter's loop.

// update subtracts supernode sn's update b bᵀ (b: its m off-diagonal rows
// of L, ns columns, row-major) from the blocks of L it lands in.
func (f *Factor) update(sn, ns int, b []float64) {
	s := f.sym
	f.rowBlocks(sn)
	k := s.scatPtr[sn]
	for a, ra := range f.rb {
		xs := b[ra.w*ns : (ra.w+ra.n)*ns]
		for c, rc := range f.rb[:a+1] {
			off := s.scat[k]
			k++
			if off < 0 {
				continue
			}
			ys := b[rc.w*ns : (rc.w+rc.n)*ns]
			t := f.data[off:]
			if ns == 6 {
				update6(t, rc.stride, xs, ys, a == c)
			} else {
				updateN(t, rc.stride, xs, ys, ns, a == c)
			}
		}
	}
}

// update6 subtracts x yᵀ from the block t (row stride stride) for the
// rows xs and ys of six columns: t[i][j] −= dot6(x_i, y_j), only j ≤ i
// when diag (a diagonal block, its lower triangle).
func update6(t []float64, stride int, xs, ys []float64, diag bool) {
	nj := len(ys) / 6
	for i := range len(xs) / 6 {
		x := xs[i*6 : i*6+6]
		x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
		cols := nj
		if diag {
			cols = i + 1
		}
		trow := t[i*stride : i*stride+cols]
		y := ys[:cols*6]
		for j := range trow {
			yj := y[j*6 : j*6+6]
			s0 := 0 + x0*yj[0]
			s0 += x4 * yj[4]
			s0 += x5 * yj[5]
			trow[j] -= (s0 + x1*yj[1]) + (x2*yj[2] + x3*yj[3])
		}
	}
}

// updateN is update6 for ns columns: t[i][j] −= dotPrefix(x_i, y_j, ns).
func updateN(t []float64, stride int, xs, ys []float64, ns int, diag bool) {
	nj := len(ys) / ns
	for i := range len(xs) / ns {
		x := xs[i*ns : (i+1)*ns]
		cols := nj
		if diag {
			cols = i + 1
		}
		trow := t[i*stride : i*stride+cols]
		j := 0
		for ; j+2 <= cols; j += 2 { // two entries at a time, each dotPrefix's sum
			d0, d1 := dotPrefix2(ys[j*ns:(j+1)*ns], ys[(j+1)*ns:(j+2)*ns], x, ns)
			trow[j] -= d0
			trow[j+1] -= d1
		}
		for ; j < cols; j++ {
			trow[j] -= dotPrefix(x, ys[j*ns:(j+1)*ns], ns)
		}
	}
}
