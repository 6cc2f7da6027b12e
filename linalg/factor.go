package linalg

import "math"

// Factor holds the numeric values of a matrix with a Symbolic pattern and,
// after Factorize, its Cholesky factor L (H = P L Lᵀ Pᵀ with P the block
// permutation of the analysis). Its storage is reused across Reset calls:
// once large enough, nothing allocates.
//
// Use: Reset(sym) to zero the values, Add or Locate to assemble the lower
// blocks of H, Factorize, then Solve as often as needed.
type Factor struct {
	// Kernels selects the dense kernels (AutoKernels by default).
	Kernels Kernels

	sym  *Symbolic
	data []float64  // supernodal panels of H, then of L
	w    []float64  // update matrix of one supernode, maxW×maxW
	xp   []float64  // permuted vector of Solve
	rb   []rowBlock // scatter's row blocks of one supernode
	// dirty marks the supernodes FactorizeMarked factors (the others'
	// panels are copied from base, MarkChanged's; nil after Reset).
	dirty []bool
	base  *Factor
	// zeroRows marks the supernodes whose off-diagonal rows of L the last
	// factorization found all zeros (zeroRows below); forward6 skips
	// their row updates. Cleared by Prepare and at each factorization.
	zeroRows []bool
}

// Reset sizes the factor for the pattern sym and sets every value to zero.
// sym must not be re-analysed while f uses it.
func (f *Factor) Reset(sym *Symbolic) {
	f.Prepare(sym)
	clear(f.data)
}

// Prepare is Reset without setting the values to zero: they are
// unspecified until the caller writes them, for an assembly that clears
// Data itself before it adds the blocks (package sap's, which would
// otherwise clear the storage twice).
func (f *Factor) Prepare(sym *Symbolic) {
	f.sym, f.base = sym, nil
	f.data = resizeFloat(f.data, sym.NonZeros())
	f.w = resizeFloat(f.w, sym.maxW*sym.maxW)
	f.xp = resizeFloat(f.xp, sym.Size())
	f.zeroRows = resizeBool(f.zeroRows, sym.Supernodes())
	clear(f.zeroRows)
	if cap(f.rb) < sym.n { // a supernode has fewer row blocks than the matrix has blocks
		f.rb = make([]rowBlock, 0, sym.n)
	}
}

// Symbolic returns the analysis f was last reset with.
func (f *Factor) Symbolic() *Symbolic { return f.sym }

// Data returns the storage that Locate's offsets index.
func (f *Factor) Data() []float64 { return f.data }

// Locate returns where block (i, j) of H, i.e. rows of block i and columns
// of block j, is stored in Data: the entry (r, c) of the block is at
// Data()[off + r*stride + c] when trans is false, and at
// Data()[off + c*stride + r] when trans is true (only one of the blocks
// (i, j) and (j, i) is stored). For i = j the whole size×size block is
// stored (Factorize reads its lower triangle). ok is false if the block is
// not in the pattern or an index is out of range.
func (f *Factor) Locate(i, j int) (off, stride int, trans, ok bool) {
	s := f.sym
	if s == nil || i < 0 || j < 0 || i >= s.n || j >= s.n {
		return 0, 0, false, false
	}
	pi, pj := s.pos[i], s.pos[j]
	if pi < pj {
		pi, pj, trans = pj, pi, true
	}
	off, stride, ok = s.locatePos(pi, pj)
	return off, stride, trans, ok
}

// Add adds the row-major size_i×size_j block m to block (i, j) of H (and,
// by symmetry, its transpose to block (j, i)). For i = j, m is the whole
// diagonal block. It reports false, changing nothing, if the block is not
// in the pattern.
func (f *Factor) Add(i, j int, m []float64) bool {
	off, stride, trans, ok := f.Locate(i, j)
	if !ok {
		return false
	}
	ni, nj := f.sym.sizes[i], f.sym.sizes[j]
	if len(m) < ni*nj {
		return false
	}
	for r := range ni {
		for c := range nj {
			if trans {
				f.data[off+c*stride+r] += m[r*nj+c]
			} else {
				f.data[off+r*stride+c] += m[r*nj+c]
			}
		}
	}
	return true
}

