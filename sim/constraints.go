package sim

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/solver"
)

// constraintWork is the part of the Workspace that serves constraints,
// actuators, attachments and prescribed motions (Config.Constraints).
//
// The fields a robot's step reads come first, the rarely read ones
// (reports, the previous solution, the lazy controls, the limits'
// coordinates) last, so that the step touches fewer cache lines of the
// Simulator (the hundred-and-seventeenth pass's probe: 106 lines of it).
type constraintWork struct {
	set      *constraint.Set
	controls []constraint.Control // the step's actuator inputs
	override []bool               // set from Go by SetControl
	act      [][4]float64         // each actuator's activation rate at the four RK4 stages (activation.go)
	vlin     []float64            // the velocities the step is linearized at (v*, then the last solution), kept for θq > 0 only
	// forces are the explicit actuators' forces at (q0, v0) that
	// actuatorForces added to the step's k, which its assembly takes
	// (constraint.Input.Forces) rather than computing them again.
	forces []constraint.ActuatorForce
	relin  bool // inside relinearize
	// relinearizes: the step relinearizes (Config.Relinearizations > 0,
	// an implicit scheme with θq ≠ 0), decided at New from the Config,
	// which does not change after it.
	relinearizes bool
	lazy         bool                  // the last step's rows are not assembled yet (deferRows)
	eager        bool                  // assemble every step's rows at once (tests: BenchmarkFastPaths)
	iters        int                   // re-linearizations of the last step
	terms        constraint.TermCoords // the explicit actuators' joint indices, for ExplicitForcesCoords
	adh          adhesion              // the adhesion actuators' moments (adhesion.go)
	asm          constraint.Assembler
	elim         elimination            // attachments and prescribed motions (eliminate.go)
	reports      []constraint.Report    // of the last step
	vprev        []float64              // the previous solution, for the re-linearization's stopping test
	lazyCtl      []constraint.Control   // the controls they take
	limits       constraint.LimitCoords // the limits' coordinates, for NeedsSolveCached (needsSolve)
	// in is the step's assembly input (assembleRows): Assemble takes a
	// pointer, which would move a local to the heap. Its fields but DT,
	// Controls and Forces are the same at every step: initConstraints sets
	// them once. stage is an RK4 stage's (solveStage).
	in, stage constraint.Input
	prm       constraint.Params // the step's assembly parameters but NoSolve and ActuatorForces, set once (initConstraints)
}

// initConstraints validates Config.Constraints against the model and
// prepares the constraint workspace. It moves prescribed joints onto their
// motion at the initial time and attached bodies onto their masters'
// velocity (their initial poses define the attachments).
func (sim *Simulator) initConstraints() error {
	set := sim.cfg.Constraints
	if set.Empty() {
		return nil
	}
	if err := set.Validate(sim.Model); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	c := &sim.ws.cons
	c.set = set
	if sim.scheme.Method == MuJoCoImplicitRule {
		c.set = implicitActuatorSet(set) // mj_implicit's explicit actuator forces (scheme_implicit_act.go)
	}
	c.set = c.adh.init(sim.Model, c.set) // this simulator's own adhesion moments (adhesion.go)
	c.controls = make([]constraint.Control, len(set.Actuators))
	c.lazyCtl = make([]constraint.Control, len(c.controls)) // deferRows copies the controls into it
	c.forces = make([]constraint.ActuatorForce, len(c.set.Actuators))
	c.override = make([]bool, len(set.Actuators))
	w, nv := &sim.ws, sim.Model.NV
	c.vlin, c.vprev = make([]float64, nv), make([]float64, nv)
	c.in = constraint.Input{Q0: w.q0, V0: w.v0, ThetaQ: sim.scheme.ThetaQ, ThetaVQ: sim.scheme.ThetaVQ,
		KinTheta: w.kin, QTheta: w.qth, VLin: c.vlin} // assembleRows sets DT, Controls and Forces
	c.prm = constraint.Params{Beta: sim.cfg.Contact.Beta, MaxRecoverySpeed: sim.cfg.Contact.MaxRecoverySpeed,
		MuJoCoLimits: sim.mujocoLimits()}
	if err := sim.initActivations(); err != nil {
		return err
	}
	c.reports = make([]constraint.Report, 0, len(set.Limits)+len(set.Cones)+len(set.Welds)+len(set.Balls)+
		len(set.Distances)+len(set.Couplers)+len(set.Actuators)+len(set.Frictions)+len(set.Attachments)+len(set.Prescribed)+len(set.TendonLimits))
	return c.elim.init(sim.Model, set, sim.State)
}

