package sim

import (
	"math"
	"slices"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// MuJoCo 2.2.2's Newton solver (<option solver="Newton">, MuJoCo's
// default) for the problems of MuJoCo's rows, as MuJoCo runs it: the
// primal problem in qacc,
//
//	min ½ (a − a₀)ᵀ M (a − a₀) + Σ s_k(J_k a − aref_k)
//
// (a₀ = qacc_smooth; s_k the row's cost of mj_constraintUpdate:
// ½ D jar² on a quadratic row, 0 on a satisfied limit or pyramid edge,
// linear past ±R floss on friction loss, D = 1/R), by Newton steps
// search = −H⁻¹ grad with H = M + Jᵀ diag(D_quadratic) J, an exact line
// search on the piecewise quadratic, and MuJoCo's stopping rule, from
// MuJoCo's warm start (the better of qacc_warmstart and qacc_smooth). It
// follows engine_solver.c (mj_solCGNewton with flg_Newton, CGsearch,
// CGeval, CGprepare, HessianDirect, HessianIncremental,
// CGupdateConstraint, CGupdateGradient), engine_core_constraint.c
// (mj_constraintUpdate), engine_forward.c (warmstart) and
// engine_util_solve.c (mju_cholFactor, mju_cholSolve, mju_cholUpdate) of
// MuJoCo 2.2.2, dense (MuJoCo's choice below 60 degrees of freedom; from
// 60 MuJoCo's sparse path, mujoco_sparse.go), in
// MuJoCo's coordinates (multibody.LocalVelocity). Rows come in MuJoCo's
// order from the PGS port (pgsWork.order), elliptic contacts as one block
// each (mujoco_newton_cone.go). With cg it runs MuJoCo's CG instead
// (mj_solCG: mj_solCGNewton without flg_Newton; mujoco_cg.go).

// Row states of mj_constraintUpdate (mjtConstraintState).
const (
	nwSatisfied int8 = iota // mjCNSTRSTATE_SATISFIED
	nwQuadratic             // mjCNSTRSTATE_QUADRATIC
	nwLinearNeg             // mjCNSTRSTATE_LINEARNEG
	nwLinearPos             // mjCNSTRSTATE_LINEARPOS
)

// Line search constants of CGsearch.
const (
	nwLSMaxIter = 50   // LSmaxiter
	nwLSTolScl  = 0.01 // LStolscl
)

// newtonWork is the scratch memory of a Newton solve (mjCGContext).
type newtonWork struct {
	nv, n      int
	model      *multibody.Model // the model of blocks and blk
	turns      *angularTurns    // the workspace's angular blocks (Workspace.mj.turns; setBlocks)
	turnsGen   int              // turns.gen when blocks and blk were set
	blocks     []int            // the angular blocks of T (turns.v)
	qblocks    []int            // per angular block, its quaternion's first coordinate (turns.q)
	blk        []int            // per velocity, its angular block, −1: none (markBlocks)
	rot        []float64        // per angular block, its 3×3 block of T at the solve's q (rotations)
	jnz        pattern          // the non-zero columns of j's rows (rowPattern)
	mw         []float64        // M in world coordinates, nv×nv
	m          []float64        // M in MuJoCo's coordinates, nv×nv (mown, or the problem's A in place: massCoordinates)
	mown       []float64        // m's own storage (resize)
	mcl        [][2]int         // M's diagonal blocks [lo, hi), the problem's cliques (massCoordinates); none: M whole
	first      []int            // per velocity, a column at or below its row's first non-zero in H (firstCols)
	hfirst     []int            // first while it bounds nw.h's factor (hessianDirect, kept by hessianIncremental); nil: none known
	j          []float64        // J in MuJoCo's coordinates, n×nv, MuJoCo's row order (jown, or J_w's rows in place: inPlace)
	jown       []float64        // j's own storage (resize)
	h          []float64        // Cholesky factor of the Hessian (lower), nv×nv
	rowk       []int            // problem row → MuJoCo row (−1: none)
	jfrom      []int            // per MuJoCo row, its offset in J_w's data (copyRows)
	aref       []float64        // efc_aref
	d          []float64        // efc_D
	r          []float64        // efc_R
	jaref      []float64        // J qacc − aref
	jv         []float64        // J search
	force      []float64        // efc_force
	quad       []float64        // 3 per row: at an elliptic cone's first row, its quadratic and data (prepareCones)
	state, old []int8           // efc_state, oldstate
	qacc       []float64
	qs         []float64 // qacc_smooth (qsown, or the solve's world qacc_smooth in place: setSmooth)
	qsown      []float64 // qs's own storage
	qfs        []float64 // qfrc_smooth = M qacc_smooth
	ma, mv     []float64 // M qacc, M search
	qfc        []float64 // qfrc_constraint
	grad       []float64
	mgrad      []float64
	search     []float64
	sp         sparseNewton // MuJoCo's sparse path from 60 velocities (mujoco_sparse.go)
	e, col     []float64    // nv scratch
	tcol       []float64    // 3·nv scratch: an angular block's columns of M_w T (blockColumns)
	wblk       []int        // the angular blocks of turnMass's window, by their first velocity
	fresh      bool         // qacc is the last solve's answer, not yet kept (keepNewtonWarm)
	v          []float64    // that solve's v, to recognise it (nv: sizeVelocities)
	quadGauss  [3]float64
	cost       float64
	lsIter     int
	coneMu     []float64 // per elliptic contact, contact->mu = μ_1 √(R_1/R_0)
	coneH      []float64 // per elliptic contact, its middle zone's Hessian block (36 each)
	hcone      []float64 // Hcone: the factor of H with the cones' blocks, nv×nv
	local, ltj []float64 // HessianCone's scratch: a block's factor (36), Lᵀ J (6 nv)
	ncone      int       // rows in the cone state
	cg         bool      // MuJoCo's CG (mj_solCG) rather than Newton
	sized      [4]int    // the (nv, n, nr, sparse) the slices were last sized for (resize)
	mfac       []float64 // CG: M's factor Lᵀ D L (factorM), nv×nv
	dinv       []float64 // CG: 1/D
	par        []int     // CG: each velocity's parent in the tree (treeParents)
	gradOld    []float64 // CG: the last grad
	mgradOld   []float64 // CG: the last M⁻¹ grad
}

// resize sizes the scratch for nv velocities, n rows and nr problem rows;
// with the sizes (and the path, nw.sp.on) of the last call it does
// nothing, the slices having those lengths already (nothing else
// re-slices them, and Resize clears nothing). j, m and qs, which may
// still be the last solve's problem's rows (inPlace), A
// (massCoordinates) and qacc_smooth (setSmooth), are set again by those
// before anything reads them.
func (nw *newtonWork) resize(nv, n, nr int) {
	nw.nv, nw.n = nv, n
	if key := [4]int{nv, n, nr, boolInt(nw.sp.on)}; key != nw.sized || nw.qacc == nil {
		nw.resizeTo(key)
	}
}

// resizeTo sizes, for key = (nv, n, nr, sparse), the slices whose sizes
// changed since the last call: the rows' (sizeRows) when the row count
// changes, as it does with the contacts (dm hopper: on some steps), the
// velocities' (sizeVelocities) only when nv or the path does. A slice
// left alone already has the length Resize would give it (the same
// storage and contents). Out of line: most steps keep their sizes.
//
//go:noinline
func (nw *newtonWork) resizeTo(key [4]int) {
	old, all := nw.sized, nw.qacc == nil
	nw.sized = key
	nv, n := key[0], key[1]
	velocities := all || nv != old[0] || key[3] != old[3]
	if velocities {
		nw.sizeVelocities(nv)
	}
	if velocities || n != old[1] {
		nw.sizeRows(nv, n)
	}
	if all || key[2] != old[2] {
		if cap(nw.rowk) < key[2] {
			nw.rowk = make([]int, key[2])
		}
		nw.rowk = nw.rowk[:key[2]]
	}
	nw.j, nw.m, nw.qs = nw.jown, nw.mown, nw.qsown // the new storage (a caller may fill nw.j itself: copyRows)
}

// sizeVelocities sizes the scratch of nv velocities (and nv×nv, empty on
// the sparse path, which keeps no dense matrix; resizeTo).
func (nw *newtonWork) sizeVelocities(nv int) {
	dense := nv * nv
	if nw.sp.on {
		dense = 0
	}
	for _, s := range []*[]float64{&nw.mw, &nw.mown, &nw.h, &nw.hcone, &nw.mfac} {
		*s = solver.Resize(*s, dense)
	}
	nw.tcol = solver.Resize(nw.tcol, 3*nv)
	for _, s := range []*[]float64{&nw.qacc, &nw.qsown, &nw.qfs, &nw.ma, &nw.mv, &nw.qfc, &nw.grad, &nw.mgrad, &nw.search, &nw.e, &nw.col, &nw.gradOld, &nw.mgradOld, &nw.dinv, &nw.v} {
		*s = solver.Resize(*s, nv)
	}
	nw.local = solver.Resize(nw.local, 36)
	nw.ltj = solver.Resize(nw.ltj, 6*nv)
}

// sizeRows sizes the scratch of n rows, and J's n×nv (empty on the sparse
// path; resizeTo).
func (nw *newtonWork) sizeRows(nv, n int) {
	jn := n * nv
	if nw.sp.on {
		jn = 0
	}
	nw.jown = solver.Resize(nw.jown, jn)
	for _, s := range []*[]float64{&nw.aref, &nw.d, &nw.r, &nw.jaref, &nw.jv, &nw.force} {
		*s = solver.Resize(*s, n)
	}
	nw.quad = solver.Resize(nw.quad, 3*n)
	if cap(nw.state) < n {
		nw.state, nw.old = make([]int8, n), make([]int8, n)
	}
	nw.state, nw.old = nw.state[:n], nw.old[:n]
	if cap(nw.jfrom) < n {
		nw.jfrom = make([]int, n)
	}
	nw.jfrom = nw.jfrom[:n]
}

// setCones sizes the elliptic contacts' scratch for w's cones and sets
// each one's regularized μ (mj_makeImpedance: contact->mu). Out of line:
// solveNewton calls it only while there are cones or scratch for some
// (to empty it), which the robots' pyramids never have.
//
//go:noinline
func (nw *newtonWork) setCones(w *pgsWork) {
	nc := len(w.cones)
	nw.coneMu = solver.Resize(nw.coneMu, nc)
	nw.coneH = solver.Resize(nw.coneH, 36*nc)
	for c, cb := range w.cones {
		nw.coneMu[c] = cb.fr[0] * math.Sqrt(nw.r[cb.k0+1]/nw.r[cb.k0])
	}
}

// setRare sets what few solves need (solveNewton): the elliptic
// contacts' scratch (setCones, also to empty it) and CG's tree
// (treeParents). Out of line: the robots' pyramids under Newton need
// neither.
//
//go:noinline
func (nw *newtonWork) setRare(w *pgsWork, p *solver.Problem) {
	if len(w.cones)+len(nw.coneMu) != 0 {
		nw.setCones(w)
	}
	if nw.cg {
		nw.treeParents(p)
	}
}

// solveNewton solves c.p, whose rows w.order put in MuJoCo's order (w.perm,
// w.class, w.floss in MuJoCo's units), with MuJoCo 2.2.2's Newton at the
// point c.q with rows made at velocity c.vs, into c.res. w.x holds
// qacc_smooth (world coordinates).
func (sim *Simulator) solveNewton(c *pgsCall, dt float64) {
	w, nw := &sim.ws.pgs, &sim.ws.mjnewton
	p, q := c.p, c.q
	nv, n := p.NV, len(w.perm)
	nw.turns = &sim.ws.mj.turns
	nw.sp.on = MuJoCoSparse(nv)
	nw.resize(nv, n, p.NR)
	nw.cg = sim.cfg.Contact.CG             // before massCoordinates, which reads it
	nw.coordinatesBuilt(sim, p, q, w.perm) // pgsSetup built p's pgsJac
	nw.setSmooth(sim.Model, q, w.x)
	nw.mulM(nw.qs, nw.qfs)
	nw.setRows(p, w.perm, w.jvs, dt)
	if len(w.cones)+len(nw.coneMu) != 0 || nw.cg { // coneMu and coneH are sized together
		nw.setRare(w, p)
	}
	rows, ready := nw.warmStart(sim, w)
	scale := sim.meanInertia * max(1, float64(nv)) // math.Max's value: float64(nv) is neither NaN nor −0
	iters, converged := nw.iterate(w, sim.cfg.Contact.PGSIterations, sim.cfg.Contact.PGSTolerance, scale, rows, ready)
	nw.finish(sim, c, w, dt, iters, converged)
}

// setSmooth sets nw.qs, qacc_smooth in MuJoCo's coordinates, from x,
// the world's: L(q) x (angularTurns.local) into qs's own storage, or with
// T the identity (no angular block: the planar models), where L(q) x is a
// copy of x, x itself in place (cut to nv), as massCoordinates and
// inPlace read M and J. Nothing writes qs during the solve, nor x
// (pgsWork.x, which the solve reads as qacc_smooth and leaves alone).
func (nw *newtonWork) setSmooth(m *multibody.Model, q, x []float64) {
	if len(nw.blocks) == 0 {
		nw.qs = x[:nw.nv]
		return
	}
	nw.qs = nw.qsown
	nw.turns.local(m, q, x, nw.qs)
}

// setRows sets Newton's rows in MuJoCo's order (perm): aref = (v̂ − J v_s)/δt
// (jvs = J v_s), R and D = 1/R. Every slice is cut to its length first, so
// the loop checks each index once.
func (nw *newtonWork) setRows(p *solver.Problem, perm []int, jvs []float64, dt float64) {
	n, nr := len(perm), p.NR
	aref, r, d := nw.aref[:n], nw.r[:n], nw.d[:n]
	vhat, jv, rr := p.VHat[:nr], jvs[:nr], p.R[:nr]
	for k, row := range perm {
		aref[k] = (vhat[row] - jv[row]) / dt
		r[k] = rr[row]
		d[k] = 1 / rr[row]
	}
}

// coordinates sets M and J in MuJoCo's coordinates, M = Tᵀ M_w T and
// J = J_w T (world velocity = T local velocity; mujoco_coords.go): T is
// the identity but on the free and ball joints' angular blocks, whose
// rotations (rotations) alone enter sums; every other entry is copied,
// which gives the dense products' bits. It reads J_w from the non-zeros
// of sim.ws.pgs.jac, which it builds from p (solveNewton uses
// coordinatesBuilt, pgsSetup having built them).
func (nw *newtonWork) coordinates(sim *Simulator, p *solver.Problem, q []float64) {
	nw.turns = &sim.ws.mj.turns
	sim.ws.pgs.jac.build(p)
	nw.coordinatesBuilt(sim, p, q, nil)
}

// coordinatesBuilt is coordinates with sim.ws.pgs.jac already p's, or on
// the sparse path (nw.sp.on) sparseCoordinates for the rows perm.
func (nw *newtonWork) coordinatesBuilt(sim *Simulator, p *solver.Problem, q []float64, perm []int) {
	if nw.sp.on {
		nw.sparseCoordinates(sim, p, q, perm)
		return
	}
	nw.setBlocks(sim.Model)
	nw.rotations(q)
	nw.massCoordinates(p)
	nw.jacobianCoordinates(sim) // and its rows' pattern (rowPattern)
}

// setBlocks sets the model's angular blocks from nw.turns (the
// workspace's, which solveNewton names; a newtonWork without one makes its
// own) and marks them (markBlocks) when they or the size changed.
func (nw *newtonWork) setBlocks(m *multibody.Model) {
	if t := nw.turns; t == nil || t.set(m) || nw.turnsGen != t.gen || nw.model != m || len(nw.blk) != nw.nv {
		nw.resetBlocks(m)
	}
}

// resetBlocks is setBlocks when the blocks or the size changed (or there
// are no turns yet, which it makes and sets): out of line, as it runs on
// few steps.
//
//go:noinline
func (nw *newtonWork) resetBlocks(m *multibody.Model) {
	if nw.turns == nil {
		nw.turns = new(angularTurns)
		nw.turns.set(m)
	}
	t := nw.turns
	nw.model, nw.turnsGen = m, t.gen
	nw.blocks, nw.qblocks = t.v, t.q
	nw.markBlocks()
}

// massCoordinates sets nw.m = Tᵀ M_w T, M_w the problem's A (block
// diagonal by clique), as turnMass on the whole of M. One clique over all
// the velocities is M_w itself (its block, nv×nv row-major), turned with
// no copy; with T the identity too (the planar models) and Newton's solve,
// nw.m is that block in place, as MuJoCo reads d->qM: turnMass's copy
// differs from it only by a −0 made +0, and Newton's readers of M,
// mulM and addLower, add M's entries (or their products with finite
// or non-finite x, ±0 or NaN alike for either zero) to sums that start at
// +0 and so are never −0, where either zero gives the same bits. CG's
// factorM copies M and divides by its entries, where a −0 stays −0: CG
// keeps the copy. Several cliques are copied block by block into M_w, as
// 0 + x (plusZero): turnMass's sums from +0 and products give the same
// bits for either zero; with T the identity they are copied so into nw.m,
// turnMass's plusZero of M_w, zero (+0) off the blocks.
func (nw *newtonWork) massCoordinates(p *solver.Problem) {
	nv := nw.nv
	nw.mcl = nw.mcl[:0]
	nw.m = nw.mown[:nv*nv]
	if len(p.Cliques) == 1 && p.Cliques[0].Offset == 0 && p.Cliques[0].Size == nv {
		a := p.ABlock(0)
		if len(nw.blocks) == 0 && !nw.cg {
			nw.m = a[: nv*nv : nv*nv]
			return
		}
		nw.turnMass(a, nw.m, nv, 0)
		return
	}
	dst := nw.mw // M_w, which turnMass turns
	if len(nw.blocks) == 0 {
		dst = nw.m // T the identity: M = 0 + M_w (turnMass's plusZero), set here
	}
	clear(dst)
	for c := range p.Cliques {
		q := &p.Cliques[c] // in place: range and ABlock copied the clique
		o, n := q.Offset, q.Size
		if nv >= mclMinNV {
			nw.mcl = append(nw.mcl, [2]int{o, o + n})
		}
		blk := p.A[q.AOff : q.AOff+n*n] // p.ABlock(c)
		for i := range n {
			plusZero(dst[(o+i)*nv+o:], blk[i*n:(i+1)*n])
		}
	}
	if len(nw.blocks) != 0 {
		nw.turnMass(nw.mw, nw.m, nv, 0)
	}
}

// turnMass sets m = Tᵀ mw T on a diagonal window of M, n×n row-major on
// the velocities off … off+n−1 (the whole of M on the dense path, a
// clique's block on the sparse one; no angular block straddles its
// edge): the rows off every angular block copied from mw (each entry
// 0 + mw[r,i], the dense sum's bits, −0 made +0), then the angular
// blocks' rows and columns turned (turnBlocks), which write every entry
// of a block's rows (blockRows off the blocks, blockColumns on them).
func (nw *newtonWork) turnMass(mw, m []float64, n, off int) {
	if len(nw.blocks) == 0 { // T is the identity
		plusZero(m, mw[:n*n])
		return
	}
	nw.windowBlocks(n, off)
	lo := 0
	for _, b := range nw.wblk { // in the order of their rows
		r := nw.blocks[b] - off
		plusZero(m[lo*n:r*n], mw[lo*n:r*n]) // off the angular blocks: 0 + 1·M_w[r,i]·1
		lo = r + 3
	}
	plusZero(m[lo*n:n*n], mw[lo*n:n*n])
	nw.turnListed(mw, m, n, off)
}

// windowBlocks lists in nw.wblk the angular blocks on the velocities off …
// off+n−1, in the order of their first velocity.
func (nw *newtonWork) windowBlocks(n, off int) {
	nw.wblk = nw.wblk[:0]
	for o, b := range nw.blk[off : off+n] {
		if b >= 0 && nw.blocks[b] == off+o {
			nw.wblk = append(nw.wblk, b)
		}
	}
}

// turnBlocks sets the entries of turnMass's window m on the angular blocks'
// rows and columns: the blocks' columns (blockColumns) and their rows in
// the other columns (blockRows); it writes no other entry.
func (nw *newtonWork) turnBlocks(mw, m []float64, n, off int) {
	nw.windowBlocks(n, off)
	nw.turnListed(mw, m, n, off)
}

// turnListed is turnBlocks on the window's blocks nw.wblk (windowBlocks).
// Each entry set reads mw alone, so the blocks' order does not matter;
// blockColumns writes a block's columns on the rows of every block after
// the other rows.
func (nw *newtonWork) turnListed(mw, m []float64, n, off int) {
	for _, b := range nw.wblk {
		nw.blockColumns(mw, m, n, off, b)
		nw.blockRows(mw, m, n, off, b)
	}
}

// plusZero sets dst[x] = 0 + src[x] (src's values, −0 made +0) for every
// x of src (len(dst) ≥ len(src)): dst cut to src's length, so the loop
// carries no bounds check.
func plusZero(dst, src []float64) {
	dst = dst[:len(src)]
	for x, v := range src {
		dst[x] = 0 + v
	}
}

// blockColumns sets the columns of angular block b in the window m
// (turnMass): for each of its velocities i, col_i = mw T_:,i (nw.tcol, n
// entries a column), then m[r,i] = T_:,rᵀ col_i. T_:,r is e_r off the
// blocks, where m[r,i] = 0 + col_i[r] = col_i[r] (a sum from +0) is
// written as col_i is; the rows of the window's blocks (nw.wblk) are
// then rewritten with their turn. Each entry reads mw and T alone, so the
// three columns go through the rows together.
func (nw *newtonWork) blockColumns(mw, m []float64, n, off, b int) {
	lo := nw.blocks[b] - off
	t := (*[9]float64)(nw.rot[9*b:]) // T_:,lo+c is (t[c], t[3+c], t[6+c]) on the block's rows
	c0, c1, c2 := nw.tcol[:n], nw.tcol[n:2*n], nw.tcol[2*n:3*n]
	wb, mb := mw[lo:lo+(n-1)*n+3], m[lo:lo+(n-1)*n+3] // row r's block entries at r·n … r·n+2
	for r := range n {
		x := r * n
		w := wb[x : x+3 : x+3]
		row := mb[x : x+3 : x+3]
		s := 0.0
		s += w[0] * t[0]
		s += w[1] * t[3]
		s += w[2] * t[6]
		c0[r], row[0] = s, s
		s = 0.0
		s += w[0] * t[1]
		s += w[1] * t[4]
		s += w[2] * t[7]
		c1[r], row[1] = s, s
		s = 0.0
		s += w[0] * t[2]
		s += w[1] * t[5]
		s += w[2] * t[8]
		c2[r], row[2] = s, s
	}
	for _, br := range nw.wblk {
		or := nw.blocks[br]
		k := or - off
		x0, x1, x2 := (*[3]float64)(c0[k:]), (*[3]float64)(c1[k:]), (*[3]float64)(c2[k:])
		for j := range 3 {
			t0, t1, t2 := nw.tCol(br, or, or+j)
			row := (*[3]float64)(m[(k+j)*n+lo:])
			row[0] = turnDot(t0, t1, t2, x0)
			row[1] = turnDot(t0, t1, t2, x1)
			row[2] = turnDot(t0, t1, t2, x2)
		}
	}
}

// turnDot is T_:,rᵀ x on a block's three rows, (t0, t1, t2) = T_:,r: a
// sum from +0 in the rows' order.
func turnDot(t0, t1, t2 float64, x *[3]float64) float64 {
	s := 0.0
	s += t0 * x[0]
	s += t1 * x[1]
	s += t2 * x[2]
	return s
}

// blockRows sets the rows of angular block b in every column i of the
// window m (turnMass) of a velocity off every block: m[r,i] = T_:,rᵀ
// (0 + mw[:,i]), T_:,r column r−o of the block's rotation (tCol).
func (nw *newtonWork) blockRows(mw, m []float64, n, off, b int) {
	lo := nw.blocks[b] - off
	t := (*[9]float64)(nw.rot[9*b:])
	w0, w1, w2 := mw[lo*n:(lo+1)*n], mw[(lo+1)*n:(lo+2)*n], mw[(lo+2)*n:(lo+3)*n]
	m0, m1, m2 := m[lo*n:(lo+1)*n], m[(lo+1)*n:(lo+2)*n], m[(lo+2)*n:(lo+3)*n]
	for li, bi := range nw.blk[off : off+n] {
		if bi >= 0 {
			continue
		}
		c0, c1, c2 := 0+w0[li], 0+w1[li], 0+w2[li]
		s := 0.0
		s += t[0] * c0
		s += t[3] * c1
		s += t[6] * c2
		m0[li] = s
		s = 0.0
		s += t[1] * c0
		s += t[4] * c1
		s += t[7] * c2
		m1[li] = s
		s = 0.0
		s += t[2] * c0
		s += t[5] * c1
		s += t[8] * c2
		m2[li] = s
	}
}

// jacobianCoordinates sets nw.j = J_w T in MuJoCo's row order (pgsWork.perm):
// J_w's non-zeros (pgsJac, which pgsSetup built; on the dense path its
// whole blocks, zeros included) summed into nw.j from +0, in the blocks'
// order (a zero adds ±0 to +0, which stays +0), then each row's entries on
// an angular block turned by its rotation (turnColumns); then its rows'
// pattern (rowPattern). One clique over every velocity takes copyRows, or
// with T the identity and J_w's rows MuJoCo's as they lie, inPlace.
func (nw *newtonWork) jacobianCoordinates(sim *Simulator) {
	nv, n := nw.nv, nw.n
	w := &sim.ws.pgs
	jac := &w.jac
	nw.j = nw.jown[:n*nv]
	if len(nw.blocks) == 0 && nw.inPlace(jac, w.perm) { // the test inlined: the ant and the humanoids have blocks
		nw.rowPattern() // its +0 for a −0 of J_w
		return
	}
	nw.mapRows(w.perm)
	j := nw.j
	switch {
	case !nw.copyRows(jac):
		clear(j)
		if !jac.whole {
			nw.sumCompact(jac, j)
			break
		}
		for _, sg := range jac.seg { // every entry: a zero adds ±0 to the +0 left there
			k := nw.rowk[sg.row]
			if k < 0 {
				continue
			}
			src := jac.data[sg.lo:sg.hi]
			dst := j[k*nv+sg.off : k*nv+sg.off+len(src)]
			for i, x := range src {
				dst[i] += x
			}
		}
	}
	if len(nw.blocks) != 0 { // the planar models skip the call (no block to turn)
		nw.turnAll(j)
	}
	nw.rowPattern() // after a copy, its +0 for the copied −0
}

// sumCompact is jacobianCoordinates' sums over J_w's non-zeros (pgsJac's
// compact form, the sparse path's; j cleared). Out of line: the dense
// path keeps J's blocks whole.
//
//go:noinline
func (nw *newtonWork) sumCompact(jac *pgsJac, j []float64) {
	nv := nw.nv
	for _, sg := range jac.seg {
		k := nw.rowk[sg.row]
		if k < 0 {
			continue
		}
		dst, val := j[k*nv+sg.off:(k+1)*nv], jac.val[sg.lo:sg.hi]
		for t, i := range jac.idx[sg.lo:sg.hi] {
			dst[i] += val[t]
		}
	}
}

// turnAll turns every row of j on every angular block (turnColumns).
func (nw *newtonWork) turnAll(j []float64) {
	for b, o := range nw.blocks {
		if nw.n > 0 {
			nw.turnColumns(b, j[o:], nw.n, nw.nv)
		}
	}
}

// copyRows copies J_w's rows into nw.j in MuJoCo's order (nw.rowk) with
// one copy a row, and reports whether it could: when J is kept whole (on
// the dense path) and each of MuJoCo's rows is exactly one segment as wide
// as nw.j's rows (one clique over every velocity). The segments come in
// the problem's J block order (sorted by constraint, each constraint's
// rows in order), so their rows increase strictly unless two blocks share
// a constraint; rows that increase and n of them in MuJoCo's rows cover
// each of MuJoCo's rows once. Otherwise it stops before writing, and
// jacobianCoordinates' sums rewrite every entry. The copy keeps a −0 where
// those sums from +0 give +0: turnColumns' sums from +0 come out the same
// for either zero, and rowPattern, which follows, makes every zero entry
// +0 (pattern.set), so nw.j ends with the sums' bits. With no angular
// block (T = I: the planar models' rows that are not in MuJoCo's order)
// the copy is the same: a one-pass copy that set the pattern as it went
// (copySet) ran its own ~12 lines a step beside set's, which
// rowPattern runs on every other path.
func (nw *newtonWork) copyRows(jac *pgsJac) bool {
	nv, n := nw.nv, nw.n
	if !jac.whole {
		return false
	}
	rowk, from := nw.rowk, nw.jfrom[:n]
	prev, count := -1, 0
	for _, sg := range jac.seg {
		if sg.row <= prev || sg.off != 0 || sg.hi-sg.lo != nv {
			return false
		}
		prev = sg.row
		if k := rowk[sg.row]; k >= 0 {
			from[k] = sg.lo
			count++
		}
	}
	if count != n {
		return false
	}
	j, data := nw.j[:n*nv], jac.data
	for k, lo := range from {
		copy(j[k*nv:(k+1)*nv], data[lo:lo+nv])
	}
	return true
}

// inPlace makes nw.j J_w's rows where they lie in the problem's J data,
// with no copy, and reports whether it could: when T is the identity (no
// angular block: the planar models), J is kept whole (the dense path) and
// J_w's segments are MuJoCo's rows (perm) in order, each as wide as nw.j's
// rows (one clique over every velocity) and each right after the last in
// the data. nw.j is then the copy copyRows would make, bit for bit but for
// a −0, which rowPattern, which follows, makes +0 in J_w itself: the
// problem's other products over J_w (pgsJac.mul, mulT, solver.Problem.MulJ
// and MulJT) add a zero entry's product, ±0 or NaN alike for either zero,
// to sums from +0, so they keep their bits.
func (nw *newtonWork) inPlace(jac *pgsJac, perm []int) bool {
	nv, n := nw.nv, nw.n
	if len(nw.blocks) != 0 || !jac.whole || len(jac.seg) != n || n == 0 {
		return false
	}
	lo := jac.seg[0].lo
	for k, sg := range jac.seg {
		if sg.row != perm[k] || sg.off != 0 || sg.lo != lo+k*nv || sg.hi != sg.lo+nv {
			return false
		}
	}
	nw.j = jac.data[lo : lo+n*nv : lo+n*nv]
	return true
}

// turnColumns turns the entries of n rows of stride nv on angular block b
// (x: the first row's, its first velocity's), each row's three as
// turnTriple does, with the block's rotation read once.
func (nw *newtonWork) turnColumns(b int, x []float64, n, nv int) {
	t := (*[9]float64)(nw.rot[9*b:]) // T[o+r, o+c] = t[3r+c]
	for k := range n {
		y := (*[3]float64)(x[k*nv:])
		x0, x1, x2 := y[0], y[1], y[2]
		for c := range 3 {
			s := 0.0
			s += x0 * t[c]
			s += x1 * t[3+c]
			s += x2 * t[6+c]
			y[c] = s
		}
	}
}

// mapRows sets nw.rowk, per problem row, to its MuJoCo row k (perm[k] is
// row k's problem row), −1 for a row MuJoCo does not have.
func (nw *newtonWork) mapRows(perm []int) {
	for i := range nw.rowk {
		nw.rowk[i] = -1
	}
	for k, row := range perm {
		nw.rowk[row] = k
	}
}

// turnTriple sets x, a row's entries on angular block b (first velocity
// o), to x T: entry c = Σ_r x_r T[o+r, o+c], summed from +0 in r's order.
func (nw *newtonWork) turnTriple(b, o int, x []float64) {
	x0, x1, x2 := x[0], x[1], x[2]
	for c := range 3 {
		t0, t1, t2 := nw.tCol(b, o, o+c)
		s := 0.0
		s += x0 * t0
		s += x1 * t1
		s += x2 * t2
		x[c] = s
	}
}

// mclMinNV is the least nv whose M x and Hessian go by cliques (mulM,
// firstCols): below it the calls per clique cost more than the zeros they
// skip (dm ball_in_cup, nv 4 in two cliques: +90 instructions a step).
const mclMinNV = 16

// mulM sets out = M x (on the sparse path mulMSparse). The dense path, its
// own code, is mju_mulMatVec, mju_dot per row: each clique's rows by mulRows over a window of columns around the
// clique: M is block diagonal by the problem's cliques (massCoordinates:
// M_w is, and T turns only angular blocks inside a clique), and a window
// [lo4, hi4) that starts on a multiple of four gives each term the partial
// sum mju_dot gives it. It ends on a multiple of four at or below the
// row's last whole block of four (the row's tail, off the clique, is then
// zero), or at the row's end. The terms left out, and those of the window
// off the clique, are M's zeros times x: ±0 added to sums that start at
// +0 and so are never −0, so the bits are mulMat's for a finite x
// (TestMulMDenseMatchesMulMat). One clique over all of M takes mulMat.
// Out of line: with the profile (-pgo) lineSearch took a copy of it.
//
//go:noinline
func (nw *newtonWork) mulM(x, out []float64) {
	if nw.sp.on {
		nw.mulMSparse(x, out)
		return
	}
	nv := nw.nv
	if len(nw.mcl) <= 1 {
		mulMat(nw.m, x, out, nv, nv)
		return
	}
	n4 := nv &^ 3
	for _, cl := range nw.mcl {
		lo, hi := cl[0], cl[1]
		lo4, hi4 := lo&^3, (hi+3)&^3
		if hi4 > n4 {
			hi4 = nv
		}
		mulRows(nw.m[lo*nv+lo4:], x[lo4:hi4], out[lo:hi], nv)
	}
}

// mulMat sets out = A x for A r×c row-major (mju_mulMatVec: each entry
// with mju_dot).
func mulMat(a, x, out []float64, r, c int) {
	mulRows(a, x[:c], out[:r], c)
}

// mulRows sets out_i = mju_dot(a[i·stride:][:len(x)], x) for every entry
// of out (dot4: four partial sums over blocks of four, (s0 + s2) +
// (s1 + s3), then the tail in order), each row's sums in line, so that a
// matrix's rows cost no call each (TestDot4MatchesMuJoCo). Each row is cut
// with its capacity (a[off : off+n : off+n]: two checks, no pointer mask
// for an empty tail), a block of four of x is read as an array (a length
// check the compiler proves from the loop's bound, t ≤ n − 4) and the
// row's by index (len(row) = n): the loop carries no bounds check.
// Out of line: with the profile (-pgo) mulMat took a copy of it beside
// the one mulM calls, two copies of one loop on a step.
//
//go:noinline
func mulRows(a, x, out []float64, stride int) {
	n := len(x)
	if n == 0 {
		clear(out) // mju_dot of nothing: (0 + 0) + (0 + 0) = +0
		return
	}
	if len(out) == 0 {
		return
	}
	for i := range out {
		off := i * stride
		row := a[off : off+n : off+n]
		var s0, s1, s2, s3 float64
		t := 0
		for ; t <= n-4; t += 4 {
			xb := (*[4]float64)(x[t:])
			s0 += row[t] * xb[0]
			s1 += row[t+1] * xb[1]
			s2 += row[t+2] * xb[2]
			s3 += row[t+3] * xb[3]
		}
		res := (s0 + s2) + (s1 + s3)
		for ; t < n; t++ {
			res += row[t] * x[t]
		}
		out[i] = res
	}
}

// dotMJ is MuJoCo 2.2.2's mju_dot of a and b[:len(a)] in its own loop:
// the sums of mulRows on one row (four partial sums over blocks of four,
// (s0 + s2) + (s1 + s3), then the tail in order), without mulRows' set-up
// for many rows, which a single short dot paid for on every call (the
// solve's forward substitution, the factor's diagonal, the line search's
// products, PGS's rows of A R: TestDot4MatchesMuJoCo). A block of a is
// read as an array and b's entries by index, which the loop's bound
// t ≤ n − 4 and len(b) = n prove in range: no bounds check in the loop.
func dotMJ(a, b []float64) float64 {
	n := len(a)
	b = b[:n]
	var s0, s1, s2, s3 float64
	t := 0
	for ; t <= n-4; t += 4 {
		x := (*[4]float64)(a[t:])
		s0 += x[0] * b[t]
		s1 += x[1] * b[t+1]
		s2 += x[2] * b[t+2]
		s3 += x[3] * b[t+3]
	}
	res := (s0 + s2) + (s1 + s3)
	for ; t < n; t++ {
		res += a[t] * b[t]
	}
	return res
}

// warmStart sets qacc as MuJoCo's warmstart does for Newton: qacc_warmstart
// (sim.pgsWarm; MuJoCo's mj_resetData zeroes it) unless qacc_smooth's
// cost is lower. It leaves Ma = M qacc in nw.ma and J qacc − aref in
// nw.jaref, the products mj_solCGNewton starts with (the same bits: M
// qacc_smooth is qfrc_smooth's mulM), and reports, when qacc is the warm
// start, the rows' cost of its update (mj_constraintUpdate), which the
// rows' states, forces and qfrc_constraint still hold (ready), so that
// iterate does not redo it.
func (nw *newtonWork) warmStart(sim *Simulator, w *pgsWork) (rows float64, ready bool) {
	clear(nw.qacc)
	if sim.pgsWarm.set {
		copy(nw.qacc, sim.pgsWarm.qacc)
	}
	nw.mulJ(nw.qacc, nw.jaref)
	subFrom(nw.jaref, nw.aref)
	// cost(qacc_smooth) first: jar = efc_b = J qacc_smooth − aref, in jv.
	nw.mulJ(nw.qs, nw.jv)
	subFrom(nw.jv, nw.aref)
	costSmooth := nw.rowsUpdate(w, nw.jv) // its Jᵀ f is never read: the next update overwrites it, and iterate redoes it when qacc_smooth wins
	rows = nw.constraintUpdate(w)
	nw.mulM(nw.qacc, nw.ma)
	costWarm := nw.gaussCost(rows) // rows, then each term of Gauss's in order
	if costWarm > costSmooth {
		nw.smoothStart()
		return 0, false
	}
	return rows, true
}

// smoothStart makes qacc_smooth the start (warmStart, when its cost is
// the lower): qacc, Ma = qfrc_smooth and J qacc − aref, which jv holds.
// Out of line: the warm start wins on most steps.
//
//go:noinline
func (nw *newtonWork) smoothStart() {
	copy(nw.qacc, nw.qs)
	copy(nw.ma, nw.qfs)
	nw.jaref, nw.jv = nw.jv, nw.jaref
}

// subFrom sets x −= y (len(y) ≥ len(x)), y cut to x's length so that the
// loop carries no bounds check.
func subFrom(x, y []float64) {
	y = y[:len(x)]
	for k, v := range y {
		x[k] -= v
	}
}

// constraintUpdate is mj_constraintUpdate at jar = nw.jaref: it sets the
// rows' states and forces (an elliptic contact's by coneUpdate),
// qfrc_constraint = Jᵀ f, and returns the rows' cost.
func (nw *newtonWork) constraintUpdate(w *pgsWork) float64 {
	s := nw.rowsUpdate(w, nw.jaref)
	nw.mulJT(nw.force, nw.qfc) // mju_mulMatTVec: qfrc = Σ_k J_k f_k, row by row
	return s
}

// rowsUpdate is constraintUpdate without qfrc_constraint, at J qacc −
// aref = jaref: the rows' states, forces and cost. A limit's or pyramid
// edge's force is 0 when satisfied, else −D jar, set in the one loop that
// sets its state (the other classes' in rareUpdate).
func (nw *newtonWork) rowsUpdate(w *pgsWork, jaref []float64) float64 {
	s, n := 0.0, nw.n
	jaref, d, force, state, class := jaref[:n], nw.d[:n], nw.force[:n], nw.state[:n], w.class[:n]
	for k, c := 0, 0; k < n; k++ {
		if cls := class[k]; cls < pgsLimit || cls == pgsCone {
			s, k, c = nw.rareUpdate(w, jaref, s, k, c)
			continue
		}
		jar, dk := jaref[k], d[k]
		if jar >= 0 {
			force[k], state[k] = 0, nwSatisfied
		} else {
			force[k] = -dk * jar
			s += 0.5 * dk * jar * jar
			state[k] = nwQuadratic
		}
	}
	return s
}

// rareUpdate is rowsUpdate's row k of a class other than a limit's or a
// pyramid edge's (an equality, friction loss, or the first row of elliptic
// cone c): it adds the row's cost to s, sets its state and force (−D jar
// but where friction loss is linear; an elliptic cone's by coneUpdate),
// and returns s with the last row it handled and the next cone. Out of line: the robots' rows are limits and
// pyramid edges, and these cases sat between rowsUpdate's hot blocks.
//
//go:noinline
func (nw *newtonWork) rareUpdate(w *pgsWork, jaref []float64, s float64, k, c int) (float64, int, int) {
	jar, dk := jaref[k], nw.d[k]
	switch w.class[k] {
	case pgsEquality:
		nw.force[k] = -dk * jar
		s += 0.5 * dk * jar * jar
		nw.state[k] = nwQuadratic
	case pgsFriction:
		nw.force[k] = -dk * jar
		fl, r := w.floss[k], nw.r[k]
		switch {
		case jar <= -r*fl:
			s += -0.5*r*fl*fl - fl*jar
			nw.force[k], nw.state[k] = fl, nwLinearNeg
		case jar >= r*fl:
			s += -0.5*r*fl*fl + fl*jar
			nw.force[k], nw.state[k] = -fl, nwLinearPos
		default:
			s += 0.5 * dk * jar * jar
			nw.state[k] = nwQuadratic
		}
	default: // pgsCone
		cb := &w.cones[c]
		s = nw.coneUpdate(c, cb, s, jaref)
		k += cb.dim - 1
		c++
	}
	return s, k, c
}

// newtonSmooth adds the fixed impulses of explicit actuators' rows
// (w.fixed) to qacc_smooth (w.x, world coordinates): MuJoCo has their
// forces in qfrc_actuator, so qacc_smooth += A⁻¹ Jᵀ γ_fixed/δt. Its
// caller (solvePGS) calls it when there are fixed rows, after pgsSetup,
// which sized its scratch: w.gv and, for A⁻¹ Jᵀ γ, the e_m scratch
// w.em.jc, which stats reads only after setting it.
func (sim *Simulator) newtonSmooth(p *solver.Problem, dt float64) {
	w := &sim.ws.pgs
	gv, y := w.gv[:p.NR], w.em.jc[:p.NV]
	clear(gv)
	finite := true
	for _, blk := range w.fixed {
		c := &p.Constraints[blk] // an Interval [lo, lo] (blockClass): its impulse lo, IntervalBounds' kind checked there
		g := p.Params[c.Par]
		gv[c.Row] = g
		finite = finite && g-g == 0
	}
	if finite { // p.MulJT's bits over the non-zeros pgsSetup kept (pgsJac.mulT)
		w.jac.mulT(gv, y, p.NV)
	} else {
		mulJTNonFinite(p, gv, y)
	}
	solveCliques(p, w.fac, y)
	x := w.x[:len(y)]
	for i, yi := range y {
		x[i] += yi / dt
	}
}

// mulJTNonFinite is newtonSmooth's Jᵀγ for a γ that is not finite: a
// zero of J times ±Inf is NaN there, which p.MulJT keeps and pgsJac.mulT
// would not (out of line).
//
//go:noinline
func mulJTNonFinite(p *solver.Problem, gamma, out []float64) {
	p.MulJT(gamma, out)
}

// keepNewtonWarm keeps the last Newton solve's qacc, in MuJoCo's
// coordinates as it was found, as the next warm start (MuJoCo's
// qacc_warmstart = qacc, not recomputed from v), when v is that solve's
// answer, and reports whether it did.
func (sim *Simulator) keepNewtonWarm(v []float64) bool {
	nw := &sim.ws.mjnewton
	if !sim.cfg.Contact.Newton || !nw.fresh || !slices.Equal(v, nw.v) {
		nw.fresh = false
		return false
	}
	nw.fresh = false
	sim.keepWarm(nw.qacc)
	return true
}
