package sap

import (
	"slices"

	"github.com/stiction-sim/stiction/solver"
)

// packedJ is J with only each block's non-zero columns, packed once per
// solve (denseSystem.setup) for the products of the solve's iterations:
// J v (mulJ), Jᵀ γ (mulJT) and the sums of H = A + JᵀGJ (assemble). A
// problem's J blocks span their whole clique, and a row along a kinematic
// tree touches only the velocities on its body's path to the root (the
// pyramid edge of a humanoid's foot, 12 of its 27; a joint limit, one), so
// every product runs over the kept columns, stored contiguously with their
// absolute velocity indices, in the same order as before: the same sums,
// the same bits (the skipped terms are exact zeros; see mulJ and mulJT).
type packedJ struct {
	cols []int     // the kept columns' velocity indices (clique offset added), block by block
	vals []float64 // the blocks' kept values, each block k×m row-major
	blk  []packedBlock
	// first[i] is the first block of constraint i, first[i+1] its end
	// (J's blocks are sorted by constraint: solver.Problem.JBlock), set at
	// the packing's first mulJTOf (indexConstraints); empty before.
	first []int
	// six: every block is a contact's with six kept columns (free bodies'
	// contacts, as a cube's or boxes' on the ground or on each other):
	// the products then run mulJ6 and mulJT6 from the descriptors alone.
	six bool
	// five: every block is a contact's with five kept columns (spheres'
	// contacts on free bodies, mulJ5): the products then run mulJFive and
	// mulJTFive.
	five bool
}

// packedBlock locates one J block in packedJ: its kept columns are
// cols[c0:c1], its k×m values vals[v0:v0+k·m] (m = c1 − c0), and its
// constraint's rows start at row and number size (k). One descriptor per
// block, read with one bounds check, where parallel slices per field cost
// a check each at every block of every product (BENCHMARKS.md,
// fifty-seventh pass).
type packedBlock struct {
	c0, c1, v0, row, size int
}

// pack fills pk from p, keeping each block's columns with a non-zero
// entry in one of its rows (NaN counts as non-zero; nonzeroColumns).
func (pk *packedJ) pack(p *solver.Problem) {
	pk.cols = pk.cols[:0]
	pk.vals = pk.vals[:0]
	pk.blk = pk.blk[:0]
	pk.first = pk.first[:0]
	for b, blk := range p.JBlock {
		q, c := &p.Cliques[blk.Clique], &p.Constraints[blk.Constraint]
		jb := p.JBlockData(b)
		if c.Size == 3 && q.Size == 6 && whole3x6((*[18]float64)(jb[:18])) {
			pk.appendSix(q.Offset, c.Row, (*[18]float64)(jb[:18])) // a free body's contact: every column, the rows as they are
		} else {
			pk.packBlock(p, b, q, c, jb)
		}
	}
	pk.six, pk.five = pk.allWidth(6), pk.allWidth(5)
}

// appendSix appends a free body's contact block jb, every one of its six
// columns (from off) kept, as pack keeps it: the columns, then the rows
// as they are, copied as one array, and its descriptor (rows from row),
// each written in place.
func (pk *packedJ) appendSix(off, row int, jb *[18]float64) {
	nc, nv, nb := len(pk.cols), len(pk.vals), len(pk.blk)
	if cap(pk.cols)-nc < 6 || cap(pk.vals)-nv < 18 || cap(pk.blk) == nb {
		pk.growSix()
	}
	pk.cols, pk.vals, pk.blk = pk.cols[:nc+6], pk.vals[:nv+18], pk.blk[:nb+1]
	cs := (*[6]int)(pk.cols[nc:]) // stored one by one: a [6]int literal is built on the stack and copied
	cs[0], cs[1], cs[2], cs[3], cs[4], cs[5] = off, off+1, off+2, off+3, off+4, off+5
	*(*[18]float64)(pk.vals[nv:]) = *jb
	bl := &pk.blk[nb]
	bl.c0, bl.c1, bl.v0, bl.row, bl.size = nc, nc+6, nv, row, 3
}

