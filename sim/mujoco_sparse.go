package sim

import (
	"math"
	"slices"

	"github.com/stiction-sim/stiction/solver"
)

// MuJoCo 2.2.2's sparse path of its Newton and CG solvers (mj_isSparse:
// engine_core_constraint.c makes efc_J sparse when opt.jacobian is
// mjJAC_AUTO and nv ≥ 60). The port (mujoco_newton.go) is otherwise
// dense; from mjSparseNV velocities it keeps its matrices by their
// non-zeros, as MuJoCo does, so that a step costs in the non-zeros rather
// than nv² (MuJoCo's particle.xml, 3000 velocities):
//
//   - M in MuJoCo's coordinates as its cliques' dense blocks (M is block
//     diagonal by trees), built with the dense port's sums (the same bits);
//   - J in MuJoCo's row order as compressed rows (efc_J, efc_J_rownnz,
//     efc_J_rowadr, efc_J_colind), each constraint's rows on the columns
//     where one of them is non-zero (MuJoCo's rows share their bodies'
//     chains), and its transpose's pattern (efc_JT);
//   - J x by mju_dotSparse per row (mj_mulJacVec's mju_mulMatVecSparse),
//     Jᵀ f row by row (mju_mulMatTVecSparse), M x as the dense port does;
//   - H = Jᵀ D J + M by mju_sqrMatTDSparse (each entry summed over the rows
//     in order, as the dense mju_sqrMatTD: the same bits) and mj_addM, on
//     the pattern of every row (D = 0 rows keep their place, so that the
//     factor's pattern does not change in an update), factored by
//     mju_cholFactorSparse (the reverse-order H = Lᵀ L, from the last
//     velocity, with fill), solved by mju_cholSolveSparse, updated by
//     mju_cholUpdateSparse (HessianIncremental, HessianCone).
//
// The line search and the rows' update are the dense port's: they work on
// per-row vectors only.

// mjSparseNV is the number of velocities from which MuJoCo 2.2.2 solves
// sparsely (mj_isSparse with mjJAC_AUTO).
const mjSparseNV = 60

// sparseFromNV is the number of velocities from which the port takes the
// sparse path: mjSparseNV (tests move it to compare the two paths on one
// model).
var sparseFromNV = mjSparseNV

// sparseNewton is the sparse scratch of a Newton or CG solve.
type sparseNewton struct {
	on        bool
	off, sz   []int     // per clique: first velocity, size
	madr      []int     // per clique: offset of its blocks in mb, mfb
	mb        []float64 // M per clique, size×size row-major
	mpadr     []int     // M packed by rows: row r's slots at [mpadr[r], mpadr[r+1]) (packM)
	mpdense   []int     // row r's groups of four lanes end at mpdense[r], its dense run follows
	mpdlo     []int     // the column of row r's dense run's first slot (a multiple of 4)
	mptail    []int     // row r's dense run ends at mptail[r], its tail follows
	mpcol     []int     // the slots' columns
	mpval     []float64 // their values (+0 on a padding slot)
	mprow     []mRow    // per row: its slots' parts as slices of mpcol and mpval (rowParts)
	mppos     []int     // the pattern's entries: their places in mb
	mpslot    []int     // and their slots
	mpout     []int     // the places in mb off the pattern
	mpnz      []bool    // per entry of mb: on the packing's pattern
	mplo      []int     // the slots of M's entries on and below the diagonal, by row (lowerM)
	mploadr   []int
	mpoff     []int // the cliques' offsets and sizes at the last packing
	mpsz      []int
	mpsplit   mSplit    // the packing's entries by where their values come from (gatherSplit)
	mpart     bool      // mb holds only the entries on the angular blocks' rows and columns (gatherSplit)
	ma        []float64 // the problem's A (M_w by clique) the last sparseCoordinates read
	aoff      []int     // its cliques' blocks' offsets in it
	mver      int       // counts the packings that changed which of M's entries are zero
	mfb       []float64 // CG: M's tree factor per clique (factorM)
	cqOf      []int     // per velocity: its clique
	jadr      []int     // J's rows: start in jind/jval
	jnnz      []int     // J's rows: non-zeros
	jind      []int
	jval      []float64
	junsorted []bool // J's rows whose blocks came out of column order
	jsame     []bool // J's rows on the columns of another row of their constraint
	tadr      []int  // Jᵀ's rows (per velocity): start in trow
	tnnz      []int
	trow      []int // Jᵀ: the rows k of column i, in order
	tpos      []int // Jᵀ: J(k, i)'s index in jval
	tjadr     []int // J's row starts and columns Jᵀ's pattern was made for
	tjind     []int
	sym       sparseSym          // H's and L's patterns (mujoco_sparse_symbolic.go)
	symOld    [symKept]sparseSym // the last ones, most recently used first (checkSym)
	hpat      []byte             // H's pattern, nv×nv (hessPattern)
	hpM       bool               // hpat holds M's lower non-zeros of this gather alone (gatherSplit)
	symBuilds int                // the symbolic Hessians built (checkSym, keyed on H's pattern)
	h         sparseRows         // H, then its factor, on sym's pattern
	hc        sparseRows         // Hcone, on the same pattern
	mark      []int
	buf       []float64 // nv scratch
	bufi      []int
	xv        []float64 // cholUpdate's x
	xi        []int
	cols      []int // scratch list of columns

	// Tests' switches, unset in a simulation: symRebuild builds the
	// symbolic Hessian again at every solve (checkSym); hpatScan has
	// hessPattern scan M for its part of H's pattern instead of taking
	// gatherSplit's marks; hpatCheck, when set, is called with the part
	// gatherSplit marked before hessPattern adds J's.
	symRebuild bool
	hpatScan   bool
	hpatCheck  func(nw *newtonWork)
}

