package sim

import (
	"math"
	"slices"
)

// The iterations, Hessian and line search of MuJoCo 2.2.2's Newton solver
// (engine_solver.c; see mujoco_newton.go).

// iterate runs mj_solCGNewton's main loop from nw.qacc (with Ma and
// J qacc − aref as warmStart left them, and, when ready, the rows' update
// at qacc whose cost is rows) for at most maxIter iterations: line search along the search direction, the move,
// the rows' update, the gradient, and MuJoCo's stop: improvement =
// (old cost − cost)/scale < tol or ‖grad‖/scale < tol; then, with Newton
// (flg_Newton), the Hessian's (incremental) update, and the next
// direction, −H⁻¹ grad (Newton) or Polak–Ribière's −M⁻¹ grad + β search
// (CG, cgDirection). It returns the iterations completed (MuJoCo's
// solver_iter) and whether the solve stopped before the limit.
//
// MuJoCo updates the Hessian and solves for Mgrad (CGupdateGradient)
// before its stop test; here they follow it (nextDirection), as only the
// next iteration reads them: H, Hcone and Mgrad are read by nothing after
// the solve, and the stop test reads grad and the cost alone, so the
// iterations and their numbers are MuJoCo's, bit for bit, and the last
// iteration, which stops (on half_cheetah most solves' only one), skips a
// Hessian update and a solve with its factor. Likewise qfrc_constraint =
// Jᵀ f (CGupdateConstraint's) and grad, which only the gradient's test and
// the next direction read, are formed after the improvement's test: an
// iteration that stops on it skips them (MuJoCo's test is the or of the
// two, the improvement's first).
func (nw *newtonWork) iterate(w *pgsWork, maxIter int, tol, scale, rows float64, ready bool) (int, bool) {
	if !ready {
		rows = nw.constraintUpdate(w)
	}
	nw.addGauss(rows)
	if nw.cg {
		nw.factorM()
	} else {
		nw.hessianDirect(w)
	}
	nw.setGrad()
	nw.solveGrad()
	nw.setSearch()
	iter := 0
	for iter < maxIter {
		alpha := nw.lineSearch(w, tol, scale)
		if alpha == 0 {
			return iter, true
		}
		nw.move(alpha)
		if nw.cg {
			nw.keepGrad()
		}
		copy(nw.old, nw.state)
		oldCost := nw.cost
		nw.addGauss(nw.rowsUpdate(w, nw.jaref)) // CGupdateConstraint but qfrc_constraint, below
		iter++
		if improvement := (oldCost - nw.cost) / scale; improvement < tol {
			return iter, true
		}
		if nw.gradientBelow(tol, scale) {
			return iter, true
		}
		nw.nextDirection(w)
	}
	return iter, false
}

// gradientBelow forms qfrc_constraint = Jᵀ f (constraintUpdate's) and
// grad (setGrad) after the rows' update, and reports MuJoCo's gradient
// test, ‖grad‖/scale < tol (iterate, when the improvement's did not stop
// the solve). Out of line: in line, its calls' arguments sat between
// iterate's hot blocks.
//
//go:noinline
func (nw *newtonWork) gradientBelow(tol, scale float64) bool {
	nw.mulJT(nw.force, nw.qfc)
	nw.setGrad()
	gradient := math.Sqrt(dot4(nw.grad, nw.grad)) / scale
	return gradient < tol
}

// nextDirection is the end of an iteration that does not stop (iterate):
// with Newton the Hessian's incremental update (old → new row states),
// Mgrad, and the search −Mgrad; with CG, M⁻¹ grad and Polak–Ribière's
// direction (cgDirection).
func (nw *newtonWork) nextDirection(w *pgsWork) {
	if !nw.cg {
		nw.hessianIncremental(w)
	}
	nw.solveGrad()
	if nw.cg {
		nw.cgDirection()
		return
	}
	nw.setSearch()
}

// setSearch sets Newton's search direction −Mgrad (and CG's first one).
func (nw *newtonWork) setSearch() {
	search, mgrad := nw.search[:nw.nv], nw.mgrad[:nw.nv]
	for i, g := range mgrad {
		search[i] = -g
	}
}

// keepGrad keeps CG's last grad and M⁻¹ grad for Polak–Ribière's β
// (cgDirection; out of line: Newton has no use for them).
//
//go:noinline
func (nw *newtonWork) keepGrad() {
	copy(nw.gradOld, nw.grad)
	copy(nw.mgradOld, nw.mgrad)
}

// addGauss sets, after the rows' update whose cost is rows, the count of
// rows in the cone state and the cost rows + Gauss's term ½ (Ma −
// qfrc_smooth)·(qacc − qacc_smooth): with the update, CGupdateConstraint.
func (nw *newtonWork) addGauss(rows float64) {
	nw.ncone = 0
	if len(nw.coneMu) > 0 { // only an elliptic contact's row takes nwCone (coneUpdate)
		for _, st := range nw.state {
			if st == nwCone {
				nw.ncone++
			}
		}
	}
	gauss := nw.gaussCost(0)
	nw.quadGauss[0] = gauss
	nw.cost = rows + gauss
}