// SetControl sets the control input of actuator i (Config.Constraints
// .Actuators[i]): u is a force for a motor, a position for position and PD
// actuators, a velocity for a velocity actuator, in actuator units (before
// the gear), and rate is u̇, the target velocity of a PD actuator. It
// replaces the actuator's Target from the next Step on, until changed or
// until ClearControl. Call it between steps.
func (sim *Simulator) SetControl(i int, u, rate float64) error {
	c := &sim.ws.cons
	if i < 0 || i >= len(c.controls) {
		return fmt.Errorf("sim: SetControl: no actuator %d (%d actuators)", i, len(c.controls))
	}
	if math.IsNaN(u) || math.IsInf(u, 0) || math.IsNaN(rate) || math.IsInf(rate, 0) {
		return fmt.Errorf("sim: SetControl: actuator %d: control %v and rate %v must be finite", i, u, rate)
	}
	c.controls[i], c.override[i] = constraint.Control{U: u, Rate: rate}, true
	return nil
}

// ClearControl returns actuator i to its Target.
func (sim *Simulator) ClearControl(i int) error {
	c := &sim.ws.cons
	if i < 0 || i >= len(c.controls) {
		return fmt.Errorf("sim: ClearControl: no actuator %d (%d actuators)", i, len(c.controls))
	}
	c.override[i] = false
	return nil
}

// ConstraintReports returns every constraint's impulse and state in the
// last step (valid until the next Step): limits, cone limits, welds, balls,
// distances, couplers, actuators, joint friction, then attachments and
// prescribed motions, each list in Config.Constraints order. After an
// Advance it gathers the step's statistics (Stats), which build them.
func (sim *Simulator) ConstraintReports() []constraint.Report {
	sim.Stats()
	return sim.ws.cons.reports
}

// assembleConstraints evaluates the actuator targets at the end of the
// step and appends the constraint blocks (limits, couplers, actuators,
// joint friction; package constraint) after the contact blocks.
func (sim *Simulator) assembleConstraints() error {
	c, w := &sim.ws.cons, &sim.ws
	if c.set == nil || w.mj.staged.contacts { // rk4ContactVStar: assembled at stage 0
		return nil
	}
	if !c.relin && sim.scheme.ThetaQ > 0 { // the assembly reads VLin only then (equalities at q^θq); c.vlin: made with the set (initConstraints)
		copy(c.vlin, w.problem.VStar)
	}
	if !w.mj.lazyRows && !w.mj.forces { // mujocoEulerVStar evaluated them for this step's v* (direct, or with the actuators' forces) and nothing changed them since
		sim.evalControls()
	}
	if w.mj.direct && (w.mj.lazyRows || w.mj.rk4) && !c.relin && !c.eager && len(c.controls) == len(c.set.Actuators) {
		sim.deferRows()
		return nil
	}
	var forces []constraint.ActuatorForce
	if w.mj.forces {
		forces = c.forces // actuatorForces' for these controls at (q0, v0)
	}
	return sim.assembleRows(c.controls, forces, sim.step+1)
}