// sparseRows is a lower-triangular matrix by rows on a fixed pattern (the
// symbolic factor's, sparseSym): row r's columns ind[adr[r]:adr[r+1]] (≤ r,
// increasing, the diagonal last) and its values alongside in val.
type sparseRows struct {
	adr []int
	ind []int
	val []float64
}

// row returns row r's columns and values.
func (s *sparseRows) row(r int) ([]int, []float64) {
	a, b := s.adr[r], s.adr[r+1]
	return s.ind[a:b], s.val[a:b]
}

// copyFrom sets s = o (the pattern shared, the values copied).
func (s *sparseRows) copyFrom(o *sparseRows) {
	s.adr, s.ind = o.adr, o.ind
	s.val = append(s.val[:0], o.val...)
}

// MuJoCoSparse reports whether the port of MuJoCo 2.2.2's Newton and CG
// solves a model of nv velocities on MuJoCo's sparse path, as MuJoCo does
// with <option jacobian="auto">, its default (mj_isSparse: nv ≥ 60).
func MuJoCoSparse(nv int) bool { return nv >= sparseFromNV }

// sparseCoordinates is coordinates for the sparse path: M per clique and
// J by rows, turned on the angular blocks alone (mujoco_coords.go), and
// Jᵀ's pattern.
func (nw *newtonWork) sparseCoordinates(sim *Simulator, p *solver.Problem, q []float64, perm []int) {
	sp, nv := &nw.sp, nw.nv
	nc := len(p.Cliques)
	sp.off, sp.sz, sp.madr = growInt(sp.off, nc), growInt(sp.sz, nc), growInt(sp.madr, nc+1)
	sp.aoff = growInt(sp.aoff, nc)
	sp.cqOf = growInt(sp.cqOf, nv)
	for c, cq := range p.Cliques {
		sp.off[c], sp.sz[c], sp.aoff[c] = cq.Offset, cq.Size, cq.AOff
		sp.madr[c+1] = sp.madr[c] + cq.Size*cq.Size
		for i := range cq.Size {
			sp.cqOf[cq.Offset+i] = c
		}
	}
	sp.mb = solver.Resize(sp.mb, sp.madr[nc])
	sp.mfb = solver.Resize(sp.mfb, sp.madr[nc])
	sp.mark = growInt(sp.mark, nv)
	for i := range sp.mark {
		sp.mark[i] = -1
	}
	sp.buf = solver.Resize(sp.buf, nv)
	sp.bufi = growInt(sp.bufi, nv)
	sp.xv = solver.Resize(sp.xv, nv)
	sp.xi = growInt(sp.xi, nv)
	sp.cols = growInt(sp.cols, nv)[:0]
	nw.setBlocks(sim.Model)
	nw.rotations(q)
	sp.ma = p.A
	if !nw.gatherSplit(p) {
		nw.turnCliques()
		sp.packM(nv)
		sp.split(nw)
	}
	nw.sparseJacobian(p, perm, &sim.ws.pgs.jac)
	sp.sym.checked = false
}

// packM sets M's rows by their entries on a pattern that holds every
// non-zero (M's exact zeros come and go with the configuration, so the
// pattern keeps the entries once non-zero while the cliques hold, a zero
// on it adding nothing to M x), each row's in the order dot4 sums them
// (mulM): the columns below n4 = nv − nv%4 by partial sum (lane: column
// mod 4), in increasing order in each, then the others (the tail) in
// increasing order. Row r's slots are [mpadr[r], mpadr[r+1]) (mpcol,
// mpval): groups of four, one term of each lane (a lane that has run out
// padded with +0 times x_r), for its columns below r's group of four
// (r − r%4: on a tree numbered in pre-order, r's ancestors); then from
// mpdense[r] its dense run, every column from mpdlo[r] = min(r − r%4, n4)
// to past its last entry on the pattern below n4, rounded up to a group
// of four (a tree's descendants of r follow r: its subtree), each slot
// the column's entry, +0 off the pattern or the clique; then from
// mptail[r] the tail. While no non-zero falls off the pattern (mpout: M's
// entries off it) only the values are gathered (gatherM).
func (sp *sparseNewton) packM(nv int) {
	if len(sp.mpnz) == len(sp.mb) && len(sp.mpadr) == nv+1 && slices.Equal(sp.mpoff, sp.off) && slices.Equal(sp.mpsz, sp.sz) {
		mb := sp.mb
		var out uint64 // the bits of the entries off the pattern but their signs
		for _, p := range sp.mpout {
			out |= math.Float64bits(mb[p]) << 1
		}
		if out == 0 {
			sp.gatherM(nv)
			return
		}
	}
	sp.repackM(nv)
}