// growSix makes room in pk for one more block of appendSix.
//
//go:noinline
func (pk *packedJ) growSix() {
	pk.cols = slices.Grow(pk.cols, 6)
	pk.vals = slices.Grow(pk.vals, 18)
	pk.blk = slices.Grow(pk.blk, 1)
}

// packBlock appends J block b (of clique q and constraint c, values jb)
// but a free body's contact, keeping its columns with a non-zero entry,
// and its descriptor: out of pack's loop, which the blocks of free bodies'
// contacts alone run.
//
//go:noinline
func (pk *packedJ) packBlock(p *solver.Problem, b int, q *solver.Clique, c *solver.Constraint, jb []float64) {
	start, v0, k := len(pk.cols), len(pk.vals), c.Size
	switch k {
	case 1: // a limit's or a pyramid edge's row: columns and values in one pass
		pk.cols, pk.vals = packRow(pk.cols, pk.vals, jb[:q.Size], q.Offset)
	case 3: // a contact's rows: likewise
		pk.cols, pk.vals = packRows3(pk.cols, pk.vals, jb[:3*q.Size], q.Offset)
	default:
		pk.cols = nonzeroColumns(p, b, pk.cols)
		pk.vals = packRows(pk.vals, jb, k, q.Size, pk.cols[start:])
		for t := range pk.cols[start:] {
			pk.cols[start+t] += q.Offset
		}
	}
	pk.blk = append(pk.blk, packedBlock{c0: start, c1: len(pk.cols), v0: v0, row: c.Row, size: k})
}

// indexConstraints sets pk.first for p, whose J pk packs.
func (pk *packedJ) indexConstraints(p *solver.Problem) {
	pk.first = pk.first[:0]
	for b, blk := range p.JBlock {
		for len(pk.first) <= blk.Constraint {
			pk.first = append(pk.first, b)
		}
	}
	for len(pk.first) <= len(p.Constraints) {
		pk.first = append(pk.first, len(p.JBlock))
	}
}

// allWidth reports whether every block of pk is a contact's (three rows)
// with m kept columns.
func (pk *packedJ) allWidth(m int) bool {
	for k := range pk.blk {
		if bl := &pk.blk[k]; bl.size != 3 || bl.c1-bl.c0 != m {
			return false
		}
	}
	return true
}

// packRow appends to cols and vals the non-zero entries of the J row row
// and their columns plus off (NaN counts as non-zero), writing into grown
// slices rather than appending entry by entry.
func packRow(cols []int, vals, row []float64, off int) ([]int, []float64) {
	nc, nv := len(cols), len(vals)
	cols, vals = slices.Grow(cols, len(row))[:nc+len(row)], slices.Grow(vals, len(row))[:nv+len(row)]
	cs, vs := cols[nc:], vals[nv:]
	n := 0
	for j, x := range row { // every entry written at n (n ≤ j), kept by n's increment: no branch to mispredict
		cs[n], vs[n] = off+j, x
		if x != 0 {
			n++
		}
	}
	return cols[:nc+n], vals[:nv+n]
}

// packRows3 is packRow for a 3×n block jb (a contact's rows): it appends
// the columns (plus off) where one of the three rows is non-zero (NaN
// counts as non-zero), as nonzeroColumns finds them, and the rows' entries
// in those columns, row after row, as packRows copies them, in one pass
// over the columns. Each column's three entries are written at the next
// free place of each row's n-long run and kept by the increment; the
// second and third rows are then moved down behind the first's m entries.
func packRows3(cols []int, vals, jb []float64, off int) ([]int, []float64) {
	n := len(jb) / 3
	nc, nv := len(cols), len(vals)
	cols, vals = slices.Grow(cols, n)[:nc+n], slices.Grow(vals, 3*n)[:nv+3*n]
	cs, out := cols[nc:], vals[nv:]
	r0, r1, r2 := jb[:n], jb[n:2*n], jb[2*n:3*n]
	if wholeColumns3(r0, r1, r2) { // every column kept (a free body's contact): the rows as they are
		for j := range cs {
			cs[j] = off + j
		}
		copy(out, jb[:3*n])
		return cols, vals
	}
	o0, o1, o2 := out[:n], out[n:2*n], out[2*n:3*n]
	m := 0
	for j, x0 := range r0 {
		x1, x2 := r1[j], r2[j]
		cs[m], o0[m], o1[m], o2[m] = off+j, x0, x1, x2
		if x0 != 0 || x1 != 0 || x2 != 0 {
			m++
		}
	}
	if m < n {
		copy(out[m:2*m], o1[:m])
		copy(out[2*m:3*m], o2[:m])
	}
	return cols[:nc+m], vals[:nv+3*m]
}

