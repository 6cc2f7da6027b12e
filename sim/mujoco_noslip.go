package sim

import (
	"math"
	"slices"

	"github.com/stiction-sim/stiction/solver"
)

// MuJoCo 2.2.2's noslip post-processing (<option noslip_iterations
// noslip_tolerance>; engine_solver.c, mj_solNoSlip, which mj_fwdConstraint
// of engine_forward.c runs after the main solver when noslip_iterations
// > 0). From the main solver's forces (the converged solve, or PGS), it
// runs projected Gauss–Seidel sweeps on the dual of MuJoCo's rows with the
// regularization removed (AR − R, flg_subR), over the friction rows only:
//
//   - friction loss rows: f_k ← clamp(f_k − res_k / (AR − R)_kk, ±floss);
//   - each pyramidal contact's pairs of opposing edges (J_n ± μ_j J_j):
//     with the pair's sum 2·mid = f_a + f_b (its share of the normal
//     force) fixed, f_a = mid + y, f_b = mid − y with y minimizing the
//     pair's 2×2 quadratic, y = −K0/K1, K1 = A_aa + A_bb − 2 A_ab,
//     K0 = mid (A_aa − A_bb) + c_a − c_b, clamped to [−mid, mid];
//
// where res = b + (AR − R) f is the residual (residual with flg_subR),
// c = res − A_c f_c the block's linear term, and A_c the block of AR − R
// with its diagonal clamped to ≥ 1e-10 (extractBlock). A change that
// raises the block's cost by more than 1e-10 is undone (costChange; not
// for friction loss rows). Equality and limit rows and the contacts'
// normal forces keep the main solver's values. The sweeps stop after
// noslip_iterations, or when the improvement (the first sweep counting
// the removed regularization's cost ½ Σ R f²), rescaled by
// meaninertia · max(1, nv) (rescale), is below noslip_tolerance; then
// qacc = qacc_smooth + M⁻¹ Jᵀ f (dualFinish). MuJoCo's warm start of the
// next solve is the main solver's qacc, before noslip (mj_fwdConstraint
// saves qacc_warmstart first): noSlip keeps it aside (keepWarm reads it).

// noSlipWork is the state of the noslip pass between a solve and the
// keeping of the warm start.
type noSlipWork struct {
	pre     []float64 // the main solver's acceleration, MuJoCo's coordinates
	pending bool      // pre is the warm start the next keepWarm keeps
}

// noSlip runs MuJoCo's noslip pass (mj_solNoSlip) on c.res, the main
// solver's solution of the problem c.p (pgsCall), when the contact
// parameters ask for it; it leaves c.res as it is when they do not or
// when c.p has rows PGS does not handle here. solvedPGS says the main
// solver was solvePGS, whose dual problem sim.ws.pgs still holds.
func (sim *Simulator) noSlip(c *pgsCall, solvedPGS bool) error {
	p, blocks, res := c.p, c.blocks, c.res
	if sim.cfg.Contact.NoSlipIterations <= 0 || p.NR == 0 {
		return nil
	}
	w, dt := &sim.ws.pgs, sim.cfg.DT
	if !solvedPGS || sim.cfg.Contact.Newton { // Newton's setup has no AR (pgsSetup)
		ok, err := sim.pgsSetup(c, false)
		if !ok || err != nil {
			return err
		}
	}
	sim.keepPreNoSlip(c.q, res.V, c.vs)
	for k, row := range w.perm { // efc_force of the main solver
		w.f[k] = res.Gamma[row] / dt
	}
	st, tol := res.Stats, sim.cfg.Contact.NoSlipTolerance
	if tol == 0 {
		tol = 1e-6 // MuJoCo's default noslip_tolerance
	}
	iters, converged := w.noSlipSweeps(blocks, len(c.pairs), sim.cfg.Contact.NoSlipIterations, tol, sim.meanInertia*math.Max(1, float64(sim.Model.NV)))
	w.finish(p, dt, res)
	w.stats(p, res, st.Iterations+iters, converged && st.Status == solver.Converged)
	return nil
}

// keepPreNoSlip keeps the main solver's acceleration (v − vs)/δt at q, in
// MuJoCo's coordinates, as the warm start the next keepWarm keeps, when
// PGS or MuJoCo's Newton or CG (the solvers that read it) is on: for a
// Newton or CG solve whose answer v is, its qacc as found (keepNewtonWarm).
func (sim *Simulator) keepPreNoSlip(q, v, vs []float64) {
	if sim.cfg.Contact.PGSIterations <= 0 {
		return
	}
	ns, nw := &sim.ws.noslip, &sim.ws.mjnewton
	ns.pre = solver.Resize(ns.pre, len(v))
	if sim.cfg.Contact.Newton && nw.fresh && slices.Equal(v, nw.v) {
		copy(ns.pre, nw.qacc)
		ns.pending = true
		return
	}
	for i := range v {
		ns.pre[i] = (v[i] - vs[i]) / sim.cfg.DT
	}
	sim.Model.LocalVelocity(q, ns.pre, ns.pre)
	ns.pending = true
}