// gatherM is packM on its pattern: the values gathered. Above
// hpatMaxNV velocities, where the symbolic Hessian is keyed on J's
// pattern and M's zeros (checkSymJ), a change of which entries are zero
// counts in mver; below, H's key reads M's zeros itself (hessPattern).
func (sp *sparseNewton) gatherM(nv int) {
	mb, val := sp.mb, sp.mpval
	slot := sp.mpslot[:len(sp.mppos)]
	if nv <= hpatMaxNV {
		for k, p := range sp.mppos {
			val[slot[k]] = mb[p]
		}
		return
	}
	changed := false
	for k, p := range sp.mppos {
		v, s := mb[p], slot[k]
		if (v != 0) != (val[s] != 0) {
			changed = true
		}
		val[s] = v
	}
	if changed {
		sp.mver++
	}
}

// turnCliques sets mb = Tᵀ M_w T, clique by clique (turnMass on each
// clique's window of sp.ma), every entry.
func (nw *newtonWork) turnCliques() {
	sp := &nw.sp
	for c, n := range sp.sz {
		a, b := sp.aoff[c], sp.madr[c]
		nw.turnMass(sp.ma[a:a+n*n], sp.mb[b:b+n*n], n, sp.off[c])
	}
	sp.mpart = false
}

// repackM is packM with a new pattern: the last one's entries (while the
// cliques hold) and M's non-zeros.
func (sp *sparseNewton) repackM(nv int) {
	n4 := nv - nv%4
	sp.mver++
	sp.mpsplit.model = nil // split again (split)
	keep := len(sp.mpnz) == len(sp.mb) && slices.Equal(sp.mpoff, sp.off) && slices.Equal(sp.mpsz, sp.sz)
	sp.mpoff, sp.mpsz = append(sp.mpoff[:0], sp.off...), append(sp.mpsz[:0], sp.sz...)
	sp.mpnz = growBool(sp.mpnz, len(sp.mb))
	sp.mpout = sp.mpout[:0]
	for i, v := range sp.mb {
		sp.mpnz[i] = keep && sp.mpnz[i] || v != 0
		if !sp.mpnz[i] {
			sp.mpout = append(sp.mpout, i)
		}
	}
	sp.mpadr, sp.mptail = growInt(sp.mpadr, nv+1), growInt(sp.mptail, nv)
	sp.mpdense, sp.mpdlo = growInt(sp.mpdense, nv), growInt(sp.mpdlo, nv)
	ns := 4*len(sp.mb) + 10*nv // a row of a block of n: lanes ≤ 4 n, the dense run ≤ n + 6, the tail ≤ 3
	sp.mpcol, sp.mpval = growInt(sp.mpcol, ns), solver.Resize(sp.mpval, ns)
	sp.mppos, sp.mpslot = growInt(sp.mppos, len(sp.mb))[:0], growInt(sp.mpslot, len(sp.mb))[:0]
	s := 0
	for c := range sp.off {
		n, off, ma := sp.sz[c], sp.off[c], sp.madr[c]
		body := min(max(n4-off, 0), n) // the block's columns below n4
		for r := range n {
			sp.mpadr[off+r] = s
			lo := min((off+r)&^3, n4) // the dense run's first column
			s = sp.packLanes(s, off, off+r, ma+r*n, min(max(lo-off, 0), body))
			sp.mpdense[off+r], sp.mpdlo[off+r] = s, lo
			s = sp.packDense(s, off, n, ma+r*n, lo, body, n4)
			sp.mptail[off+r] = s
			for j := body; j < n; j++ {
				s = sp.packEntry(s, ma+r*n, off, j)
			}
		}
	}
	sp.mpadr[nv] = s
	sp.mpcol, sp.mpval = sp.mpcol[:s], sp.mpval[:s]
	sp.rowParts(nv)
	sp.lowerM(nv)
}

// mRow is row r of packM's rows by its parts, slices of mpcol and mpval
// (the values are gathered into mpval in place): its lanes' slots
// [mpadr[r], mpdense[r]), its dense run's [mpdense[r], mptail[r]) from
// column dlo = mpdlo[r], its tail's [mptail[r], mpadr[r+1]). Kept so that
// M x finds a row's parts without slicing them again on every call.
type mRow struct {
	col   []int     // the lanes' columns
	val   []float64 // and values, len(col)
	dense []float64 // the dense run's values
	dlo   int       // the dense run's first column
	tcol  []int     // the tail's columns
	tval  []float64 // and values, len(tcol)
}

// rowParts sets mprow from the packing repackM just made.
func (sp *sparseNewton) rowParts(nv int) {
	if cap(sp.mprow) < nv {
		sp.mprow = make([]mRow, nv)
	}
	sp.mprow = sp.mprow[:nv]
	for r := range nv {
		a, d, t, e := sp.mpadr[r], sp.mpdense[r], sp.mptail[r], sp.mpadr[r+1]
		sp.mprow[r] = mRow{col: sp.mpcol[a:d:d], val: sp.mpval[a:d:d], dense: sp.mpval[d:t:t], dlo: sp.mpdlo[r],
			tcol: sp.mpcol[t:e:e], tval: sp.mpval[t:e:e]}
	}
}

