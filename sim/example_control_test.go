package sim_test

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// ExampleSimulator_SetControl drives a pendulum's joint with a PD actuator
// whose target is set from Go before each step: the target ramps to 1 rad
// over the first second, then holds. The PD force is implicit in the step
// and clamped to the actuator's 20 N·m effort limit. At rest the servo
// torque balances gravity: kp (1 − θ) = m g l sin θ (4.10 N·m at 0.9897 rad).
func ExampleSimulator_SetControl() {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	arm, _ := m.AddBody("arm", spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0, 0, -0.5}, Icom: spatial.Diag3(spatial.Vec3{0.02, 0.02, 0.001})},
		multibody.Joint{Type: multibody.JointRevolute, Parent: -1, ParentFrame: spatial.PoseIdentity(), ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 1, 0}})
	set := &constraint.Set{
		Actuators: []constraint.Actuator{{Name: "servo", Type: constraint.PD, Body: arm, Kp: 400, Kd: 40, Effort: 20}},
		Limits:    []constraint.Limit{{Name: "stop", Body: arm, Lower: -2, Upper: 2}},
	}
	s, err := sim.New(m, m.NewState(), sim.Config{DT: 0.001, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()), Constraints: set})
	if err != nil {
		fmt.Println(err)
		return
	}
	servo := set.ActuatorIndex("servo")
	for s.State.T < 3-1e-9 {
		u, rate := math.Min(s.State.T+0.001, 1), 1.0 // target position and velocity at the end of the step
		if s.State.T+0.001 > 1 {
			rate = 0
		}
		if err := s.SetControl(servo, u, rate); err != nil {
			fmt.Println(err)
			return
		}
		if _, err := s.Step(); err != nil {
			fmt.Println(err)
			return
		}
	}
	for _, r := range s.ConstraintReports() {
		if r.Name == "servo" {
			fmt.Printf("t = %.1f s: angle %.4f rad, servo torque %.3f N·m (%v)\n", s.State.T, s.State.Q[0], r.Impulse[0]/0.001, r.State)
		}
	}
	// Output:
	// t = 3.0 s: angle 0.9897 rad, servo torque 4.100 N·m (active)
}
