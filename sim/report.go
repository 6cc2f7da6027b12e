package sim

import (
	"math"

	"github.com/stiction-sim/stiction/contact"
)

// stats gathers the statistics of the step just taken.
func (sim *Simulator) stats() StepStats {
	w := &sim.ws
	st := StepStats{
		Step:            sim.step,
		T:               sim.State.T,
		Stats:           w.result.Stats,
		Contacts:        len(w.pairs),
		KineticEnergy:   sim.Model.KineticEnergy(sim.State),
		PotentialEnergy: sim.Model.PotentialEnergy(sim.State),
	}
	for i, pr := range w.pairs {
		st.MaxPenetration = math.Max(st.MaxPenetration, -pr.Phi)
		if w.result.Gamma[3*i+2] > 0 {
			st.MaxSlip = math.Max(st.MaxSlip, math.Hypot(w.result.VC[3*i], w.result.VC[3*i+1]))
		}
	}
	return st
}

// Contacts returns the contact pairs of the last step (valid until the next
// Step).
func (sim *Simulator) Contacts() []contact.Pair { return sim.ws.pairs }

// Impulses returns the contact impulses γ of the last step, (t1, t2, n) per
// contact in the order of Contacts (valid until the next Step).
func (sim *Simulator) Impulses() []float64 { return sim.ws.result.Gamma }