// wholeColumns3 reports whether every column of the rows r0, r1 and r2
// (of r0's length) has a non-zero entry (NaN counts as non-zero), as
// packRows3 keeps them: then its column loop keeps every column in place
// and its output is the rows themselves, which it copies instead.
func wholeColumns3(r0, r1, r2 []float64) bool {
	r1, r2 = r1[:len(r0)], r2[:len(r0)]
	for j, x0 := range r0 {
		if x0 == 0 && r1[j] == 0 && r2[j] == 0 {
			return false
		}
	}
	return true
}

// whole3x6 is wholeColumns3 for a 3×6 block (a free body's contact),
// read as one array: whether each of its six columns has a non-zero entry
// (NaN counts as non-zero), when packRows3 keeps every column as it is.
func whole3x6(j *[18]float64) bool {
	for c := range 6 {
		if j[c] == 0 && j[6+c] == 0 && j[12+c] == 0 {
			return false
		}
	}
	return true
}

// packRows appends to vals the k×n block jb's entries in columns cols,
// row by row, writing into grown slices rather than appending entry by
// entry.
func packRows(vals, jb []float64, k, n int, cols []int) []float64 {
	m, nv := len(cols), len(vals)
	vals = slices.Grow(vals, k*m)[:nv+k*m]
	out := vals[nv:]
	for r := range k {
		row, o := jb[r*n:(r+1)*n], out[r*m:(r+1)*m]
		for t, j := range cols {
			o[t] = row[j]
		}
	}
	return vals
}

// block returns block b's kept columns and its k×m values.
func (pk *packedJ) block(b int) (cols []int, vals []float64) {
	return pk.blockOf(&pk.blk[b])
}

// blockOf returns the kept columns and k×m values of the block bl.
func (pk *packedJ) blockOf(bl *packedBlock) (cols []int, vals []float64) {
	cols = pk.cols[bl.c0:bl.c1]
	return cols, pk.vals[bl.v0 : bl.v0+bl.size*len(cols)]
}

// mulJ sets vc = J v (nr rows): per block and row the sum over the kept
// columns in increasing order, added to the row's entry.
func (pk *packedJ) mulJ(v, vc []float64, nr int) {
	clear(vc[:nr])
	if pk.six {
		pk.mulJSix(v, vc)
		return
	}
	if pk.five {
		pk.mulJFive(v, vc)
		return
	}
	for k := range pk.blk {
		bl := &pk.blk[k]
		cols, vals := pk.blockOf(bl)
		m, row := len(cols), bl.row
		if bl.size == 3 { // a contact: its three sums in one pass over the columns, each in the same order
			if m == 6 { // a free body's contact: the same sums on arrays (mulJ6)
				vc[row], vc[row+1], vc[row+2] = mulJ6((*[6]int)(cols), (*[18]float64)(vals), v, vc[row], vc[row+1], vc[row+2])
				continue
			}
			if m == 5 { // a sphere's contact (no spin about the normal): likewise (mulJ5)
				vc[row], vc[row+1], vc[row+2] = mulJ5((*[5]int)(cols), (*[15]float64)(vals), v, vc[row], vc[row+1], vc[row+2])
				continue
			}
			j0, j1, j2 := vals[:m], vals[m:][:m], vals[2*m:][:m] // each of length m = len(cols): no bounds checks below
			s0, s1, s2 := 0.0, 0.0, 0.0
			for t, j := range cols {
				x := v[j]
				s0 += j0[t] * x
				s1 += j1[t] * x
				s2 += j2[t] * x
			}
			vc[row] += s0
			vc[row+1] += s1
			vc[row+2] += s2
			continue
		}
		for r := range bl.size {
			vr := vals[r*m : (r+1)*m]
			s := 0.0
			for t, j := range cols {
				s += vr[t] * v[j]
			}
			vc[row+r] += s
		}
	}
}