// lowerM sets mplo: per row r, at [mploadr[r], mploadr[r+1]), the slots
// of M's entries on the pattern at columns ≤ r (H's part of M), in the
// row's slot order.
func (sp *sparseNewton) lowerM(nv int) {
	sp.mploadr = growInt(sp.mploadr, nv+1)
	sp.mplo = sp.mplo[:0]
	slot := sp.mpslot[:len(sp.mppos)]
	k := 0
	for r := range nv {
		sp.mploadr[r] = len(sp.mplo)
		for ; k < len(slot) && slot[k] < sp.mpadr[r+1]; k++ {
			if sp.mpcol[slot[k]] <= r {
				sp.mplo = append(sp.mplo, slot[k])
			}
		}
	}
	sp.mploadr[nv] = len(sp.mplo)
}

// packLanes packs from slot s the lanes of the row at rowAt in mb (row
// r, the block's first velocity off, its columns below n4 the first
// body) in groups of four, a lane that has run out padded with +0 on
// column r; it returns the next slot.
func (sp *sparseNewton) packLanes(s, off, r, rowAt, body int) int {
	var j [4]int // each lane's next column in the block
	for lane := range 4 {
		j[lane] = (lane - off%4 + 4) % 4
	}
	for {
		more := false
		for lane := range 4 {
			for j[lane] < body && !sp.mpnz[rowAt+j[lane]] {
				j[lane] += 4
			}
			more = more || j[lane] < body
		}
		if !more {
			return s
		}
		for lane := range 4 {
			if j[lane] >= body {
				sp.mpcol[s], sp.mpval[s] = r, 0
				s++
				continue
			}
			s = sp.packEntry(s, rowAt, off, j[lane])
			j[lane] += 4
		}
	}
}

// packDense packs from slot s the dense run of the row at rowAt in mb (a
// block of n from velocity off, its columns below n4 the first body):
// every column from lo to past the row's last entry on the pattern below
// n4, rounded up to a multiple of 4 (at most n4), the entries off the
// pattern or the block as +0; it returns the next slot.
func (sp *sparseNewton) packDense(s, off, n, rowAt, lo, body, n4 int) int {
	hi := lo
	for j := body - 1; j >= lo-off && j >= 0; j-- {
		if sp.mpnz[rowAt+j] {
			hi = off + j + 1
			break
		}
	}
	hi = max(min((hi+3)&^3, n4), lo)
	for c := lo; c < hi; c++ {
		if j := c - off; j >= 0 && j < n && sp.mpnz[rowAt+j] {
			s = sp.packEntry(s, rowAt, off, j)
			continue
		}
		sp.mpcol[s], sp.mpval[s] = c, 0
		s++
	}
	return s
}

// packEntry packs the entry of column j of the block row at rowAt in mb
// (the block's first velocity off) at slot s when it is on the pattern; it
// returns the next slot.
func (sp *sparseNewton) packEntry(s, rowAt, off, j int) int {
	at := rowAt + j
	if !sp.mpnz[at] {
		return s
	}
	sp.mpcol[s], sp.mpval[s] = off+j, sp.mb[at]
	sp.mppos, sp.mpslot = append(sp.mppos, at), append(sp.mpslot, s)
	return s + 1
}

// sparseJacobian sets J = J_w T in MuJoCo's row order by compressed rows:
// each row first on every column of the cliques its constraint touches,
// then every row of a constraint on the columns where one of them is
// non-zero; and Jᵀ's pattern. A constraint of one row is turned on its
// non-zeros alone (turnRowNZ), read from jac, J_w's non-zeros by block
// row in p.JBlock's order (pgsSetup built it from p; it is built here
// when it holds another number of block rows).
func (nw *newtonWork) sparseJacobian(p *solver.Problem, perm []int, jac *pgsJac) {
	sp, n := &nw.sp, nw.n
	nw.mapRows(perm)
	// Row k's cliques: those of its constraint's blocks, in offset order.
	sp.jnnz, sp.jadr = growInt(sp.jnnz, n), growInt(sp.jadr, n+1)
	clear(sp.jnnz)
	segs := 0
	for _, blk := range p.JBlock {
		con := p.Constraints[blk.Constraint]
		segs += con.Size
		for r := range con.Size {
			if k := nw.rowk[con.Row+r]; k >= 0 {
				sp.jnnz[k] += p.Cliques[blk.Clique].Size
			}
		}
	}
	if len(jac.seg) != segs || jac.whole {
		jac.build(p)
	}
	sp.jadr[0] = 0
	for k := range n {
		sp.jadr[k+1] = sp.jadr[k] + sp.jnnz[k]
	}
	total := sp.jadr[n]
	sp.jind, sp.jval = growInt(sp.jind, total), solver.Resize(sp.jval, total)
	clear(sp.jnnz)
	sp.junsorted = growBool(sp.junsorted, n)
	clear(sp.junsorted)
	// Blocks in clique-offset order per row: p.JBlock may list a
	// constraint's cliques in any order, so fill then sort the rows whose
	// blocks came out of order.
	g := 0 // jac's block row
	for b, blk := range p.JBlock {
		cq := p.Cliques[blk.Clique]
		con := p.Constraints[blk.Constraint]
		data := p.JBlockData(b)
		for r := range con.Size {
			k, sg := nw.rowk[con.Row+r], jac.seg[g]
			g++
			if k < 0 {
				continue
			}
			at := sp.jadr[k] + sp.jnnz[k]
			if sp.jnnz[k] > 0 && sp.jind[at-1] > cq.Offset {
				sp.junsorted[k] = true
			}
			jw, ind, val := data[r*cq.Size:(r+1)*cq.Size], sp.jind[at:at+cq.Size], sp.jval[at:at+cq.Size]
			if con.Size == 1 { // compressed as it is turned (compressConstraints)
				sp.jnnz[k] += nw.turnRowNZ(jw, jac.idx[sg.lo:sg.hi], ind, val, cq.Offset)
				continue
			}
			nw.turnRow(jw, ind, val, cq.Offset)
			sp.jnnz[k] += cq.Size
		}
	}
	for k := range n {
		if sp.junsorted[k] {
			sp.sortRow(k)
		}
	}
	nw.compressConstraints(p)
	sp.transpose(nw.nv, n)
}