// Factorize computes L in place by the right-looking supernodal Cholesky
// factorization: for each supernode in elimination order, factor its
// diagonal block, solve for its off-diagonal rows, form the update
// L_off L_offᵀ with one rank-k kernel and scatter it into the later panels
// through the precomputed map (SAP §IV-D, [48, §9]). It reports false if
// H is not numerically positive definite (including NaN entries).
func (f *Factor) Factorize() bool { return f.factorize(true) }

// factorize is Factorize; with direct it subtracts the loop kernels'
// updates where they land (update), otherwise through w (syrk, scatter):
// the same bits (TestUpdateSameBits).
func (f *Factor) factorize(direct bool) bool { return f.factorizeFrom(direct, nil, nil) }

// factorizeFrom is factorize; with base, the supernodes not marked in
// dirty take their panels from base's factor (their chol and trsm are
// skipped) and subtract their updates from the dirty supernodes' panels
// only (the clean ones' panels are final as copied).
func (f *Factor) factorizeFrom(direct bool, base *Factor, dirty []bool) bool {
	s := f.sym
	if s == nil {
		return false
	}
	clear(f.zeroRows)
	// The panels' bounds from slices held in locals, as in solve.
	nsn := s.Supernodes()
	data, start, posOff, panel := f.data, s.snStart[:nsn+1], s.posOff, s.snPanel[:nsn+1]
	for sn := range nsn {
		lo, hi := panel[sn], panel[sn+1]
		p := data[lo:hi]
		ns := posOff[start[sn+1]] - posOff[start[sn]]
		m := len(p)/ns - ns
		chol, trsm, syrk := cholLoops, trsmLoops, syrkLoops
		blas := useBLAS(f.Kernels, ns, m)
		if blas {
			chol, trsm, syrk = cholBLAS, trsmBLAS, syrkBLAS
		}
		var only []bool // where the update may land: nil for everywhere
		if base != nil && !dirty[sn] {
			copy(p, base.data[lo:hi])
			only = dirty
		} else if !chol(ns, p, ns) {
			return false
		}
		if m == 0 {
			continue
		}
		b := p[ns*ns:]
		if direct && !blas && f.zeroPanel(sn, b, base, only) {
			f.zeroRows[sn] = true
			continue // zeroRows: trsm would leave b as it is and the update subtracts +0
		}
		if only == nil {
			trsm(m, ns, p[:ns*ns], b)
		}
		if direct && !blas {
			f.update(sn, ns, b, only)
			continue
		}
		w := f.w[:m*m]
		syrk(m, ns, b, w)
		f.scatter(sn, m, w, only)
	}
	return true
}

// zeroRows: on the direct path, a supernode whose off-diagonal rows b of H
// are all zeros (of either sign; in a stack of spheres a contact that is
// apart, G_i = 0, leaves its block of H zero, and nothing fills it: a
// third of the stack's panels) is skipped after its chol, with the bits
// of the loop kernels (not of gonum's, which keep their own order):
// its L_ss is finite with a positive diagonal (chol succeeded: a NaN or
// infinite entry reaches a d that fails d > 0 or the Inf test; a copied
// panel is base's, which succeeded), so trsm's x_j = (x_j − Σ) / l_jj has
// Σ = +0 (dotPrefix's and dot6's sums start at +0 and add only ±0) and
// gives x_j back, sign included; and every entry of the update b bᵀ is
// such a sum, +0, and t − (+0) is t. TestStackfactorZeroRowsSameBits
// compares it with the path through w (direct false), which keeps trsm
// and the update.

