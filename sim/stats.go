package sim

import "github.com/stiction-sim/stiction/solver"

// StepStats are the statistics of one time step.
type StepStats struct {
	Step int     // 1-based index of the step
	T    float64 // time at the end of the step
	// Stats are the contact solve's: every step reports its momentum
	// error e_m (SAP eq. 32). A step whose problem has no constraint rows
	// (no contact, no acting constraint) is solved without the solver,
	// v = v*, and reports e_m = 0, which is then exact, with no iteration
	// (freeSolution); a MuJoCo-integrator step whose rows do not act
	// reports the same (directSolution).
	solver.Stats
	Contacts        int     // contact points in the problem
	MaxPenetration  float64 // max(0, −φ0) over the step's contacts, m
	MaxSlip         float64 // largest tangential contact speed ‖v_t‖ among contacts that push (γn > 0), m/s
	KineticEnergy   float64 // ½ vᵀ M v at the end of the step, J
	PotentialEnergy float64 // gravity and spring potential energy at the end of the step, J
	// NewtonIterations is the number of Newton iterations on the free-motion
	// velocities (0 for explicit schemes); NewtonConverged reports whether
	// they met Config.NewtonTolerance.
	NewtonIterations int
	NewtonConverged  bool
	// Constraints counts the constraints of Config.Constraints in the step,
	// ActiveConstraints those active and SaturatedConstraints those at an
	// effort or friction limit (constraint.State); MaxConstraintViolation
	// is the largest constraint error |g(q0)| among them (m or rad).
	Constraints            int
	ActiveConstraints      int
	SaturatedConstraints   int
	MaxConstraintViolation float64
	// Relinearizations is the number of times the step was linearized again
	// at its solution (Config.Relinearizations).
	Relinearizations int
	// RK4Fallback reports that an rk4 step had contacts or acting
	// constraints together with attachments or prescribed motions, and was
	// taken with mujoco-euler (see RK4).
	RK4Fallback bool
	// SleepingBodies and SleepingIslands count the bodies and islands that
	// sleep after the step (contact.Params.Sleep); the step's e_m is then
	// the larger of its solve's and the sleeping islands' last solves'.
	SleepingBodies, SleepingIslands int
	// Substeps is the number of substeps the step was taken in
	// (contact.Params.SubstepTolerance): 1 unless fast rotation in contact
	// split it.
	Substeps int
	// Times are the wall times of the step's stages (Config.Profile; zero
	// otherwise).
	Times StepTimes
}