// mulJT sets out = Jᵀ γ (nv velocities): per block, row (skipping γ_r = 0)
// and kept column in increasing order, out_j += J_rj γ_r. A contact's
// block adds its three rows to each column in one pass: a block's columns
// are distinct, so out_j gets the same terms in the same order.
func (pk *packedJ) mulJT(gamma, out []float64, nv int) {
	clear(out[:nv])
	pk.mulJTBlocks(gamma, out, 0, len(pk.blk))
}

// mulJTOf is mulJT for a γ that is zero (+0 or −0) on every row but those
// of p's constraints cons (increasing): it runs over their blocks only.
// mulJT skips a row with γ_r = 0 and so adds nothing for the other
// blocks; the listed ones add the same terms in the same order (J's
// blocks are sorted by constraint), so out gets mulJT's bits. p is the
// problem pk packs; its blocks are indexed by constraint at the first
// call after a packing (most solves predict nothing and need no index).
func (pk *packedJ) mulJTOf(p *solver.Problem, cons []int, gamma, out []float64, nv int) {
	if len(pk.first) == 0 {
		pk.indexConstraints(p)
	}
	clear(out[:nv])
	for _, i := range cons {
		pk.mulJTBlocks(gamma, out, pk.first[i], pk.first[i+1])
	}
}

// mulJTBlocks adds to out the products Jᵀγ of the blocks b0 ≤ k < b1, in
// order, as mulJT describes.
func (pk *packedJ) mulJTBlocks(gamma, out []float64, b0, b1 int) {
	if pk.six {
		pk.mulJTSix(gamma, out, b0, b1)
		return
	}
	if pk.five {
		pk.mulJTFive(gamma, out, b0, b1)
		return
	}
	for k := b0; k < b1; k++ {
		bl := &pk.blk[k]
		cols, vals := pk.blockOf(bl)
		m := len(cols)
		g := gamma[bl.row : bl.row+bl.size]
		if len(g) == 3 && g[0] != 0 && g[1] != 0 && g[2] != 0 {
			g0, g1, g2 := g[0], g[1], g[2]
			if m == 6 { // a free body's contact: the same sums on arrays (mulJT6)
				mulJT6((*[6]int)(cols), (*[18]float64)(vals), g0, g1, g2, out)
				continue
			}
			if m == 5 { // a sphere's contact: likewise (mulJT5)
				mulJT5((*[5]int)(cols), (*[15]float64)(vals), g0, g1, g2, out)
				continue
			}
			j0, j1, j2 := vals[:m], vals[m:][:m], vals[2*m:][:m] // each of length m = len(cols): no bounds checks below
			for t, j := range cols {
				o := out[j]
				o += j0[t] * g0
				o += j1[t] * g1
				o += j2[t] * g2
				out[j] = o
			}
			continue
		}
		if len(g) == 3 && m == 5 { // a sphere's contact with a zero γ row: the loop below written out (mulJTRows5)
			mulJTRows5((*[5]int)(cols), (*[15]float64)(vals), (*[3]float64)(g), out)
			continue
		}
		for r, gr := range g {
			if gr == 0 {
				continue
			}
			vr := vals[r*m : (r+1)*m]
			for t, j := range cols {
				out[j] += vr[t] * gr
			}
		}
	}
}