// gaussCost returns s plus Gauss's term ½ (Ma − qfrc_smooth)·(qacc −
// qacc_smooth), its terms added to s one by one in order, over slices cut
// to nv (no bounds check in the loop).
func (nw *newtonWork) gaussCost(s float64) float64 {
	nv := nw.nv
	ma, qfs, qacc, qs := nw.ma[:nv], nw.qfs[:nv], nw.qacc[:nv], nw.qs[:nv]
	gauss := s
	for i, a := range ma {
		gauss += 0.5 * (a - qfs[i]) * (qacc[i] - qs[i])
	}
	return gauss
}

// move takes the line search's step α: qacc += α search, Ma += α Mv,
// J qacc − aref += α Jv.
func (nw *newtonWork) move(alpha float64) {
	nv, n := nw.nv, nw.n
	qacc, search, ma, mv := nw.qacc[:nv], nw.search[:nv], nw.ma[:nv], nw.mv[:nv]
	for i := range qacc {
		qacc[i] += alpha * search[i]
		ma[i] += alpha * mv[i]
	}
	jaref, jv := nw.jaref[:n], nw.jv[:n]
	for k := range jaref {
		jaref[k] += alpha * jv[k]
	}
}

// setGrad is CGupdateGradient's gradient: grad = M qacc − qfrc_smooth −
// qfrc_constraint (solveGrad is its Mgrad). Out of line: iterate calls it
// at its start and in its loop, where two copies of the loop took lines.
//
//go:noinline
func (nw *newtonWork) setGrad() {
	nv := nw.nv
	grad, ma, qfs, qfc := nw.grad[:nv], nw.ma[:nv], nw.qfs[:nv], nw.qfc[:nv]
	for i := range grad {
		grad[i] = ma[i] - qfs[i] - qfc[i]
	}
}

// solveGrad is CGupdateGradient's Mgrad = H⁻¹ grad (mju_cholSolve; with
// Hcone when a contact is in the cone state), or with CG M⁻¹ grad
// (mj_solveM), for the grad of setGrad.
func (nw *newtonWork) solveGrad() {
	switch {
	case nw.cg:
		nw.solveM(nw.grad, nw.mgrad)
	case nw.sp.on:
		nw.solveH(nw.grad, nw.mgrad)
	case nw.ncone > 0:
		cholSolve(nw.hcone, nw.grad, nw.mgrad, nw.nv)
	case nw.hfirst != nil:
		cholSolveFrom(nw.h, nw.grad, nw.mgrad, nw.nv, nw.hfirst)
	default:
		cholSolve(nw.h, nw.grad, nw.mgrad, nw.nv)
	}
}

// hessianDirect is HessianDirect (dense): H = Jᵀ diag(D_quadratic) J + M
// (mju_sqrMatTD, then mj_addM), factored by mju_cholFactor, and Hcone
// with the cones' blocks when a contact is in the cone state
// (hessianCone). M of one clique (every model below mclMinNV velocities)
// takes the whole lower triangle with no bound on its rows' first
// non-zeros (firstCols' nil, without its call); several cliques take
// hessianCliques.
func (nw *newtonWork) hessianDirect(w *pgsWork) {
	if nw.sp.on {
		nw.hessianDirectSparse(w)
		return
	}
	nv := nw.nv
	h := nw.h[:nv*nv]
	clear(h)
	if len(nw.mcl) > 1 {
		nw.hessianCliques(h)
	} else {
		if nw.hfirst != nil {
			nw.hfirst = nil
		}
		nw.sqrRows(h)
		// + M on the lower triangle, the only one the factor, its solves and
		// updates read (mju_cholFactor, mju_cholSolve, mju_cholUpdate): MuJoCo's
		// symmetric copy of it is not needed for the same bits.
		addLower(h, nw.m[:nv*nv], nv, 0, nv)
		cholFactorFrom(h, nv, mjMinVal, nil)
	}
	if nw.ncone > 0 {
		nw.hessianCone(w)
	}
}

// hessianCliques is hessianDirect's H = Jᵀ diag(D_quadratic) J + M and its
// factor for M of several cliques (h cleared): M's entries off its
// cliques' blocks are +0 (mulM), which leave H's sums as they are (never
// −0: they start at +0), so only the blocks are added, and the factor
// starts each row at its bound (firstCols). Out of line: below mclMinNV
// velocities M is one clique.
//
//go:noinline
func (nw *newtonWork) hessianCliques(h []float64) {
	nv := nw.nv
	m := nw.m[:nv*nv]
	first := nw.firstCols()
	nw.hfirst = first
	nw.sqrRows(h)
	for _, cl := range nw.mcl {
		addLower(h, m, nv, cl[0], cl[1])
	}
	cholFactorFrom(h, nv, mjMinVal, first)
}