// turnRow sets (ind, val) to a row of J_w T on one clique (first velocity
// off) from its world row jw: every entry 0 + jw[i] (the dense sum's
// bits), those on an angular block turned (turnTriple).
func (nw *newtonWork) turnRow(jw []float64, ind []int, val []float64, off int) {
	for i, v := range jw {
		ind[i], val[i] = off+i, 0+v
	}
	for i := 0; i < len(jw); i++ {
		if b := nw.blk[off+i]; b >= 0 && nw.blocks[b] == off+i {
			nw.turnTriple(b, off+i, val[i:i+3])
			i += 2
		}
	}
}

// turnRowNZ is turnRow keeping only the non-zero entries (the columns a
// constraint of one row keeps, compressConstraints), in column order; it
// returns their number. nz holds jw's non-zero columns, ascending: a
// column off every angular block and off nz gives 0 + (±0) = +0, left
// out, and an angular block none of whose columns is in nz turns to
// sums of ±0 from +0 (T is finite), all +0, left out too; so only nz and
// the blocks it meets are visited.
func (nw *newtonWork) turnRowNZ(jw []float64, nz, ind []int, val []float64, off int) int {
	m := 0
	blk := nw.blk[off : off+len(jw)]
	for t := 0; t < len(nz); t++ {
		i := nz[t]
		b := blk[i]
		if b < 0 {
			ind[m], val[m] = off+i, 0+jw[i] // jw[i] ≠ 0, so 0 + jw[i] ≠ 0
			m++
			continue
		}
		o := nw.blocks[b] - off // the block lies in the window
		x := [3]float64{0 + jw[o], 0 + jw[o+1], 0 + jw[o+2]}
		nw.turnTriple(b, off+o, x[:])
		for u, v := range x {
			if v != 0 {
				ind[m], val[m] = off+o+u, v
				m++
			}
		}
		for t+1 < len(nz) && nz[t+1] < o+3 {
			t++
		}
	}
	return m
}

// growBool returns s resized to n (reallocated when short).
func growBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n, max(n, 2*cap(s), patternSlack))
	}
	return s[:n]
}

// sortRow sorts J's row k by column (insertion sort: a row holds one or
// two cliques' runs).
func (sp *sparseNewton) sortRow(k int) {
	ind, val := sp.jind[sp.jadr[k]:sp.jadr[k]+sp.jnnz[k]], sp.jval[sp.jadr[k]:sp.jadr[k]+sp.jnnz[k]]
	for i := 1; i < len(ind); i++ {
		for j := i; j > 0 && ind[j-1] > ind[j]; j-- {
			ind[j-1], ind[j] = ind[j], ind[j-1]
			val[j-1], val[j] = val[j], val[j-1]
		}
	}
}

