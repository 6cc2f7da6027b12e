package sim_test

import (
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// pressedPendulum is doublePendulum's model with a ball of radius 0.05 at
// the lower link's end (0.6 m from its joint) pressed 2 cm into a ground
// half-space, with scheme sc and the constraint set and force elements
// that opt gives.
func pressedPendulum(t *testing.T, sc sim.Scheme, opt func(*sim.Config)) *sim.Simulator {
	m := &multibody.Model{}
	in := func(mass, l, i float64) spatial.SpatialInertia {
		return spatial.SpatialInertia{Mass: mass, Com: spatial.Vec3{0, 0, -l}, Icom: spatial.Diag3(spatial.Vec3{i, i, 0.001})}
	}
	up := mustAdd(t, m, "upper", in(1, 0.25, 0.004), revolute(-1, spatial.PoseIdentity(), spatial.Vec3{0, 1, 0}))
	low := mustAdd(t, m, "lower", in(0.7, 0.3, 0.003), revolute(up, at(0, 0, -0.5), spatial.Vec3{0, 1, 0}))
	ground := m.AddWeldedBody("ground", at(0, 0, -0.93))
	for _, g := range []struct {
		b int
		s geometry.Shape
		x spatial.Pose
	}{{ground, geometry.NewHalfSpace(), spatial.PoseIdentity()}, {low, geometry.NewSphere(0.05), at(0, 0, -0.6)}} {
		if _, err := m.AddGeometry(g.b, g.s, g.x, 0); err != nil {
			t.Fatal(err)
		}
	}
	s := m.NewState()
	copy(s.Q, []float64{0.8, -0.4})
	m.Gravity = spatial.Vec3{0, 0, -mjG}
	cfg := sim.Config{DT: mjH, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()), Scheme: sc,
		Materials: []contact.Material{{Stiffness: 1e5, Dissipation: 0.01, Friction: 0.5}}}
	opt(&cfg)
	sm, err := sim.New(m, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

// TestContactStepActuatorIsForce: in steps of MuJoCo's Euler and RK4 that
// solve contacts (a ball on the lower link pressed into the ground), a
// motor (u = 0.3, gear 2) on the shoulder is the generalized force 0.6 in
// the free motion, as MuJoCo's qfrc_actuator, not a row: the trajectory is
// that of the same pendulum with the torque as a force element
// (forces.JointMotor) and no actuator, to the bit (with the motor a row of
// impulse bounds [0.3 δt, 0.3 δt] it differs in the last bits), and the
// motor's report carries its impulse 0.3 δt in one row.
func TestContactStepActuatorIsForce(t *testing.T) {
	motor := func(c *sim.Config) {
		c.Constraints = &constraint.Set{Actuators: []constraint.Actuator{
			{Name: "motor", Type: constraint.Motor, Body: 0, Gear: 2, Target: constraint.Constant(0.3)}}}
	}
	torque := func(c *sim.Config) {
		c.Forces = []forces.Element{&forces.JointMotor{Body: 0, Torque: []float64{0.6}, Profile: forces.Profile{Offset: 1}}}
	}
	for _, sc := range []sim.Scheme{sim.MuJoCoEuler, sim.RK4} {
		a, b := pressedPendulum(t, sc, motor), pressedPendulum(t, sc, torque)
		touching := 0
		for k := 1; k <= 50; k++ {
			if _, err := a.Step(); err != nil {
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
			if len(a.Contacts()) > 0 {
				touching++
			}
			for _, r := range a.ConstraintReports() {
				if r.Name == "motor" && (r.Impulse[0] != 0.3*mjH || r.Rows != 1 || r.State != constraint.Active) {
					t.Fatalf("%v step %d: motor report %+v, want impulse δt·0.3 in one row", sc.Method, k, r)
				}
			}
		}
		if touching < 10 {
			t.Fatalf("%v: %d of 50 steps in contact, want 10 or more", sc.Method, touching)
		}
	}
}