// sqrRows adds Jᵀ diag(D_quadratic) J to h's lower triangle as
// mju_sqrMatTD does, row by row in MuJoCo's order, each row's terms over
// its non-zeros (rowPattern: the zero terms add ±0 to sums that start at
// +0, so never −0). A dense row goes over all of row i's columns c ≤ i for
// each of its non-zeros i; two dense rows with the same pattern that follow
// each other among the quadratic rows (a pyramid's edges) go through h's
// rows together (addScl2): each entry gets the same two terms in the same
// order.
func (nw *newtonWork) sqrRows(h []float64) {
	nv, n := nw.nv, nw.n
	var held []float64 // a dense row waiting for a second one, with its D and pattern
	var heldD float64
	var heldIdx []int32
	d := nw.d[:n]
	for k, st := range nw.state[:n] {
		dk := d[k]
		if st != nwQuadratic || dk == 0 {
			continue
		}
		row, idx := nw.j[k*nv:][:nv], nw.rowNZ(k)
		if 2*len(idx) >= nv {
			if held != nil && slices.Equal(heldIdx, idx) {
				a, b := held[:nv], row // addScl2 over row i's c ≤ i, a's term then b's
				for _, i := range idx {
					s, t, m := a[i]*heldD, b[i]*dk, int(i)+1
					ai, bi, out := a[:m], b[:m], h[int(i)*nv:][:m]
					for c, x := range ai {
						out[c] = (out[c] + x*s) + bi[c]*t
					}
				}
				held = nil
				continue
			}
			if held != nil {
				addDense(h, held, heldIdx, heldD, nv)
			}
			held, heldD, heldIdx = row, dk, idx
			continue
		}
		if held != nil {
			addDense(h, held, heldIdx, heldD, nv)
			held = nil
		}
		for a, i := range idx {
			scl := row[i] * dk
			hi := h[int(i)*nv:][:nv]
			for _, c := range idx[:a+1] {
				hi[c] += row[c] * scl
			}
		}
	}
	if held != nil {
		addDense(h, held, heldIdx, heldD, nv)
	}
}

// addDense adds a dense row's d rowᵀ row to h's lower triangle
// (mju_sqrMatTD: all of row i's columns c ≤ i for each non-zero i of idx).
func addDense(h, row []float64, idx []int32, d float64, nv int) {
	for _, i := range idx {
		addScl(h[int(i)*nv:int(i)*nv+int(i)+1], row, row[i]*d)
	}
}

// firstCols returns, for H = Jᵀ D J + M of several cliques, nw.first set
// to each velocity's clique's first velocity, lowered to the first column
// of every row of J in the quadratic state (D_k ≠ 0) through the
// velocity: a bound at or below the first non-zero of each row of H's
// lower triangle, and so of L's (cholFactorFrom). With M of one clique
// (every row of H may start at column 0) it returns nil.
func (nw *newtonWork) firstCols() []int {
	if len(nw.mcl) <= 1 {
		return nil
	}
	first := growInt(nw.first, nw.nv)
	nw.first = first
	for _, cl := range nw.mcl {
		for i := cl[0]; i < cl[1]; i++ {
			first[i] = cl[0]
		}
	}
	for k, st := range nw.state[:nw.n] {
		if idx := nw.rowNZ(k); st == nwQuadratic && nw.d[k] != 0 && len(idx) > 0 {
			for _, i := range idx {
				first[i] = min(first[i], int(idx[0]))
			}
		}
	}
	return first
}

// addLower adds m's lower triangle on the diagonal block [lo, hi) to h's
// (both nv×nv row-major).
func addLower(h, m []float64, nv, lo, hi int) {
	for i := lo; i < hi; i++ {
		hr, mr := h[i*nv+lo:i*nv+i+1], m[i*nv+lo:i*nv+i+1]
		for c := range hr {
			hr[c] += mr[c]
		}
	}
}

// hessianIncremental is HessianIncremental (dense): a rank-1 update
// (mju_cholUpdate) with √D_k J_k for each row that became quadratic, a
// downdate for each that stopped being, in row order; a loss of rank
// refactors (hessianDirect); then Hcone (hessianCone).
func (nw *newtonWork) hessianIncremental(w *pgsWork) {
	if nw.sp.on {
		nw.hessianIncrementalSparse(w)
		return
	}
	nv, n := nw.nv, nw.n
	olds, states, e := nw.old[:n], nw.state[:n], nw.e[:nv]
	for k, st := range states {
		old, cur := olds[k] == nwQuadratic, st == nwQuadratic
		if old == cur {
			continue
		}
		sd := math.Sqrt(nw.d[k])
		for i, x := range nw.j[k*nv : (k+1)*nv] {
			e[i] = x * sd
		}
		if cholUpdate(nw.h, nw.e, nv, cur) < nv {
			nw.hessianDirect(w)
			return
		}
		nw.lowerFirst(k)
	}
	if nw.ncone > 0 {
		nw.hessianCone(w)
	}
}