// assembleRows appends the constraint blocks to the step's problem with
// the controls ctl and, when not nil, the explicit actuators' forces kept
// by actuatorForces (constraint.Input.Forces); step numbers the step in an
// error.
func (sim *Simulator) assembleRows(ctl []constraint.Control, forces []constraint.ActuatorForce, step int) error {
	c, w := &sim.ws.cons, &sim.ws
	c.in.DT, c.in.Controls, c.in.Forces = sim.cfg.DT, ctl, forces // the rest set once (initConstraints)
	prm := c.prm
	prm.NoSolve = w.mj.direct             // directSolution reads no R
	prm.ActuatorForces = w.mj.forces      // the explicit actuators' forces are in v* (actuatorForces)
	prm.FixedRUnread = sim.fixedRUnread() // solve.go
	if err := c.asm.Assemble(sim.Model, c.set, w.kin0, &c.in, prm, &w.factor, &w.problem); err != nil {
		return stepError(step, "", err)
	}
	return nil
}

// deferRows leaves the constraint rows of a direct step of MuJoCo's
// Euler or RK4 (v = v*: no row acts, the explicit actuators' forces are
// in v* already, mujocoEulerVStar; or the stages solved them,
// rk4ConstrainedVStar; directSolution) to be assembled
// when something reads them: the step's statistics and constraint
// reports (Stats, Step), JointForces, Impulses and ContactVelocities
// (lazyRows). Nothing in the step reads them, so an Advance that nobody
// asks about skips their assembly, as MuJoCo makes no row for a limit
// within its range. What the assembly reads stays as the step left it
// until then: q0, v0, v*, q^θ, the step's problem (no contact rows: a
// direct step has no pairs) and its factor, and the kinematics kin0 at
// q0, which endKinematics, its only writer between steps, assembles the
// rows before changing; the controls are kept here, as SetControl and
// the activations may change them. The rows and their impulses are then
// those the step would have made, to the bit. Assemble's one error, a
// control count unlike the set's actuators', is ruled out before
// deferring. It is out of line: inlined, it would sit between
// assembleConstraints' hot blocks on the steps that assemble rows.
//
//go:noinline
func (sim *Simulator) deferRows() {
	c := &sim.ws.cons
	copy(c.lazyCtl, c.controls) // as long, made with them (initConstraints): no append's growth and pointer store
	c.lazy = true
}

// lazyRows assembles the rows a direct step left for later (deferRows)
// and their impulses (directImpulses).
func (sim *Simulator) lazyRows() {
	c := &sim.ws.cons
	if !c.lazy {
		return
	}
	c.lazy = false
	if err := sim.assembleRows(c.lazyCtl, nil, sim.step); err != nil {
		return // not reached: deferRows checked Assemble's one error
	}
	sim.directImpulses()
}

// mujocoLimits reports whether the step's limits with MuJoCo's solref are
// MuJoCo's (constraint.Params.MuJoCoLimits: no acting row within the
// bound, MuJoCo's soft row past it): in every step of MuJoCo's integrators,
// mujoco-euler, mujoco-implicit and rk4 (its stages, and its steps taken
// as mujoco-euler steps), as MuJoCo 2.2.2's mj_instantiateLimit makes a
// row only where dist < margin.
func (sim *Simulator) mujocoLimits() bool {
	m := sim.scheme.Method
	return m == MuJoCoEulerRule || m == RungeKutta4 || m == MuJoCoImplicitRule
}

// evalControls sets the step's actuator inputs: each actuator's Target at
// the end of the step, unless SetControl overrides it.
func (sim *Simulator) evalControls() {
	c := &sim.ws.cons
	t1 := sim.State.T + sim.cfg.DT
	acts := c.set.Actuators
	ctl, ovr := c.controls[:len(acts)], c.override[:len(acts)] // no bounds checks in the loop
	for i := range acts {
		if ovr[i] {
			continue
		}
		var u, rate float64
		if tg := acts[i].Target; tg != nil {
			u, rate = tg.Eval(t1)
		}
		ctl[i] = constraint.Control{U: u, Rate: rate} // Act 0 until setActivations
	}
	sim.setActivations(sim.State.Act)
}

