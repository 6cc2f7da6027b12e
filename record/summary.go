package record

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// The values of Summary.Status.
const (
	StatusOK          = "ok"          // every step converged
	StatusFailedSteps = "failed"      // the run ended, but some steps did not converge (FailedSteps > 0)
	StatusDiverged    = "diverged"    // stopped at a non-finite state or an energy blow-up (StatusStep)
	StatusInvalid     = "invalid"     // stopped at a physically invalid step (record.Validity; StatusStep)
	StatusInterrupted = "interrupted" // stopped by a signal after StatusStep steps
	StatusError       = "error"       // a step could not be taken (Message)
)

// BodyState is the final state of one free body, world frame.
type BodyState struct {
	Body            string     `json:"body"`
	Position        [3]float64 `json:"position"`
	Quaternion      [4]float64 `json:"quaternion"` // w, x, y, z
	LinearVelocity  [3]float64 `json:"linear_velocity"`
	AngularVelocity [3]float64 `json:"angular_velocity"`
}

// Summary is the content of summary.json. Non-finite numbers are written as
// null (see MarshalJSON).
type Summary struct {
	Scene  string `json:"scene"`
	Status string `json:"status"` // one of the Status constants
	// StatusStep is the step at which a run diverged, failed or was
	// interrupted (0 for StatusOK and StatusFailedSteps).
	StatusStep int `json:"status_step,omitempty"`
	// Message says why the run stopped early.
	Message string `json:"message,omitempty"`
	// Solver, Approximation and Scheme name the contact solver
	// (solver.type), the contact approximation and the integrator.
	Solver        string  `json:"solver,omitempty"`
	Approximation string  `json:"approximation,omitempty"`
	Scheme        string  `json:"scheme,omitempty"`
	Steps         int     `json:"steps"`
	DT            float64 `json:"dt"`
	SimTime       float64 `json:"sim_time"`
	WallTimeS     float64 `json:"wall_time_s"` // time spent stepping, s
	// WriteTimeS is the time spent formatting and writing output files, on
	// the writer's goroutine, s.
	WriteTimeS               float64     `json:"write_time_s"`
	RealTimeFactor           float64     `json:"real_time_factor"` // SimTime / WallTimeS
	IterationsMean           float64     `json:"iterations_mean"`
	IterationsMax            int         `json:"iterations_max"`
	LineSearchIterationsMean float64     `json:"line_search_iterations_mean"`
	MomentumErrorMax         float64     `json:"momentum_error_max"`
	ComplementarityErrorMax  float64     `json:"complementarity_error_max"`
	PenetrationMax           float64     `json:"penetration_max"`
	ContactsMean             float64     `json:"contacts_mean"`
	ContactsMax              int         `json:"contacts_max"`
	FinalKineticEnergy       float64     `json:"final_kinetic_energy"`
	FinalMaxSpeed            float64     `json:"final_max_speed"`
	FailedSteps              int         `json:"failed_steps"`
	Final                    []BodyState `json:"final"`
	// Constraint statistics (runs with constraints or actuators only):
	// the largest constraint error, the number of steps in which some
	// constraint was saturated (an actuator at its effort limit, joint
	// friction sliding), and per constraint its statistics.
	ConstraintViolationMax float64             `json:"constraint_violation_max,omitempty"`
	SaturatedSteps         int                 `json:"saturated_steps,omitempty"`
	Constraints            []ConstraintSummary `json:"constraints,omitempty"`
}

// MarshalJSON writes the summary with non-finite numbers as null (JSON has
// no NaN or infinity), so that a diverged run still gets its summary.
func (s Summary) MarshalJSON() ([]byte, error) { return marshalNullable(s) }

// Accumulator gathers step statistics into a Summary. Its fields are
// exported so that a run checkpoint can save and restore it; use Add and
// Summary rather than the fields.
type Accumulator struct {
	Sum                     Summary // the statistics so far
	IterSum, LSSum, ContSum float64 // sums for the means
}

// Add accounts for one step. A step is failed when its contact solve or its
// implicit free motion did not converge, or its momentum error e_m is not
// finite (a non-finite e_m is never a converged step). Maxima propagate NaN
// and infinity, so that a diverged run shows in them.
func (a *Accumulator) Add(st sim.StepStats) {
	s := &a.Sum
	s.Steps++
	s.SimTime = st.T
	a.IterSum += float64(st.Iterations)
	a.LSSum += float64(st.LineSearchIterations)
	a.ContSum += float64(st.Contacts)
	s.IterationsMax = max(s.IterationsMax, st.Iterations)
	s.ContactsMax = max(s.ContactsMax, st.Contacts)
	s.MomentumErrorMax = max(s.MomentumErrorMax, st.MomentumError) // max propagates NaN, math.Max too
	s.ComplementarityErrorMax = max(s.ComplementarityErrorMax, st.ComplementarityError)
	s.PenetrationMax = max(s.PenetrationMax, st.MaxPenetration)
	if !StepConverged(st) {
		s.FailedSteps++
	}
}

// StepConverged reports whether a step's contact solve and implicit free
// motion converged with a finite momentum error.
func StepConverged(st sim.StepStats) bool {
	return st.Status == solver.Converged && st.NewtonConverged && finite(st.MomentumError)
}

// Summary returns the summary so far, with the final body states of st,
// the scene name, the time step and the stepping wall time in seconds.
// Status is StatusOK or StatusFailedSteps; a run that stopped early sets
// Status, StatusStep and Message itself.
func (a *Accumulator) Summary(scene string, dt, wall float64, m *multibody.Model, st *multibody.State) Summary {
	s := a.Sum
	s.Scene, s.DT, s.WallTimeS = scene, dt, wall
	s.Status = StatusOK
	if s.FailedSteps > 0 {
		s.Status = StatusFailedSteps
	}
	if s.Steps > 0 {
		n := float64(s.Steps)
		s.IterationsMean, s.LineSearchIterationsMean, s.ContactsMean = a.IterSum/n, a.LSSum/n, a.ContSum/n
	}
	if wall > 0 {
		s.RealTimeFactor = s.SimTime / wall
	}
	s.FinalKineticEnergy = m.KineticEnergy(st)
	s.Final = FinalStates(m, st)
	for _, b := range s.Final {
		s.FinalMaxSpeed = max(s.FinalMaxSpeed, spatial.Vec3(b.LinearVelocity).Norm())
	}
	return s
}

// FinalStates returns the state of every free body.
func FinalStates(m *multibody.Model, st *multibody.State) []BodyState {
	var out []BodyState
	for b, body := range m.Bodies {
		if body.Tree < 0 {
			continue
		}
		x := m.BodyPose(st, b)
		w, v := m.BodyVelocity(st, b)
		out = append(out, BodyState{Body: body.Name, Position: x.P, Quaternion: [4]float64{x.R.W, x.R.X, x.R.Y, x.R.Z}, LinearVelocity: v, AngularVelocity: w})
	}
	return out
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