// lowerFirst keeps nw.hfirst a bound on the first non-zero of each row of
// L after cholUpdate with row k's √D_k J_k (lowerFirstBy).
func (nw *newtonWork) lowerFirst(k int) {
	if nw.hfirst != nil {
		lowerFirstBy(nw.hfirst, nw.rowNZ(k))
	}
}

// lowerFirstBy lowers first[i] to idx[0] for every i of idx, the non-zeros
// of x in an update L Lᵀ ± x xᵀ (cholUpdate), so that first still bounds
// the first non-zero of each row of L: the update's columns go in order
// from idx[0], before which x stays zero, so a row i of idx fills from
// idx[0] at the earliest; a row off idx has x_i = 0 until a column c with
// L_ic ≠ 0 (c ≥ first[i]) is updated, and until then each update of its
// row gives L_ic = (±0 ± s·0)·(1/c) = ±0 (finite numbers; a non-finite one
// reaches the solve's result, cholSolveFrom).
func lowerFirstBy(first []int, idx []int32) {
	if len(idx) == 0 {
		return
	}
	lo := int(idx[0])
	for _, i := range idx {
		first[i] = min(first[i], lo)
	}
}

// cholFactor is mju_cholFactor: L Lᵀ = mat in place (lower triangle), a
// diagonal below mindiag raised to it; it returns the rank. It reads the
// lower triangle alone and leaves scratch in the upper one.
func cholFactor(mat []float64, n int, mindiag float64) int {
	return cholFactorFrom(mat, n, mindiag, nil)
}

// cholFactorFrom is cholFactor for a mat whose row j's lower entries are
// zero left of first[j] (nil: none known). Then so are L's: L_jk = (0 −
// Σ_{m<k} L_jm L_km)/L_kk, a sum of zeros, for every k < first[j]. Row
// j's dots (mju_dot of L_j and L_i over the j columns left of the
// diagonal) run over a window from first[j] rounded down to a multiple of
// four, which gives each term the partial sum mju_dot gives it; the terms
// left out are L_jk = 0 times finite entries, ±0 added to sums that start
// at +0 and so are never −0: the bits of the whole rows
// (TestHessianDirectCliquesMatchWhole). The rows i below column j's last
// row with first[i] ≤ j (lastRow: on several cliques, the rows of the
// cliques below j's that no contact couples to it) are left as they are:
// their window's L_ik are ±0, so the dot is +0 and L_ij = (mat_ij − (+0))
// · (1/L_jj) = mat_ij, a ±0 whose sign the positive scale keeps (for a
// finite mat).
func cholFactorFrom(mat []float64, n int, mindiag float64, first []int) int {
	mat = mat[:n*n]
	if first != nil {
		first = first[:n]
	}
	rank := n
	for j := range n {
		w, rows := 0, mat
		if first != nil {
			w = min(first[j], j) &^ 3
		}
		if first != nil && w < j {
			rows = mat[:lastRow(first, j)*n]
		}
		var clamped bool
		if w < j {
			clamped = cholColumn(rows, j*n+w, j*(n+1), n, mindiag)
		} else { // an empty window: no dots
			clamped = cholScale(mat, j*(n+1), n, mindiag)
		}
		if clamped {
			rank--
		}
	}
	return rank
}

// cholColumn sets column j of L in place, as mju_cholFactor's loop
// (cholFactorFrom), for a row window from off to diag of one or more
// columns: L_jj = cholPivot(mat_jj − mju_dot(L_j, L_j, j)) at rows[diag],
// and L_ij = (mat_ij − mju_dot(L_i, L_j, j)) / L_jj for every later row i
// of rows, row i's window and L_ij cut together, from off (row j's
// window) on by n. Row j's dot is the loop's first (mju_dot(L_j, L_j)
// in dot4's order: the same bits). Its own function with no call in its
// loop and its window known non-empty (no pointer mask): inside
// cholFactorFrom, around a call to dot4, the row loop kept its counter
// and bounds on the stack (half_cheetah 2 756 → 2 621 Ir a step).
func cholColumn(rows []float64, off, diag, n int, mindiag float64) (clamped bool) {
	m := diag - off
	if m <= 0 {
		panic("sim: cholColumn of an empty window") // cholScale's case
	}
	lj := rows[off:diag:diag]
	tmp := 0.0 // 1/L_jj
	for ; off < len(rows); off += n {
		li := rows[off : off+m : off+m]
		lt := lj[:len(li)]
		var s0, s1, s2, s3 float64
		t := 0
		for ; t <= len(li)-4; t += 4 { // dotMJ's loop: no bounds check
			x := (*[4]float64)(li[t:])
			s0 += x[0] * lt[t]
			s1 += x[1] * lt[t+1]
			s2 += x[2] * lt[t+2]
			s3 += x[3] * lt[t+3]
		}
		dt := (s0 + s2) + (s1 + s3)
		for ; t < len(li); t++ {
			dt += li[t] * lt[t]
		}
		if off+m != diag {
			rows[off+m] = (rows[off+m] - dt) * tmp
			continue
		}
		var ljj float64
		ljj, clamped = cholPivot(rows[diag]-dt, mindiag)
		rows[diag] = ljj
		tmp = 1 / ljj
	}
	return clamped
}

