package sim

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// The change of coordinates of MuJoCo's Newton and CG (newtonWork.coordinates):
// world velocity = T local velocity, T = L(q)⁻¹ of multibody.Model.LocalVelocity.
// T is the identity but for one 3×3 rotation R_FM per free or ball joint
// (and per ball part of a compound joint), on the rows and columns of the
// joint's angular velocity (multibody.Model.WorldVelocity turns those
// alone). So M = Tᵀ M_w T and J = J_w T change only the entries on those
// columns and rows; the others are copied. The sums over a column of T
// that the dense products form (s = 0, s += x_c T_ci for every c) reduce
// to the same bits: a term with T_ci = 0 adds ±0 to a sum that started at
// +0 and so is never −0, which leaves it unchanged, and x · 1 = x.

// angularBlocks returns, in dst's and qdst's storage, the first velocity
// and the first coordinate (the quaternion's) of every 3-velocity block
// that multibody.Model.WorldVelocity turns (the angular velocity of a free
// or ball joint, of a compound joint's ball part), in the order of the
// model's bodies, as multibody.Model.turnJoints visits them.
func angularBlocks(m *multibody.Model, dst, qdst []int) ([]int, []int) {
	dst, qdst = dst[:0], qdst[:0]
	for i := range m.Bodies {
		b := &m.Bodies[i]
		if b.Tree < 0 {
			continue
		}
		switch b.Joint.Type {
		case multibody.JointFree, multibody.JointBall:
			dst, qdst = append(dst, b.VOff), append(qdst, b.QOff)
		case multibody.JointCompound:
			qi, vi := b.QOff, b.VOff
			for k := range b.Joint.Parts {
				p := &b.Joint.Parts[k]
				if p.Type == multibody.JointBall {
					dst, qdst = append(dst, vi), append(qdst, qi)
				}
				qi += p.Type.NQ()
				vi += p.Type.NV()
			}
		}
	}
	return dst, qdst
}

// rotations sets nw.rot, per angular block (nw.blocks), its 3×3 block of T
// at q row-major (rot[9b + 3r + c] = T[o+r, o+c], o the block's first
// velocity): column c is R(r) e_c by spatial.Quat.Rotate, r the block's
// quaternion (nw.qblocks), as multibody.Model.WorldVelocity turns the
// unit vector e_c on that block (its turnVec): the same operations, so
// the same bits, without the walk over the whole model.
func (nw *newtonWork) rotations(q []float64) {
	if len(nw.blocks)+len(nw.qblocks) == 0 { // T is the identity (the planar robots): nothing to turn
		nw.rot = nw.rot[:0]
		return
	}
	nw.turnRotations(q)
}

// turnRotations is rotations on a model with angular blocks (out of line:
// rotations, inlined, is then a test on the models without them).
//
//go:noinline
func (nw *newtonWork) turnRotations(q []float64) {
	nw.rot = solver.Resize(nw.rot, 9*len(nw.blocks)) // every entry set below
	for b, qo := range nw.qblocks {
		r := spatial.Quat{W: q[qo], X: q[qo+1], Y: q[qo+2], Z: q[qo+3]}
		t := (*[9]float64)(nw.rot[9*b:])
		for c := range 3 {
			var e spatial.Vec3
			e[c] = 1
			col := r.Rotate(e)
			t[c], t[3+c], t[6+c] = col[0], col[1], col[2]
		}
	}
}

// markBlocks sets nw.blk, per velocity, to the index of its angular block
// in nw.blocks, −1 for a velocity whose column of T is the unit vector.
func (nw *newtonWork) markBlocks() {
	nw.blk = nw.blk[:0]
	for range nw.nv {
		nw.blk = append(nw.blk, -1)
	}
	for b, o := range nw.blocks {
		nw.blk[o], nw.blk[o+1], nw.blk[o+2] = b, b, b
	}
}

// tCol returns the column of T of velocity i, a velocity of angular block
// b starting at o: T[o+r, i] for r = 0, 1, 2.
func (nw *newtonWork) tCol(b, o, i int) (float64, float64, float64) {
	c := i - o
	r := nw.rot[9*b:]
	return r[c], r[3+c], r[6+c]
}

