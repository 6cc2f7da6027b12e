package sim

import (
	"slices"

	"github.com/stiction-sim/stiction/solver"
)

// The dual build of MuJoCo's PGS (mj_projectConstraint): AR = J A⁻¹ Jᵀ + R
// over MuJoCo's rows. A row of J on a kinematic tree is non-zero on the
// path of its bodies to the root only, and so is its column of
// Y = L⁻ᵀ Jᵀ for A's factor A = Lᵀ D L along the tree (linalg.TreeLDL,
// MuJoCo's mj_factorM): (J A⁻¹ Jᵀ)_ab = Σ_i y_ia y_ib / D_i needs the dofs
// both rows' paths share, as MuJoCo's sparse AR does. The sum runs over
// those dofs in ascending order, with the products of
// linalg.TreeLDLGram ((y_ia/D_i) y_ib, a before b in the clique's row
// order), and each y column is L⁻ᵀ's substitution on its own dofs in
// TreeLDLGram's order: the terms left out are exact zeros, so AR is
// TreeLDLGram's to the bit. Cliques factored densely (chains, small trees,
// coupled branches) and trees of more than 64 dofs take
// solver.CliqueFactor.Delassus.

// pgsDual is the scratch memory of the dual build (delassus).
type pgsDual struct {
	pos   []int          // per problem row: its MuJoCo index, n + f for the f-th folded fixed row, −1 for a row AR does not need
	fixlo []float64      // the fixed impulses that foldFixed folds (the non-zero ones)
	gfix  []float64      // (J A⁻¹ Jᵀ)_kf, n × len(fixlo): the folded rows' columns
	rows  []int          // the needed rows on the current clique, in the problem's order, as their d.pos
	jq    []float64      // their J on the clique (rows × Size); the sparse build's y = L⁻ᵀ jᵀ in place
	zq    []float64      // the sparse build's z = D⁻¹ y, rows × Size
	mask  []uint64       // the sparse build's non-zeros of y, per row
	ends  []int          // the ends of the runs of d.rows from one block each (their paths shared)
	dinv  []float64      // 1/D_i of the clique's factor
	cols  []float64      // the dense build's scratch
	gq    []float64      // the clique's J_c A_c⁻¹ J_cᵀ (rows × rows)
	iota  []int          // 0, 1, 2, …: gq's own row indices (sparseGram)
	same  []bool         // per row: the next three rows share its mask (gramTo)
	rowp  []*[64]float64 // per row: its y in d.jq as an array (gramTo)
}

// delassus sets w.ar = J A⁻¹ Jᵀ + R in MuJoCo's row order
// (mj_projectConstraint), w.r = R, w.arinv = 1/AR_kk (ARdiaginv), and the
// columns of the fixed rows that foldFixed folds into b, clique by clique
// (sparseGram on a tree, solver.CliqueFactor.Delassus otherwise).
func (w *pgsWork) delassus(p *solver.Problem) {
	d := &w.dual
	n := len(w.perm)
	w.neededRows(p)
	nf := len(d.fixlo)
	clear(w.ar[:n*n])
	d.gfix = solver.Resize(d.gfix, n*nf)
	clear(d.gfix)
	for c, q := range p.Cliques {
		k := d.cliqueRows(p, c, q.Size)
		if k == 0 {
			continue
		}
		a, tree := w.fac.TreeFactor(q)
		tree = tree && q.Size <= 64
		if tree && len(p.Cliques) == 1 && nf == 0 {
			// One clique and no folded rows: every needed row is on it
			// and in AR (d.pos < n), each entry of AR gets one term, and
			// +0 + s = s for the Gram's sums, which start at +0 and so
			// are never −0: written in place, without gq and scatter.
			d.substAll(q.Parent, a, k)
			d.gramTo(k, len(q.Parent), w.ar[:n*n], d.rows[:k], n)
			continue
		}
		d.gq = solver.Resize(d.gq, k*k)
		if tree {
			d.sparseGram(q.Parent, a, k)
		} else {
			d.cols = solver.Resize(d.cols, q.Size*k)
			clear(d.gq)
			w.fac.Delassus(q, d.jq, k, d.cols, d.gq)
		}
		w.scatter(k, nf)
	}
	for k, rk := range w.perm {
		w.r[k] = p.R[rk]
		w.ar[k*n+k] += p.R[rk]
		w.arinv[k] = 1 / w.ar[k*n+k]
	}
}

