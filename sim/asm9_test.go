package sim

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// asm9Sim is a double pendulum under mujoco-euler with MuJoCo's Newton
// (PGSIterations > 0), its shoulder past a limit (a row that acts: no
// direct step) and driven by a motor of gear 3 (an explicit row, lo = hi);
// with damper, the elbow also has an implicit velocity actuator without
// an effort bound, a row MuJoCo's solvers do not take (pgsSetup declines:
// the configured solver, SAP, solves the step).
func asm9Sim(t *testing.T, damper bool) *Simulator {
	t.Helper()
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	in := spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0, 0, -0.25}, Icom: spatial.Diag3(spatial.Vec3{0.004, 0.004, 0.001})}
	up, err := m.AddBody("upper", in, multibody.Joint{Type: multibody.JointRevolute, Parent: -1, ParentFrame: spatial.PoseIdentity(), ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	lowFrame := spatial.PoseIdentity()
	lowFrame.P = spatial.Vec3{0, 0, -0.5}
	if _, err := m.AddBody("lower", in, multibody.Joint{Type: multibody.JointRevolute, Parent: up, ParentFrame: lowFrame, ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 1, 0}}); err != nil {
		t.Fatal(err)
	}
	s := m.NewState()
	copy(s.Q, []float64{0.8, -0.4})
	copy(s.V, []float64{1, 2})
	set := &constraint.Set{
		Limits:    []constraint.Limit{{Name: "stop", Body: 0, Lower: -0.5, Upper: 0.5}},
		Actuators: []constraint.Actuator{{Name: "motor", Type: constraint.Motor, Body: 0, Gear: 3, Target: constraint.Constant(0.3)}},
	}
	if damper {
		set.Actuators = append(set.Actuators, constraint.Actuator{Name: "damper", Type: constraint.Velocity, Body: 1, Kd: 0.2})
	}
	cp := contact.DefaultParams()
	cp.PGSIterations, cp.Newton = 50, true
	sm, err := New(m, s, Config{DT: 0.002, Contact: cp, Solver: sap.New(sap.DefaultParams()), Scheme: MuJoCoEuler, Constraints: set})
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

// TestFixedRFilledForSAP: on a mujoco-euler step whose rows MuJoCo's
// Newton solves, the motor's row keeps the estimate 1's R (its Delassus
// estimate skipped: constraint.Params.FixedRUnread); on one that SAP
// solves (Newton declines the damper's row), the row's R is its Delassus
// estimate's, as an assembly without the skip gives it: the test fails if
// the skip is taken on a step that SAP solves without FillFixedR.
func TestFixedRFilledForSAP(t *testing.T) {
	unit := solver.NearRigidR(1, contact.DefaultParams().Beta)
	for _, damper := range []bool{false, true} {
		sm := asm9Sim(t, damper)
		checked := 0
		for k := range 20 {
			if _, err := sm.Step(); err != nil {
				t.Fatal(err)
			}
			p, c := &sm.ws.problem, &sm.ws.cons
			if sm.ws.mj.direct {
				continue // the limit within its bounds: no solve (directSolution)
			}
			checked++
			if c.asm.FixedRPending() == damper { // filled only for SAP
				t.Fatalf("damper %v, step %d: rows pending after the solve %v", damper, k, !damper)
			}
			r := -1.0
			for _, blk := range p.Constraints {
				if blk.Kind == solver.Interval && p.Params[blk.Par] == p.Params[blk.Par+1] {
					r = p.R[blk.Row]
				}
			}
			if r < 0 {
				t.Fatalf("damper %v, step %d: no explicit row", damper, k)
			}
			if skipped := math.Float64bits(r) == math.Float64bits(unit); skipped == damper {
				t.Fatalf("damper %v, step %d: the motor's R %v (the estimate 1's %v): skip %v", damper, k, r, unit, skipped)
			}
		}
		if checked < 3 {
			t.Fatalf("damper %v: %d steps solved", damper, checked)
		}
	}
}