// zeroPanel reports whether supernode sn's off-diagonal rows b are known
// to be all zeros: for a panel copied from base (only not nil), base's
// mark (a mark is set only on a panel found all zeros, which no later
// supernode writes, so the copy is too; a panel base did not mark is not
// skipped, and its trsm and update are the path the skip reproduces),
// without scanning it again; otherwise zeroFromEnd's scan.
func (f *Factor) zeroPanel(sn int, b []float64, base *Factor, only []bool) bool {
	if only != nil {
		return base.zeroRows[sn]
	}
	return zeroFromEnd(b)
}

// zeroFromEnd reports whether every entry of b is zero (allZero), looking
// from the last entry back: a contact between two spheres of a stack
// couples their last (linear, normal) columns, so a block that is not zero
// shows it at its end.
func zeroFromEnd(b []float64) bool {
	if len(b) == 36 { // one free body's block below a six-column supernode
		return zero36((*[36]float64)(b))
	}
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0 {
			return false
		}
	}
	return true
}

// zero36 is zeroFromEnd for 36 entries: the last entry first (where a
// block that is not zero shows it), then the bits of all of them or-ed
// row by row without a branch an entry; x is ±0 exactly when its bits
// shifted left by one (the sign dropped) are zero (a NaN's are not, as
// NaN != 0).
func zero36(b *[36]float64) bool {
	if b[35] != 0 {
		return false
	}
	var or uint64
	for r := range 6 {
		q := (*[6]float64)(b[6*r:])
		or |= math.Float64bits(q[0]) | math.Float64bits(q[1]) | math.Float64bits(q[2]) |
			math.Float64bits(q[3]) | math.Float64bits(q[4]) | math.Float64bits(q[5])
	}
	return or<<1 == 0
}

// scatter subtracts the update w (m×m, lower) of supernode sn from the
// blocks of L it lands in (with only, from those in the panels of the
// supernodes marked in it). What each row block's place depends on alone
// (its first row in w, its size, the row stride of the panel it lands in)
// is looked up once per row block (f.rb), not once per pair of them.
func (f *Factor) scatter(sn, m int, w []float64, only []bool) {
	s := f.sym
	f.rowBlocks(sn)
	k := s.scatPtr[sn]
	for a, ra := range f.rb {
		for b, rb := range f.rb[:a+1] {
			off := s.scat[k]
			k++
			if off < 0 || (only != nil && !only[rb.sn]) {
				continue
			}
			for i := range ra.n {
				cols := rb.n
				if a == b {
					cols = i + 1
				}
				wrow := w[(ra.w+i)*m+rb.w:][:cols]
				trow := f.data[off+i*rb.stride:][:len(wrow)]
				for j, x := range wrow {
					trow[j] -= x
				}
			}
		}
	}
}

// rowBlocks sets f.rb to supernode sn's row blocks.
func (f *Factor) rowBlocks(sn int) {
	s := f.sym
	lo, hi := s.snRowPtr[sn], s.snRowPtr[sn+1]
	base := s.rowPanel[lo]
	f.rb = f.rb[:0]
	for i, r := range s.rowPos[lo:hi] {
		t := s.snOf[r]
		f.rb = append(f.rb, rowBlock{
			w:      int(s.rowPanel[int(lo)+i] - base),
			n:      s.sizes[s.perm[r]],
			stride: s.posOff[s.snStart[t+1]] - s.posOff[s.snStart[t]],
			sn:     t,
		})
	}
}

// rowBlock is one row block of a supernode during scatter: its first row
// in the update w, its size, the row stride of the panel it lands in and
// that panel's supernode (the blocks of L in the row block's columns).
type rowBlock struct {
	w, n, stride int
	sn           int32
}

// Solve overwrites b (length Size, in the caller's block order) with
// H⁻¹ b using the factorization: a permuted forward substitution L y = Pᵀb
// and a backward substitution Lᵀ x = y.
func (f *Factor) Solve(b []float64) { f.solve(b, true) }