// mulJSix is mulJ's loop when every block is a contact's with six kept
// columns (pk.six): each block's columns, values and rows read from its
// descriptor as arrays, without blockOf's slices; the same mulJ6 sums.
func (pk *packedJ) mulJSix(v, vc []float64) {
	for k := range pk.blk {
		bl := &pk.blk[k]
		r := (*[3]float64)(vc[bl.row : bl.row+3])
		r[0], r[1], r[2] = mulJ6((*[6]int)(pk.cols[bl.c0:bl.c0+6]), (*[18]float64)(pk.vals[bl.v0:bl.v0+18]), v, r[0], r[1], r[2])
	}
}

// mulJFive is mulJSix for pk.five: mulJ5 on each block's arrays.
func (pk *packedJ) mulJFive(v, vc []float64) {
	for k := range pk.blk {
		bl := &pk.blk[k]
		r := (*[3]float64)(vc[bl.row : bl.row+3])
		r[0], r[1], r[2] = mulJ5((*[5]int)(pk.cols[bl.c0:bl.c0+5]), (*[15]float64)(pk.vals[bl.v0:bl.v0+15]), v, r[0], r[1], r[2])
	}
}

// mulJTSix is mulJT's loop over the blocks b0 ≤ k < b1 when pk.six
// holds: mulJT6 for a block whose three γ are non-zero, else the per-row
// loop skipping γ_r = 0, as mulJT.
func (pk *packedJ) mulJTSix(gamma, out []float64, b0, b1 int) {
	for k := b0; k < b1; k++ {
		bl := &pk.blk[k]
		c, w := (*[6]int)(pk.cols[bl.c0:bl.c0+6]), (*[18]float64)(pk.vals[bl.v0:bl.v0+18])
		g := (*[3]float64)(gamma[bl.row : bl.row+3])
		if g[0] != 0 && g[1] != 0 && g[2] != 0 {
			mulJT6(c, w, g[0], g[1], g[2], out)
			continue
		}
		for r, gr := range g {
			if gr == 0 {
				continue
			}
			vr := w[6*r : 6*r+6]
			for t, j := range c {
				out[j] += vr[t] * gr
			}
		}
	}
}

// mulJTFive is mulJTSix for pk.five: mulJT5 for a block whose three γ
// are non-zero, else mulJTRows5, as mulJTBlocks.
func (pk *packedJ) mulJTFive(gamma, out []float64, b0, b1 int) {
	for k := b0; k < b1; k++ {
		bl := &pk.blk[k]
		c, w := (*[5]int)(pk.cols[bl.c0:bl.c0+5]), (*[15]float64)(pk.vals[bl.v0:bl.v0+15])
		g := (*[3]float64)(gamma[bl.row : bl.row+3])
		if g[0] != 0 && g[1] != 0 && g[2] != 0 {
			mulJT5(c, w, g[0], g[1], g[2], out)
			continue
		}
		mulJTRows5(c, w, g, out)
	}
}

// mulJ6 is mulJ's loop for a contact's block of six kept columns c and
// values w (three rows of six): it returns r0 + s0, r1 + s1 and r2 + s2,
// each s the sum over t = 0…5 in increasing order of w_rt v_c[t], as the
// loop forms them (each sum in its own accumulator, so forming them one
// after the other gives the same bits), but from the first product instead
// of +0 + the first product: the two differ only when the first product is
// −0, and then every partial sum differs at most in the sign of a zero
// (x + y is the same for x = ±0 unless y is a zero too), so s at most in
// the sign of a zero; and r, a row of J v that mulJ cleared to +0 and
// only added sums to, is never −0 (x + y is −0 only when both are), so
// r + s has the same bits. Written out on arrays: no loop, and no bounds
// checks on c and w.
func mulJ6(c *[6]int, w *[18]float64, v []float64, r0, r1, r2 float64) (float64, float64, float64) {
	x0, x1, x2, x3, x4, x5 := v[c[0]], v[c[1]], v[c[2]], v[c[3]], v[c[4]], v[c[5]]
	s0 := w[0] * x0
	s0 += w[1] * x1
	s0 += w[2] * x2
	s0 += w[3] * x3
	s0 += w[4] * x4
	s0 += w[5] * x5
	s1 := w[6] * x0
	s1 += w[7] * x1
	s1 += w[8] * x2
	s1 += w[9] * x3
	s1 += w[10] * x4
	s1 += w[11] * x5
	s2 := w[12] * x0
	s2 += w[13] * x1
	s2 += w[14] * x2
	s2 += w[15] * x3
	s2 += w[16] * x4
	s2 += w[17] * x5
	return r0 + s0, r1 + s1, r2 + s2
}