// compressConstraints keeps, in each row, the columns where a row of its
// constraint is non-zero, and packs the rows; a constraint's rows after
// its first are marked jsame.
func (nw *newtonWork) compressConstraints(p *solver.Problem) {
	sp := &nw.sp
	sp.jsame = growBool(sp.jsame, nw.n)
	clear(sp.jsame)
	for _, con := range p.Constraints {
		if con.Size == 1 { // sparseJacobian kept its non-zeros
			continue
		}
		first := -1
		for r := range con.Size {
			if k := nw.rowk[con.Row+r]; k >= 0 {
				first = k
				break
			}
		}
		if first < 0 {
			continue
		}
		keep := sp.bufi[:sp.jnnz[first]]
		clear(keep)
		for r := range con.Size {
			k := nw.rowk[con.Row+r]
			if k < 0 {
				continue
			}
			for i, v := range sp.jval[sp.jadr[k] : sp.jadr[k]+sp.jnnz[k]] {
				if v != 0 {
					keep[i] = 1
				}
			}
		}
		for r := range con.Size {
			k := nw.rowk[con.Row+r]
			if k < 0 {
				continue
			}
			a, m := sp.jadr[k], 0
			for i := range keep {
				if keep[i] != 0 {
					sp.jind[a+m], sp.jval[a+m] = sp.jind[a+i], sp.jval[a+i]
					m++
				}
			}
			sp.jnnz[k] = m
			sp.jsame[k] = k != first
		}
	}
	// Pack the rows (each row only shrank within its own range).
	at := 0
	for k := range nw.n {
		a, m := sp.jadr[k], sp.jnnz[k]
		copy(sp.jind[at:at+m], sp.jind[a:a+m])
		copy(sp.jval[at:at+m], sp.jval[a:a+m])
		sp.jadr[k] = at
		at += m
	}
	sp.jadr[nw.n] = at
}

// transpose sets Jᵀ's pattern: for each velocity i the rows k with i in
// their pattern, in order, and where J(k, i) is.
func (sp *sparseNewton) transpose(nv, n int) {
	jadr, jind := sp.jadr[:n+1], sp.jind[:sp.jadr[n]]
	if len(sp.tadr) == nv+1 && slices.Equal(sp.tjadr, jadr) && slices.Equal(sp.tjind, jind) {
		return // J's pattern as at the last call
	}
	sp.tjadr, sp.tjind = append(sp.tjadr[:0], jadr...), append(sp.tjind[:0], jind...)
	sp.tnnz, sp.tadr = growInt(sp.tnnz, nv), growInt(sp.tadr, nv+1)
	clear(sp.tnnz)
	for k := range n {
		for _, i := range sp.jind[sp.jadr[k] : sp.jadr[k]+sp.jnnz[k]] {
			sp.tnnz[i]++
		}
	}
	sp.tadr[0] = 0
	for i := range nv {
		sp.tadr[i+1] = sp.tadr[i] + sp.tnnz[i]
	}
	sp.trow, sp.tpos = growInt(sp.trow, sp.tadr[nv]), growInt(sp.tpos, sp.tadr[nv])
	clear(sp.tnnz)
	for k := range n {
		for p := sp.jadr[k]; p < sp.jadr[k]+sp.jnnz[k]; p++ {
			i := sp.jind[p]
			at := sp.tadr[i] + sp.tnnz[i]
			sp.trow[at], sp.tpos[at] = k, p
			sp.tnnz[i]++
		}
	}
}

// row returns J's row k: its columns and values.
func (sp *sparseNewton) row(k int) ([]int, []float64) {
	a, m := sp.jadr[k], sp.jnnz[k]
	return sp.jind[a : a+m], sp.jval[a : a+m]
}

// dotSparse is mju_dotSparse (with AVX, as Debian builds it): Σ v_i
// x[ind_i] in four running sums over the non-zeros' positions, as dot4.
func dotSparse(v, x []float64, ind []int) float64 {
	n := len(v)
	ind = ind[:n] // one check here, none per entry
	i := 0
	var s0, s1, s2, s3 float64
	for ; i <= n-4; i += 4 {
		s0 += v[i] * x[ind[i]]
		s1 += v[i+1] * x[ind[i+1]]
		s2 += v[i+2] * x[ind[i+2]]
		s3 += v[i+3] * x[ind[i+3]]
	}
	res := (s0 + s2) + (s1 + s3)
	for ; i < n; i++ {
		res += v[i] * x[ind[i]]
	}
	return res
}

// mulJSparse is mulJ on the sparse path (mj_mulJacVec).
func (nw *newtonWork) mulJSparse(x, out []float64) {
	for k := range nw.n {
		ind, val := nw.sp.row(k)
		out[k] = dotSparse(val, x, ind)
	}
}

// mulJTSparse is mulJT on the sparse path: it adds Jᵀ f to out (zeroed
// by mulJT) row by row (mj_mulJacTVec).
func (nw *newtonWork) mulJTSparse(f, out []float64) {
	for k, fk := range f[:nw.n] {
		if fk == 0 { // its terms ±0 leave sums from +0 as they are
			continue
		}
		ind, val := nw.sp.row(k)
		for i, c := range ind {
			out[c] += val[i] * fk
		}
	}
}