// neededRows sets d.pos and d.fixlo: the rows of AR (w.perm) and those of
// the fixed impulses that foldFixed folds (the non-zero ones, in w.fixed's
// order), with their impulses.
func (w *pgsWork) neededRows(p *solver.Problem) {
	d := &w.dual
	n := len(w.perm)
	d.pos = d.pos[:0]
	for range p.NR {
		d.pos = append(d.pos, -1)
	}
	for k, row := range w.perm {
		d.pos[row] = k
	}
	d.fixlo = d.fixlo[:0]
	for _, blk := range w.fixed {
		if lo, _ := p.IntervalBounds(blk); lo != 0 {
			d.pos[p.Constraints[blk].Row] = n + len(d.fixlo)
			d.fixlo = append(d.fixlo, lo)
		}
	}
}

// cliqueRows sets d.rows (their d.pos) and d.jq to the needed rows
// (d.pos ≥ 0) of J on clique c (size columns), in the order of the
// problem's blocks, and d.ends, and returns their number.
func (d *pgsDual) cliqueRows(p *solver.Problem, c, size int) int {
	d.rows = d.rows[:0]
	d.ends = d.ends[:0]
	k := 0
	var kind solver.Kind
	d.jq = solver.Resize(d.jq, p.NR*size+gramPad) // at most every row, and gramTo's reads past the last
	for _, blk := range p.JBlock {
		if blk.Clique != c {
			continue
		}
		con := &p.Constraints[blk.Constraint]
		data := p.JData[blk.Off : blk.Off+con.Size*size] // p.JBlockData
		pos := d.pos[con.Row : con.Row+con.Size]
		k0 := k
		for r, kr := range pos {
			if kr < 0 {
				continue
			}
			d.rows = append(d.rows, kr)
			copy(d.jq[k*size:(k+1)*size], data[r*size:(r+1)*size])
			k++
		}
		if k > k0 {
			if k0 > 0 && con.Kind != kind {
				d.ends = append(d.ends, k0)
			}
			kind = con.Kind
		}
	}
	return k
}

// sparseGram sets d.gq to J_c A_c⁻¹ J_cᵀ for the k rows in d.jq and the
// TreeLDL factor a along parent (n = len(parent) ≤ 64): for each row,
// y = L⁻ᵀ jᵀ by leaves to roots on its non-zeros (linalg.TreeLDLGram's
// substitution), z = D⁻¹ y and the mask of y's non-zeros, four rows of a
// run (d.ends: a block's rows, on the same paths) at a time (subst4); then
// gq_ab = Σ_i z_ia y_ib over the dofs of both masks, ascending, mirrored,
// against four rows b of one mask at a time (dotMasked4).
// Rows past the last of d.ends go four at a time as well.
func (d *pgsDual) sparseGram(parent []int, a []float64, k int) {
	d.substAll(parent, a, k)
	if cap(d.iota) < k {
		d.iota = make([]int, k)
		for r := range d.iota {
			d.iota[r] = r
		}
	}
	d.gramTo(k, len(parent), d.gq[:k*k], d.iota[:k], k)
}

// gramPad is the room that d.jq and d.zq keep past their last row: gramTo
// reads each row as an array of 64 (dotMasked), on the row's dofs only.
const gramPad = 64