// constraintStats fills the report of every constraint and the
// constraint fields of st.
func (sim *Simulator) constraintStats(st *StepStats) {
	c, w := &sim.ws.cons, &sim.ws
	st.Relinearizations = c.iters
	if c.set == nil {
		return
	}
	c.reports = c.asm.Reports(c.set, &w.problem, w.result.Gamma, c.reports[:0])
	c.reports = c.elim.reports(sim, c.reports)
	for i := range c.reports {
		r := &c.reports[i]
		st.Constraints++
		switch r.State {
		case constraint.Active:
			st.ActiveConstraints++
		case constraint.Saturated:
			st.SaturatedConstraints++
		}
		st.MaxConstraintViolation = max(st.MaxConstraintViolation, r.Violation)
	}
}

// reduceProblem removes attached and prescribed velocities from the problem
// (mechanics notes §0.17–0.21, eliminate.go) when the set has any.
//
// The test is inlined (advanceActivations); reduce the rest.
func (sim *Simulator) reduceProblem() error {
	if !sim.ws.cons.elim.on {
		return nil
	}
	return sim.reduce()
}

// reduce is reduceProblem for a set that eliminates velocities.
func (sim *Simulator) reduce() error {
	e := &sim.ws.cons.elim
	kin := sim.ws.kin0
	if sim.scheme.ThetaQ > 0 {
		kin = sim.ws.kin // the mid-step of the linearization velocities
	}
	e.buildP(sim.Model, kin, sim.ws.kin0, sim.ws.v0, sim.State.T+sim.cfg.DT, sim.cfg.DT)
	if err := e.reduce(sim.Model, &sim.ws.problem, sim.ws.mass); err != nil {
		return fmt.Errorf("sim: step %d: reduced problem A' = PᵀAP: %w", sim.step+1, err)
	}
	return nil
}

// solveTarget returns the problem the solver must solve, its warm start and
// where the result goes: the full problem, or the reduced one.
func (sim *Simulator) solveTarget() (*solver.Problem, []float64, *solver.Result) {
	w := &sim.ws
	if e := &w.cons.elim; e.on {
		return &e.rp, e.warmStart(sim.State.V), &e.rres
	}
	return &w.problem, sim.State.V, &w.result
}

// expandSolution maps the reduced solution back to all velocities,
// v = P u + c.
//
// The test is inlined (advanceActivations); expandReduced the rest.
func (sim *Simulator) expandSolution() {
	if sim.ws.cons.elim.on {
		sim.expandReduced()
	}
}

// expandReduced is expandSolution for a set that eliminates velocities.
//
//go:noinline (inlined, it would make expandSolution too costly to inline)
func (sim *Simulator) expandReduced() {
	sim.ws.cons.elim.expand(sim.Model, &sim.ws.problem, &sim.ws.result)
}

// enforceEliminated puts prescribed joints exactly on their motion and
// attached bodies exactly where their masters hold them at the end of the
// step, so that the attachment error stays zero to round-off.
//
// The test is inlined (advanceActivations); enforceReduced the rest.
func (sim *Simulator) enforceEliminated() {
	if sim.ws.cons.elim.on {
		sim.enforceReduced()
	}
}

// enforceReduced is enforceEliminated for a set that eliminates velocities.
//
//go:noinline (inlined, it would make enforceEliminated too costly to inline)
func (sim *Simulator) enforceReduced() {
	sim.ws.cons.elim.enforce(sim.Model, sim.State, sim.ws.kin, sim.State.T)
}