// cholScale is cholColumn for an empty window (w = j): mju_dot of
// nothing is +0 and x − (+0) = x, so L_jj = cholPivot(mat_jj) and L_ij =
// mat_ij / L_jj for every i > j.
func cholScale(mat []float64, diag, n int, mindiag float64) (clamped bool) {
	ljj, clamped := cholPivot(mat[diag], mindiag)
	mat[diag] = ljj
	tmp := 1 / ljj
	for off := diag + n; off < len(mat); off += n {
		mat[off] *= tmp
	}
	return clamped
}

// cholPivot returns L_jj = √d, d raised to mindiag if below it (then
// clamped).
func cholPivot(d, mindiag float64) (ljj float64, clamped bool) {
	if d < mindiag {
		d, clamped = mindiag, true
	}
	return math.Sqrt(d), clamped
}

// lastRow returns one past the last row i whose first non-zero first[i]
// lies at or left of column j (at least j + 1): the rows below it keep
// L_ij = mat_ij (cholFactorFrom).
func lastRow(first []int, j int) int {
	e := len(first)
	for e > j+1 && first[e-1] > j {
		e--
	}
	return e
}

// cholSolve is mju_cholSolve: res = (L Lᵀ)⁻¹ vec.
func cholSolve(mat, vec, res []float64, n int) {
	mat, res = mat[:n*n], res[:n]
	cholForward(mat, vec, res, n)
	for i := n - 1; i >= 0; i-- { // cholBack in line
		res[i] = subColumn(mat, res, res[i], i, i+1, n, n) / mat[i*(n+1)]
	}
}

// cholBack is mju_cholSolve's back substitution (res = L⁻ᵀ res) on the
// columns i < top, each over every row below it (subColumn).
func cholBack(mat, res []float64, n, top int) {
	for i := top - 1; i >= 0; i-- {
		res[i] = subColumn(mat, res, res[i], i, i+1, n, n) / mat[i*(n+1)]
	}
}

// cholForward sets res = L⁻¹ vec as mju_cholSolve's first loop: res_i =
// (vec_i − mju_dot(L_i, res, i)) / L_ii. The dot is dotMJ's loop in line
// (four partial sums over blocks of four, (s0 + s2) + (s1 + s3), then the
// tail in order: the same bits), so that the row loop makes no call and
// keeps its values in registers. Row 0's dot is of nothing, +0, and
// x − (+0) is x to the bit (−0 included), which MuJoCo's skipped dot
// leaves.
func cholForward(mat, vec, res []float64, n int) {
	mat, res = mat[:n*n], res[:n]
	copy(res, vec[:n])
	for i := range n {
		row := mat[i*n : i*n+i : i*n+i]
		x := res[:len(row)]
		var s0, s1, s2, s3 float64
		t := 0
		for ; t <= len(row)-4; t += 4 { // dotMJ's loop: no bounds check
			a := (*[4]float64)(row[t:])
			s0 += a[0] * x[t]
			s1 += a[1] * x[t+1]
			s2 += a[2] * x[t+2]
			s3 += a[3] * x[t+3]
		}
		dt := (s0 + s2) + (s1 + s3)
		for ; t < len(row); t++ {
			dt += row[t] * x[t]
		}
		res[i] = (res[i] - dt) / mat[i*(n+1)]
	}
}

// cholSolveFrom is cholSolve for an L whose row j is zero left of
// first[j] (cholFactorFrom, lowerFirst). The back
// substitution's column i then has L_ji = ±0 on every row j ≥ e, e one past
// the last row with first[j] ≤ i (it only falls as i does), and the terms
// r −= L_ji res_j there are r − (±0): r itself unless r is a zero, whose
// sign they may turn. So column i stops at e while r ≠ 0 and goes on to n
// when r comes out zero; the bits are the whole column's. A non-finite res_j
// would make L_ji res_j NaN: once a result is non-finite (a non-finite
// entry of L's lower triangle makes its row's result so, through the
// forward substitution's dot over the whole row), the columns left go
// whole (TestDensekern3SolveFromMatchesMuJoCo).
func cholSolveFrom(mat, vec, res []float64, n int, first []int) {
	mat, res, first = mat[:n*n], res[:n], first[:n]
	cholForward(mat, vec, res, n)
	e := n
	for i := n - 1; i >= 0; i-- {
		for e > i+1 && first[e-1] > i {
			e--
		}
		r := subColumn(mat, res, res[i], i, i+1, e, n)
		if r == 0 {
			r = subColumn(mat, res, r, i, e, n, n)
		}
		x := r / mat[i*(n+1)]
		res[i] = x
		if x-x != 0 { // ±Inf or NaN
			cholBack(mat, res, n, i)
			return
		}
	}
}

