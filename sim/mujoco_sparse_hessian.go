package sim

import "math"

// The sparse branches of HessianIncremental, HessianCone and
// CGupdateGradient (engine_solver.c, mj_isSparse), and of mj_factorI and
// mj_solveLD for CG, on the matrices of mujoco_sparse.go.

// hessianIncrementalSparse is HessianIncremental's sparse branch: a
// mju_cholUpdateSparse with √D_k J_k (on row k's pattern) for each row
// that became quadratic, a downdate for each that stopped being; a loss
// of rank refactors.
func (nw *newtonWork) hessianIncrementalSparse(w *pgsWork) {
	sp := &nw.sp
	for k := range nw.n {
		old, cur := nw.old[k] == nwQuadratic, nw.state[k] == nwQuadratic
		if old == cur {
			continue
		}
		sd := math.Sqrt(nw.d[k])
		ind, val := sp.row(k)
		xi := append(sp.xi[:0], ind...)
		x := sp.xv[:len(ind)]
		for j, v := range val {
			x[j] = v * sd
		}
		if sp.cholUpdate(&sp.h, x, xi, cur) < nw.nv {
			nw.hessianDirectSparse(w)
			return
		}
	}
	if nw.ncone > 0 {
		nw.hessianConeSparse(w)
	}
}

// hessianConeSparse is HessianCone's sparse branch: Hcone = H plus, for each
// contact in its middle zone, Jᵀ H_c J by dim updates with the rows of
// Lᵀ J on the contact's pattern (its rows' union: MuJoCo's rows of one
// contact share one).
func (nw *newtonWork) hessianConeSparse(w *pgsWork) {
	sp := &nw.sp
	sp.hc.copyFrom(&sp.h)
	for c := range w.cones {
		k0, dim, local := nw.coneFactor(w, c)
		if local == nil {
			continue
		}
		pat := nw.conePattern(k0, dim)
		nnz := len(pat)
		ltj := nw.ltj[:dim*nnz]
		clear(ltj)
		for r := range dim {
			ind, val := sp.row(k0 + r)
			for j, i := range ind {
				sp.buf[i] = val[j]
			}
			for cc := 0; cc <= r; cc++ {
				l := local[r*dim+cc]
				dst := ltj[cc*nnz : (cc+1)*nnz]
				for u, i := range pat {
					dst[u] += sp.buf[i] * l
				}
			}
			for _, i := range pat {
				sp.buf[i] = 0
			}
		}
		for r := range dim {
			xi := append(sp.xi[:0], pat...)
			x := sp.xv[:nnz]
			copy(x, ltj[r*nnz:(r+1)*nnz])
			sp.cholUpdate(&sp.hc, x, xi, true)
		}
	}
}

// coneFactor returns the first row and size of elliptic contact c and the
// Cholesky factor (mju_cholFactor, in nw.local) of its middle zone's
// Hessian block, or a nil factor when the contact is not in its middle
// zone (HessianCone).
func (nw *newtonWork) coneFactor(w *pgsWork, c int) (k0, dim int, local []float64) {
	cb := &w.cones[c]
	k0, dim = cb.k0, cb.dim
	if nw.state[k0] != nwCone {
		return k0, dim, nil
	}
	local = nw.local[:dim*dim]
	copy(local, nw.coneH[36*c:36*c+dim*dim])
	cholFactor(local, dim, mjMinVal)
	return k0, dim, local
}

// conePattern returns the union of the patterns of rows k0…k0+dim−1 in
// increasing order (in sp.cols), with sp.buf zero on it.
func (nw *newtonWork) conePattern(k0, dim int) []int {
	sp := &nw.sp
	pat := sp.cols[:0]
	for r := range dim {
		ind, _ := sp.row(k0 + r)
		for _, i := range ind {
			if sp.mark[i] != -2-k0 {
				sp.mark[i] = -2 - k0
				pat = append(pat, i)
			}
		}
	}
	for _, i := range pat {
		sp.mark[i] = -1
		sp.buf[i] = 0
	}
	sortInts(pat)
	sp.cols = pat
	return pat
}

// sortInts sorts a short list in place (insertion sort).
func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j-1] > a[j]; j-- {
			a[j-1], a[j] = a[j], a[j-1]
		}
	}
}

// solveH sets res = H⁻¹ vec (CGupdateGradient's mju_cholSolveSparse), with
// Hcone when a contact is in the cone state.
func (nw *newtonWork) solveH(vec, res []float64) {
	if nw.ncone > 0 {
		nw.sp.hc.cholSolve(vec, res)
		return
	}
	nw.sp.h.cholSolve(vec, res)
}

// mAt returns the entry (i, j) of the clique block of M's tree factor
// (sp.mfb) holding velocities i and j of one clique.
func (sp *sparseNewton) mAt(i, j int) *float64 {
	c := sp.cqOf[i]
	n, off := sp.sz[c], sp.off[c]
	return &sp.mfb[sp.madr[c]+(i-off)*n+(j-off)]
}

// factorMSparse is factorM (mj_factorI) on M's clique blocks: each
// velocity's ancestors are in its own clique.
func (nw *newtonWork) factorMSparse() {
	sp, par := &nw.sp, nw.par
	nw.fullM()
	copy(sp.mfb, sp.mb)
	for k := nw.nv - 1; k >= 0; k-- {
		if d := sp.mAt(k, k); *d < mjMinVal {
			*d = mjMinVal
		}
		for i := par[k]; i >= 0; i = par[i] {
			tmp := *sp.mAt(k, i) / *sp.mAt(k, k)
			for j := i; j >= 0; j = par[j] {
				*sp.mAt(i, j) += *sp.mAt(k, j) * -tmp
			}
			*sp.mAt(k, i) = tmp
		}
	}
	for i := range nw.nv {
		nw.dinv[i] = 1.0 / *sp.mAt(i, i)
	}
}

// solveMSparse is solveM (mj_solveLD) by factorMSparse's factor.
func (nw *newtonWork) solveMSparse(vec, res []float64) {
	sp, par, nv := &nw.sp, nw.par, nw.nv
	copy(res[:nv], vec[:nv])
	for i := nv - 1; i >= 0; i-- {
		if tmp := res[i]; tmp != 0 {
			for j := par[i]; j >= 0; j = par[j] {
				res[j] -= *sp.mAt(i, j) * tmp
			}
		}
	}
	for i := range nv {
		res[i] *= nw.dinv[i]
	}
	for i := range nv {
		tmp := res[i]
		for j := par[i]; j >= 0; j = par[j] {
			tmp -= *sp.mAt(i, j) * res[j]
		}
		res[i] = tmp
	}
}
