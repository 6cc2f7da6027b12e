package sim

import (
	"fmt"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/solver"
)

// rk4StageWork is the scratch memory of an rk4 step whose constraint rows
// are solved at every stage (rk4ConstrainedVStar).
type rk4StageWork struct {
	res  solver.Result // the stage's constraint solve
	vs   []float64     // the stage's velocities v_i (world frame)
	used bool          // the last rk4 step solved constraint rows at one of its stages
}

// stagedConstraints reports whether an rk4 step that has constraint rows
// (and no contact pairs) can solve them at its stages: not when the set
// eliminates velocities (attachments, prescribed motions), whose reduced
// problem is built for the step's start only.
func (sim *Simulator) stagedConstraints() bool {
	c := &sim.ws.cons
	return c.set != nil && !c.elim.on && len(sim.ws.pairs) == 0
}

// rk4ConstrainedVStar is mj_RungeKutta (MuJoCo 2.2.2, engine_forward.c) for
// a step with constraints and no contacts: MuJoCo evaluates every stage
// with mj_forwardSkip, whose constraint solver gives the stage's
// acceleration a_i with the rows that act at the stage's (q_i, v_i)
// (limits past their bounds at q_i, equalities, friction loss, implicit
// actuators; constraint.Set.NeedsSolve). A stage without such rows is
// rk4VStar's (a_i = M⁻¹ k with the explicit actuators' forces); a stage
// with them solves its problem: the one is the one an explicit step of δt from (q_i, v_i) would solve
// (A = M(q_i), v* = v_i + δt M(q_i)⁻¹ k(q_i, v_i), the rows assembled at
// q_i with v0 = v_i), and a_i = (v − v_i)/δt from its solution v. For
// MuJoCo's soft rows (constraint.Compliance: R = (1 − d)/d · w,
// v̂ = J v_i + δt a_ref) that problem is MuJoCo's stage problem scaled by
// δt² (docs/MODELS.md, friction loss and equalities), so a_i is MuJoCo's
// qacc. The stages combine as in rk4VStar; the step's own solve is then
// direct (v = v*), its rows reported with the impulses of the step's
// start (directSolution).
func (sim *Simulator) rk4ConstrainedVStar() error {
	m, w, mw, dt := sim.Model, &sim.ws, &sim.ws.mj, sim.cfg.DT
	mw.rk4, mw.direct, mw.fallback = true, true, false
	sim.evalControls()
	if err := sim.linearize(w.vstar); err != nil { // the step's problem at q0: A = M(q0), k(q0, v0)
		return err
	}
	copy(mw.mass, w.mass)
	copy(mw.k, w.k)
	m.LocalVelocity(w.q0, w.v0, mw.v[0])
	if err := sim.stageAcceleration(0, w.q0, w.v0, sim.State.T); err != nil {
		return err
	}
	for i := 1; i < 4; i++ {
		c := sim.rk4Stage(i)
		if err := sim.stageAcceleration(i, w.qth, w.vth, sim.State.T+c*dt); err != nil {
			return err
		}
	}
	sim.rk4Combine()
	return nil
}

// stageAcceleration sets mw.a[i] = L(q) a(q, v) (MuJoCo's coordinates) with
// the constraint rows solved at the stage point (q, v) at time tm
// (rk4ConstrainedVStar). q and v may be w.q0, w.v0 or w.qth, w.vth.
func (sim *Simulator) stageAcceleration(i int, q, v []float64, tm float64) error {
	m, w, mw, dt := sim.Model, &sim.ws, &sim.ws.mj, sim.cfg.DT
	st, p := &mw.staged, &mw.stage
	if len(st.vs) != m.NV {
		st.vs = make([]float64, m.NV)
	}
	copy(st.vs, v)
	copy(w.qth, q)
	copy(w.vth, st.vs)
	kin := w.kin
	kin.Update(w.qth, w.vth)
	if err := sim.linearizeAt(kin, tm, 0, 0, 0, p, &mw.factor); err != nil {
		return fmt.Errorf("RK4 stage %d: %w", i, err)
	}
	if !w.cons.set.NeedsSolve(m, w.qth) { // no row at this stage: rk4VStar's stage
		copy(mw.a[i], w.k)
		w.cons.set.ExplicitForces(m, w.qth, w.vth, w.cons.controls, mw.a[i])
		solveCliques(p, &mw.factor, mw.a[i])
		m.LocalVelocity(w.qth, mw.a[i], mw.a[i])
		return nil
	}
	mw.staged.used = true
	for _, c := range p.Cliques {
		acc := w.k[c.Offset : c.Offset+c.Size]
		mw.factor.Solve(c, acc, 1)
		for j := range c.Size {
			p.VStar[c.Offset+j] = st.vs[c.Offset+j] + dt*acc[j]
		}
	}
	in := constraint.Input{Q0: w.qth, V0: st.vs, DT: dt, Controls: w.cons.controls, ThetaVQ: 1,
		KinTheta: kin, QTheta: w.qth, VLin: p.VStar}
	prm := constraint.Params{Beta: sim.cfg.Contact.Beta, MaxRecoverySpeed: sim.cfg.Contact.MaxRecoverySpeed}
	if err := w.cons.asm.Assemble(m, w.cons.set, kin, in, prm, &mw.factor, p); err != nil {
		return fmt.Errorf("sim: step %d: RK4 stage %d: %w", sim.step+1, i, err)
	}
	if err := sim.cfg.Solver.Solve(p, st.vs, &st.res); err != nil {
		return fmt.Errorf("sim: step %d: RK4 stage %d: constraint solver: %w", sim.step+1, i, err)
	}
	for j, x := range st.res.V {
		mw.a[i][j] = (x - st.vs[j]) / dt
	}
	m.LocalVelocity(w.qth, mw.a[i], mw.a[i])
	return nil
}
