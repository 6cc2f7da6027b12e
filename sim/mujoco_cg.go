package sim

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// MuJoCo 2.2.2's CG solver (<option solver="CG">; engine_solver.c,
// mj_solCG: mj_solCGNewton without flg_Newton) on MuJoCo's rows: the same
// primal cost, rows, warm start, line search (CGsearch) and stopping rule
// as the Newton port (mujoco_newton.go), but its directions are
// Polak–Ribière's nonlinear conjugate gradients preconditioned by M⁻¹:
//
//	search_0 = −M⁻¹ grad_0,
//	β = max(0, gradᵀ (M⁻¹ grad − M⁻¹ grad_old) / max(mjMINVAL, grad_oldᵀ M⁻¹ grad_old)),
//	search = −M⁻¹ grad + β search.
//
// M⁻¹ is applied as mj_solveM does, by the LᵀDL factor of M along the
// tree (mj_factorI, mj_solveLD), each velocity's parent that of its
// clique (solver.Clique.Parent; a chain where the clique gives none, as
// MuJoCo's dofs of one joint are): CG's iterates are sensitive to the
// last bits of its directions (a dense Cholesky factor parted the 3-box
// stack from MuJoCo by 1.8e-6 at step 3, two iterations apart).

// treeParents sets nw.par, each velocity's parent in the tree of p's
// cliques (−1 for a root). Out of line: only CG calls it, and inlined it
// lay in solveNewton's hot code.
//
//go:noinline
func (nw *newtonWork) treeParents(p *solver.Problem) {
	if cap(nw.par) < p.NV {
		nw.par = make([]int, p.NV)
	}
	nw.par = nw.par[:p.NV]
	for _, cq := range p.Cliques {
		for i := range cq.Size {
			pi := i - 1
			if cq.Parent != nil {
				pi = cq.Parent[i]
			}
			nw.par[cq.Offset+i] = -1
			if pi >= 0 {
				nw.par[cq.Offset+i] = cq.Offset + pi
			}
		}
	}
}

// factorM is mj_factorI: M = Lᵀ D L along the tree nw.par, in nw.mfac
// (L's entries below the diagonal, D on it) and nw.dinv = 1/D.
func (nw *newtonWork) factorM() {
	if nw.sp.on {
		nw.factorMSparse()
		return
	}
	nv, l, par := nw.nv, nw.mfac, nw.par
	copy(l, nw.m)
	for k := nv - 1; k >= 0; k-- {
		if l[k*nv+k] < mjMinVal {
			l[k*nv+k] = mjMinVal
		}
		for i := par[k]; i >= 0; i = par[i] {
			tmp := l[k*nv+i] / l[k*nv+k]
			for j := i; j >= 0; j = par[j] { // M(i,j) −= M(k,j) tmp over i and its ancestors
				l[i*nv+j] += l[k*nv+j] * -tmp
			}
			l[k*nv+i] = tmp
		}
	}
	for i := range nv {
		nw.dinv[i] = 1.0 / l[i*nv+i]
	}
}

// solveM is mj_solveLD for one vector: res = M⁻¹ vec by the factor of
// factorM.
func (nw *newtonWork) solveM(vec, res []float64) {
	if nw.sp.on {
		nw.solveMSparse(vec, res)
		return
	}
	nv, l, par := nw.nv, nw.mfac, nw.par
	copy(res[:nv], vec[:nv])
	for i := nv - 1; i >= 0; i-- {
		if tmp := res[i]; tmp != 0 {
			for j := par[i]; j >= 0; j = par[j] {
				res[j] -= l[i*nv+j] * tmp
			}
		}
	}
	for i := range nv {
		res[i] *= nw.dinv[i]
	}
	for i := range nv {
		tmp := res[i]
		for j := par[i]; j >= 0; j = par[j] {
			tmp -= l[i*nv+j] * res[j]
		}
		res[i] = tmp
	}
}

// cgDirection is mj_solCGNewton's Polak–Ribière update of the search
// direction (CG), after setGrad and solveGrad have set grad and M⁻¹ grad and
// iterate has kept the last ones in gradOld and mgradOld.
func (nw *newtonWork) cgDirection() {
	nv := nw.nv
	dif := nw.e[:nv] // Mgraddif
	for i := range nv {
		dif[i] = nw.mgrad[i] - nw.mgradOld[i]
	}
	beta := dot4(nw.grad, dif) / math.Max(mjMinVal, dot4(nw.gradOld, nw.mgradOld))
	if beta < 0 {
		beta = 0
	}
	for i := range nv {
		nw.search[i] = -nw.mgrad[i] + beta*nw.search[i]
	}
}