// subColumn returns r − L_ji res_j for j = from…to−1 in order, two a pass
// down column i by a running offset k = j n + i.
func subColumn(mat, res []float64, r float64, i, from, to, n int) float64 {
	res = res[:to] // j + 1 < to proves res[j+1] in range
	j, k := from, from*n+i
	for ; j+1 < to; j, k = j+2, k+2*n {
		r -= mat[k] * res[j]
		r -= mat[k+n] * res[j+1]
	}
	if j < to {
		r -= mat[k] * res[j]
	}
	return r
}

// cholUpdate is mju_cholUpdate: L Lᵀ ± x xᵀ in place (x is overwritten);
// it returns the rank.
func cholUpdate(mat, x []float64, n int, plus bool) int {
	mat, x = mat[:n*n], x[:n]
	rank := n
	for k, xk := range x {
		if xk == 0 {
			continue
		}
		lkk := mat[k*(n+1)]
		tmp := lkk*lkk - xk*xk
		if plus {
			tmp = lkk*lkk + xk*xk
		}
		if tmp < mjMinVal {
			tmp = mjMinVal
			rank--
		}
		r := math.Sqrt(tmp)
		c := r / lkk
		cinv := 1 / c
		s := xk / lkk
		mat[k*(n+1)] = r
		// MuJoCo's two loops over i > k in one: L_ik is set from x_i
		// before x_i is updated with the new L_ik, as there.
		if plus {
			for i := k + 1; i < n; i++ {
				l := (mat[i*n+k] + s*x[i]) * cinv
				mat[i*n+k] = l
				x[i] = c*x[i] - s*l
			}
			continue
		}
		for i := k + 1; i < n; i++ {
			l := (mat[i*n+k] - s*x[i]) * cinv
			mat[i*n+k] = l
			x[i] = c*x[i] - s*l
		}
	}
	return rank
}

// nwPoint is a line search point (mjCGPnt).
type nwPoint struct {
	alpha, cost float64
	deriv       [2]float64
}

// prepare is CGprepare: Gauss's quadratic in α along the search and the
// elliptic contacts' (prepareCones). A row's own quadratic, CGprepare's
// q[0…2], eval forms where it enters (rowQuad): the same products, so the
// same bits, for only the rows a point makes quadratic.
func (nw *newtonWork) prepare(w *pgsWork) {
	v := nw.search
	nw.quadGauss[1] = dot4(v, nw.ma) - dot4(v, nw.qfs)
	nw.quadGauss[2] = 0.5 * dot4(v, nw.mv)
	if len(w.cones) != 0 {
		nw.prepareCones(w)
	}
}

// rowQuad is CGprepare's quadratic in α of a row at J qacc − aref = jar,
// J search = jv and D = d, halved as CGprepare halves q[0] and q[2]:
// (½ D jar², D jar jv, ½ D jv²), each product in CGprepare's order.
func rowQuad(jar, jv, d float64) (float64, float64, float64) {
	dj0 := d * jar
	return jar * dj0 * 0.5, jv * dj0, jv * d * jv * 0.5
}

// prepareCones sets the quadratic at the first row of each elliptic cone
// in nw.quad: the row's own terms, the cone's (prepareCone), then the
// halving. The cone's other rows' entries hold the cone's data, q[3…8]
// (eval takes the cone at its first row). Out of line: the robots'
// contacts are pyramids.
//
//go:noinline
func (nw *newtonWork) prepareCones(w *pgsWork) {
	quad, d, jaref, jv := nw.quad[:3*nw.n], nw.d[:nw.n], nw.jaref[:nw.n], nw.jv[:nw.n]
	for c := range w.cones {
		cb := &w.cones[c]
		k := cb.k0
		dk, jar, jvk := d[k], jaref[k], jv[k]
		dj0 := dk * jar
		q := quad[3*k : 3*k+9]
		q[0], q[1], q[2] = jar*dj0, jvk*dj0, jvk*dk*jvk
		nw.prepareCone(c, cb, q)
		q[0] *= 0.5
		q[2] *= 0.5
	}
}

