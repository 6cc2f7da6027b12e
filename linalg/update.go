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
// of L, ns columns, row-major) from the blocks of L it lands in (with
// only, from those in the panels of the supernodes marked in it).
func (f *Factor) update(sn, ns int, b []float64, only []bool) {
	s := f.sym
	if ns == 6 && len(b) == 36 && s.snRowPtr[sn+1]-s.snRowPtr[sn] == 1 {
		f.updateOne6(sn, b, only)
		return
	}
	f.rowBlocks(sn)
	k := s.scatPtr[sn]
	for a, ra := range f.rb {
		xs := b[ra.w*ns : (ra.w+ra.n)*ns]
		for c, rc := range f.rb[:a+1] {
			off := s.scat[k]
			k++
			if off < 0 || (only != nil && !only[rc.sn]) {
				continue
			}
			ys := b[rc.w*ns : (rc.w+rc.n)*ns]
			t := f.data[off:]
			switch {
			case ns == 6 && ra.n == 6 && rc.n == 6 && a != c: // two free bodies' blocks
				update6x6(t, rc.stride, xs, ys)
			case ns == 6 && ra.n == 6 && a == c: // a free body's diagonal block
				update6Lower(t, rc.stride, xs)
			case ns == 6:
				update6(t, rc.stride, xs, ys, a == c)
			default:
				updateN(t, rc.stride, xs, ys, ns, a == c)
			}
		}
	}
}

// updateOne6 is update for a supernode of six columns whose rows below it
// are one block of six (a body in a chain of contacts, as a stack of
// spheres): its one diagonal target block, update6Lower, found without
// rowBlocks' table.
func (f *Factor) updateOne6(sn int, b []float64, only []bool) {
	s := f.sym
	off := s.scat[s.scatPtr[sn]]
	t := s.snOf[s.rowPos[s.snRowPtr[sn]]] // the supernode the block lands in
	if off < 0 || (only != nil && !only[t]) {
		return
	}
	update6Lower(f.data[off:], s.posOff[s.snStart[t+1]]-s.posOff[s.snStart[t]], b)
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

// update6x6 is update6 for a full 6×6 block (not diagonal): its 36
// entries written out, with constant indices into the rows.
func update6x6(t []float64, stride int, xs, ys []float64) {
	y := (*[36]float64)(ys)
	for i := range 6 {
		x := (*[6]float64)(xs[i*6:])
		x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
		r := (*[6]float64)(t[i*stride:])
		r[0] -= dot6s(x0, x1, x2, x3, x4, x5, y[0], y[1], y[2], y[3], y[4], y[5])
		r[1] -= dot6s(x0, x1, x2, x3, x4, x5, y[6], y[7], y[8], y[9], y[10], y[11])
		r[2] -= dot6s(x0, x1, x2, x3, x4, x5, y[12], y[13], y[14], y[15], y[16], y[17])
		r[3] -= dot6s(x0, x1, x2, x3, x4, x5, y[18], y[19], y[20], y[21], y[22], y[23])
		r[4] -= dot6s(x0, x1, x2, x3, x4, x5, y[24], y[25], y[26], y[27], y[28], y[29])
		r[5] -= dot6s(x0, x1, x2, x3, x4, x5, y[30], y[31], y[32], y[33], y[34], y[35])
	}
}

// update6Lower is update6 for a diagonal 6×6 block (xs = ys): its lower
// triangle's 21 entries written out.
func update6Lower(t []float64, stride int, xs []float64) {
	y := (*[36]float64)(xs)
	for i := range 6 {
		x := (*[6]float64)(xs[i*6:])
		x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
		r := (*[6]float64)(t[i*stride:]) // row i of the target panel, at least six wide
		r[0] -= dot6s(x0, x1, x2, x3, x4, x5, y[0], y[1], y[2], y[3], y[4], y[5])
		if i < 1 {
			continue
		}
		r[1] -= dot6s(x0, x1, x2, x3, x4, x5, y[6], y[7], y[8], y[9], y[10], y[11])
		if i < 2 {
			continue
		}
		r[2] -= dot6s(x0, x1, x2, x3, x4, x5, y[12], y[13], y[14], y[15], y[16], y[17])
		if i < 3 {
			continue
		}
		r[3] -= dot6s(x0, x1, x2, x3, x4, x5, y[18], y[19], y[20], y[21], y[22], y[23])
		if i < 4 {
			continue
		}
		r[4] -= dot6s(x0, x1, x2, x3, x4, x5, y[24], y[25], y[26], y[27], y[28], y[29])
		if i < 5 {
			continue
		}
		r[5] -= dot6s(x0, x1, x2, x3, x4, x5, y[30], y[31], y[32], y[33], y[34], y[35])
	}
}

// dot6s is dot6 of (x0, …, x5) and (y0, …, y5) held as scalars.
func dot6s(x0, x1, x2, x3, x4, x5, y0, y1, y2, y3, y4, y5 float64) float64 {
	s0 := 0 + x0*y0
	s0 += x4 * y4
	s0 += x5 * y5
	return (s0 + x1*y1) + (x2*y2 + x3*y3)
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