// noSlipSweeps runs mj_solNoSlip's sweeps on w.f (MuJoCo's order, set by
// pgsSetup) for the nc contacts of blocks (in MuJoCo's contact order,
// w.corder) and returns the sweeps run and whether the tolerance ended
// them.
func (w *pgsWork) noSlipSweeps(blocks []pyramidBlock, nc, maxIter int, tol, scale float64) (int, bool) {
	n := len(w.perm)
	for iter := 1; iter <= maxIter; iter++ {
		improvement := 0.0
		if iter == 1 { // the cost of the regularization removed
			for k := range n {
				improvement += 0.5 * w.f[k] * w.f[k] * w.r[k]
			}
		}
		start := 0
		for k := range n {
			if w.class[k] == pgsFriction {
				improvement += w.noSlipFriction(k)
			}
			if w.class[k] < pgsContact {
				start = k + 1
			}
		}
		for i := range nc {
			edges := blocks[w.corder[i]].edges
			if edges >= 2 { // MuJoCo's pyramidal contact (condim 1 is frictionless)
				for j := start; j < start+edges; j += 2 {
					improvement += w.noSlipEdges(j)
				}
			}
			start += edges
		}
		if improvement/scale < tol {
			return iter, true
		}
	}
	return maxIter, false
}

// noSlipResidual returns row k's residual b_k + (AR f)_k − R_k f_k
// (residual with flg_subR, MuJoCo's mju_dot over the dense row).
func (w *pgsWork) noSlipResidual(k int) float64 {
	n := len(w.perm)
	return w.b[k] + dot4(w.ar[k*n:(k+1)*n], w.f) - w.r[k]*w.f[k]
}

// noSlipFriction updates friction loss row k (mj_solNoSlip's dry friction
// sweep) and returns the improvement −(½ δ² (AR − R)_kk + δ res), with
// 1/(AR − R)_kk floored as ARdiaginv does (max(mjMINVAL, AR_kk − R_k)).
func (w *pgsWork) noSlipFriction(k int) float64 {
	n := len(w.perm)
	res := w.noSlipResidual(k)
	arinv := 1 / math.Max(mjMinVal, w.ar[k*n+k]-w.r[k])
	old := w.f[k]
	f := old - res*arinv
	fl := w.floss[k]
	if f < -fl {
		f = -fl
	} else if f > fl {
		f = fl
	}
	w.f[k] = f
	delta := f - old
	return -(0.5*delta*delta/arinv + delta*res)
}

// noSlipEdges redistributes the force of the pyramid edges j, j+1 with
// their sum fixed (mj_solNoSlip's pyramidal branch) and returns the
// improvement (−costChange, the change undone when it is positive).
func (w *pgsWork) noSlipEdges(j int) float64 {
	n := len(w.perm)
	res := [2]float64{w.noSlipResidual(j), w.noSlipResidual(j + 1)}
	old := [2]float64{w.f[j], w.f[j+1]}
	var ac [4]float64 // extractBlock with flg_subR
	for a := range 2 {
		for b := range 2 {
			ac[2*a+b] = w.ar[(j+a)*n+j+b]
		}
		ac[3*a] = math.Max(1e-10, ac[3*a]-w.r[j+a])
	}
	var bc [2]float64 // bc = res − A_c f_c
	for a := range 2 {
		bc[a] = res[a] - dot4(ac[2*a:2*a+2], old[:])
	}
	mid := 0.5 * (old[0] + old[1])
	k1 := ac[0] + ac[3] - ac[1] - ac[2]
	k0 := mid*(ac[0]-ac[3]) + bc[0] - bc[1]
	switch y := -k0 / k1; {
	case k1 < mjMinVal:
		w.f[j], w.f[j+1] = mid, mid
	case y < -mid:
		w.f[j], w.f[j+1] = 0, 2*mid
	case y > mid:
		w.f[j], w.f[j+1] = 2*mid, 0
	default:
		w.f[j], w.f[j+1] = mid+y, mid-y
	}
	// costChange: ½ δᵀ A_c δ + δᵀ res, undone when above 1e-10.
	delta := [2]float64{w.f[j] - old[0], w.f[j+1] - old[1]}
	v := [2]float64{dot4(ac[0:2], delta[:]), dot4(ac[2:4], delta[:])}
	change := 0.5*dot4(delta[:], v[:]) + dot4(delta[:], res[:])
	if change > 1e-10 {
		w.f[j], w.f[j+1] = old[0], old[1]
		change = 0
	}
	return -change
}
