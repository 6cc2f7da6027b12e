package sim

import "github.com/stiction-sim/stiction/contact"

// MuJoCo's contact rows in the mujoco-euler, mujoco-implicit and rk4 steps. A step of
// MuJoCo's integrators solves the contacts of MJCF's soft material
// (mujocoSoft) as MuJoCo 2.2.2 does (engine_core_constraint.c,
// mj_instantiateContact, mj_makeImpedance, mj_referenceConstraint): only
// the contacts MuJoCo has (dist < margin: φ < 0, softTouching), with
// MuJoCo's R and reference acceleration (softRows), and with MuJoCo's
// pyramidal cone where <option cone> asks for it (solvePyramid), else its
// elliptic cone for condim 1 and 3 (elliptic.go). The rk4
// step does so at each of its stages (rk4ContactVStar); the mujoco-euler
// step, whose problem is stage 0's, in its own problem (mujocoEulerVStar):
// v* = v0 + δt M⁻¹ k, A = M, and with joint damping the impulses found so
// act through M + δt B, as mj_Euler applies (M + h B)⁻¹ to
// qfrc_smooth + qfrc_constraint (mujocoMetricVStar, mapVelocity); the
// mujoco-implicit step likewise, through M̂ = M − h qDeriv as mj_implicit
// (implicitMetricVStar). Other materials keep SAP's rows.

// eulerRows reports whether a mujoco-euler or mujoco-implicit step
// (mujocoEulerVStar, mujocoImplicitVStar) solves MJCF's soft contacts with
// MuJoCo's rows: when it has contact pairs and its constraint set
// eliminates no velocity (as stagedContacts: the eliminated problem is
// SAP's). An rk4 step that falls back to mujoco-euler does so only for
// such a set, and keeps SAP's rows.
func (sim *Simulator) eulerRows() bool {
	m := sim.scheme.Method
	return (m == MuJoCoEulerRule || m == MuJoCoImplicitRule) && len(sim.ws.pairs) > 0 && !sim.ws.cons.elim.on
}

// startMuJoCoRows makes the step's problem MuJoCo's for its soft
// contacts: it drops the soft pairs that MuJoCo has no row for
// (softTouching), keeps the others' materials in ws.mj.staged.mats0, and
// marks the step (ws.mj.rows) so that assembleContacts gives them MuJoCo's
// rows (softRows, at the step's start v0) and solveContacts MuJoCo's
// pyramid (solveMuJoCoRows).
func (sim *Simulator) startMuJoCoRows() {
	w := &sim.ws
	w.mj.rows = true
	w.pairs = sim.softTouching(w.pairs, &w.mj.staged.mats0)
}

// solveMuJoCoRows solves a step marked by startMuJoCoRows with MuJoCo's
// pyramidal friction cone where it applies (solvePyramid), warm-started
// from v0, and reports whether it did; false, having solved nothing, for
// any other step, which solveContacts solves itself.
func (sim *Simulator) solveMuJoCoRows() (bool, error) {
	w := &sim.ws
	if !w.mj.rows {
		return sim.eulerRowsPGS()
	}
	solved, err := sim.solvePyramid(&w.problem, w.pairs, w.mj.staged.mats0, &w.assemble, w.kin0, sim.State.V, &w.result, false)
	if err != nil {
		return true, stepError(sim.step+1, "contact solver", err)
	}
	return solved, nil
}

// muJoCoRowPair reports whether a step of a scheme that solves MJCF's
// soft contacts with MuJoCo's rows (mujocoRowScheme) solves the pair with
// them (startMuJoCoRows): a pair of MJCF's soft material (mujocoSoft). It
// keeps the material it combined for softTouching (rememberMaterial), by
// its place in the cache, not copied (a material is 21 words: the copies
// through the calls took 11 hot code lines of half_cheetah's step).
func (sim *Simulator) muJoCoRowPair(pr *contact.Pair) bool {
	return sim.rememberMaterial(pr).soft
}

// mujocoRowScheme reports whether the step's scheme solves MJCF's soft
// contacts with MuJoCo's rows (muJoCoRowPair): mujoco-euler,
// mujoco-implicit or rk4, with no velocity eliminated.
func (sim *Simulator) mujocoRowScheme() bool {
	return sim.mujocoLimits() && !sim.ws.cons.elim.on
}
