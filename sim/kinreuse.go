package sim

import "math"

// The kinematics at the end of a step, which its statistics need for the
// energies, are the kinematics at the start of the next step, which the
// collision detection and the contact Jacobians need: both are kept in
// kin0, computed once. The state (q, v) they were computed at is kept too,
// so that a state changed between the steps (Restore, a caller writing
// State) is noticed and its kinematics computed afresh.
type kinKey struct {
	valid bool
	q, v  []float64 // the state kin0 was last updated at (copies)
	vref  []float64 // the velocity slice passed to that update (kin0 keeps it)
}

// endKinematics updates kin0 to the current state and remembers the state.
func (sim *Simulator) endKinematics() {
	sim.lazyRows() // before kin0 leaves q0 (deferRows)
	w, s := &sim.ws, sim.State
	w.kin0.Update(s.Q, s.V)
	k := &w.kinAt
	k.q = append(k.q[:0], s.Q...)
	k.v = append(k.v[:0], s.V...)
	k.vref, k.valid = s.V, true
}

// startKinematics makes kin0 hold the kinematics at the current state,
// updating it unless it already does (bit for bit the same q and v, and the
// same velocity slice: Update is a function of them).
func (sim *Simulator) startKinematics() {
	w, s := &sim.ws, sim.State
	if k := &w.kinAt; k.valid && sameSlice(k.vref, s.V) && sameBits(k.q, s.Q) && sameBits(k.v, s.V) {
		return
	}
	w.kinAt.valid = false
	w.kin0.Update(s.Q, s.V)
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, x := range a {
		if math.Float64bits(x) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// sameSlice reports whether a and b are the same slice (same first element
// and length).
func sameSlice(a, b []float64) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