// solve is Solve; with six it takes the kernels of kernels6.go for the
// supernodes of six columns (the same bits as the general loops, which it
// takes otherwise: TestSolveSixSameBits).
func (f *Factor) solve(b []float64, six bool) {
	s := f.sym
	if s == nil {
		return
	}
	x := f.xp
	f.moveBlocks(x, b, true)
	// The panels' bounds from slices held in locals, not loaded through f
	// and f.sym at each supernode; lo and hi are supernode sn's columns in x.
	nsn := s.Supernodes()
	data, start, posOff, panel := f.data, s.snStart[:nsn+1], s.posOff, s.snPanel[:nsn+1]
	for sn := range nsn {
		lo, hi := posOff[start[sn]], posOff[start[sn+1]]
		p, y := data[panel[sn]:panel[sn+1]], x[lo:hi]
		if six && hi-lo == 6 { // one free body's block
			f.forward6(sn, p, y, x)
		} else {
			f.forward(sn, p, hi-lo, y, x)
		}
	}
	for sn := nsn - 1; sn >= 0; sn-- {
		lo, hi := posOff[start[sn]], posOff[start[sn+1]]
		p, y := data[panel[sn]:panel[sn+1]], x[lo:hi]
		if six && hi-lo == 6 {
			f.backward6(sn, p, y, x)
		} else {
			f.backward(sn, p, hi-lo, y, x)
		}
	}
	f.moveBlocks(x, b, false)
}

// moveBlocks copies b (the caller's block order) into the permuted x
// (toX), or x back into b, block by block; blocks of six (Symbolic.six)
// as arrays at offsets 6c and 6k (move6), without the offset tables and
// without copy's call to memmove.
func (f *Factor) moveBlocks(x, b []float64, toX bool) {
	s := f.sym
	if s.six {
		for c, k := range s.pos[:s.n] {
			xa, ba := (*[6]float64)(x[6*int(k):]), (*[6]float64)(b[6*c:])
			if toX {
				move6(xa, ba)
			} else {
				move6(ba, xa)
			}
		}
		return
	}
	pos, posOff, orig := s.pos[:s.n], s.posOff, s.orig[:s.n+1]
	for c, k := range pos {
		xs, bs := x[posOff[k]:posOff[k+1]], b[orig[c]:orig[c+1]]
		if toX {
			copy(xs, bs)
		} else {
			copy(bs, xs)
		}
	}
}

// move6 sets *d = *s entry by entry (an array assignment calls memmove).
func move6(d, s *[6]float64) {
	d[0], d[1], d[2], d[3], d[4], d[5] = s[0], s[1], s[2], s[3], s[4], s[5]
}

// forward is Solve's forward step for supernode sn (panel p of ns
// columns, its part y of x): L_ss y = y, then x_r −= L_rs y for its row
// blocks.
func (f *Factor) forward(sn int, p []float64, ns int, y, x []float64) {
	s := f.sym
	for j := range ns { // L_ss y = y
		lj := p[j*ns : j*ns+j+1]
		y[j] = (y[j] - dotPrefix(lj, y, j)) / lj[j]
	}
	for i := s.snRowPtr[sn]; i < s.snRowPtr[sn+1]; i++ { // x_r −= L_rs y
		k, r0 := s.rowPos[i], int(s.rowPanel[i])
		xs := x[s.posOff[k]:s.posOff[k+1]]
		d := 0
		for ; d+2 <= len(xs); d += 2 { // two rows at a time, each dotPrefix's sum
			e0, e1 := dotPrefix2(p[(r0+d)*ns:(r0+d+1)*ns], p[(r0+d+1)*ns:(r0+d+2)*ns], y, ns)
			xs[d] -= e0
			xs[d+1] -= e1
		}
		for ; d < len(xs); d++ {
			xs[d] -= dotPrefix(p[(r0+d)*ns:(r0+d+1)*ns], y, ns)
		}
	}
}

