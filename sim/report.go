package sim

import (
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/internal/fmath"
)

// stats gathers the statistics of the step just taken.
func (sim *Simulator) stats() StepStats {
	w := &sim.ws
	pe := sim.potentialEnergy() // updates kin0 to the new state, which the next step starts from
	st := StepStats{
		Step:             sim.step,
		T:                sim.State.T,
		Stats:            w.result.Stats,
		Contacts:         len(w.pairs),
		KineticEnergy:    w.kin0.KineticEnergy(),
		PotentialEnergy:  pe,
		NewtonIterations: w.newton,
		NewtonConverged:  w.conv,
		RK4Fallback:      w.mj.fallback,
	}
	sim.constraintStats(&st)
	if s := &sim.sleep; s.any { // a sleeping island's e_m is that of its last solve
		st.MomentumError = max(st.MomentumError, s.maxEM)
		st.SleepingBodies, st.SleepingIslands = s.bodies, s.islands
	}
	for i := range w.pairs {
		pr := &w.pairs[i] // not a copy of the whole Pair per contact
		st.MaxPenetration = max(st.MaxPenetration, -(pr.Phi + pr.Standoff))
		if w.result.Gamma[3*i+2] > 0 {
			st.MaxSlip = max(st.MaxSlip, fmath.Hypot(w.result.VC[3*i], w.result.VC[3*i+1]))
		}
	}
	return st
}

// potentialEnergy returns the stored energy of every force element (gravity
// and springs) at the current state, from the kinematics kin0 at it (kept
// for the next step's detectContacts, endKinematics).
func (sim *Simulator) potentialEnergy() float64 {
	w := &sim.ws
	sim.endKinematics()
	w.ctx.WS = w.kin0
	w.ctx.Q, w.ctx.V, w.ctx.T = sim.State.Q, sim.State.V, sim.State.T
	e := 0.0
	for _, el := range w.elems {
		e += el.PotentialEnergy(&w.ctx)
	}
	return e
}

// Contacts returns the contact pairs of the last step (valid until the next
// Step).
func (sim *Simulator) Contacts() []contact.Pair { return sim.ws.pairs }

// Impulses returns the contact impulses γ of the last step, (t1, t2, n) per
// contact in the order of Contacts (valid until the next Step).
func (sim *Simulator) Impulses() []float64 { sim.lazyRows(); return sim.ws.result.Gamma }

// ContactVelocities returns the constraint velocities v_c = J v of the last
// step's solve, (t1, t2, n) per contact in the order of Contacts first
// (valid until the next Step).
func (sim *Simulator) ContactVelocities() []float64 { sim.lazyRows(); return sim.ws.result.VC }

// PotentialEnergy returns the potential energy (gravity and springs) of the
// current state.
func (sim *Simulator) PotentialEnergy() float64 { return sim.potentialEnergy() }