// relinearize makes an implicit scheme's step consistent with its
// constraint and contact impulses (Config.Relinearizations > 0). SAP
// (Algorithm 1) linearizes the momentum balance m(v) = M(q^θq)(v − v0) −
// δt k(q^θq, v^θv) once, at the free-motion velocities v*, so the forces
// and the mass matrix are evaluated at the free motion's mid-step
// q^θq(v*), not at the solution's; the difference is O(δt) times the
// impulses and costs the midpoint rule its energy conservation when
// constraints hold a mechanism. This is Newton's method on
// m(v) = Jᵀγ(v): at the solution v_k, A_k and m(v_k) give
// v*_k = v_k − A_k⁻¹ m(v_k), the contacts and constraints are assembled
// again (equality constraints at q^θq(v_k)) and the problem solved again,
// until ‖v_{k+1} − v_k‖∞ ≤ tol (1 + ‖v‖∞) (Config.NewtonTolerance).
//
// The test is inlined (advanceActivations); relinearizeSteps the rest.
func (sim *Simulator) relinearize() error {
	c := &sim.ws.cons
	c.iters = 0
	if !c.relinearizes {
		return nil
	}
	return sim.relinearizeSteps()
}

// relinearizeSteps is relinearize for an implicit scheme with
// Config.Relinearizations > 0.
func (sim *Simulator) relinearizeSteps() error {
	w, c := &sim.ws, &sim.ws.cons
	tol := sim.cfg.NewtonTolerance
	if tol == 0 {
		tol = 1e-12
	}
	if len(c.vlin) != len(w.v0) {
		c.vlin, c.vprev = make([]float64, len(w.v0)), make([]float64, len(w.v0))
	}
	c.relin = true
	defer func() { c.relin = false }()
	for c.iters < sim.cfg.Relinearizations {
		c.iters++
		copy(c.vprev, w.result.V)
		copy(c.vlin, w.result.V)
		if err := sim.linearize(c.vlin); err != nil {
			return err
		}
		sim.vstarAt(c.vlin)
		if err := sim.assembleContacts(); err != nil {
			return err
		}
		if err := sim.assembleConstraints(); err != nil {
			return err
		}
		if err := sim.reduceProblem(); err != nil {
			return err
		}
		if err := sim.solveContacts(); err != nil {
			return err
		}
		sim.expandSolution()
		step, size := 0.0, 0.0
		for i, x := range w.result.V {
			step = max(step, math.Abs(x-c.vprev[i]))
			size = max(size, math.Abs(x))
		}
		if step <= tol*(1+size) {
			break
		}
	}
	return nil
}

// vstarAt sets the problem's v* = v − A⁻¹ m(v), with m(v) = M(v − v0) − δt k
// from the last linearize(v).
func (sim *Simulator) vstarAt(v []float64) {
	w, p, dt := &sim.ws, &sim.ws.problem, sim.cfg.DT
	for _, q := range p.Cliques {
		r := w.res[q.Offset : q.Offset+q.Size]
		blk := w.mass[q.AOff : q.AOff+q.Size*q.Size]
		for i := range q.Size {
			s := 0.0
			for j := range q.Size {
				s += blk[i*q.Size+j] * (v[q.Offset+j] - w.v0[q.Offset+j])
			}
			r[i] = s - dt*w.k[q.Offset+i]
		}
		w.factor.Solve(q, r, 1)
		for i := range q.Size {
			p.VStar[q.Offset+i] = v[q.Offset+i] - r[i]
		}
	}
}

// JointForces sets actuator and other (length NV) to the generalized forces
// of the last step's actuators and of its other constraints (limits,
// couplers, welds, joint friction…), Jᵀγ/δt: what joints.csv reports per
// joint velocity. Contacts are not included. It does not allocate.
func (sim *Simulator) JointForces(actuator, other []float64) {
	clear(actuator[:sim.Model.NV])
	clear(other[:sim.Model.NV])
	sim.lazyRows()
	w := &sim.ws
	if w.cons.set == nil {
		return
	}
	w.cons.asm.GeneralizedForces(&w.problem, w.result.Gamma, sim.cfg.DT, actuator, other)
}

// needsSolve is constraint.Set.NeedsSolve of the step's set at q0, with
// the limits' coordinates kept across steps (constraint.LimitCoords).
func (sim *Simulator) needsSolve(q0 []float64) bool {
	c := &sim.ws.cons
	return c.set.NeedsSolveCached(sim.Model, q0, &c.limits)
}
