package sim

import "github.com/stiction-sim/stiction/solver"

// StepStats are the statistics of one time step.
type StepStats struct {
	Step int     // 1-based index of the step
	T    float64 // time at the end of the step
	solver.Stats
	Contacts        int     // contact points in the problem
	MaxPenetration  float64 // max(0, −φ0) over the step's contacts, m
	MaxSlip         float64 // largest tangential contact speed ‖v_t‖ among contacts that push (γn > 0), m/s
	KineticEnergy   float64 // ½ vᵀ M v at the end of the step, J
	PotentialEnergy float64 // gravitational potential energy at the end of the step, J
}