// backward is Solve's backward step for supernode sn: y −= L_rsᵀ x_r over
// its row blocks, then L_ssᵀ y = y.
func (f *Factor) backward(sn int, p []float64, ns int, y, x []float64) {
	s := f.sym
	for i := s.snRowPtr[sn]; i < s.snRowPtr[sn+1]; i++ { // y −= L_rsᵀ x_r
		k, r0 := s.rowPos[i], int(s.rowPanel[i])
		xs := x[s.posOff[k]:s.posOff[k+1]]
		for d, xr := range xs {
			row := p[(r0+d)*ns : (r0+d+1)*ns]
			for c, l := range row {
				y[c] -= l * xr
			}
		}
	}
	for j := ns - 1; j >= 0; j-- { // L_ssᵀ y = y
		sum := y[j]
		for i := j + 1; i < ns; i++ {
			sum -= p[i*ns+j] * y[i]
		}
		y[j] = sum / p[j*ns+j]
	}
}

// forward6 is Solve's forward step for supernode sn of six columns (panel
// p, its part y of x): L_ss y = y, then x_r −= L_rs y for its row blocks,
// with the sums of the general loop (dot6's, on y held in registers;
// solveLower6).
func (f *Factor) forward6(sn int, p, y, x []float64) {
	s := f.sym
	yv := (*[6]float64)(y)
	solveLower6((*[36]float64)(p), yv)
	y0, y1, y2, y3, y4, y5 := yv[0], yv[1], yv[2], yv[3], yv[4], yv[5]
	if f.zeroRows[sn] && (y0-y0)+(y1-y1)+(y2-y2)+(y3-y3)+(y4-y4)+(y5-y5) == 0 {
		// L_rs = 0 and y finite (x − x is NaN for x = ±∞ or NaN): each
		// x_r −= dot6(0, y) subtracts +0 (zeroRows' sum), leaving x_r.
		return
	}
	if s.six { // every row block six rows: block j at rows 6+6j of p, at 6k of x (sixBlocks)
		for j, k := range s.sixBlocks(sn) {
			forwardRows6((*[36]float64)(p[36*(j+1):]), (*[6]float64)(x[6*int(k):]), y0, y1, y2, y3, y4, y5)
		}
		return
	}
	for i := s.snRowPtr[sn]; i < s.snRowPtr[sn+1]; i++ {
		k, r0 := s.rowPos[i], int(s.rowPanel[i])
		xs := x[s.posOff[k]:s.posOff[k+1]]
		rows := p[r0*6 : (r0+len(xs))*6]
		if len(xs) == 6 { // a free body's row block: its rows at constant indices, one length check
			forwardRows6((*[36]float64)(rows), (*[6]float64)(xs), y0, y1, y2, y3, y4, y5)
			continue
		}
		for d := range xs {
			r := (*[6]float64)(rows[d*6:])
			xs[d] -= dot6s(r[0], r[1], r[2], r[3], r[4], r[5], y0, y1, y2, y3, y4, y5)
		}
	}
}

// forwardRows6 is forward6's x_r −= L_rs y for a row block of six rows r
// (row-major), x_d −= dot6(row d, y) in row order.
func forwardRows6(r *[36]float64, x *[6]float64, y0, y1, y2, y3, y4, y5 float64) {
	x[0] -= dot6s(r[0], r[1], r[2], r[3], r[4], r[5], y0, y1, y2, y3, y4, y5)
	x[1] -= dot6s(r[6], r[7], r[8], r[9], r[10], r[11], y0, y1, y2, y3, y4, y5)
	x[2] -= dot6s(r[12], r[13], r[14], r[15], r[16], r[17], y0, y1, y2, y3, y4, y5)
	x[3] -= dot6s(r[18], r[19], r[20], r[21], r[22], r[23], y0, y1, y2, y3, y4, y5)
	x[4] -= dot6s(r[24], r[25], r[26], r[27], r[28], r[29], y0, y1, y2, y3, y4, y5)
	x[5] -= dot6s(r[30], r[31], r[32], r[33], r[34], r[35], y0, y1, y2, y3, y4, y5)
}

