package sim

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/solver"
)

// constraintWork is the part of the Workspace that serves constraints,
// actuators, attachments and prescribed motions (Config.Constraints).
type constraintWork struct {
	set      *constraint.Set
	asm      constraint.Assembler
	controls []constraint.Control // the step's actuator inputs
	override []bool               // set from Go by SetControl
	reports  []constraint.Report  // of the last step
	elim     elimination          // attachments and prescribed motions (eliminate.go)
}

// initConstraints validates Config.Constraints against the model and
// prepares the constraint workspace.
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
	c.controls = make([]constraint.Control, len(set.Actuators))
	c.override = make([]bool, len(set.Actuators))
	c.reports = make([]constraint.Report, 0, len(set.Limits)+len(set.Cones)+len(set.Welds)+len(set.Balls)+
		len(set.Distances)+len(set.Couplers)+len(set.Actuators)+len(set.Frictions)+len(set.Attachments)+len(set.Prescribed))
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
// prescribed motions, each list in Config.Constraints order.
func (sim *Simulator) ConstraintReports() []constraint.Report { return sim.ws.cons.reports }

// assembleConstraints evaluates the actuator targets at the end of the
// step and appends the constraint blocks (limits, couplers, actuators,
// joint friction; package constraint) after the contact blocks.
func (sim *Simulator) assembleConstraints() error {
	c, w := &sim.ws.cons, &sim.ws
	if c.set == nil {
		return nil
	}
	t1 := sim.State.T + sim.cfg.DT
	for i := range c.set.Actuators {
		if c.override[i] {
			continue
		}
		c.controls[i] = constraint.Control{}
		if tg := c.set.Actuators[i].Target; tg != nil {
			c.controls[i].U, c.controls[i].Rate = tg.Eval(t1)
		}
	}
	in := constraint.Input{Q0: w.q0, DT: sim.cfg.DT, Controls: c.controls}
	prm := constraint.Params{Beta: sim.cfg.Contact.Beta, Sigma: sim.cfg.Contact.Sigma}
	if err := c.asm.Assemble(sim.Model, c.set, w.kin0, in, prm, &w.factor, &w.problem); err != nil {
		return fmt.Errorf("sim: step %d: %w", sim.step+1, err)
	}
	return nil
}

// constraintStats fills the report of every constraint and the
// constraint fields of st.
func (sim *Simulator) constraintStats(st *StepStats) {
	c, w := &sim.ws.cons, &sim.ws
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
		st.MaxConstraintViolation = math.Max(st.MaxConstraintViolation, r.Violation)
	}
}

// reduceProblem removes attached and prescribed velocities from the problem
// (mechanics notes §0.17–0.21, eliminate.go) when the set has any.
func (sim *Simulator) reduceProblem() error {
	e := &sim.ws.cons.elim
	if !e.on {
		return nil
	}
	e.buildP(sim.Model, sim.ws.kin0, sim.State.T+sim.cfg.DT, sim.cfg.DT)
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
func (sim *Simulator) expandSolution() {
	if e := &sim.ws.cons.elim; e.on {
		e.expand(sim.Model, &sim.ws.problem, &sim.ws.result)
	}
}

// enforceEliminated puts prescribed joints exactly on their motion and
// attached bodies exactly where their masters hold them at the end of the
// step, so that the attachment error stays zero to round-off.
func (sim *Simulator) enforceEliminated() {
	if e := &sim.ws.cons.elim; e.on {
		e.enforce(sim.Model, sim.State, sim.ws.kin, sim.State.T)
	}
}
