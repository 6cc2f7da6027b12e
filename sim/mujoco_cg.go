package sim

import "math"

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
// MuJoCo solves with M by its LDLᵀ factor of the tree (mj_solveM); here
// by the dense Cholesky factor of M in MuJoCo's coordinates, the same
// answer rounded differently.

// factorM sets nw.mfac to the Cholesky factor of M (CG's preconditioner).
func (nw *newtonWork) factorM() {
	copy(nw.mfac, nw.m)
	cholFactor(nw.mfac, nw.nv, mjMinVal)
}

// cgDirection is mj_solCGNewton's Polak–Ribière update of the search
// direction (CG), after updateGradient has set grad and M⁻¹ grad and
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