// eval is CGeval: the cost along the search at p.alpha and its first two
// derivatives. A row's quadratic (rowQuad) is formed only where it enters.
func (nw *newtonWork) eval(w *pgsWork, p *nwPoint) {
	alpha, n := p.alpha, nw.n
	t0, t1, t2 := nw.quadGauss[0], nw.quadGauss[1], nw.quadGauss[2]
	d, jaref, jv, class := nw.d[:n], nw.jaref[:n], nw.jv[:n], w.class[:n]
	var cost, d0, d1 float64
	for k, c := 0, 0; k < n; k++ {
		if cls := class[k]; cls < pgsLimit || cls == pgsCone {
			t0, t1, t2, cost, d0, d1, k, c = nw.evalRare(w, alpha, t0, t1, t2, cost, d0, d1, k, c)
			continue
		}
		if jar, jvk := jaref[k], jv[k]; jar+alpha*jvk < 0 {
			q0, q1, q2 := rowQuad(jar, jvk, d[k])
			t0, t1, t2 = t0+q0, t1+q1, t2+q2
		}
	}
	p.cost = cost + (alpha*alpha*t2 + alpha*t1 + t0)
	p.deriv[0] = d0 + (2*alpha*t2 + t1)
	p.deriv[1] = d1 + 2*t2
	if p.deriv[1] <= 0 {
		p.deriv[1] = mjMinVal // MuJoCo warns: not convex
	}
	nw.lsIter++
}

// evalRare is eval's row k of a class other than a limit's or a pyramid
// edge's (an equality, friction loss, or the first row of elliptic cone
// c) at α = alpha: it adds the row's terms to the quadratic's t0, t1, t2
// and the cones' cost, d0, d1 in eval's order, and returns them with the
// last row it handled and the next cone. Out of line: the robots' rows are
// limits and pyramid edges, and these cases sat between eval's hot blocks.
//
//go:noinline
func (nw *newtonWork) evalRare(w *pgsWork, alpha, t0, t1, t2, cost, d0, d1 float64, k, c int) (float64, float64, float64, float64, float64, float64, int, int) {
	quad := nw.quad[:3*nw.n]
	switch w.class[k] {
	case pgsEquality:
		q0, q1, q2 := rowQuad(nw.jaref[k], nw.jv[k], nw.d[k])
		t0, t1, t2 = t0+q0, t1+q1, t2+q2
	case pgsFriction:
		start, dir := nw.jaref[k], nw.jv[k]
		x := start + alpha*dir
		f := w.floss[k]
		rf := nw.r[k] * f
		switch {
		case -rf < x && x < rf:
			q0, q1, q2 := rowQuad(start, dir, nw.d[k])
			t0, t1, t2 = t0+q0, t1+q1, t2+q2
		case x <= -rf:
			t0, t1 = t0+f*(-0.5*rf-start), t1+(-f*dir)
			t2 += 0
		default:
			t0, t1 = t0+f*(-0.5*rf+start), t1+f*dir
			t2 += 0
		}
	default: // pgsCone
		cc, c0, c1, quadratic := nw.evalCone(c, quad[3*k:3*k+9], alpha)
		if quadratic {
			q0, q1, q2 := quadAt(quad, k)
			t0, t1, t2 = t0+q0, t1+q1, t2+q2
		}
		cost, d0, d1 = cost+cc, d0+c0, d1+c1
		k += w.cones[c].dim - 1
		c++
	}
	return t0, t1, t2, cost, d0, d1, k, c
}

// quadAt returns row k's quadratic in α, its three entries of quad (an
// elliptic cone's first row: prepareCones).
func quadAt(quad []float64, k int) (float64, float64, float64) {
	q := quad[3*k : 3*k+3]
	return q[0], q[1], q[2]
}