// mulMSparse is mulM on the sparse path: each entry as mulMat's dot4
// over M's full row, through its entries on packM's pattern in their
// lanes: each partial sum gets its terms in dot4's order, the zeros off
// the pattern adding nothing (a zero term adds ±0 to a sum that is never
// −0), so the bits are dot4's.
func (nw *newtonWork) mulMSparse(x, out []float64) {
	rows := nw.sp.mprow[:nw.nv]
	out = out[:len(rows)]
	for r := range rows {
		m := &rows[r]
		col, val := m.col, m.val
		val = val[:len(col)]
		var s0, s1, s2, s3 float64
		for g := 0; g < len(col)-3; g += 4 { // this form leaves only x's bounds checks
			s0 += val[g] * x[col[g]]
			s1 += val[g+1] * x[col[g+1]]
			s2 += val[g+2] * x[col[g+2]]
			s3 += val[g+3] * x[col[g+3]]
		}
		dv := m.dense // the dense run: column dlo + g at dv[g]
		dx := x[m.dlo:]
		dx = dx[:len(dv)]
		for g := 0; g < len(dv)-3; g += 4 {
			s0 += dv[g] * dx[g]
			s1 += dv[g+1] * dx[g+1]
			s2 += dv[g+2] * dx[g+2]
			s3 += dv[g+3] * dx[g+3]
		}
		s := (s0 + s2) + (s1 + s3)
		tcol, tval := m.tcol, m.tval
		tval = tval[:len(tcol)]
		for j, c := range tcol { // the tail, added in order
			s += tval[j] * x[c]
		}
		out[r] = s
	}
}

// hessianDirectSparse is HessianDirect's sparse branch: H = Jᵀ D J + M on
// the pattern of every row (mju_sqrMatTDSparse, mj_addM), factored by
// mju_cholFactorSparse. The pattern, with the factor's fill, is sp.sym's
// (built again only when J's or M's pattern changed); each entry is
// summed over J's rows in order, then M's term, as the merges sum it.
func (nw *newtonWork) hessianDirectSparse(w *pgsWork) {
	sp, nv := &nw.sp, nw.nv
	if !sp.sym.checked {
		nw.checkSym()
	}
	h := &sp.h
	h.adr, h.ind = sp.sym.adr, sp.sym.ind
	h.val = solver.Resize(h.val, len(h.ind))
	// The slices in locals: the stores into buf would otherwise make
	// every loop load sp's slice headers again. buf is +0 at every row's
	// start: cleared here, then by each row's gather on the columns of
	// H's row i, where every row of J on column i writes (the symbolic
	// pattern holds every row of J, D = 0 ones included) and M writes its
	// non-zeros; M's slots off that row (padding, zeros of the dense run)
	// add ±0, which leaves +0 as it is (TestTreecmuHessianScratch).
	buf, jval := sp.buf[:nv], sp.jval
	clear(buf)
	state, d := nw.state, nw.d
	for i := range nv {
		a, e := h.adr[i], h.adr[i+1]
		cols := h.ind[a:e]
		for t := sp.tadr[i]; t < sp.tadr[i+1]; t++ {
			k := sp.trow[t]
			if state[k] != nwQuadratic || d[k] == 0 {
				continue
			}
			scl := jval[sp.tpos[t]] * d[k]
			ind, val := sp.row(k)
			val = val[:len(ind)]
			for j, c := range ind {
				if c > i {
					break
				}
				buf[c] += val[j] * scl
			}
		}
		sp.addLowerM(buf, i)
		v := h.val[a:e]
		v = v[:len(cols)]
		for p, c := range cols {
			v[p], buf[c] = buf[c], 0
		}
	}
	for _, p := range sp.sym.fill {
		h.val[p] = negZero
	}
	sp.cholFactor(h, mjMinVal)
	if nw.ncone > 0 {
		nw.hessianConeSparse(w)
	}
}

// addLowerM adds row i's entries of M at columns ≤ i (H's part of M,
// mj_addM) into buf from packM's slots in the row's order: its lanes (every
// column below its dense run, which starts at or below i), its dense run
// up to column i (no column indices) and its tail's columns up to i. Each
// entry of M is added once, as from its place on the pattern; a slot off
// it (padding, a zero of the dense run) adds +0, which leaves a sum from
// +0 as it is (such a sum is never −0), and a column off H's row is not
// read back.
func (sp *sparseNewton) addLowerM(buf []float64, i int) {
	m := &sp.mprow[i]
	col, val := m.col, m.val
	val = val[:len(col)]
	for j, c := range col {
		buf[c] += val[j]
	}
	lo := m.dlo
	dv := m.dense
	dv = dv[:min(i-lo+1, len(dv))]
	bl := buf[lo:]
	bl = bl[:len(dv)]
	for g, v := range dv {
		bl[g] += v
	}
	col, val = m.tcol, m.tval
	val = val[:len(col)]
	for j, c := range col {
		if c > i {
			break
		}
		buf[c] += val[j]
	}
}

// cholFactor is mju_cholFactorSparse: H = Lᵀ L in place, rows from the last
// (row r scaled by its diagonal's root, then each row c = L_r[i] < r less
// L(r,c) times L_r[0…i], merged into row c's pattern: here sp.sym's
// positions in the pattern that already holds the fill); it returns the
// rank. The merge's a·dst + b·src with a = 1 is dst + b·src to the bit.
func (sp *sparseNewton) cholFactor(h *sparseRows, mindiag float64) int {
	fpos, frun := sp.sym.fpos, sp.sym.frun
	lv := h.val
	n := len(h.adr) - 1
	rank := n
	for r := n - 1; r >= 0; r-- {
		a := h.adr[r]
		val := lv[a:h.adr[r+1]]
		nnz := len(val)
		if !cholScaleRow(val, mindiag) {
			rank--
		}
		for i := range nnz - 1 {
			b := -val[i]
			src := val[:i+1]
			if p0 := int(frun[a+i]); p0 >= 0 { // row L_r[i] holds L_r[0…i] in a run
				dst := lv[p0 : p0+len(src)]
				j := 0
				for ; j < len(src)-3; j += 4 { // each entry as dst[j] += src[j] * b
					dst[j] += src[j] * b
					dst[j+1] += src[j+1] * b
					dst[j+2] += src[j+2] * b
					dst[j+3] += src[j+3] * b
				}
				for ; j < len(src); j++ {
					dst[j] += src[j] * b
				}
			} else {
				f := fpos[-1-p0:]
				f = f[:len(src)]
				for j, p := range f {
					lv[p] += src[j] * b
				}
			}
		}
	}
	return rank
}