// substAll sets d.zq, d.mask and y = L⁻ᵀ jᵀ in d.jq for the k rows of
// d.jq (sparseGram's substitution), four rows of a run at a time; d.jq
// and d.zq keep gramPad entries past the last row for gramTo.
func (d *pgsDual) substAll(parent []int, a []float64, k int) {
	n := len(parent)
	d.dinv = solver.Resize(d.dinv, n)
	for i := range n {
		d.dinv[i] = 1 / a[i*n+i]
	}
	d.zq = solver.Resize(d.zq, k*n+gramPad)
	if len(d.jq) < k*n+gramPad {
		d.jq = append(d.jq[:k*n], make([]float64, gramPad)...)
	}
	if cap(d.mask) < k {
		d.mask = make([]uint64, k)
	}
	d.mask = d.mask[:k]
	lo := 0
	for e := 0; lo < k; e++ {
		hi := k
		if e < len(d.ends) {
			hi = d.ends[e]
		}
		for ; lo+4 <= hi; lo += 4 {
			subst4(parent, a, d.dinv, d.jq[lo*n:(lo+4)*n], d.zq[lo*n:(lo+4)*n], (*[4]uint64)(d.mask[lo:]))
		}
		for ; lo < hi; lo++ {
			d.mask[lo] = subst1(parent, a, d.dinv, d.jq[lo*n:(lo+1)*n], d.zq[lo*n:(lo+1)*n])
		}
	}
}

// gramTo writes the Gram of the k substituted rows (n dofs each) into
// out: entry (r, c) and its mirror at out[idx[r]·stride + idx[c]] and
// out[idx[c]·stride + idx[r]], Σ z_ri y_ci over the dofs of both masks,
// ascending, against four rows c of one mask at a time (dotMasked4).
func (d *pgsDual) gramTo(k, n int, out []float64, idx []int, stride int) {
	idx, mask := idx[:k], d.mask[:k]
	same := d.sameMasks(k)
	if cap(d.rowp) < k {
		d.rowp = make([]*[64]float64, k)
	}
	rowp := d.rowp[:k]
	for c := range rowp {
		rowp[c] = (*[64]float64)(d.jq[c*n:])
	}
	for r, ir := range idx {
		z, mr := (*[64]float64)(d.zq[r*n:]), mask[r]
		or := ir * stride
		for c := r; c < k; {
			if same[c] {
				s0, s1, s2, s3 := dotMasked4(mr&mask[c], z, (*[4]*[64]float64)(rowp[c:]))
				ic := (*[4]int)(idx[c:])
				out[or+ic[0]], out[ic[0]*stride+ir] = s0, s0
				out[or+ic[1]], out[ic[1]*stride+ir] = s1, s1
				out[or+ic[2]], out[ic[2]*stride+ir] = s2, s2
				out[or+ic[3]], out[ic[3]*stride+ir] = s3, s3
				c += 4
				continue
			}
			s := dotMasked(mr&mask[c], z, rowp[c])
			ic := idx[c]
			out[or+ic], out[ic*stride+ir] = s, s
			c++
		}
	}
}

// sameMasks returns d.same set for the k rows of d.mask: same[c] when
// rows c…c+3 exist and have row c's mask (gramTo's four-row sums).
func (d *pgsDual) sameMasks(k int) []bool {
	if cap(d.same) < k {
		d.same = make([]bool, k)
	}
	same, mask := d.same[:k], d.mask[:k]
	for c := range same {
		same[c] = c+4 <= k && mask[c+1] == mask[c] && mask[c+2] == mask[c] && mask[c+3] == mask[c]
	}
	return same
}

// scatter adds the clique's d.gq to w.ar (MuJoCo's order) and to the
// folded fixed rows' columns d.gfix (nf of them), row by row.
func (w *pgsWork) scatter(k, nf int) {
	d := &w.dual
	n := len(w.perm)
	kpos := d.rows[:k]
	for a, ka := range kpos {
		if ka >= n {
			continue
		}
		ar, gq := w.ar[ka*n:(ka+1)*n], d.gq[a*k:(a+1)*k]
		for b, kb := range kpos {
			if kb < n {
				ar[kb] += gq[b]
			} else {
				d.gfix[ka*nf+kb-n] += gq[b]
			}
		}
	}
}

// foldFixed moves the fixed impulses of explicit actuators' rows (blocks
// w.fixed) into b: MuJoCo has their forces in qfrc_actuator, so in
// qacc_smooth, b_k += (J A⁻¹ Jᵀ)_kj f_j.
func (w *pgsWork) foldFixed(dt float64) {
	d := &w.dual
	nf := len(d.fixlo)
	for f, lo := range d.fixlo {
		for k := range w.perm {
			w.b[k] += d.gfix[k*nf+f] * (lo / dt)
		}
	}
}

