package sim

import (
	"fmt"
	"math"
)

// Actuator activations (multibody.State.Act): the state of a stateful
// actuator (constraint.Actuator.Stateful: MuJoCo's muscle and dyntype
// integrator and filter), one entry per
// actuator of Config.Constraints, advanced at the end of every step as
// MuJoCo 2.2.2's mj_advance does: act += δt acṫ with acṫ taken from the
// control and the activation at the start of the step (mj_Euler, and
// mj_implicit), or from the four RK4 stages' activations (mj_RungeKutta:
// the activation's rate depends on the control and the activation alone,
// so its stages are computed here, and each stage's actuator forces take
// the stage's activation, stageActivations). MuJoCo 2.2.2 clamps act only
// for actlimited actuators (constraint.Actuator.ActRange), after the
// update and not in RK4's stages (mj_advance); so do we.

// initActivations sizes State.Act when an actuator has a state (zeros
// when the caller left it nil) and checks a given one.
func (sim *Simulator) initActivations() error {
	set, s := sim.cfg.Constraints, sim.State
	stateful := false
	for i := range set.Actuators {
		stateful = stateful || set.Actuators[i].Stateful()
	}
	switch {
	case !stateful && len(s.Act) == 0:
		s.Act = nil
		return nil
	case s.Act == nil:
		s.Act = make([]float64, len(set.Actuators))
	case len(s.Act) != len(set.Actuators):
		return fmt.Errorf("sim: state has %d activations, the constraint set %d actuators", len(s.Act), len(set.Actuators))
	}
	for i, a := range s.Act {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return fmt.Errorf("sim: state: activation %d (actuator %q) = %v is not finite", i, set.Actuators[i].Name, a)
		}
	}
	sim.ws.cons.act = make([][4]float64, len(s.Act))
	return nil
}

// setActivations gives the step's controls the activations act (the
// state's, or an RK4 stage's).
func (sim *Simulator) setActivations(act []float64) {
	c := &sim.ws.cons
	if len(c.controls) != len(act) {
		return // no constraint set
	}
	for i := range act {
		c.controls[i].Act = act[i]
	}
}

// stageActivations sets the controls' activations to those of RK4 stage i
// (0 for the step's start): act_i = act0 + h Σ_j a_ij F_j with
// F_j = acṫ(u, act_j) (mj_RungeKutta's tableau rk4A, which is diagonal),
// keeping F_0 … F_i in the workspace for advanceActivations. The stages'
// activations depend on the controls and act0 alone, so each call
// computes them from the start.
//
// It is small enough to be inlined, as advanceActivations: a model without
// activations pays a length test at each stage, not a call
// (stageActivationsAt has the rest).
func (sim *Simulator) stageActivations(i int) {
	if len(sim.ws.cons.act) != 0 { // else there is nothing to do: len(State.Act) = 0 or ≠ 0 = len(act)
		sim.stageActivationsAt(i)
	}
}

// stageActivationsAt is stageActivations for a model with activations.
func (sim *Simulator) stageActivationsAt(i int) {
	c, s, h := &sim.ws.cons, sim.State, sim.cfg.DT
	if len(c.act) != len(s.Act) {
		return // no constraint set
	}
	for k := range s.Act {
		a := s.Act[k]
		for j := 0; ; j++ {
			c.act[k][j] = c.set.Actuators[k].ActRate(c.controls[k].U, a)
			if j == i {
				break
			}
			a = s.Act[k] + h*rk4A[j][j]*c.act[k][j]
		}
		c.controls[k].Act = a
	}
}

// advanceActivations ends the step's activations: act += δt F_0 (Euler,
// implicit), or act += δt Σ_j b_j F_j after an RK4 step's stages.
//
// It is small enough to be inlined: a model without activations (most)
// pays a length test, not a call (BENCHMARKS.md, the hundred-and-tenth
// pass: every call of a step is code that the instruction cache must
// hold).
func (sim *Simulator) advanceActivations() {
	if len(sim.ws.cons.act) != 0 { // else there is nothing to do: len(State.Act) = 0 or ≠ 0 = len(act)
		sim.integrateActivations()
	}
}

// integrateActivations is advanceActivations for a model with activations.
func (sim *Simulator) integrateActivations() {
	s, c, h := sim.State, &sim.ws.cons, sim.cfg.DT
	if len(s.Act) == 0 || len(c.act) != len(s.Act) {
		return
	}
	rk4 := sim.scheme.Method == RungeKutta4 && !sim.ws.mj.fallback
	if rk4 {
		sim.stageActivations(3)
		sim.setActivations(s.Act)
	}
	for k := range s.Act {
		ac := &c.set.Actuators[k]
		if !ac.Stateful() {
			continue
		}
		if !rk4 {
			s.Act[k] = ac.ClampAct(s.Act[k] + h*ac.ActRate(c.controls[k].U, s.Act[k]))
			continue
		}
		d := 0.0
		for j, b := range rk4B {
			d += b * c.act[k][j]
		}
		s.Act[k] = ac.ClampAct(s.Act[k] + h*d)
	}
}