// rowPattern sets each row's non-zero columns of J in MuJoCo's
// coordinates (nw.jnz): a contact or limit row moves only the velocities
// on its bodies' paths to the root. The dense sums over a row that the
// solve forms (mju_dot, mju_mulMatTVec, mju_sqrMatTD) leave a zero
// entry's term out to the bit (a product ±0 added to a sum that started
// at +0, so never −0), so they run over the pattern (mulJ, dotNZ). (M's
// rows, denser, are not worth their scan: measured on dm humanoid, the
// scan cost more than the products it thinned.)
func (nw *newtonWork) rowPattern() {
	nw.jnz.set(nw.j, nw.n, nw.nv)
}

// pattern is the non-zero columns of each row of a row-major matrix:
// row k's are nz[off[k]:off[k+1]], ascending.
type pattern struct {
	nz  []int32
	off []int
}

// set sets the pattern of a, rows×cols row-major, and makes each of a's
// zero entries +0 (a −0 that copyRows copied becomes the +0 of
// jacobianCoordinates' sum from +0).
func (pt *pattern) set(a []float64, rows, cols int) {
	pt.fit(rows*cols, rows)
	nz, off := pt.nz[:rows*cols], pt.off[:rows+1]
	off[0] = 0
	c := 0
	for k := range rows {
		row := a[k*cols : (k+1)*cols]
		for i, x := range row {
			if x != 0 {
				nz[c] = int32(i)
				c++
			} else {
				row[i] = 0
			}
		}
		off[k+1] = c
	}
	pt.nz, pt.off = nz[:c], off
}

// fit makes pt's storage room for a pattern of n non-zeros over rows rows
// (set). The growth is out of line (grow): rare once a few steps
// have warmed it up, it lay inlined between set's hot blocks
// (growInt32, growInt: two calls to makeslice and the registers saved
// around them).
func (pt *pattern) fit(n, rows int) {
	if cap(pt.nz) < n || cap(pt.off) <= rows {
		pt.grow(n, rows)
	}
}

// grow gives pt room for n non-zeros over rows rows (growInt32, growInt).
//
//go:noinline
func (pt *pattern) grow(n, rows int) {
	pt.nz, pt.off = growInt32(pt.nz, n), growInt(pt.off, rows+1)
}

// row returns row k's non-zero columns.
func (pt *pattern) row(k int) []int32 {
	return pt.nz[pt.off[k]:pt.off[k+1]]
}

// mulJWholeNV is the least nv whose J x (mulJ) goes over the rows'
// patterns: below it, over all of J.
const mulJWholeNV = 12

// rowNZ returns row k's non-zero columns of J (rowPattern).
func (nw *newtonWork) rowNZ(k int) []int32 {
	return nw.jnz.row(k)
}

// mulJ sets out = J x in MuJoCo's coordinates (mj_mulJacVec; on the sparse
// path mulJSparse). The dense path is its own code, not a call a layer
// down: mju_mulMatVec, mju_dot per row, a row with few non-zeros by dotNZ,
// each run of the others by mulMat: the same bits. Below mulJWholeNV
// velocities a finite x takes mulMat over all of J, as MuJoCo does: a
// row's zeros then add ±0 to dot4's sums, which start at +0 and so are
// never −0, the bits of dotNZ's; a row of a few columns costs dotNZ's call
// and its switch a term more than the dense dot (dm hopper, nv 7: mulJ
// with dotNZ 4 667 → mulRows' +1 689 a step). An x with ±Inf or NaN keeps
// dotNZ, whose skipped zeros give no NaN.
func (nw *newtonWork) mulJ(x, out []float64) {
	if nw.sp.on {
		nw.mulJSparse(x, out)
		return
	}
	nv, n := nw.nv, nw.n
	x, out = x[:nv], out[:n]
	if nv < mulJWholeNV && finiteAll(x) {
		mulMat(nw.j, x, out, n, nv)
		return
	}
	nw.mulJRows(x, out)
}

// mulJRows is mulJ's dense path over the rows' patterns (len(x) = nv, len(out) =
// n): dotNZ on a row of few non-zeros, mulMat on each run of the others.
// Out of line: below mulJWholeNV velocities a step takes mulMat alone.
//
//go:noinline
func (nw *newtonWork) mulJRows(x, out []float64) {
	nv, n := nw.nv, nw.n
	j, off, nz := nw.j, nw.jnz.off, nw.jnz.nz
	for k := 0; k < n; {
		if idx := nz[off[k]:off[k+1]]; 2*len(idx) < nv {
			out[k] = dotNZ(j[k*nv:(k+1)*nv], x, idx, nv)
			k++
			continue
		}
		run := k + 1
		for run < n && 2*(off[run+1]-off[run]) >= nv {
			run++
		}
		mulMat(j[k*nv:run*nv], x, out[k:run], run-k, nv)
		k = run
	}
}

