package sim

import "fmt"

// mujocoImplicitVStar is mj_implicit (MuJoCo 2.2.2, engine_forward.c,
// mj_implicitSkip): with qDeriv = ∂(qfrc_actuator + qfrc_passive −
// qfrc_bias)/∂qvel at (q0, v0) (mjd_smooth_vel: actuator gains, joint and
// tendon damping, the fluid forces' derivative and the Coriolis,
// centrifugal and gyroscopic forces' mjd_rne_vel),
//
//	(M − h qDeriv) qacc = qfrc_smooth + qfrc_constraint,  v = v0 + h qacc,
//
// and q = q0 ⊕ h v as in mj_Euler. Here qDeriv = −D − ∂C/∂v: D the force
// elements' damping Jacobian (joint, tendon and path damping, the fluid's
// exact derivative; forces.Fluid), ∂C/∂v the inertial forces' velocity
// Jacobian (gyroJacobian, exact to round-off). So v* = v0 + h M̂⁻¹ k(q0, v0)
// with M̂ = M + h D + h (N + ∂C/∂v), N the rest of the elements' −∂f/∂v
// that D leaves out (the fluid's ellipsoid model), solved by LU.
//
// A step with contacts or constraint rows is solved as MuJoCo solves it
// (implicitMetricVStar): MJCF's soft contacts are MuJoCo's rows
// (startMuJoCoRows, as mujoco-euler), limits with MuJoCo's solref MuJoCo's
// (mujocoLimits), and the impulses are found with A = M (mj_fwdConstraint
// works with qM and qacc_smooth = M⁻¹ qfrc_smooth) and act through M̂⁻¹
// (mapVelocity). Every actuator's force is explicit, at (q0, v0) and
// clamped, and its velocity derivative kv mᵀm is in M̂, as mj_implicit
// takes them (scheme_implicit_act.go).
func (sim *Simulator) mujocoImplicitVStar() error {
	w, p := &sim.ws, &sim.ws.problem
	w.mj.metric = false
	if sim.eulerRows() {
		sim.startMuJoCoRows() // MuJoCo's contacts and rows (mujoco_rows.go)
	}
	if err := sim.linearize(w.vstar); err != nil { // θq = θv = 0: M(q0), k(q0, v0), A = M + δt D
		return err
	}
	if set := w.cons.set; set != nil && len(w.pairs) == 0 && !sim.needsSolve(w.q0) {
		w.mj.direct = true
		sim.evalControls()
		set.ExplicitForcesCoords(sim.Model, w.q0, w.v0, w.cons.controls, w.k, nil, &w.cons.terms)
	}
	g := &w.mj.gyro
	g.jacobian(sim.Model, w.kin, w.q0, w.v0)
	for i, x := range w.fout.N { // the rest of the elements' −∂f/∂v (forces.Output.N)
		g.jac[i] += x
	}
	sim.addActuatorDamping(g) // the actuators' h kv mᵀm (scheme_implicit_act.go)
	if !w.mj.direct && (len(w.pairs) > 0 || w.cons.set != nil) {
		return sim.implicitMetricVStar()
	}
	return sim.implicitVStar(p.A, p.VStar)
}

// implicitVStar sets v = v0 + h M̂⁻¹ k, M̂ = a + h ∂C/∂v (a = M + h D in
// the layout of Problem.A), tree by tree.
func (sim *Simulator) implicitVStar(a, v []float64) error {
	w, p, dt := &sim.ws, &sim.ws.problem, sim.cfg.DT
	for _, c := range p.Cliques {
		r := w.res[c.Offset : c.Offset+c.Size]
		copy(r, w.k[c.Offset:c.Offset+c.Size])
		if err := w.mj.gyro.solveWith(a, c, dt, r); err != nil {
			return fmt.Errorf("sim: step %d: mujoco-implicit: %w", sim.step+1, err)
		}
		for i := range c.Size {
			v[c.Offset+i] = w.v0[c.Offset+i] + dt*r[i]
		}
	}
	return nil
}

// implicitMetricVStar sets up a mujoco-implicit step with contacts or
// constraints as mj_implicit solves it (MuJoCo 2.2.2, engine_forward.c):
// mj_fwdConstraint finds qfrc_constraint with M, from qacc_smooth =
// M⁻¹ qfrc_smooth, and mj_implicitSkip solves
// (M − h qDeriv) qacc = qfrc_smooth + qfrc_constraint. So the contact
// problem gets A = M and v*_M = v0 + h M⁻¹ k, and its solution v gives
// h qfrc_constraint = Jᵀγ = M (v − v*_M); the step's velocity is
// v0 + h M̂⁻¹ k + M̂⁻¹ M (v − v*_M) (mapVelocity with M̂ = aHat + h ∂C/∂v).
func (sim *Simulator) implicitMetricVStar() error {
	w, mw, p := &sim.ws, &sim.ws.mj, &sim.ws.problem
	if err := sim.implicitVStar(p.A, mw.vB); err != nil {
		return err
	}
	mw.aHat = append(mw.aHat[:0], p.A...) // M + h D: M̂ less h ∂C/∂v
	copy(p.A, w.mass[:len(p.A)])
	if err := w.factor.Factor(p); err != nil {
		return fmt.Errorf("sim: step %d: M: %w", sim.step+1, err)
	}
	if err := sim.explicitVStar(); err != nil { // v*_M = v0 + h M⁻¹ k
		return err
	}
	copy(mw.vM, p.VStar)
	mw.metric = true
	return nil
}