// cholScaleRow is mju_cholFactorSparse's step on row r before its
// merges: the diagonal (last) to the root of max(it, mindiag), the rest
// divided by it; false when the diagonal was below mindiag.
func cholScaleRow(val []float64, mindiag float64) bool {
	nnz := len(val)
	tmp, ok := val[nnz-1], true
	if tmp < mindiag {
		tmp, ok = mindiag, false
	}
	val[nnz-1] = math.Sqrt(tmp)
	tmp = 1 / val[nnz-1]
	for i := range nnz - 1 {
		val[i] *= tmp
	}
	return ok
}

// cholSolve is mju_cholSolveSparse: res = (Lᵀ L)⁻¹ vec.
func (h *sparseRows) cholSolve(vec, res []float64) {
	// h's slices in locals: the stores into res would otherwise make each
	// row load them again.
	adr, hind, hval := h.adr, h.ind, h.val
	n := len(adr) - 1
	res = res[:n]
	copy(res, vec[:n])
	for i := n - 1; i >= 0; i-- {
		if res[i] == 0 {
			continue
		}
		ind, val := hind[adr[i]:adr[i+1]], hval[adr[i]:adr[i+1]]
		nnz := len(val)
		res[i] /= val[nnz-1]
		tmp := res[i]
		ind = ind[:nnz-1]
		for j, c := range ind {
			res[c] -= val[j] * tmp
		}
	}
	for i := range n {
		ind, val := hind[adr[i]:adr[i+1]], hval[adr[i]:adr[i+1]]
		nnz := len(val)
		if nnz > 1 {
			res[i] -= dotSparse(val[:nnz-1], res, ind[:nnz-1])
		}
		res[i] /= val[nnz-1]
	}
}

// cholUpdate is mju_cholUpdateSparse: Lᵀ L ± x xᵀ in place for x on the
// increasing columns xi (x must be sp.xv's storage; x and sp.buf are
// overwritten); it returns the rank, −1 if the factor's pattern would
// change (MuJoCo stops with an error; the caller refactors), a row's
// pattern not holding x's. Row r = x's last column becomes L_r/c ± (s/c) x
// and x becomes c x − s L_r on L_r's pattern, each entry as
// mju_combineSparse's merge computes it.
func (sp *sparseNewton) cholUpdate(h *sparseRows, x []float64, xi []int, plus bool) int {
	n := len(h.adr) - 1
	rank := n
	other := sp.buf
	i := len(xi) - 1
	for i >= 0 {
		r := xi[i]
		ind, val := h.row(r)
		nnz := len(val)
		off := ind[:nnz-1]
		if !holds(off, xi[:i]) {
			return -1
		}
		rr, c, s, b, ok := cholRotation(val[nnz-1], x[i], plus)
		if !ok {
			rank--
		}
		val[nnz-1] = rr
		a, ms := 1/c, -s
		nx := other[:nnz-1]
		q := 0
		for p, col := range off {
			if q < i && xi[q] == col {
				val[p] = val[p]*a + x[q]*b
				nx[p] = c*x[q] + ms*val[p]
				q++
			} else {
				val[p] *= a
				nx[p] = ms * val[p]
			}
		}
		other, x, xi = x[:cap(x)], nx, off
		i = len(xi) - 1
	}
	return rank
}

// cholRotation is mju_cholUpdateSparse's rotation at a row of diagonal d
// for x's entry xr there: the new diagonal rr = √(d² ± xr²) (at least
// √mjMinVal, ok false then), c = rr/d, s = xr/d and the factor ±s/c of x
// in the row's update.
func cholRotation(d, xr float64, plus bool) (rr, c, s, b float64, ok bool) {
	tmp := d*d - xr*xr
	if plus {
		tmp = d*d + xr*xr
	}
	ok = true
	if tmp < mjMinVal {
		tmp, ok = mjMinVal, false
	}
	rr = math.Sqrt(tmp)
	c, s = rr/d, xr/d
	b = -s / c
	if plus {
		b = s / c
	}
	return rr, c, s, b, ok
}

// holds reports whether the increasing columns sub are among the
// increasing columns set.
func holds(set, sub []int) bool {
	q := 0
	for _, c := range set {
		if q == len(sub) {
			return true
		}
		if sub[q] == c {
			q++
		}
	}
	return q == len(sub)
}