// mulJT sets out = Jᵀ f (mj_mulJacTVec; on the sparse path mulJTSparse).
// The dense path, its own code, goes row by row as mju_mulMatTVec,
// skipping f_k = 0 as MuJoCo does: a row with few
// non-zeros over its pattern (rowPattern), a dense row over all of it (its
// zeros add ±0 to sums that are never −0). Two dense rows that follow each
// other among the rows with f_k ≠ 0 go through out together (addScl2):
// each entry gets the same two terms in the same order. A row's non-zero
// count comes from the pattern's offsets (a dense row never slices its
// non-zeros), and a held row is kept by its index; J and the non-zeros
// are read through nw where a row uses them, which keeps few values live
// across the loop (with them in registers, the sparse rows' loop spilled:
// dm stacker 9 -> 16 lines).
func (nw *newtonWork) mulJT(f, out []float64) {
	nv, n := nw.nv, nw.n
	out = out[:nv]
	clear(out)
	if nw.sp.on {
		nw.mulJTSparse(f, out)
		return
	}
	off := nw.jnz.off[:n+1]
	held := -1 // a dense row waiting for a second one
	var hf float64
	for k, fk := range f[:n] {
		if fk == 0 {
			continue
		}
		lo, hi := off[k], off[k+1]
		if 2*(hi-lo) >= nv {
			if held < 0 {
				held, hf = k, fk
				continue
			}
			addScl2(out, nw.j[held*nv:], nw.j[k*nv:], hf, fk)
			held = -1
			continue
		}
		if held >= 0 {
			nw.addRow(out, held, hf)
			held = -1
		}
		row := nw.j[k*nv:]
		for _, i := range nw.jnz.nz[lo:hi] {
			out[i] += row[i] * fk
		}
	}
	if held >= 0 {
		nw.addRow(out, held, hf)
	}
}

// addRow adds J's dense row k times f to out (mulJT's held row with no
// second one to pair with). Out of line: the robots' pyramid edges come
// in pairs, and its loop lay between mulJT's hot blocks.
//
//go:noinline
func (nw *newtonWork) addRow(out []float64, k int, f float64) {
	addScl(out, nw.j[k*nw.nv:], f)
}

// addScl adds a·s to out (len(a) ≥ len(out)).
func addScl(out, a []float64, s float64) {
	a = a[:len(out)]
	for i, x := range a {
		out[i] += x * s
	}
}

// addScl2 adds a·s, then b·t, to every entry of out (len(a), len(b) ≥
// len(out)): out_i = (out_i + a_i s) + b_i t, as two addScl passes.
func addScl2(out, a, b []float64, s, t float64) {
	a, b = a[:len(out)], b[:len(out)]
	for i, x := range a {
		out[i] = (out[i] + x*s) + b[i]*t
	}
}

// dotNZ is dot4(a[:n], x[:n]) for an a whose non-zeros are at idx
// (ascending): each term goes to the partial sum dot4 gives it (index
// mod 4 below the last whole block of four, then the tail in order), so
// the sums are dot4's to the bit.
func dotNZ(a, x []float64, idx []int32, n int) float64 {
	n4 := n - n%4
	var s0, s1, s2, s3 float64
	j := 0
	for ; j < len(idx) && int(idx[j]) < n4; j++ {
		i := idx[j]
		switch i & 3 {
		case 0:
			s0 += a[i] * x[i]
		case 1:
			s1 += a[i] * x[i]
		case 2:
			s2 += a[i] * x[i]
		default:
			s3 += a[i] * x[i]
		}
	}
	res := (s0 + s2) + (s1 + s3)
	for ; j < len(idx); j++ {
		i := idx[j]
		res += a[i] * x[i]
	}
	return res
}

// growInt32 returns s resized to n, reallocated with room to spare (at
// least patternSlack entries, doubling), so that steps whose row count
// creeps up do not allocate: a warmed-up step allocates nothing
// (TestActuatorDynamicsAllocateNothing's arms gain a row every few steps).
func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, max(n, 2*cap(s), patternSlack))
	}
	return s[:n]
}

// growInt is growInt32 for ints.
func growInt(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, max(n, 2*cap(s), patternSlack))
	}
	return s[:n]
}

// patternSlack is the least capacity of a pattern's storage.
const patternSlack = 256
