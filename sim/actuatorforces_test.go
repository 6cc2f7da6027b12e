package sim_test

import (
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/sim"
)

// TestSolvedStepActuatorIsForce: in steps of MuJoCo's Euler and RK4 that
// solve a row (a soft limit past its bound on the elbow), a motor
// (u = 0.3, gear 2) on the shoulder is the generalized force 0.6 in the
// free motion, as MuJoCo's qfrc_actuator: the trajectory is that of the
// same pendulum with the torque as a force element (forces.JointMotor) and
// no actuator, to the bit, and the motor's report carries its impulse
// δt·0.6.
func TestSolvedStepActuatorIsForce(t *testing.T) {
	mj := constraint.Compliance{SolRef: constraint.DefaultSolRef, SolImp: constraint.DefaultSolImp}
	limit := constraint.Limit{Name: "elbow", Body: 1, Lower: -0.2, Upper: 3, Compliance: mj} // q = −0.4: past its bound
	motor := func(c *sim.Config) {
		c.Constraints = &constraint.Set{Limits: []constraint.Limit{limit},
			Actuators: []constraint.Actuator{{Name: "motor", Type: constraint.Motor, Body: 0, Gear: 2, Target: constraint.Constant(0.3)}}}
	}
	torque := func(c *sim.Config) {
		c.Constraints = &constraint.Set{Limits: []constraint.Limit{limit}}
		c.Forces = []forces.Element{&forces.JointMotor{Body: 0, Torque: []float64{0.6}, Profile: forces.Profile{Offset: 1}}}
	}
	free := func(c *sim.Config) { // the motor without the limit: no row
		motor(c)
		c.Constraints.Limits = nil
	}
	for _, sc := range []sim.Scheme{sim.MuJoCoEuler, sim.RK4} {
		a, b, c := doublePendulum(t, sc, mjH, motor), doublePendulum(t, sc, mjH, torque), doublePendulum(t, sc, mjH, free)
		for k := 1; k <= 50; k++ {
			if _, err := a.Step(); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Step(); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Step(); err != nil {
				t.Fatal(err)
			}
			for i := range a.State.V {
				if a.State.Q[i] != b.State.Q[i] || a.State.V[i] != b.State.V[i] {
					t.Fatalf("%v step %d: q %v v %v with the motor, q %v v %v with the force", sc.Method, k, a.State.Q, a.State.V, b.State.Q, b.State.V)
				}
			}
			for _, r := range a.ConstraintReports() {
				if r.Name == "motor" && (r.Impulse[0] != 0.3*mjH || r.Rows != 1 || r.State != constraint.Active) {
					t.Fatalf("%v step %d: motor report %+v, want impulse δt·0.3 in one row", sc.Method, k, r)
				}
			}
		}
		if a.State.Q[1] == c.State.Q[1] {
			t.Fatalf("%v: the limit never acted (q %v with it and without): the steps solved no row", sc.Method, a.State.Q)
		}
	}
}