// lineSearch is CGsearch: the exact line search along nw.search (one
// Newton step, a one-sided search, then a bracketed one); it sets Mv and
// Jv and returns α (0: no improvement). The bracketed phase keeps its
// candidates p1next, p2next, pmid in cand, where updateBracket reads them;
// both brackets move before their Newton points are evaluated (eval
// writes only the point and the count, so the order of the two is
// MuJoCo's: the second update sees the old candidates, as in CGsearch).
func (nw *newtonWork) lineSearch(w *pgsWork, tol, scale float64) float64 {
	nw.lsIter = 0
	snorm := math.Sqrt(dot4(nw.search, nw.search))
	if snorm < mjMinVal {
		return 0
	}
	gtol := tol * nwLSTolScl * snorm * scale
	nw.mulM(nw.search, nw.mv)
	nw.mulJ(nw.search, nw.jv)
	nw.prepare(w)
	var p0, p1, p2 nwPoint
	var cand [3]nwPoint // p1next, p2next, pmid
	nw.eval(w, &p0)
	nw.evalNewton(w, &p1, &p0)
	if p0.cost < p1.cost {
		p1 = p0
	}
	if math.Abs(p1.deriv[0]) < gtol {
		return p1.alpha
	}
	dir := -1.0
	if p1.deriv[0] < 0 {
		dir = 1
	}
	p2update := false
	for p1.deriv[0]*dir <= -gtol && nw.lsIter < nwLSMaxIter {
		p2, p2update = p1, true
		nw.evalNewton(w, &p1, &p1)
		if math.Abs(p1.deriv[0]) < gtol {
			return p1.alpha
		}
	}
	if nw.lsIter >= nwLSMaxIter || !p2update {
		return p1.alpha
	}
	cand[1] = p1
	nw.evalNewton(w, &cand[0], &p1)
	for nw.lsIter < nwLSMaxIter {
		pmid := &cand[2]
		pmid.alpha = 0.5 * (p1.alpha + p2.alpha)
		nw.eval(w, pmid)
		best, bestCost := -1, 0.0
		for i := range cand {
			if math.Abs(cand[i].deriv[0]) < gtol && (best == -1 || cand[i].cost < bestCost) {
				best, bestCost = i, cand[i].cost
			}
		}
		if best >= 0 {
			return cand[best].alpha
		}
		b1 := updateBracket(&p1, &cand)
		b2 := updateBracket(&p2, &cand)
		if b1 {
			nw.evalNewton(w, &cand[0], &p1)
		}
		if b2 {
			nw.evalNewton(w, &cand[1], &p2)
		}
		if !b1 && !b2 {
			return pmid.alpha
		}
	}
	switch {
	case p1.cost <= p2.cost && p1.cost < p0.cost:
		return p1.alpha
	case p2.cost <= p1.cost && p2.cost < p0.cost:
		return p2.alpha
	}
	return 0
}

// evalNewton evaluates p at from's Newton point along the search,
// α − f′/f″ (p may be from).
func (nw *newtonWork) evalNewton(w *pgsWork, p, from *nwPoint) {
	p.alpha = from.alpha - from.deriv[0]/from.deriv[1]
	nw.eval(w, p)
}

// updateBracket is updateBracket without its Newton point: p moves to a
// candidate on its side with a smaller |slope|; it reports whether p
// moved (then lineSearch evaluates p's Newton point).
//
//go:noinline
func updateBracket(p *nwPoint, cand *[3]nwPoint) bool {
	flag := false
	for i := range cand {
		c := &cand[i]
		if p.deriv[0] < 0 && c.deriv[0] < 0 && p.deriv[0] < c.deriv[0] ||
			p.deriv[0] > 0 && c.deriv[0] > 0 && p.deriv[0] > c.deriv[0] {
			*p = *c
			flag = true
		}
	}
	return flag
}

// finish returns the solve's answer: qacc in the world's coordinates,
// v = v_s + δt qacc, γ = δt f on MuJoCo's rows (efc_force of the last
// update), and J v (constraintVelocities: not for an rk4 stage's solve). Where the step integrates the constraint forces
// rather than qacc (sim.ws.mj.metric: mj_Euler with joint damping and
// mj_implicit apply their own metric to qfrc_smooth + Jᵀ f), v is
// v* + A⁻¹ Jᵀ γ (A = M), whose Jᵀ γ = M (v − v*) mapVelocity reads: an
// unconverged qacc is not M⁻¹ (qfrc_smooth + Jᵀ f) (CG at tolerance
// 1e-6 parted the perturbed cloth by 8.5e-7 in its first step). It then
// keeps v for keepNewtonWarm and sets the statistics of the solve (iters
// iterations, converged; pgsWork.stats): solveNewton's tail, here to spare
// its call's set-up.
func (nw *newtonWork) finish(sim *Simulator, c *pgsCall, w *pgsWork, dt float64, iters int, converged bool) {
	p, res := c.p, c.res
	w.setGamma(p, nw.force, dt, res) // and res.V's length
	if sim.ws.mj.metric {
		w.dualV(p, nw.col, res)
	} else {
		nw.worldV(sim, c.q, c.vs, dt, res.V)
	}
	w.constraintVelocities(res, p.NR)
	nw.fresh = true   // res.V is this solve's answer (keepNewtonWarm)
	copy(nw.v, res.V) // nv long, as res.V (sizeVelocities)
	w.stats(p, res, iters, converged)
}

// worldV sets v = v_s + δt qacc, qacc turned to the world's coordinates at
// q (finish without sim.ws.mj.metric). Out of line, as dualV: a step
// takes one of the two, and the other, inlined, lay in finish's hot code.
//
//go:noinline
func (nw *newtonWork) worldV(sim *Simulator, q, vs []float64, dt float64, v []float64) {
	sim.ws.mj.turns.world(sim.Model, q, nw.qacc, nw.col)
	for i := range v {
		v[i] = vs[i] + dt*nw.col[i]
	}
}