// mulJ5 is mulJ6 for a contact's block of five kept columns (a sphere's
// contact on a free body: the angular velocity about the normal moves no
// contact point, so its column is zero in all three rows and not kept);
// the same sums, each from its first product, for mulJ6's reasons.
func mulJ5(c *[5]int, w *[15]float64, v []float64, r0, r1, r2 float64) (float64, float64, float64) {
	x0, x1, x2, x3, x4 := v[c[0]], v[c[1]], v[c[2]], v[c[3]], v[c[4]]
	s0 := w[0] * x0
	s0 += w[1] * x1
	s0 += w[2] * x2
	s0 += w[3] * x3
	s0 += w[4] * x4
	s1 := w[5] * x0
	s1 += w[6] * x1
	s1 += w[7] * x2
	s1 += w[8] * x3
	s1 += w[9] * x4
	s2 := w[10] * x0
	s2 += w[11] * x1
	s2 += w[12] * x2
	s2 += w[13] * x3
	s2 += w[14] * x4
	return r0 + s0, r1 + s1, r2 + s2
}

// mulJT5 is mulJT6 for a contact's block of five kept columns (mulJ5):
// out_j gets ((out_j + w_0t g0) + w_1t g1) + w_2t g2 at each column
// j = c[t], in mulJT's order.
func mulJT5(c *[5]int, w *[15]float64, g0, g1, g2 float64, out []float64) {
	out[c[0]] = ((out[c[0]] + w[0]*g0) + w[5]*g1) + w[10]*g2
	out[c[1]] = ((out[c[1]] + w[1]*g0) + w[6]*g1) + w[11]*g2
	out[c[2]] = ((out[c[2]] + w[2]*g0) + w[7]*g1) + w[12]*g2
	out[c[3]] = ((out[c[3]] + w[3]*g0) + w[8]*g1) + w[13]*g2
	out[c[4]] = ((out[c[4]] + w[4]*g0) + w[9]*g1) + w[14]*g2
}

// mulJTRows5 is mulJT's per-row loop for a contact's block of five kept
// columns c and values w (mulJ5) with γ = g: each row r with g_r ≠ 0, in
// order, adds w_rt g_r to out at c[t], t = 0…4; written out on arrays (no
// bounds checks on c and w), the same terms in the same order.
func mulJTRows5(c *[5]int, w *[15]float64, g *[3]float64, out []float64) {
	for r, gr := range g {
		if gr == 0 {
			continue
		}
		vr := (*[5]float64)(w[5*r : 5*r+5])
		out[c[0]] += vr[0] * gr
		out[c[1]] += vr[1] * gr
		out[c[2]] += vr[2] * gr
		out[c[3]] += vr[3] * gr
		out[c[4]] += vr[4] * gr
	}
}