// pgsJac is J of the problem PGS solves with only its non-zero entries,
// row by row in solver.Problem.MulJ's order (pgsSetup builds it once; the
// setup, the warm start and dualFinish multiply by it four times). A
// contact's row is non-zero on its bodies' paths to the root only, a
// limit's or an actuator's on one dof. The products left out are ±0, and
// MulJ's sums, which start at +0, are never −0, so adding them changes no
// bit: mul gives MulJ's J v exactly (for a finite v; Validate requires J
// finite).
//
// On the dense path it can instead keep J's blocks whole (buildWhole): each
// segment is then a whole row of its J block, read in place from
// p.JData, zeros included. Their products are ±0 as well, so for finite
// inputs mul and mulT give the same bits; a sum or a γ that is not finite
// goes over the non-zeros alone, as the compact form does.
type pgsJac struct {
	seg   []pgsSeg
	idx   []int
	val   []float64
	whole bool      // seg's [lo, hi) index data, each segment its block's whole row (buildWhole)
	data  []float64 // p.JData of the last buildWhole (not owned: never written)
}

// pgsSeg is one row of one J block of pgsJac: vc[row] += Σ val_t v[off +
// idx_t] over t in [lo, hi) (whole: Σ data_t v[off + t − lo]).
type pgsSeg struct {
	row, off, lo, hi int
}

// build sets j from p's J.
func (j *pgsJac) build(p *solver.Problem) {
	j.buildMul(p, nil, nil)
}

// buildMul sets j from p's J and, for a non-nil v, vc = J v (p.NR rows)
// in the same pass: each row's sum over its non-zeros from +0 in column
// order, added to vc's +0, as mul forms it.
func (j *pgsJac) buildMul(p *solver.Problem, v, vc []float64) {
	j.whole, j.data = false, nil
	need := 0
	for _, blk := range p.JBlock {
		need += p.Constraints[blk.Constraint].Size * p.Cliques[blk.Clique].Size
	}
	idx, val := growInt(j.idx, need), solver.Resize(j.val, need)
	val = val[:len(idx)]
	if v != nil {
		clear(vc[:p.NR])
	}
	j.seg = j.seg[:0]
	at := 0
	for _, blk := range p.JBlock {
		q := &p.Cliques[blk.Clique] // a Clique is 6 words: not copied
		c := &p.Constraints[blk.Constraint]
		n := q.Size
		d := p.JData[blk.Off : blk.Off+c.Size*n] // p.JBlockData
		var vq []float64
		if v != nil {
			vq = v[q.Offset : q.Offset+n]
		}
		for r := range c.Size {
			lo := at
			row := d[r*n : (r+1)*n]
			if v == nil {
				for i, a := range row {
					if a != 0 {
						idx[at], val[at] = i, a
						at++
					}
				}
			} else {
				vq := vq[:len(row)]
				s := 0.0
				for i, a := range row {
					if a != 0 {
						idx[at], val[at] = i, a
						at++
						s += a * vq[i]
					}
				}
				vc[c.Row+r] += s
			}
			j.seg = append(j.seg, pgsSeg{row: c.Row + r, off: q.Offset, lo: lo, hi: at})
		}
	}
	j.idx, j.val = idx[:at], val[:at]
}

// buildWhole sets j to p's J blocks whole (pgsJac's dense form: no scan,
// no copy); its callers then form J v with mul, after the segments are
// built: one copy of mul's loop (with its inlined wholeDot) in the
// instruction cache instead of two, and no v and J v held live through
// the segments' loop (passed in, they were reloaded at each of its
// blocks). Each block's segments are stored in place, in room growSegs
// makes (out of line: an append's growth in the loop spilled its values).
func (j *pgsJac) buildWhole(p *solver.Problem) {
	j.whole, j.data = true, p.JData
	j.idx, j.val = j.idx[:0], j.val[:0]
	seg := j.seg[:0]
	for _, blk := range p.JBlock {
		q := &p.Cliques[blk.Clique]
		c := &p.Constraints[blk.Constraint]
		k := len(seg)
		if cap(seg)-k < c.Size {
			seg = growSegs(seg, c.Size)
		}
		seg = seg[:k+c.Size]
		n, off, row, lo := q.Size, q.Offset, c.Row, blk.Off
		s := seg[k:]
		for r := range s {
			s[r] = pgsSeg{row: row + r, off: off, lo: lo, hi: lo + n}
			lo += n
		}
	}
	j.seg = seg
}

