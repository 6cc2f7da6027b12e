package record

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// BodyState is the final state of one free body, world frame.
type BodyState struct {
	Body            string     `json:"body"`
	Position        [3]float64 `json:"position"`
	Quaternion      [4]float64 `json:"quaternion"` // w, x, y, z
	LinearVelocity  [3]float64 `json:"linear_velocity"`
	AngularVelocity [3]float64 `json:"angular_velocity"`
}

// Summary is the content of summary.json.
type Summary struct {
	Scene                    string      `json:"scene"`
	Steps                    int         `json:"steps"`
	DT                       float64     `json:"dt"`
	SimTime                  float64     `json:"sim_time"`
	WallTimeS                float64     `json:"wall_time_s"`
	RealTimeFactor           float64     `json:"real_time_factor"`
	IterationsMean           float64     `json:"iterations_mean"`
	IterationsMax            int         `json:"iterations_max"`
	LineSearchIterationsMean float64     `json:"line_search_iterations_mean"`
	MomentumErrorMax         float64     `json:"momentum_error_max"`
	ComplementarityErrorMax  float64     `json:"complementarity_error_max"`
	PenetrationMax           float64     `json:"penetration_max"`
	ContactsMean             float64     `json:"contacts_mean"`
	ContactsMax              int         `json:"contacts_max"`
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

// Accumulator gathers step statistics into a Summary.
type Accumulator struct {
	s                       Summary
	iterSum, lsSum, contSum float64
}

// Add accounts for one step.
func (a *Accumulator) Add(st sim.StepStats) {
	s := &a.s
	s.Steps++
	s.SimTime = st.T
	a.iterSum += float64(st.Iterations)
	a.lsSum += float64(st.LineSearchIterations)
	a.contSum += float64(st.Contacts)
	s.IterationsMax = max(s.IterationsMax, st.Iterations)
	s.ContactsMax = max(s.ContactsMax, st.Contacts)
	s.MomentumErrorMax = math.Max(s.MomentumErrorMax, st.MomentumError)
	s.ComplementarityErrorMax = math.Max(s.ComplementarityErrorMax, st.ComplementarityError)
	s.PenetrationMax = math.Max(s.PenetrationMax, st.MaxPenetration)
	if st.Status != solver.Converged || !st.NewtonConverged { // contact solve or implicit free motion
		s.FailedSteps++
	}
}

// Summary returns the summary so far, with the final body states of s, the
// scene name, the time step and the wall time in seconds.
func (a *Accumulator) Summary(scene string, dt, wall float64, m *multibody.Model, st *multibody.State) Summary {
	s := a.s
	s.Scene, s.DT, s.WallTimeS = scene, dt, wall
	if s.Steps > 0 {
		n := float64(s.Steps)
		s.IterationsMean, s.LineSearchIterationsMean, s.ContactsMean = a.iterSum/n, a.lsSum/n, a.contSum/n
	}
	if wall > 0 {
		s.RealTimeFactor = s.SimTime / wall
	}
	s.Final = FinalStates(m, st)
	for _, b := range s.Final {
		s.FinalMaxSpeed = math.Max(s.FinalMaxSpeed, spatial.Vec3(b.LinearVelocity).Norm())
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