// backward6 is Solve's backward step for supernode sn of six columns: y −=
// L_rsᵀ x_r over its row blocks in order, then Lᵀ_ss y = y, each entry of
// y updated by the general loop's operations in its order, kept in
// registers between them (L_ss read in place from the panel).
func (f *Factor) backward6(sn int, p, y, x []float64) {
	s := f.sym
	yv := (*[6]float64)(y)
	y0, y1, y2, y3, y4, y5 := yv[0], yv[1], yv[2], yv[3], yv[4], yv[5]
	lo, hi := s.snRowPtr[sn], s.snRowPtr[sn+1]
	for i := lo; i < hi; i++ {
		var r *[36]float64
		var xv *[6]float64
		if s.six { // as in forward6: row block i−lo at rows 6+6(i−lo) of p, at 6k of x
			r, xv = (*[36]float64)(p[36*(i-lo+1):]), (*[6]float64)(x[6*int(s.rowPos[i]):])
		} else {
			k, r0 := s.rowPos[i], int(s.rowPanel[i])
			xs := x[s.posOff[k]:s.posOff[k+1]]
			rows := p[r0*6 : (r0+len(xs))*6]
			if len(xs) != 6 {
				for d, xr := range xs {
					y0, y1, y2, y3, y4, y5 = subRow6(y0, y1, y2, y3, y4, y5, (*[6]float64)(rows[d*6:]), xr)
				}
				continue
			}
			r, xv = (*[36]float64)(rows), (*[6]float64)(xs) // a free body's row block
		}
		// Its rows at constant indices, one length check.
		y0, y1, y2, y3, y4, y5 = subRow6(y0, y1, y2, y3, y4, y5, (*[6]float64)(r[0:6]), xv[0])
		y0, y1, y2, y3, y4, y5 = subRow6(y0, y1, y2, y3, y4, y5, (*[6]float64)(r[6:12]), xv[1])
		y0, y1, y2, y3, y4, y5 = subRow6(y0, y1, y2, y3, y4, y5, (*[6]float64)(r[12:18]), xv[2])
		y0, y1, y2, y3, y4, y5 = subRow6(y0, y1, y2, y3, y4, y5, (*[6]float64)(r[18:24]), xv[3])
		y0, y1, y2, y3, y4, y5 = subRow6(y0, y1, y2, y3, y4, y5, (*[6]float64)(r[24:30]), xv[4])
		y0, y1, y2, y3, y4, y5 = subRow6(y0, y1, y2, y3, y4, y5, (*[6]float64)(r[30:36]), xv[5])
	}
	l := (*[36]float64)(p)
	y5 = y5 / l[35]
	y4 = (y4 - l[34]*y5) / l[28]
	y3 = ((y3 - l[27]*y4) - l[33]*y5) / l[21]
	y2 = (((y2 - l[20]*y3) - l[26]*y4) - l[32]*y5) / l[14]
	y1 = ((((y1 - l[13]*y2) - l[19]*y3) - l[25]*y4) - l[31]*y5) / l[7]
	y0 = (((((y0 - l[6]*y1) - l[12]*y2) - l[18]*y3) - l[24]*y4) - l[30]*y5) / l[0]
	yv[0], yv[1], yv[2], yv[3], yv[4], yv[5] = y0, y1, y2, y3, y4, y5
}

// subRow6 returns y − row·xr entry by entry (y_c −= l_c x_r, backward6's
// step for one row of L_rs).
func subRow6(y0, y1, y2, y3, y4, y5 float64, row *[6]float64, xr float64) (float64, float64, float64, float64, float64, float64) {
	return y0 - row[0]*xr, y1 - row[1]*xr, y2 - row[2]*xr, y3 - row[3]*xr, y4 - row[4]*xr, y5 - row[5]*xr
}