// growSegs returns seg with room for n more segments (buildWhole; out of
// line: the room grows on a simulation's first steps).
//
//go:noinline
func growSegs(seg []pgsSeg, n int) []pgsSeg {
	return slices.Grow(seg, n)
}

// wholeDot is Σ a_i x_i over a's non-zeros from +0 in order (the sum of
// pgsJac's compact row) computed over every entry: a zero a_i adds a ±0
// product to a sum that started at +0 and so is never −0, which leaves it
// unchanged. A non-finite x_i makes that product NaN; a sum that comes out
// NaN is therefore redone over the non-zeros alone.
func wholeDot(a, x []float64) float64 {
	x = x[:len(a)]
	s := 0.0
	for i, ai := range a {
		s += ai * x[i]
	}
	if s != s {
		s = 0
		for i, ai := range a {
			if ai != 0 {
				s += ai * x[i]
			}
		}
	}
	return s
}

// mul sets vc = J v (nr rows), as solver.Problem.MulJ.
func (j *pgsJac) mul(v, vc []float64, nr int) {
	clear(vc[:nr])
	if !j.whole {
		j.mulCompact(v, vc)
		return
	}
	data := j.data
	for _, sg := range j.seg {
		vc[sg.row] += wholeDot(data[sg.lo:sg.hi], v[sg.off:])
	}
}

// mulCompact is mul over the non-zeros (vc cleared). Out of line: the
// dense path keeps J's blocks whole (buildWhole).
//
//go:noinline
func (j *pgsJac) mulCompact(v, vc []float64) {
	for _, sg := range j.seg {
		s := 0.0
		vs := v[sg.off:]
		idx, val := j.idx[sg.lo:sg.hi], j.val[sg.lo:sg.hi]
		for t, i := range idx {
			s += val[t] * vs[i]
		}
		vc[sg.row] += s
	}
}

// mulT sets out = Jᵀ γ (nv entries), as solver.Problem.MulJT: the rows in
// the same order, rows with γ_r = 0 skipped, and J's zero entries too (their
// products are ±0 and the sums, which start at +0, are never −0).
func (j *pgsJac) mulT(gamma, out []float64, nv int) {
	clear(out[:nv])
	if j.whole {
		j.mulTWhole(gamma, out)
		return
	}
	j.mulTCompact(gamma, out)
}

// mulTCompact is mulT over the non-zeros (out cleared). Out of line, as
// mulCompact: the dense path keeps J's blocks whole (buildWhole), and
// this loop, inlined, lay in mulT's code on it.
//
//go:noinline
func (j *pgsJac) mulTCompact(gamma, out []float64) {
	for _, sg := range j.seg {
		g := gamma[sg.row]
		if g == 0 {
			continue
		}
		o := out[sg.off:]
		idx, val := j.idx[sg.lo:sg.hi], j.val[sg.lo:sg.hi]
		val = val[:len(idx)]
		for t, i := range idx {
			o[i] += val[t] * g
		}
	}
}

// mulTWhole is mulT on the whole blocks (buildWhole): a row with a finite
// γ_r ≠ 0 adds every entry's product (a zero's is ±0, added to out's
// sums, which start at +0 and so are never −0: no bit changes), one with
// a non-finite γ_r its non-zeros' alone, as the compact form does.
func (j *pgsJac) mulTWhole(gamma, out []float64) {
	for _, sg := range j.seg {
		g := gamma[sg.row]
		if g == 0 {
			continue
		}
		row := j.data[sg.lo:sg.hi]
		o := out[sg.off : sg.off+len(row)]
		if g-g != 0 {
			for i, a := range row {
				if a != 0 {
					o[i] += a * g
				}
			}
			continue
		}
		for i, a := range row {
			o[i] += a * g
		}
	}
}
