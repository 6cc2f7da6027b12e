package sim_test

import (
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// pointMass returns the inertia of a small solid sphere of mass m (radius
// 1 cm) whose centre is at com in the body frame.
func pointMass(m float64, com spatial.Vec3) spatial.SpatialInertia {
	i := 0.4 * m * 1e-4
	return spatial.SpatialInertia{Mass: m, Com: com, Icom: spatial.Diag3(spatial.Vec3{i, i, i})}
}

// at returns a translation.
func at(x, y, z float64) spatial.Pose {
	return spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{x, y, z}}
}

// revolute is a revolute joint about axis, placed at parentFrame.
func revolute(parent int, parentFrame spatial.Pose, axis spatial.Vec3) multibody.Joint {
	return multibody.Joint{Type: multibody.JointRevolute, Parent: parent, ParentFrame: parentFrame, ChildFrame: spatial.PoseIdentity(), Axis: axis}
}

// mustAdd adds a body or fails.
func mustAdd(t testing.TB, m *multibody.Model, name string, in spatial.SpatialInertia, j multibody.Joint) int {
	t.Helper()
	b, err := m.AddBody(name, in, j)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newConstrained returns a simulator of m from s with constraint set set,
// time step dt and scheme sc (no contact geometry), SAP with default
// parameters.
func newConstrained(t testing.TB, m *multibody.Model, s *multibody.State, set *constraint.Set, dt float64, sc sim.Scheme, opts ...func(*sim.Config)) *sim.Simulator {
	t.Helper()
	cfg := sim.Config{DT: dt, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()), Scheme: sc, Constraints: set}
	for _, o := range opts {
		o(&cfg)
	}
	sm, err := sim.New(m, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

// step takes one step, failing on an error or a solve that did not
// converge, and checks SAP's e_m ≤ εr.
func step(t testing.TB, sm *sim.Simulator) sim.StepStats {
	t.Helper()
	st, err := sm.Step()
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != solver.Converged || !st.NewtonConverged {
		t.Fatalf("step %d: solve %v, Newton converged %v", st.Step, st.Status, st.NewtonConverged)
	}
	if st.MomentumError > sap.DefaultParams().RelTolerance {
		t.Fatalf("step %d: e_m = %g > εr", st.Step, st.MomentumError)
	}
	return st
}

// report returns the constraint report called name.
func report(t testing.TB, sm *sim.Simulator, name string) constraint.Report {
	t.Helper()
	for _, r := range sm.ConstraintReports() {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no constraint report %q", name)
	return constraint.Report{}
}

// long reports whether the long variants of the constraint tests run
// (STICTION_LONG=1): finer steps, closer to the papers' ranges.
func long() bool { return os.Getenv("STICTION_LONG") == "1" }

// logSlope returns the least-squares slope of log y against log x.
func logSlope(x, y []float64) float64 {
	lx, ly := make([]float64, len(x)), make([]float64, len(y))
	for i := range x {
		lx[i], ly[i] = math.Log(x[i]), math.Log(y[i])
	}
	return fitSlope(lx, ly)
}

// strconvFormat formats x in shortest round-trip form.
func strconvFormat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