// mulJT6 is mulJT's loop for a contact's block of six kept columns c and
// values w (three rows of six) with γ = (g0, g1, g2), every entry
// non-zero: out_j gets ((out_j + w_0t g0) + w_1t g1) + w_2t g2 at each
// column j = c[t], in the loop's order (the columns are distinct, so each
// out_j's sum is on its own), written out: no loop, and no bounds checks
// on c and w.
func mulJT6(c *[6]int, w *[18]float64, g0, g1, g2 float64, out []float64) {
	out[c[0]] = ((out[c[0]] + w[0]*g0) + w[6]*g1) + w[12]*g2
	out[c[1]] = ((out[c[1]] + w[1]*g0) + w[7]*g1) + w[13]*g2
	out[c[2]] = ((out[c[2]] + w[2]*g0) + w[8]*g1) + w[14]*g2
	out[c[3]] = ((out[c[3]] + w[3]*g0) + w[9]*g1) + w[15]*g2
	out[c[4]] = ((out[c[4]] + w[4]*g0) + w[10]*g1) + w[16]*g2
	out[c[5]] = ((out[c[5]] + w[5]*g0) + w[11]*g1) + w[17]*g2
}

// mulGJ sets tmp = G_i J_b over block b's kept columns (k×m, row-major),
// each entry the sum of mulGJ's in the same order.
func (pk *packedJ) mulGJ(gi []float64, b int, tmp []float64) {
	bl := &pk.blk[b]
	cols, jb := pk.blockOf(bl)
	gjProduct(gi, bl.size, jb, len(cols), tmp)
}

// addJtTmp adds J_b1ᵀ tmp (tmp = G_i J_b2 from mulGJ) to H (n×n, h) over
// the kept columns: entry (a, b) gets ((0 + J_0a t_0b) + J_1a t_1b) + …,
// as denseSystem.addJtTmp's, and, with mirror, (b, a) the same sum. With
// diag (b1 = b2 of an upper-only assembly) a row a adds to the columns
// b ≥ a only.
func (pk *packedJ) addJtTmp(h []float64, n, b1, b2 int, tmp []float64, mirror, diag bool) {
	bl1, bl2 := &pk.blk[b1], &pk.blk[b2]
	cols1, j1 := pk.blockOf(bl1)
	cols2 := pk.cols[bl2.c0:bl2.c1]
	k, m1, m2 := bl1.size, len(cols1), len(cols2)
	switch k {
	case 1: // a pyramid edge's or a limit's row
		addJtTmpRow1(h, n, cols1, j1[:m1], cols2, tmp[:m2], mirror, diag)
		return
	case 3: // a contact's rows
		if !mirror && m1 == 6 && m2 == 6 && contiguous6(cols1) && contiguous6(cols2) { // a free body's contact
			addJtTmpRows3x6(h, n, cols1[0], (*[18]float64)(j1[:18]), cols2[0], (*[18]float64)(tmp[:18]), diag)
			return
		}
		addJtTmpRows3(h, n, cols1, j1[:3*m1], cols2, tmp[:3*m2], mirror, diag)
		return
	}
	for i, a := range cols1 {
		from := 0
		if diag {
			from = i
		}
		hrow := h[a*n : (a+1)*n]
		for t := from; t < m2; t++ {
			s := 0.0
			for r := range k {
				s += j1[r*m1+i] * tmp[r*m2+t]
			}
			hrow[cols2[t]] += s
			if mirror {
				h[cols2[t]*n+a] += s
			}
		}
	}
}

// addJtTmpRow1 is addJtTmp for a block of one row j1 (m1 = len(cols1)
// values) and t = G_i J_b2 (m2 = len(cols2) values): entry (a, b) gets
// 0 + J_a t_b (the +0 start kept: it turns a −0 product into +0, as the
// general loop's sum does). The loops without and with mirror are
// separate, and t is cut to the columns' length, so that its reads need no
// bounds check: the same terms in the same order.
func addJtTmpRow1(h []float64, n int, cols1 []int, j1 []float64, cols2 []int, t []float64, mirror, diag bool) {
	j1, t = j1[:len(cols1)], t[:len(cols2)]
	for i, a := range cols1 {
		from := 0
		if diag {
			from = i
		}
		x0, hrow := j1[i], h[a*n:(a+1)*n]
		if !mirror {
			for u := from; u < len(cols2); u++ {
				s := 0.0
				s += x0 * t[u]
				hrow[cols2[u]] += s
			}
			continue
		}
		for u := from; u < len(cols2); u++ {
			s := 0.0
			s += x0 * t[u]
			hrow[cols2[u]] += s
			h[cols2[u]*n+a] += s
		}
	}
}

