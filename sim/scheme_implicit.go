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
// that D leaves out (the fluid's ellipsoid model), solved by LU. The
// contact problem keeps the symmetric A = M + h D: constraint impulses act
// through A⁻¹, where MuJoCo applies M̂⁻¹ to the forces its own solver found
// with M, a difference of O(h ∂C/∂v M⁻¹) in an impulse's effect. Actuators
// act through the contact solve, implicitly, as in mujoco-euler; explicit
// ones (directSolution) are explicit.
func (sim *Simulator) mujocoImplicitVStar() error {
	w, p, dt := &sim.ws, &sim.ws.problem, sim.cfg.DT
	if err := sim.linearize(w.vstar); err != nil { // θq = θv = 0: M(q0), k(q0, v0), A = M + δt D
		return err
	}
	if set := w.cons.set; set != nil && len(w.pairs) == 0 && !set.NeedsSolve(sim.Model, w.q0) {
		w.mj.direct = true
		sim.evalControls()
		set.ExplicitForces(sim.Model, w.q0, w.v0, w.cons.controls, w.k)
	}
	g := &w.mj.gyro
	g.jacobian(sim.Model, w.kin, w.q0, w.v0)
	for i, x := range w.fout.N { // the rest of the elements' −∂f/∂v (forces.Output.N)
		g.jac[i] += x
	}
	for _, c := range p.Cliques {
		r := w.res[c.Offset : c.Offset+c.Size]
		copy(r, w.k[c.Offset:c.Offset+c.Size])
		if err := g.solve(p, c, dt, r); err != nil {
			return fmt.Errorf("sim: step %d: mujoco-implicit: %w", sim.step+1, err)
		}
		for i := range c.Size {
			p.VStar[c.Offset+i] = w.v0[c.Offset+i] + dt*r[i]
		}
	}
	return nil
}
