package sim

import (
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/solver"
)

// MuJoCo 2.2.2's elliptic friction cone (<option cone="elliptic">) for
// the contacts of MJCF's soft material under mujoco-euler,
// mujoco-implicit and rk4 (mujoco_rows.go).
//
// MuJoCo (engine_core_constraint.c, mj_instantiateContact) gives a
// contact of condim 3 one block of three rows (n, t1', t2') of type
// mjCNSTR_CONTACT_ELLIPTIC; mj_makeImpedance sets R_0 = (1 − d)/d · w
// (w the translational body_invweight0 sum, its diagApprox), then
// R_1 = R_0 / impratio and R_j = R_1 μ_1²/μ_j² for the others (so
// R_2 = R_1 at condim 3), and K = 0 on the friction rows, whose efc_pos
// is 0: a_ref = −B J v − K d φ on the normal row, −B J v on the others
// (mj_referenceConstraint). Its Newton solver (engine_solver.c,
// mj_solNewton; the cost of mj_constraintUpdate) minimizes
// ½‖a − a0‖²_M + s(J a − a_ref) with s zero in the top zone
// (N ≥ μ̃ T), ½ Σ D_j jar_j² in the bottom zone (μ̃ N + T ≤ 0) and
// ½ D_0/(μ̃²(1 + μ̃²)) (N − μ̃ T)² in between, over U = (μ̃ jar_0,
// μ_j jar_j), N = U_0, T = ‖U_1…‖, D = R⁻¹ and contact->mu
// μ̃ = μ_1 √(R_1/R_0). That s is the squared D-distance of jar to the dual
// cone {y : y_0 ≥ ‖(μ_j y_j)‖}, and its force −∂s/∂jar lies in the cone
// K = {f : f_0 ≥ ‖(f_j/μ_j)‖}: the problem is the dual
// min ½ fᵀ(A + R)f + fᵀ(J a0 − a_ref) over K.
//
// SAP's ContactCone block is the same problem (SAP §IV, Todorov 2014):
// ℓ = ½‖P_F(y)‖²_R over F = {‖γ_t‖ ≤ μ γ_n} projected in the norm of
// R = diag(R_t, R_t, R_n). With γ = δt f, v̂ = J v + δt a_ref (softRows)
// and the rows' R taken as MuJoCo's, R_n = R_0, R_t = R_1 = R_0/impratio,
// μ = μ_1, SAP's problem is MuJoCo's scaled by δt², so its converged
// answer is MuJoCo's. The block's rows are the contact's (t1, t2, n): the
// cone is round, so MuJoCo's tangent frame (mujocoTangents) does not
// matter. A contact of condim 1 (mjCNSTR_CONTACT_FRICTIONLESS: the
// normal row alone, R_0) is the block with μ = 0.
//
// MuJoCo's elliptic cone of condim 4 and 6 spans the torsional and
// rolling rows in one cone; SAP's cones are 3-D, so such contacts keep
// the fallback (softRows' rows with the Lagged disk and separate spin and
// rolling blocks), of which the MJCF import warns.

// ellipticPair reports whether the contact of a pair of material pm is
// MuJoCo's elliptic block (ellipticRows) when the cone is elliptic: a
// pair of MuJoCo's soft material whose condim (pyramidContact's rule) is
// 1 or 3.
func ellipticPair(pm *pairMaterial) bool {
	return pm.soft && ellipticCondim(&pm.mat) <= 3
}

// ellipticCondim returns the contact's condim as pyramidContact reads it:
// the material's, or for a material without one 6 with rolling friction,
// 4 with spin friction, else 3.
func ellipticCondim(mat *contact.Material) int {
	switch {
	case mat.Condim > 0:
		return mat.Condim
	case mat.Rolling > 0:
		return 6
	case mat.Spin > 0:
		return 4
	}
	return 3
}

// markElliptic sets *marks, per pair, to whether its contact is MuJoCo's
// elliptic block (ellipticPair) and returns it, for
// contact.Assembler.Geometric: the assembler then builds only the block's
// Jacobian (kind solver.ContactCone), and softRows sets its R, v̂ and μ.
// It returns nil when the cone is the pyramid or no pair is marked.
func (sim *Simulator) markElliptic(mats []pairMaterial, marks *[]bool) []bool {
	if sim.cfg.Contact.Pyramidal() {
		return nil
	}
	m, found := (*marks)[:0], false
	for i := range mats {
		e := ellipticPair(&mats[i])
		m = append(m, e)
		found = found || e
	}
	*marks = m
	if !found {
		return nil
	}
	return m
}

// stepElliptic returns the marks of the step's pairs for its assembler
// (markElliptic), or nil when the step does not have MuJoCo's rows
// (startMuJoCoRows).
func (sim *Simulator) stepElliptic() []bool {
	w := &sim.ws
	if !w.mj.rows {
		return nil
	}
	return sim.markElliptic(w.mj.staged.mats0, &w.mj.staged.pyr.ell)
}

// ellipticRows sets the R and μ of contact block i of p, of material mat
// and normal R rn (softImpedance), as MuJoCo's elliptic contact
// (mj_makeImpedance): R_n = R_0 = rn, R_t = R_1 = R_0/impratio on both
// tangent rows, μ = μ_1 (0 for condim 1, MuJoCo's frictionless contact).
// It reports false, having set nothing, when the block is not a
// ContactCone block (a pair the assembler did not mark).
func (sim *Simulator) ellipticRows(p *solver.Problem, i int, mat *contact.Material, rn float64) bool {
	c := p.Constraints[i]
	if c.Kind != solver.ContactCone {
		return false
	}
	mu, rt := mat.Friction, rn/sim.impRatio()
	if ellipticCondim(mat) == 1 || !(mu > 0) {
		mu, rt = 0, rn
	}
	p.R[c.Row], p.R[c.Row+1], p.R[c.Row+2] = rt, rt, rn
	p.Params[c.Par] = mu
	return true
}