// addJtTmpRows3 is addJtTmp for a contact's block of three rows (j1 row
// after row, m1 = len(cols1) values each; t = G_i J_b2, three rows of
// m2 = len(cols2)): entry (a, b) gets ((0 + J_0a t_0b) + J_1a t_1b) +
// J_2a t_2b, in the order of the general loop, the mirror's loop apart
// and without bounds checks on t (addJtTmpRow1).
func addJtTmpRows3(h []float64, n int, cols1 []int, j1 []float64, cols2 []int, t []float64, mirror, diag bool) {
	m1, m2 := len(cols1), len(cols2)
	ja, jb, jc := j1[:m1], j1[m1:2*m1], j1[2*m1:3*m1]
	ta, tb, tc := t[:m2], t[m2:2*m2], t[2*m2:3*m2]
	for i, a := range cols1 {
		from := 0
		if diag {
			from = i
		}
		x0, x1, x2 := ja[i], jb[i], jc[i]
		hrow := h[a*n : (a+1)*n]
		if !mirror {
			for u := from; u < len(cols2); u++ {
				s := 0.0
				s += x0 * ta[u]
				s += x1 * tb[u]
				s += x2 * tc[u]
				hrow[cols2[u]] += s
			}
			continue
		}
		for u := from; u < len(cols2); u++ {
			s := 0.0
			s += x0 * ta[u]
			s += x1 * tb[u]
			s += x2 * tc[u]
			hrow[cols2[u]] += s
			h[cols2[u]*n+a] += s
		}
	}
}

// contiguous6 reports whether the six increasing columns c run c[0],
// c[0]+1, …, c[0]+5 (a block's kept columns are distinct and increasing,
// so the first and last decide).
func contiguous6(c []int) bool {
	return c[5]-c[0] == 5
}

// addJtTmpRows3x6 is addJtTmpRows3 without mirror for a contact's block
// of six kept columns a0…a0+5 (j, three rows of six) and t = G_i J_b2 on
// the six columns c0…c0+5: entry (a0+i, c0+u) of H gets ((0 + J_0i t_0u) +
// J_1i t_1u) + J_2i t_2u, for u ≥ i only with diag, in the loop's order
// (each entry's sum is its own), on arrays: no bounds checks per entry.
func addJtTmpRows3x6(h []float64, n, a0 int, j *[18]float64, c0 int, t *[18]float64, diag bool) {
	for i := range 6 {
		from := 0
		if diag {
			from = i
		}
		x0, x1, x2 := j[i], j[6+i], j[12+i]
		hrow := (*[6]float64)(h[(a0+i)*n+c0 : (a0+i)*n+c0+6])
		for u := from; u < 6; u++ {
			s := 0.0
			s += x0 * t[u]
			s += x1 * t[6+u]
			s += x2 * t[12+u]
			hrow[u] += s
		}
	}
}

// chains reports whether every constraint of p has one J block whose kept
// columns lie on one path to a root of the forest par (parent[i] < i):
// then J_iᵀ G_i J_i is non-zero only at pairs of velocities one of which
// is an ancestor of the other, inside the tree's pattern
// (linalg.TreePattern). The kept columns are increasing, so each must be
// an ancestor of the next.
func (pk *packedJ) chains(p *solver.Problem, par []int) bool {
	for b, blk := range p.JBlock {
		if b > 0 && p.JBlock[b-1].Constraint == blk.Constraint {
			return false // a constraint on two or more cliques couples them
		}
		cols := pk.cols[pk.blk[b].c0:pk.blk[b].c1]
		for t := 1; t < len(cols); t++ {
			j := par[cols[t]]
			for j > cols[t-1] {
				j = par[j]
			}
			if j != cols[t-1] {
				return false
			}
		}
	}
	return true
}
